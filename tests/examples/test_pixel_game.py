"""examples/pixel_game.py: a 2D pixel game mapping pixels to metres, run headless for 5 s."""

from __future__ import annotations

import numpy as np
import pytest
from examples_loader import load_example, window_pixels

from soundscape import Settings

example = load_example("pixel_game")


def channel_of(plugin, sound: str):
    return next(c for c in plugin.channels["modern"].channels if c.sound == sound)


def test_the_mapping_from_pixels_to_metres():
    assert example.to_world(0.0, 0.0) == (0.0, 0.0, 0.0)
    assert example.to_world(320.0, 32.0) == (10.0, 0.0, 1.0)  # right is east, up is north
    assert example.heading_of(0.0, 1.0) == 0.0  # up the screen: north
    assert example.heading_of(1.0, 0.0) == pytest.approx(np.pi / 2)  # right: east
    assert example.heading_of(0.0, -1.0) == pytest.approx(np.pi)


def test_walking_east_picks_up_the_coins_where_they_lie_and_nears_the_waterfall():
    game = example.PixelGame(Settings(seed=2, backend="offline"), headless=True)
    try:
        game.run_headless(0.5)
        plugin = game.plugin
        far = channel_of(plugin, "waterfall").volume
        near_fire = channel_of(plugin, "campfire").volume
        game.run_headless(4.5)
        assert game.picked == example.COINS_PX and game.coins == []
        chimes = plugin.events.where(source="modern", event="start", sound="coin")
        assert [c["pos"] for c in chimes] == [[5.0, 0.0, 5.625], [10.0, 0.0, 5.625],
                                              [15.0, 0.0, 5.625]]  # the coin's pixel / 32
        steps = plugin.events.where(source="modern", event="start", sound="step")
        assert 10 <= len(steps) <= 13  # one every 0.35 s over the ~4.2 s walk
        assert channel_of(plugin, "waterfall").volume > 2 * far  # closer: louder
        assert channel_of(plugin, "campfire").volume < near_fire  # walked away from it
        audio = plugin.mixer.backend.audio()
        assert audio.shape == (300 * 800, 2) and np.abs(audio).max() > 0.05
        game.window.switch_to()
        game.draw()
        frame = window_pixels()
        gold = np.all(np.abs(frame[:, :, :3].astype(int) - example.COIN_COLOUR) <= 8, axis=2)
        water = np.all(np.abs(frame[:, :, :3].astype(int) - (70, 130, 230)) <= 8, axis=2)
        assert gold.sum() == 0 and water.sum() > 1000  # the coins are gone, the water is not
    finally:
        game.close()
