"""The README's "Adding soundscape to a game" example runs as written.

Only the two lines that hand control to pyglet's event loop are left out, and the
output is the offline backend instead of the sound card, so the test can step the
clock and listen to what the example plays.
"""

from __future__ import annotations

import re
from pathlib import Path

import esper
import numpy as np

README = Path(__file__).resolve().parents[2] / "README.md"
REGION = Path(__file__).resolve().parents[2] / "demo_world" / "data" / "region.toml"


def _example() -> str:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Adding soundscape to a game"):]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_readme_example_plays_its_fountain_and_loads_a_region(tmp_path, monkeypatch):
    code = _example()
    assert "pyglet.app.run()" in code and 'backend="pyglet"' in code
    code = code.replace('backend="pyglet"', 'backend="offline"')
    code = code.replace("pyglet.clock.schedule_interval(esper.process, 1 / 60)\n", "")
    code = code.replace("pyglet.app.run()\n", "")
    (tmp_path / "region.toml").write_text(REGION.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    scope: dict[str, object] = {}
    exec(compile(code, str(README), "exec"), scope)
    plugin = scope["plugin"]
    for _ in range(30):
        esper.process(1 / 60)
    starts = plugin.events.where(source="modern", event="start", sound="fountain")
    assert len(starts) == 1
    audio = plugin.mixer.backend.audio()
    assert audio.shape == (30 * 800, 2)
    left, right = np.abs(audio).mean(axis=0)
    assert left > 0.0 and right > left  # the fountain is to the listener's right (east)
    assert plugin.ac.region is not None
    plugin.uninstall()
