"""examples/asteroids_mirror.py: a game without esper mirrored into it, run headless for 8 s.

The same seeded game runs twice: with the bridge's ``flybys.teleport`` on a wrap
(as shipped) no flyby plays on the tick a bullet jumps across the screen; without
it, jumps that pass the ship play false flybys.
"""

from __future__ import annotations

import esper
import numpy as np
from examples_loader import load_example, window_pixels

from soundscape import Settings

example = load_example("asteroids_mirror")


def play(teleport: bool, seconds: float = 8.0):
    game = example.Asteroids(Settings(seed=3, backend="offline"), headless=True,
                             teleport=teleport)
    game.run_headless(seconds)
    return game


def flyby_keys(game) -> set[tuple[int, int]]:
    return {(r["tick"], r["entity"]) for r in game.plugin.events.where(source="flyby",
                                                                        event="flyby")}


def test_the_bridge_mirrors_objects_and_the_bullets_whistle_past_the_ship():
    game = play(teleport=True)
    try:
        plugin, bridge = game.plugin, game.bridge
        # every live object that sounds has exactly one entity; the dead ones have none
        sounding = [t for t in game.things if t.kind in ("ship", "rock", "bullet")]
        assert set(bridge.entities) == set(sounding)
        assert all(esper.entity_exists(e) for e in bridge.entities.values())
        flybys = plugin.events.where(source="flyby", event="flyby")
        assert len(flybys) >= 5 and all(f["sound"] == "bullet_flyby" for f in flybys)
        assert plugin.events.where(source="oni", event="impulse", sound="bullet_flyby")
        assert len(plugin.events.where(source="modern", event="start", sound="laser")) == 16
        assert len(plugin.events.where(source="modern", event="start", sound="boom")) \
            == game.booms
        assert plugin.events.where(source="modern", event="start", sound="rumble")
        # the jumps across the screen were teleported, and none played
        assert bridge.wraps
        teleports = plugin.events.where(source="flyby", event="teleport")
        # one teleport a jump, logged before the tick that steps it
        assert sorted((t["tick"] + 1, t["entity"]) for t in teleports) == sorted(bridge.wraps)
        assert not flyby_keys(game) & set(bridge.wraps)
        assert plugin.occlusion.flybys.in_use() <= 24
        audio = plugin.mixer.backend.audio()
        assert audio.shape == (8 * 60 * 800, 2) and np.abs(audio).max() > 0.05
        game.window.switch_to()
        game.draw()
        centre = window_pixels()[300, 400, :3]  # the ship, drawn where the game keeps it
        assert np.abs(centre.astype(int) - example.COLOURS["ship"]).max() <= 16
        assert len(game.drawn) == len(game.things)
    finally:
        game.close()


def test_without_teleport_the_wraps_play_false_flybys():
    game = play(teleport=False, seconds=4.5)  # the first false one comes at 4.1 s
    try:
        false = flyby_keys(game) & set(game.bridge.wraps)
        assert false  # a jump across the screen, heard where nothing flew
        assert not game.plugin.events.where(source="flyby", event="teleport")
    finally:
        game.close()
