"""``Settings.backend = "auto"`` is the default: pyglet's real driver when one opens,
pyglet's silent driver otherwise, and no display is ever needed to import
soundscape or install the plugin."""

from __future__ import annotations

import ctypes.util
import os
import subprocess
import sys
import textwrap

import esper
import numpy as np
import pytest

from soundscape import Settings, SoundscapePlugin
from soundscape.audio import backend_pyglet
from soundscape.audio.mixer import Mixer
from soundscape.audio.wav import read_wav
from soundscape.clock import Clock
from soundscape.events import EventLog


def test_auto_is_the_default_and_offline_only_when_asked():
    assert Settings().backend == "auto"
    assert SoundscapePlugin().settings.backend == "auto"
    with pytest.raises(ValueError, match="Settings.backend"):
        Settings(backend="openal")


def test_auto_without_a_device_is_pyglets_silent_driver_and_keeps_no_audio():
    # conftest forces pyglet's silent driver: what a machine with no sound card gets
    plugin = SoundscapePlugin(Settings(features=("audio",))).install()
    for _ in range(10):
        esper.process(1 / 60)
    backend = plugin.mixer.backend
    assert isinstance(backend, backend_pyglet.PygletBackend)
    assert backend.driver_name == "silent"
    assert not hasattr(backend, "audio")  # nothing kept in memory, unlike "offline"
    warnings = plugin.events.where(source="mixer", event="warning")
    assert [w["driver"] for w in warnings] == ["silent"]
    plugin.uninstall()


def test_auto_falls_back_when_pyglet_media_cannot_load_but_pyglet_raises(monkeypatch):
    def broken() -> None:
        raise ImportError("libasound.so.2: cannot open shared object file")

    monkeypatch.setattr(backend_pyglet, "import_media", broken)
    log = EventLog(Clock())
    backend = backend_pyglet.PygletBackend(Mixer(), events=log, fallback=True)
    assert backend.player is None and backend.driver_name == "none"
    (warning,) = log.where(event="warning")
    assert "pyglet.media cannot be loaded" in warning["reason"]
    backend.close()
    with pytest.raises(ImportError):
        backend_pyglet.PygletBackend(Mixer(), events=log)  # "pyglet" asked for it


NO_DISPLAY_GAME = textwrap.dedent('''
    import sys
    import time
    import esper
    import soundscape
    from soundscape import Settings, SoundscapePlugin, synth
    from soundscape.components import Emitter, Listener, Position

    plugin = SoundscapePlugin(Settings(seed=1)).install()  # every feature, backend "auto"
    synth.add_to(plugin.sounds, "hum", synth.tone(330.0, 1.0, rate_hz=48000), 48000)
    esper.create_entity(Position(0.0, 0.0, 0.0), Listener(heading_rad=0.0))
    esper.create_entity(Position(2.0, 0.0, 0.0), Emitter("hum", max_distance_m=40.0))
    backend = plugin.mixer.backend
    print("driver", backend.driver_name, flush=True)
    print("playing", backend.player is not None and backend.player.playing, flush=True)
    esper.process(1 / 60)  # the hum's voice is published from here on
    start = plugin.mixer.frames_rendered
    for _ in range(900):  # until the device has pulled 1 s more (bounded: 900 frames)
        if plugin.mixer.frames_rendered - start >= 48000:
            break
        time.sleep(1 / 60)  # a real device pulls in real time: this is the game's frame
        esper.process(1 / 60)
    print("rendered", plugin.mixer.frames_rendered, flush=True)
    print("window", "pyglet.window" in sys.modules, flush=True)
    plugin.uninstall()
''')


@pytest.mark.skipif(ctypes.util.find_library("openal") is None, reason="libopenal1 missing")
def test_no_display_the_default_opens_the_real_driver(tmp_path):
    capture = tmp_path / "capture.wav"
    conf = tmp_path / "alsoft.conf"
    conf.write_text("[general]\ndrivers = wave\nfrequency = 48000\nchannels = stereo\n"
                    f"sample-type = float32\n[wave]\nfile = {capture}\n")
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "PYGLET_HEADLESS")}
    env["ALSOFT_CONF"] = str(conf)
    done = subprocess.run([sys.executable, "-c", NO_DISPLAY_GAME], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "NoSuchDisplayException" not in done.stderr
    lines = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    assert lines["driver"] == "openal" and lines["playing"] == "True"
    assert lines["window"] == "False"  # pyglet's window module was never imported
    assert int(lines["rendered"]) >= 48000
    heard = read_wav(capture).samples
    assert heard.shape[1] == 2 and np.abs(heard).max() > 0.05  # the hum reached the device
