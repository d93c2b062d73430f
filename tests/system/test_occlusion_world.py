"""The whole plugin in a world: walls, placed Oni ambients heard through them, flybys.

Every feature is installed (backend "none"); the Oni database is a small TOML
with synthesised sounds, so the impulses and ambients play on the real Oni
channel bank and the event log shows each occlusion count and each flyby.
"""

from __future__ import annotations

import math

import esper
import numpy as np
import pytest

from soundscape import Settings, SoundscapePlugin
from soundscape.components.occlusion import WALL_DOOR_PANEL, Flyby, Occluded, Wall
from soundscape.components.spatial import Listener, Position

ONI_TOML = """
[groups.bolt]
channels = "mono"
permutations = [{ sound = "bolt", weight = 1 }]

[groups.hum]
channels = "mono"
permutations = [{ sound = "hum", weight = 1 }]

[impulses.mb_flyby]
group = "bolt"
priority = 2
distance = [2.0, 20.0]

[ambients.hum]
priority = 1
can_pan = true
distance = [5.0, 40.0]
base1 = "hum"
"""


@pytest.fixture
def plugin():
    plugin = SoundscapePlugin(Settings(seed=3, backend="none")).install()
    ctx = plugin.context
    tone = np.sin(np.arange(22050, dtype=np.float32) * 0.05).astype(np.float32) * 0.2
    ctx.sounds.add("bolt", tone[:4000], 22050)
    ctx.sounds.add("hum", tone, 22050)
    ctx.oni.loads_toml(ONI_TOML, "test_oni.toml")
    esper.create_entity(Listener(), Position(0.0, 1.7, 0.0))
    yield plugin
    plugin.uninstall()


def run(ticks: int) -> None:
    for _ in range(ticks):
        esper.process(1 / 60)


def test_placed_ambient_is_heard_through_a_wall(plugin: SoundscapePlugin) -> None:
    ctx = plugin.context
    esper.create_entity(Wall(-10.0, 5.0, 10.0, 5.0))  # between the listener and z = 10
    run(1)
    index = ctx.oni.placed.start("hum", (0.0, 1.0, 10.0))
    assert index is not None
    run(30)
    occ = ctx.oni.placed.occluded[index]
    assert occ is not None and occ.walls == 1
    assert occ.volume == pytest.approx(0.8 - 1 / 12) and occ.in_hearing
    counts = plugin.events.where(source="occlusion", event="occlusion")
    assert counts and all(r["walls"] == 1 for r in counts)
    assert counts[-1]["gain"] == pytest.approx(0.8 - 1 / 12)
    # The last ray is there for drawing: from the place to the listener, one wall.
    ray = ctx.occlusion.last_rays[ctx.oni.placed.entities[index]]
    assert ray.from_xyz == (0.0, 1.0, 10.0) and ray.to_xyz == (0.0, 1.7, 0.0)


def test_opening_a_door_clears_the_way_on_the_next_count(plugin: SoundscapePlugin) -> None:
    door = esper.create_entity(Wall(-3.0, 5.0, 3.0, 5.0, WALL_DOOR_PANEL, 12, 0.0, 1.0))
    place = Position(0.0, 1.0, 10.0)
    occ = Occluded(far=40.0, cache_index=4)
    esper.create_entity(place, occ)
    run(5)  # counted at tick 4
    assert occ.walls == 1
    wall = esper.component_for_entity(door, Wall)
    wall.ax_m, wall.bx_m = 3.0, 9.0  # the door slides open
    plugin.context.occlusion.wall_moved(door)
    run(10)  # ticks 6..15: cached
    assert occ.walls == 1
    run(1)  # tick 16 = 0 + 12 + 4
    assert occ.walls == 0 and occ.volume == 1.0


def test_flyby_plays_the_oni_impulse_through_the_walls(plugin: SoundscapePlugin) -> None:
    esper.create_entity(Wall(-50.0, 1.0, 50.0, 1.0))
    pos = Position(-25.0, 1.5, 3.0)
    shot = esper.create_entity(Flyby("mb_flyby", far=1.0), pos)  # the database's far wins
    run(1)
    for _ in range(6):
        pos.x_m += 10.0
        run(1)
    (flyby,) = plugin.events.where(source="flyby", event="flyby")
    assert flyby["pos"] == pytest.approx([0.0, 1.5, 3.0])
    assert flyby["walls"] == 1 and flyby["gain"] == pytest.approx(0.8 - 1 / 12)
    assert flyby["played"] is True
    (impulse,) = plugin.events.where(event="impulse", sound="mb_flyby")
    assert impulse["tick"] == flyby["tick"] and impulse["pos"] == flyby["pos"]
    assert plugin.context.occlusion.flybys.projectile_dies(shot)
    esper.delete_entity(shot)
    run(1)


def test_flyby_beyond_three_times_the_impulse_far_is_silent(plugin: SoundscapePlugin) -> None:
    pos = Position(-100.0, 1.5, 61.0)  # 61 m > 3 x 20 (the impulse's far)
    esper.create_entity(Flyby("mb_flyby", far=1000.0), pos)
    run(1)
    pos.x_m = 100.0
    run(1)
    assert not plugin.events.where(source="flyby", event="flyby")
    assert len(plugin.events.where(source="flyby", event="out_of_hearing")) == 1
    assert not plugin.events.where(event="impulse")


def test_bad_input_is_logged_and_the_world_goes_on(plugin: SoundscapePlugin) -> None:
    esper.create_entity(Wall(math.nan, 0.0, 1.0, 1.0))
    esper.create_entity(Wall(2.0, 2.0, 2.0, 2.0))
    bad = esper.create_entity(Position(math.nan, 0.0, 0.0), Occluded(far=10.0))
    esper.create_entity(Flyby("mb_flyby"), Position(math.inf, 0.0, 0.0))
    good = Occluded(far=10.0)
    esper.create_entity(Position(3.0, 1.0, 0.0), good)
    run(20)
    events = plugin.events
    assert len(events.where(source="occlusion", event="wall_rejected")) == 2
    assert [r["entity"] for r in events.where(source="occlusion", event="bad_place")] == [bad]
    assert events.where(source="flyby", event="refused")[0]["reason"] == "bad_place"
    assert not events.where(event="error")
    assert good.in_hearing and good.cache_tick >= 0
