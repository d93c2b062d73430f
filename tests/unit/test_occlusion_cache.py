"""The OCCLUSION phase: hearing every tick, walls on the 12-tick cache (0x511a00)."""

from __future__ import annotations

import math
from collections import defaultdict

import esper
import pytest

from soundscape import Settings, SoundscapePlugin
from soundscape.components.occlusion import Occluded, Wall
from soundscape.components.spatial import Listener, Position
from soundscape.occlusion.rules import cache_due


def make_plugin() -> SoundscapePlugin:
    plugin = SoundscapePlugin(Settings(seed=1, backend="none", features=("occlusion",))).install()
    esper.create_entity(Listener(), Position(0.0, 0.0, 0.0))
    return plugin


def test_cache_due_rule() -> None:
    # Counted at tick 30 with index 17 (17 mod 12 = 5): next at 24 + 12 + 5 = 41.
    assert [t for t in range(30, 60) if cache_due(t, 30, 17)][0] == 41
    # Counted at 41 (index 5): next at 36 + 12 + 5 = 53, twelve ticks on.
    assert [t for t in range(41, 70) if cache_due(t, 41, 5)][0] == 53


def test_rays_are_spread_over_twelve_ticks() -> None:
    plugin = make_plugin()
    esper.create_entity(Wall(5.0, -50.0, 5.0, 50.0))
    entities = {}
    for index in range(36):
        entity = esper.create_entity(Position(10.0, 0.0, index - 18.0), Occluded(far=100.0,
                                     cache_index=index))
        entities[entity] = index
    by_tick: dict[int, list[int]] = defaultdict(list)
    plugin.events.subscribe(
        lambda r: by_tick[r["tick"]].append(entities[r["entity"]])
        if r["event"] == "occlusion" else None
    )
    for _ in range(48):
        esper.process(1 / 60)
    # The plugin's first tick is 1, so indices 0 and 1 (mod 12) count then; after that
    # every tick counts the three records of index = tick mod 12.
    assert sorted(by_tick[1]) == [0, 1, 12, 13, 24, 25]
    for tick in range(2, 49):
        assert sorted(by_tick[tick]) == [i for i in range(36) if i % 12 == tick % 12], tick
    for entity, index in entities.items():
        occ = esper.component_for_entity(entity, Occluded)
        assert occ.walls == 1 and occ.volume == pytest.approx(0.8 - 1 / 12)
        assert occ.cache_tick % 12 == index % 12
    plugin.uninstall()


def test_cached_volume_holds_until_due() -> None:
    plugin = make_plugin()
    entity = esper.create_entity(Position(10.0, 0.0, 0.0), Occluded(far=100.0, cache_index=3))
    occ = esper.component_for_entity(entity, Occluded)
    for _ in range(3):
        esper.process(1 / 60)  # ticks 1..3: counted at 3
    assert occ.cache_tick == 3 and occ.volume == 1.0
    esper.create_entity(Wall(5.0, -5.0, 5.0, 5.0))
    for _ in range(11):
        esper.process(1 / 60)  # ticks 4..14: the cache holds
    assert occ.volume == 1.0 and occ.walls == 0
    esper.process(1 / 60)  # tick 15 = 0 + 12 + 3
    assert occ.cache_tick == 15 and occ.walls == 1
    ray = plugin.context.occlusion.last_rays[entity]
    assert ray.walls == 1 and ray.from_xyz == (10.0, 0.0, 0.0) and ray.to_xyz == (0.0, 0.0, 0.0)
    plugin.uninstall()


def test_a_late_record_counts_at_once() -> None:
    plugin = make_plugin()
    for _ in range(100):
        esper.process(1 / 60)
    entity = esper.create_entity(Position(3.0, 0.0, 0.0), Occluded(far=10.0, cache_index=7))
    esper.process(1 / 60)
    assert esper.component_for_entity(entity, Occluded).cache_tick == 101
    plugin.uninstall()


def test_hearing_is_tested_every_tick() -> None:
    plugin = make_plugin()
    pos = Position(29.0, 0.0, 0.0)
    occ = Occluded(far=10.0, cache_index=5)
    esper.create_entity(pos, occ)
    esper.process(1 / 60)
    assert occ.in_hearing
    pos.x_m = 30.5  # beyond 3 x far
    esper.process(1 / 60)
    assert not occ.in_hearing
    pos.x_m = 30.0
    esper.process(1 / 60)
    assert occ.in_hearing
    plugin.uninstall()


def test_out_of_hearing_casts_no_ray() -> None:
    plugin = make_plugin()
    occ = Occluded(far=1.0)
    esper.create_entity(Position(50.0, 0.0, 0.0), occ)
    for _ in range(30):
        esper.process(1 / 60)
    assert not occ.in_hearing and occ.cache_tick == -1
    assert plugin.context.occlusion.walls.rays_cast == 0
    assert not plugin.events.where(event="occlusion")
    plugin.uninstall()


def test_min_occlusion_above_099_is_full_volume_without_rays() -> None:
    plugin = make_plugin()
    esper.create_entity(Wall(5.0, -5.0, 5.0, 5.0))
    occ = Occluded(far=100.0, min_occlusion=0.995, volume=0.3)
    esper.create_entity(Position(10.0, 0.0, 0.0), occ)
    for _ in range(13):
        esper.process(1 / 60)
    assert occ.volume == 1.0 and plugin.context.occlusion.walls.rays_cast == 0
    plugin.uninstall()


def test_no_level_counts_three() -> None:
    plugin = make_plugin()
    plugin.context.occlusion.level_loaded = False
    occ = Occluded(far=100.0, min_occlusion=0.2)
    esper.create_entity(Position(10.0, 0.0, 0.0), occ)
    esper.process(1 / 60)
    assert occ.walls == 3 and occ.volume == pytest.approx(0.2)
    plugin.uninstall()


def test_nan_place_is_out_of_hearing_logged_once() -> None:
    plugin = make_plugin()
    pos = Position(math.nan, 0.0, 0.0)
    occ = Occluded(far=100.0)
    entity = esper.create_entity(pos, occ)
    for _ in range(5):
        esper.process(1 / 60)
    assert not occ.in_hearing and occ.volume == 1.0
    assert [r["entity"] for r in plugin.events.where(event="bad_place")] == [entity]
    pos.x_m = 4.0  # healed
    esper.process(1 / 60)
    assert occ.in_hearing and occ.cache_tick == 6
    assert not plugin.events.where(event="error")
    plugin.uninstall()


def test_no_listener_is_logged_and_records_kept() -> None:
    plugin = SoundscapePlugin(Settings(seed=1, backend="none", features=("occlusion",))).install()
    occ = Occluded(far=100.0, volume=0.4)
    esper.create_entity(Position(1.0, 0.0, 0.0), occ)
    for _ in range(3):
        esper.process(1 / 60)
    assert occ.volume == 0.4 and len(plugin.events.where(event="no_listener")) == 1
    plugin.uninstall()
