"""The demo's rooms: the house and the forest reverberate differently; H switches to headphones."""

from __future__ import annotations

import numpy as np
import pytest
from pyglet.window import key

from soundscape.demo_world.game import DemoGame
from soundscape.demo_world.rooms import BIRDS_M, HEARTH_M
from soundscape.demo_world.window import DemoWindow

RATE = 48_000


def _reverb_heard(start: tuple[float, float]) -> tuple[DemoGame, int | None, np.ndarray]:
    """A demo game started at ``start``, stepped 1.5 s: the zone the player is in and
    the reverb return of the last 0.5 s (rendered again from the bus's own state)."""
    game = DemoGame(0, backend="offline", start=start, heading_rad=0.0)
    for _ in range(90):
        game.step()
    return game, game.ctx.rooms.listener_zone, game.ctx.mixer.backend.audio()


def test_the_house_and_the_forest_sound_different(world):
    house_game, house, _ = _reverb_heard((HEARTH_M[0] + 4.0, HEARTH_M[1]))
    try:
        entities = house_game.population.entities
        assert house == entities["zone_house"]
        ctx = house_game.ctx
        hearth = next(ch for ch in ctx.channels["modern"].channels
                      if ch.playing and ch.sound == "rooms_hearth")
        assert hearth.send == (entities["zone_house"], 1.0)
        room = ctx.mixer.rooms.bus.reverbs[house]
        assert not room.idle and ctx.mixer.rooms.bus.weight[house] == 1.0
    finally:
        house_game.close()
    forest_game, forest, _ = _reverb_heard((BIRDS_M[0] + 5.0, BIRDS_M[1]))
    try:
        assert forest == forest_game.population.entities["zone_forest"]
        bus = forest_game.ctx.mixer.rooms.bus
        assert not bus.reverbs[forest].idle
        # a short bright room against a sparse dull forest
        assert room.params.decay_s < bus.reverbs[forest].params.decay_s
        assert room.params.damping < bus.reverbs[forest].params.damping
        assert room.params.wet_db > bus.reverbs[forest].params.wet_db
    finally:
        forest_game.close()


def test_a_sound_just_outside_the_house_wall_is_outdoors(world):
    game = DemoGame(0, backend="offline")
    try:
        game.step()
        rooms, zone = game.ctx.rooms, game.population.entities["zone_house"]
        house = game.village.buildings[0]
        assert rooms.zone_at(house.x0_m + 0.3, house.z1_m - 2.0) == zone  # inside the wall
        assert rooms.zone_at(house.x0_m - 0.3, house.z1_m - 2.0) is None  # outside it
        assert rooms.zone_at(356.0, 400.0) == zone  # through the door, inside
    finally:
        game.close()


def test_h_switches_the_emitters_to_headphones(world):
    game = DemoGame(0, backend="offline", start=(HEARTH_M[0] + 4.0, HEARTH_M[1]),
                    heading_rad=0.0)
    window = DemoWindow(game, 800, 600)
    try:
        window.tick(1 / 60)
        hearth = next(ch for ch in game.ctx.channels["modern"].channels
                      if ch.playing and ch.sound == "rooms_hearth")
        assert hearth.ear_rad is None
        window.on_key_press(key.H, 0)
        assert game.ctx.rooms.output == "headphones" and "headphones" in window.message
        window.tick(1 / 60)
        assert hearth.ear_rad == pytest.approx(-np.pi / 2)  # the hearth is to her west
        for _ in range(10):
            window.tick(1 / 60)
        left, right = game.ctx.mixer.backend.audio()[-RATE // 10:].T
        assert np.abs(left).max() > 0.0
        window.on_key_press(key.H, 0)
        assert game.ctx.rooms.output == "speakers"
    finally:
        window.close()
        game.close()
