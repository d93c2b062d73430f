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


def test_the_readme_says_what_it_is_gives_two_commands_ten_lines_and_the_figures():
    text = README.read_text(encoding="utf-8")
    intro = text[:text.index("## ")]
    assert "esper" in intro and "pyglet" in intro and "Asheron's Call" in intro
    commands = text[text.index("## Two commands"):]
    commands = re.search(r"```sh\n(.*?)```", commands, re.S).group(1)
    assert [line.split()[:2] for line in commands.splitlines()] == [["make", "demo"],
                                                                   ["make", "test"]]
    assert len([line for line in _example().splitlines() if line.strip()]) <= 10
    table = text[text.index("## Benchmarks"):]
    for figure, target in (("ac_rebuild_ms", 0.5), ("ac_playback_us_per_tick", 20.0)):
        row = re.search(rf"^\| `{figure}` \| ([0-9.,]+) \|", table, re.M)
        assert row is not None, figure
        assert float(row.group(1).replace(",", "")) < target  # the target is met
    for figure in ("mixer_realtime_factor_32", "mixer_block_us"):
        assert re.search(rf"^\| `{figure}` \| [0-9.,]+ \|", table, re.M), figure
    assert "bench.json" in table and "`name: value`" in table
