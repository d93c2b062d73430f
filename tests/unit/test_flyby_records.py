"""The 24 flyby records (seed 001, "Flybys"): take, step (0x5157c0), play, free."""

from __future__ import annotations

import math

import esper
import pytest

from soundscape import Settings, SoundscapePlugin
from soundscape.components.occlusion import Flyby, Wall
from soundscape.components.spatial import Listener, Position
from soundscape.occlusion.flybys import FLYBY_RECORDS


def make_plugin() -> SoundscapePlugin:
    plugin = SoundscapePlugin(Settings(seed=1, backend="none", features=("occlusion",))).install()
    esper.create_entity(Listener(), Position(0.0, 1.5, 0.0))
    return plugin


def fly(plugin: SoundscapePlugin, path: list[float], z: float = 2.0, far: float = 20.0) -> int:
    """A projectile at x = path[0], then moved to each later x, one tick each, at y 1.5."""
    pos = Position(path[0], 1.5, z)
    entity = esper.create_entity(Flyby("mb_flyby", far=far), pos)
    esper.process(1 / 60)
    for x in path[1:]:
        pos.x_m = x
        esper.process(1 / 60)
    return entity


def flybys(plugin: SoundscapePlugin) -> list[dict]:
    return plugin.events.where(source="flyby", event="flyby")


def test_crossing_within_one_tick_plays_once_at_the_nearest_point() -> None:
    plugin = make_plugin()
    fly(plugin, [-40.0, 40.0])
    (event,) = flybys(plugin)
    assert event["pos"] == pytest.approx([0.0, 1.5, 2.0])
    assert event["gain"] == 1.0 and event["walls"] == 0 and event["sound"] == "mb_flyby"
    assert event["tick"] == 2
    plugin.uninstall()


@pytest.mark.parametrize("speed", [0.3, 1.0, 3.7, 11.0])
def test_passing_at_several_speeds_plays_once(speed: float) -> None:
    plugin = make_plugin()
    path = [-30.05 + speed * i for i in range(int(60 / speed) + 1)]  # never exactly at 0
    fly(plugin, path)
    (event,) = flybys(plugin)
    assert event["pos"] == pytest.approx([0.0, 1.5, 2.0])
    # It plays on the tick whose move straddles x = 0.
    crossing = next(i for i in range(1, len(path)) if path[i - 1] < 0.0 < path[i])
    assert event["tick"] == 1 + crossing
    plugin.uninstall()


def test_stopping_before_the_listener_plays_nothing() -> None:
    plugin = make_plugin()
    fly(plugin, [-20.0, -10.0, -3.0, -1.0, -1.0, -1.0])
    assert flybys(plugin) == []
    plugin.uninstall()


def test_turning_back_before_the_listener_plays_nothing() -> None:
    plugin = make_plugin()
    fly(plugin, [-20.0, -10.0, -2.0, -6.0, -15.0])
    assert flybys(plugin) == []
    plugin.uninstall()


def test_passing_then_turning_back_plays_twice() -> None:
    plugin = make_plugin()
    fly(plugin, [-20.0, -5.0, 5.0, 12.0, 3.0, -4.0])
    events = flybys(plugin)
    assert [e["tick"] for e in events] == [3, 6]
    assert all(e["pos"] == pytest.approx([0.0, 1.5, 2.0]) for e in events)
    plugin.uninstall()


def test_stopping_on_the_nearest_point_never_plays() -> None:
    # d1 = 0 on the first move and d0 = 0 on the next: no product below 0 (the seed's test).
    plugin = make_plugin()
    fly(plugin, [-10.0, 0.0, 10.0])
    assert flybys(plugin) == []
    plugin.uninstall()


def test_heard_through_walls_and_not_from_three_times_far() -> None:
    plugin = make_plugin()
    esper.create_entity(Wall(-50.0, 1.0, 50.0, 1.0))  # between the path (z=2) and the listener
    fly(plugin, [-10.0, 10.0], far=20.0)
    (event,) = flybys(plugin)
    assert event["walls"] == 1 and event["gain"] == pytest.approx(0.8 - 1 / 12)
    fly(plugin, [-10.0, 10.0], z=61.0, far=20.0)  # 61 m > 3 x 20: not heard
    assert len(flybys(plugin)) == 1
    (unheard,) = plugin.events.where(source="flyby", event="out_of_hearing")
    assert unheard["pos"] == pytest.approx([0.0, 1.5, 61.0])
    plugin.uninstall()


def test_records_run_out_and_are_reused() -> None:
    plugin = make_plugin()
    table = plugin.context.occlusion.flybys
    entities = [esper.create_entity(Flyby("mb_flyby"), Position(-10.0, 1.5, 2.0 + i))
                for i in range(FLYBY_RECORDS + 1)]
    esper.process(1 / 60)
    assert table.in_use() == FLYBY_RECORDS
    (refused,) = plugin.events.where(source="flyby", event="refused")
    assert refused["entity"] == entities[-1] and refused["reason"] == "all_taken"
    assert table.waiting() == [entities[-1]]
    esper.delete_entity(entities[3])
    esper.process(1 / 60)  # deleted at the start of this process(): freed in its FLYBYS
    (freed,) = plugin.events.where(source="flyby", event="free")
    assert freed["entity"] == entities[3] and freed["reason"] == "vanished"
    # The refused projectile waited: it takes the freed record in the same tick
    # (retail never retried it: docs/divergences.md).
    record = table.record_of(entities[-1])
    assert record is not None and record.index == 3 and table.waiting() == []
    assert table.in_use() == FLYBY_RECORDS
    (retaken,) = plugin.events.where(source="flyby", event="take", retried=True)
    assert retaken["entity"] == entities[-1] and retaken["tick"] == freed["tick"] == 2
    late = esper.create_entity(Flyby("mb_flyby"), Position(-10.0, 1.5, 50.0))
    esper.process(1 / 60)
    assert table.record_of(late) is None and table.waiting() == [late]
    plugin.uninstall()


def test_refused_projectiles_take_freed_records_oldest_first_and_only_while_alive() -> None:
    plugin = make_plugin()
    table = plugin.context.occlusion.flybys
    first = [esper.create_entity(Flyby("mb_flyby"), Position(-10.0, 1.5, 2.0 + i))
             for i in range(FLYBY_RECORDS)]
    esper.process(1 / 60)
    waiting = [esper.create_entity(Flyby("mb_flyby"), Position(-10.0, 1.5, 40.0 + i))
               for i in range(3)]
    esper.process(1 / 60)
    assert table.waiting() == waiting
    assert len(plugin.events.where(source="flyby", event="refused")) == 3
    esper.delete_entity(waiting[0], immediate=True)  # gone before a record frees
    for entity in first[:2]:
        table.projectile_dies(entity)
        esper.delete_entity(entity, immediate=True)
    esper.process(1 / 60)
    assert table.record_of(waiting[1]) is not None and table.record_of(waiting[2]) is not None
    assert table.waiting() == [] and table.in_use() == FLYBY_RECORDS
    assert len(plugin.events.where(source="flyby", event="refused")) == 3  # retries: silent
    plugin.uninstall()


def test_a_waiting_projectile_is_heard_once_it_has_a_record() -> None:
    plugin = make_plugin()
    table = plugin.context.occlusion.flybys
    blockers = [esper.create_entity(Flyby("mb_flyby"), Position(100.0, 1.5, 100.0 + i))
                for i in range(FLYBY_RECORDS)]
    esper.process(1 / 60)
    pos = Position(-30.5, 1.5, 2.0)  # never exactly at x = 0
    bolt = esper.create_entity(Flyby("mb_flyby"), pos)
    esper.process(1 / 60)
    assert table.waiting() == [bolt]
    table.projectile_dies(blockers[0])
    esper.delete_entity(blockers[0], immediate=True)
    for _ in range(12):
        pos.x_m += 5.0  # passes x = 0 in front of the listener
        esper.process(1 / 60)
    (event,) = flybys(plugin)
    assert event["entity"] == bolt and event["pos"] == pytest.approx([0.0, 1.5, 2.0])
    plugin.uninstall()


def test_teleport_moves_a_projectile_without_a_flyby() -> None:
    plugin = make_plugin()
    table = plugin.context.occlusion.flybys
    pos = Position(-20.0, 1.5, 2.0)
    bolt = esper.create_entity(Flyby("mb_flyby"), pos)
    esper.process(1 / 60)
    pos.x_m = 20.0  # wraps from one side of the screen to the other, past the listener
    assert table.teleport(bolt)
    esper.process(1 / 60)
    assert flybys(plugin) == []  # no false full-volume flyby at the listener
    (moved,) = plugin.events.where(source="flyby", event="teleport")
    assert moved["pos"] == [20.0, 1.5, 2.0] and moved["entity"] == bolt
    assert list(table.record_of(bolt).path) == [(20.0, 1.5, 2.0)] * 2
    for x in (10.0, -10.0):  # and it flies on from there, heard as usual
        pos.x_m = x
        esper.process(1 / 60)
    (event,) = flybys(plugin)
    assert event["pos"] == pytest.approx([0.0, 1.5, 2.0])
    plugin.uninstall()


def test_teleport_to_a_given_place_and_without_a_record() -> None:
    plugin = make_plugin()
    table = plugin.context.occlusion.flybys
    pos = Position(-20.0, 1.5, 2.0)
    bolt = esper.create_entity(Flyby("mb_flyby"), pos)
    esper.process(1 / 60)
    assert table.teleport(bolt, (20.0, 1.5, 2.0))  # before the game moves the Position
    pos.x_m = 20.0
    esper.process(1 / 60)
    assert flybys(plugin) == []
    assert not table.teleport(esper.create_entity(Position(0.0, 0.0, 0.0)))
    assert table.teleport(bolt, (math.nan, 0.0, 0.0))  # a failed place frees the record
    assert table.record_of(bolt) is None
    plugin.uninstall()


def test_without_teleport_the_same_jump_plays_a_false_flyby() -> None:
    plugin = make_plugin()
    fly(plugin, [-20.0, 20.0])  # the retail step: the jump passes the listener
    (event,) = flybys(plugin)
    assert event["gain"] == 1.0
    plugin.uninstall()


def test_projectile_dies_takes_a_last_step() -> None:
    plugin = make_plugin()
    table = plugin.context.occlusion.flybys
    entity = fly(plugin, [-20.0, -10.0])
    # It dies this frame having moved past the listener: the last step plays.
    assert table.projectile_dies(entity, final_pos=(10.0, 1.5, 2.0))
    (event,) = flybys(plugin)
    assert event["pos"] == pytest.approx([0.0, 1.5, 2.0])
    assert table.record_of(entity) is None
    assert plugin.events.where(source="flyby", event="free")[-1]["reason"] == "died"
    esper.process(1 / 60)  # still in the world, but dead: no new record
    assert table.record_of(entity) is None
    assert not table.projectile_dies(entity)
    plugin.uninstall()


def test_projectile_dies_at_its_own_position_by_default() -> None:
    plugin = make_plugin()
    table = plugin.context.occlusion.flybys
    entity = fly(plugin, [-20.0, -10.0])
    esper.component_for_entity(entity, Position).x_m = 7.0
    assert table.projectile_dies(entity)
    assert len(flybys(plugin)) == 1
    esper.delete_entity(entity)
    esper.process(1 / 60)
    plugin.uninstall()


def test_vanishing_without_dying_frees_without_a_last_step() -> None:
    plugin = make_plugin()
    table = plugin.context.occlusion.flybys
    entity = fly(plugin, [-20.0, -10.0])
    esper.component_for_entity(entity, Position).x_m = 10.0  # moved, then deleted unannounced
    esper.delete_entity(entity, immediate=True)
    esper.process(1 / 60)
    assert flybys(plugin) == [] and table.in_use() == 0
    assert plugin.events.where(source="flyby", event="free")[-1]["reason"] == "vanished"
    plugin.uninstall()


def test_replaced_component_is_a_new_projectile() -> None:
    plugin = make_plugin()
    table = plugin.context.occlusion.flybys
    entity = fly(plugin, [-20.0, -10.0])
    first = table.record_of(entity)
    esper.add_component(entity, Flyby("benrgy_flyby"))  # the class changed
    esper.process(1 / 60)
    second = table.record_of(entity)
    assert second is not None and second.flyby is not None
    assert second.flyby.impulse == "benrgy_flyby" and first is second  # record 0 again
    assert [r["reason"] for r in plugin.events.where(event="free")] == ["vanished"]
    plugin.uninstall()


def test_nan_place_frees_the_record() -> None:
    plugin = make_plugin()
    table = plugin.context.occlusion.flybys
    entity = fly(plugin, [-20.0, -10.0, math.nan, 10.0])
    assert table.record_of(entity) is None and flybys(plugin) == []
    assert plugin.events.where(source="flyby", event="free")[0]["reason"] == "bad_place"
    assert not plugin.events.where(event="error")
    plugin.uninstall()


def test_nan_place_at_creation_takes_no_record() -> None:
    plugin = make_plugin()
    table = plugin.context.occlusion.flybys
    entity = fly(plugin, [math.nan, -10.0, 10.0])
    assert table.record_of(entity) is None and flybys(plugin) == []
    (refused,) = plugin.events.where(source="flyby", event="refused")
    assert refused["reason"] == "bad_place"
    plugin.uninstall()


def test_path_and_trigger_are_kept_for_drawing() -> None:
    plugin = make_plugin()
    table = plugin.context.occlusion.flybys
    entity = fly(plugin, [-6.0, -2.0, 2.0, 6.0])
    record = table.record_of(entity)
    assert record is not None
    assert [p[0] for p in record.path] == [-6.0, -2.0, 2.0, 6.0]
    (trigger,) = record.triggers
    assert trigger.point == pytest.approx((0.0, 1.5, 2.0)) and trigger.tick == 3
    assert list(table.triggers) == [trigger]
    table.projectile_dies(entity)
    assert table.recent[-1].triggers == [trigger]
    plugin.uninstall()


def test_the_oni_impulse_record_gives_the_far_distance_and_min_occlusion() -> None:
    # with the Oni runtime, the impulse's own far (5: heard to 15) wins over the component's
    plugin = SoundscapePlugin(Settings(seed=1, backend="none",
                                       features=("occlusion", "oni"))).install()
    plugin.context.oni.loads_toml('[impulses.mb_flyby]\ndistance = [1.0, 5.0]\n'
                                  'min_occlusion = 0.9\n')
    esper.create_entity(Listener(), Position(0.0, 1.5, 0.0))
    esper.create_entity(Wall(-50.0, 1.0, 50.0, 1.0))
    fly(plugin, [-10.0, 10.0], z=14.0, far=100.0)  # 14 m: within 15
    fly(plugin, [-10.0, 10.0], z=16.0, far=100.0)  # 16 m: beyond 15
    (heard,) = flybys(plugin)
    assert heard["walls"] == 1 and heard["gain"] == 0.9  # max(0.9, 0.8 - 1/12)
    assert [r["pos"][2] for r in plugin.events.where(source="flyby",
                                                     event="out_of_hearing")] == [16.0]
    plugin.uninstall()
