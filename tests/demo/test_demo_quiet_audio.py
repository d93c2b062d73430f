"""The window keeps libasound and OpenAL Soft quiet when there is no sound card."""

from __future__ import annotations

import subprocess
import sys

OPEN_DRIVER = """
import sys
if sys.argv[1] == "quiet":
    from soundscape.demo_world.quiet_audio import quiet_audio_libraries
    quiet_audio_libraries()
import pyglet
pyglet.options["headless"] = True
pyglet.options["audio"] = ("openal", "silent")
import pyglet.media
driver = pyglet.media.get_audio_driver()
print(type(driver).__module__)
"""


def _open_driver(mode: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", OPEN_DRIVER, mode], capture_output=True,
                          text=True, timeout=60, check=True)


def test_opening_the_audio_driver_prints_nothing_on_stderr():
    loud, quiet = _open_driver("loud"), _open_driver("quiet")
    # Both pick the same driver (OpenAL with a card, pyglet's silent one without).
    assert quiet.stdout == loud.stdout and quiet.stdout.strip()
    assert "ALSA lib" not in quiet.stderr and "AL lib" not in quiet.stderr
    assert quiet.stderr.strip() == ""
