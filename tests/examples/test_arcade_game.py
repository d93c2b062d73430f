"""examples/arcade_game.py: the arcade 3.3 game, run headless (ARCADE_HEADLESS) for 4.5 s.

arcade is not in the ``dev`` extra (it pins an older pymunk and pillow): ``make
test`` runs this file in its own environment, ``.venv-arcade`` (``pip install -e
'.[arcade]'``); in the main environment it is skipped.
"""

from __future__ import annotations

import math
import os

import numpy as np
import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")  # before arcade is imported
pytest.importorskip("arcade", reason="arcade runs in .venv-arcade (make test)")

from examples_loader import load_example, window_pixels  # noqa: E402

from soundscape import Settings  # noqa: E402

example = load_example("arcade_game")


def channel_of(plugin, sound: str):
    return [c for c in plugin.channels["modern"].channels if c.sound == sound]


def test_the_camp_walk_in_arcade():
    game = example.CampGame(Settings(seed=4, backend="offline"), autopilot=True, visible=False)
    try:
        assert game.ctx is not game.sound.context  # arcade's GL context is left alone
        game.run_headless(1.0)
        fire_near = max(c.volume for c in channel_of(game.sound, "fire"))
        river_far = max(c.volume for c in channel_of(game.sound, "river"))
        game.run_headless(3.5)  # the route takes 3.9 s
        plugin = game.sound
        assert plugin.clock.tick == 270  # esper.process ran from on_update every frame
        assert game.picked == example.GEMS_PX and game.gems == []
        chimes = plugin.events.where(source="modern", event="start", sound="gem")
        assert [c["pos"] for c in chimes] == [[8.125, 0.0, 7.5], [12.5, 0.0, 7.5],
                                              [15.625, 0.0, 10.0]]  # pixels / 32
        assert max(c.volume for c in channel_of(plugin, "river")) > 2 * river_far
        assert max(c.volume for c in channel_of(plugin, "fire")) < fire_near
        heading = game.listener.heading_rad
        assert heading == pytest.approx(0.0, abs=1e-9)  # the last leg heads north
        audio = plugin.mixer.backend.audio()
        assert audio.shape == (270 * 800, 2) and np.abs(audio).max() > 0.05
        game.switch_to()
        game.on_draw()
        frame = window_pixels()
        gems = np.all(np.abs(frame[:, :, :3].astype(int) - example.GEM_COLOUR) <= 8, axis=2)
        assert gems.sum() == 0  # all picked up
        assert math.dist(game.player_px, example.ROUTE_PX[-1]) < 3.0
    finally:
        game.close()
