"""The README's "Adding soundscape to a game" example runs as written, in an empty folder.

The code is executed unchanged in a fresh temporary folder (nothing copied in:
the meadow region and its sounds come with soundscape). Only ``pyglet.app.run``
is replaced by pyglet's own clock on a virtual time source (``virtual_clock`` in
``tests/conftest.py``), which calls the scheduled ``esper.process`` 60 times a
game second without a window; the output is the default backend (``"auto"``:
pyglet's silent driver in the tests, whose stream the test pulls itself).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np

README = Path(__file__).resolve().parents[2] / "README.md"


def _example() -> str:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Adding soundscape to a game"):]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_readme_example_runs_as_written_in_an_empty_folder(tmp_path, monkeypatch,
                                                               virtual_clock):
    code = _example()
    assert "backend=" not in code  # the default, as a new user writes it
    monkeypatch.chdir(tmp_path)
    import pyglet.app

    app = sys.modules["pyglet.app"]  # the module itself, not pyglet's lazy proxy
    monkeypatch.setattr(app, "run", lambda *args, **kwargs: virtual_clock.run(5.0))
    scope: dict[str, object] = {"__name__": "__main__"}
    try:
        exec(compile(code, str(README), "exec"), scope)
        check_the_game(scope["plugin"], tmp_path)
    finally:
        pyglet.clock.unschedule(scope["esper"].process)
        if "plugin" in scope:
            scope["plugin"].uninstall()


def check_the_game(plugin, folder: Path) -> None:
    assert list(folder.iterdir()) == []  # it needed no file and wrote none
    assert plugin.clock.tick == 300
    events = plugin.events
    (start,) = events.where(source="modern", event="start", sound="fountain")
    assert start["pan"] > 0.0  # the fountain is to the listener's right (east)
    # the meadow under the listener: the constant wind re-fired every 4 s, and birds
    winds = events.where(source="ac", event="play", sound="meadow_wind")
    assert winds[0]["tick"] == 1 and winds[0]["gain"] > 0.0
    assert abs(winds[1]["t"] - winds[0]["t"] - 4.0) <= 1 / 60  # min_rate 4 s
    assert events.where(source="ac", event="play", sound="meadow_bird")
    assert not events.where(source="sounds", event="missing")  # every sound it names exists
    backend = plugin.mixer.backend
    backend.player.pause()  # pull the stream as the driver does
    packet = backend.source.get_audio_data(8 * 48_000, 0.0)
    audio = np.frombuffer(packet.data, dtype=np.float32).reshape(-1, 2)
    assert audio.shape == (48_000, 2) and np.abs(audio).max() > 0.05  # heard, not silence


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
