"""examples/fountain_walk.py: the README's game with a window, run headless for 5 s."""

from __future__ import annotations

import math

import esper
import numpy as np
import pytest
from examples_loader import load_example, window_pixels

from soundscape import Settings
from soundscape.components import Listener, Position

example = load_example("fountain_walk")


def test_the_walk_plays_the_fountain_on_the_left_and_the_meadow(tmp_path):
    game = example.FountainWalk(Settings(seed=1, backend="offline"), headless=True)
    try:
        game.run_headless(5.0)
        plugin = game.plugin
        assert plugin.clock.tick == 300
        pos = esper.component_for_entity(game.player, Position)
        assert math.dist((pos.x_m, pos.z_m), (6.0, 4.0)) == pytest.approx(3.0, abs=1e-6)
        assert esper.component_for_entity(game.player, Listener).heading_rad != 0.0
        (start,) = plugin.events.where(source="modern", event="start", sound="fountain")
        assert start["pan"] < 0.0  # walking anticlockwise round it: it is on the left
        sounds = {r["sound"] for r in plugin.events.where(source="ac", event="play")}
        assert {"meadow_wind", "meadow_bird"} <= sounds
        audio = plugin.mixer.backend.audio()
        assert audio.shape == (300 * 800, 2)
        left, right = np.sqrt(np.mean(audio.astype(np.float64) ** 2, axis=0))
        assert left > right > 0.0  # the fountain, 3 m away on the left, leads the mix
        game.window.switch_to()
        game.draw()
        frame = window_pixels()
        blue = np.all(np.abs(frame[:, :, :3].astype(int) - (80, 160, 255)) <= 8, axis=2)
        assert blue.sum() > 100  # the fountain is drawn, 3 m (24 px) from the centre
    finally:
        game.close()



def test_the_command_line_renders_a_wav(tmp_path):
    from soundscape.audio.wav import read_wav

    path = tmp_path / "fountain.wav"
    assert example.main(["--headless", "--seconds", "1", "--wav", str(path)]) == 0
    wav = read_wav(path)
    assert wav.samples.shape == (48_000, 2) and np.abs(wav.samples).max() > 0.01
