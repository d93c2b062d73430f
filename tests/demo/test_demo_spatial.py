"""The demo's generic emitters (issue 17): the lute muffled through the house walls,
clear through the door; the cart's pitch above, then below, as it passes."""

from __future__ import annotations

import math

import esper

from soundscape.components import Emitter
from soundscape.demo_world.game import DemoGame
from soundscape.demo_world.spatial import CART_ROAD_Z_M, CART_SPEED_M_S
from soundscape.laws.spatial import wall_cutoff_hz


def channel(game, entity):
    return game.ctx.channels["modern"].get(esper.component_for_entity(entity, Emitter).handle)


def test_the_lute_is_muffled_from_the_plaza_and_clear_through_the_door():
    game = DemoGame(seed=0, backend="none")
    try:
        show = game.population.spatial
        heard = {}
        for label, (x, z) in (("plaza", (384.0, 384.0)), ("door", (356.0, 390.0))):
            game.teleport(x, z, heading_rad=0.0)
            for _ in range(13):  # past the walls' 12-tick cache
                game.step()
            lute = channel(game, show.lute)
            heard[label] = (lute.lowpass_hz, lute.volume)
        assert heard["plaza"][0] == wall_cutoff_hz(1)  # through the south wall
        assert heard["door"][0] == 0.0  # through the open door: no filter
        assert heard["plaza"][1] < heard["door"][1]
    finally:
        game.close()


def test_the_cart_passes_the_start_higher_then_lower():
    game = DemoGame(seed=0, backend="none")
    try:
        show = game.population.spatial
        pitches = []
        for _ in range(int(8.0 * 60)):  # it passes the start (x 240) after 4 s
            game.step()
            pitches.append(channel(game, show.cart).pitch)
        c = 343.0
        start_z = game.position.z_m
        assert abs(start_z - CART_ROAD_Z_M) < 10.0
        assert max(pitches) > 1.0 + 0.9 * (c / (c - CART_SPEED_M_S) - 1.0)
        assert min(pitches) < 1.0 - 0.9 * (1.0 - c / (c + CART_SPEED_M_S))
        high, low = pitches.index(max(pitches)), pitches.index(min(pitches))
        assert high < low  # coming, then going
        assert not math.isnan(sum(pitches))
    finally:
        game.close()
