"""The AC runtime in an esper world: a listener walks across cells and landblocks.

Region: terrain 0 (grass) selects desc A everywhere; landblock (12, 10) is marsh
(desc B), so B is heard only within 120 m of x = 2304 m; a few cells of landblock
(9, 10) are terrain 2, whose sound table does not exist (negative cache).
"""

from __future__ import annotations

import math
from typing import Any

import esper
import numpy as np
import pytest

from soundscape import Settings, SoundscapePlugin
from soundscape.ac.runtime import AcRuntime
from soundscape.ac.sounds import ConstantSound, IntermitSound
from soundscape.components import Listener, Position
from soundscape.laws.ac import attenuation_db, direction_heading, f32, pan

A, B, C = 0x20000A00, 0x20000B00, 0x20000C00


def _sounds(constant_rate: float, chance: float, lo: float, hi: float) -> list[dict[str, Any]]:
    return [
        {"stype": "Ambient1", "volume": 0.8, "base_chance": 0.0,
         "min_rate": constant_rate, "max_rate": constant_rate},
        {"stype": "Ambient2", "volume": 0.5, "base_chance": chance,
         "min_rate": lo, "max_rate": hi},
    ]


def _table(stb_id: int, tag: str) -> dict[str, Any]:
    return {"id": stb_id, "entry": [
        {"stype": "Ambient1", "sound": f"{tag}_bed", "priority": 1, "probability": 1.0,
         "volume": 1.0},
        {"stype": "Ambient2", "sound": f"{tag}_call", "priority": 2, "probability": 1.0,
         "volume": 1.0},
    ]}


REGION = {
    "terrain": [{"scenes": [0]}, {"scenes": [1]}, {"scenes": [2]}],
    "scene": [{"stb": 0}, {"stb": 1}, {"stb": 2}],
    "stb": [
        {"id": A, "sounds": _sounds(3.0, 0.9, 1.0, 2.0)},
        {"id": B, "sounds": _sounds(2.0, 1.0, 1.5, 2.5)},
        {"id": C, "sounds": _sounds(1.0, 1.0, 1.0, 1.0)},
    ],
    "sound_table": [_table(A, "a"), _table(B, "b")],
}
START = (2000.0, 2.0, 10 * 192 + 100.0)


def _world(seed: int = 7, slider: float = 1.0, features: tuple[str, ...] = ("ac",),
           heading_rad: float = 0.0) -> tuple[SoundscapePlugin, AcRuntime, Listener, Position]:
    plugin = SoundscapePlugin(Settings(seed=seed, backend="none", features=features,
                                       ambient_volume=slider)).install()
    ac: AcRuntime = plugin.context.ac
    ac.load_region(REGION)
    for bx in range(8, 13):
        for by in range(9, 12):
            words = np.zeros((9, 9), dtype=int)
            if (bx, by) == (12, 10):
                words[:] = 1 << 2
            if (bx, by) == (9, 10):
                words[6:, 3:5] = 2 << 2
            ac.add_landblock(bx, by, words)
    listener, pos = Listener(heading_rad=heading_rad), Position(*START)
    esper.create_entity(listener, pos)
    return plugin, ac, listener, pos


def _run(plugin: SoundscapePlugin, ticks: int, pos: Position | None = None,
         dx_per_tick: float = 0.0) -> None:
    for _ in range(ticks):
        esper.process(1 / 60)
        if pos is not None:
            pos.x_m += dx_per_tick


def _ticks(plugin: SoundscapePlugin, event: str, **match: Any) -> list[int]:
    return [r["tick"] for r in plugin.events.where(source="ac", event=event, **match)]


def _desc_plays(plugin: SoundscapePlugin, stb_id: int, index: int) -> list[dict[str, Any]]:
    label = f"{stb_id:#010x}#{index}"
    return plugin.events.where(source="ac", event="play", ambient=label)


def test_rebuild_only_on_objcell_change() -> None:
    plugin, ac, _, pos = _world()
    _run(plugin, 120)
    assert _ticks(plugin, "rebuild") == [1]
    pos.x_m = 2010.0  # same cell (local x 80 -> 90)
    _run(plugin, 30)
    assert _ticks(plugin, "rebuild") == [1]
    pos.x_m = 2016.0  # local x 96: the next land cell
    _run(plugin, 1)
    rebuilds = plugin.events.where(source="ac", event="rebuild")
    assert [r["tick"] for r in rebuilds] == [1, 151]
    assert rebuilds[1]["objcell"] == rebuilds[0]["objcell"] + 8
    pos.x_m = 2112.5  # across the landblock boundary
    _run(plugin, 5)
    last = plugin.events.where(source="ac", event="rebuild")[-1]
    assert last["tick"] == 152 and last["objcell"] >> 24 == 11
    assert ac.rebuilds == 3


def test_newly_audible_sound_fires_on_the_crossing_tick() -> None:
    plugin, ac, _, pos = _world()
    audible_from = None
    for _ in range(520):  # 2000 -> 2260 m east
        esper.process(1 / 60)
        pos.x_m += 0.5
        bed = [s for s in ac.ambient.sounds if s.desc.stb_id == B and s.kind == "constant"]
        if audible_from is None and bed and bed[0].can_hear():  # share above the 0.03 floor
            audible_from = plugin.context.clock.tick
    b_first = _desc_plays(plugin, B, 0)[0]["tick"]
    assert b_first == audible_from
    assert b_first in _ticks(plugin, "rebuild")
    x_at = START[0] + 0.5 * (b_first - 1)  # the listener's x on that tick
    assert x_at % 24.0 < 0.5 and 2160.0 <= x_at <= 2256.0  # just stepped into a new cell
    assert all(p["tick"] >= b_first for p in _desc_plays(plugin, B, 1))


def test_armed_sound_keeps_its_cadence_across_boundaries() -> None:
    plugin, _, _, pos = _world()
    _run(plugin, 900, pos, 0.5)  # crosses ~9 cells and a landblock
    rebuild_ticks = set(_ticks(plugin, "rebuild"))
    assert len(rebuild_ticks) >= 9
    times = [r["t"] for r in _desc_plays(plugin, A, 0)]
    gaps = np.diff(times)
    assert len(times) >= 4
    # min_rate plus at most one tick: no restart at any of the crossings.
    assert np.all(gaps >= 3.0 - 1e-9) and np.all(gaps <= 3.0 + 1 / 60 + 1e-6)


def test_inaudible_sound_leaves_the_heap_until_a_later_rebuild() -> None:
    plugin, ac, listener, pos = _world()
    pos.x_m = 2250.0
    _run(plugin, 60)
    assert _desc_plays(plugin, B, 0)
    pos.x_m = 2000.0  # back west: B's landblock leaves the ring
    _run(plugin, 240)
    b_labels = {f"{B:#010x}#0", f"{B:#010x}#1"}
    unarmed = {r["ambient"] for r in plugin.events.where(source="ac", event="unarm")}
    assert b_labels <= unarmed
    assert not any(s.label in b_labels for _, s in ac.ambient.heap())
    assert ac.region is not None and ac.region.stb_descs[1].sound_table is None  # released
    # Pin the objcell and walk back: no rebuild, so B stays out of the heap.
    listener.objcell_id = ac.load_cell
    pos.x_m = 2250.0
    before = len(_desc_plays(plugin, B, 0))
    _run(plugin, 300)
    assert len(_desc_plays(plugin, B, 0)) == before
    listener.objcell_id = None  # the derived cell differs: rebuild, B armed at once
    _run(plugin, 1)
    tick = plugin.context.clock.tick
    assert _ticks(plugin, "rebuild")[-1] == tick
    assert _desc_plays(plugin, B, 0)[-1]["tick"] == tick


def test_indoors_everything_goes_silent() -> None:
    plugin, ac, listener, pos = _world()
    pos.x_m = 2250.0
    _run(plugin, 200)
    assert len(ac.ambient) == 4
    listener.outdoors = False
    _run(plugin, 1)
    inside = plugin.context.clock.tick
    last = plugin.events.where(source="ac", event="rebuild")[-1]
    assert last["tick"] == inside and last["outdoors"] is False and last["total"] == 0.0
    assert ac.last_rebuild is None
    _run(plugin, 300)
    assert not [r for r in plugin.events.where(source="ac", event="play") if r["tick"] >= inside]
    assert len(ac.ambient) == 0
    assert len([r for r in plugin.events.where(source="ac", event="unarm")
                if r["tick"] > inside]) == 4


def test_crossfade_shares_follow_total_weight() -> None:
    plugin, ac, _, pos = _world(slider=0.5)
    pos.x_m = 2240.0
    _run(plugin, 2)
    total = ac.ambient.total_sound_count
    constants = [s for s in ac.ambient.sounds if isinstance(s, ConstantSound)]
    assert len(constants) == 2
    shares = [s.sound_count / total for s in constants]
    assert sum(shares) == pytest.approx(1.0, abs=1e-6)
    assert 0.0 < shares[1] < shares[0] < 1.0
    for sound in constants:
        assert sound.current_volume == f32(f32(0.8 / total) * sound.sound_count)
        record = plugin.events.where(source="ac", event="play", ambient=sound.label)[0]
        assert record["volume"] == sound.current_volume and record["pos"] is None
        assert record["pan"] == 0
        assert record["db"] == attenuation_db(0.0, sound.current_volume, 0.5)  # squared slider
        assert record["gain"] == pytest.approx(10 ** (record["db"] / 20))


def test_intermittent_positions_lie_in_accumulated_bearings_and_shells() -> None:
    heading = math.radians(30.0)
    plugin, ac, _, pos = _world(heading_rad=heading)
    pos.x_m = 2220.0
    _run(plugin, 60 * 40)
    slots = ac.intermittent_slots()
    plays = [r for r in plugin.events.where(source="ac", event="play")
             if r["kind"] == "intermittent"]
    assert len(plays) > 10
    for r in plays:
        x, y, z = r["pos"]
        assert y == pos.y_m  # listener z kept
        dx, dy = x - pos.x_m, z - pos.z_m
        dist, bearing = math.hypot(dx, dy), math.degrees(math.atan2(dx, dy)) % 360
        fits = [
            (d, lo, hi) for d, lo, hi in slots[r["ambient"]]
            if abs((bearing - math.degrees(direction_heading(d)) + 180) % 360 - 180) <= 11.2501
            and lo - 1e-3 <= dist <= hi + 1e-3
        ]
        assert fits, (r, slots[r["ambient"]])
        assert r["pan"] == pan(r["bearing_deg"], 30.0, r["distance_m"])
        assert r["db"] == attenuation_db(r["distance_m"], 0.5)


def test_reset_on_objcell_zero_unarms_stale_deadlines() -> None:
    plugin, ac, listener, _ = _world()
    _run(plugin, 30)
    armed = len(ac.ambient)
    assert armed == 2
    listener.objcell_id = 0
    _run(plugin, 1)
    reset_tick = plugin.context.clock.tick
    assert _ticks(plugin, "reset") == [reset_tick]
    assert ac.region is not None and ac.region.stb_descs[0].sound_table is None
    assert len(ac.ambient) == armed  # the heap is left alone
    _run(plugin, 400)
    assert _ticks(plugin, "reset") == [reset_tick]  # once, not every tick
    assert len(ac.ambient) == 0
    assert not [t for t in _ticks(plugin, "play") if t > reset_tick]
    listener.objcell_id = None
    _run(plugin, 1)
    assert _ticks(plugin, "play")[-1] == plugin.context.clock.tick


def test_walking_off_the_map_resets() -> None:
    plugin, ac, _, pos = _world()
    _run(plugin, 5)
    pos.z_m = 5000.0
    _run(plugin, 2)
    assert len(_ticks(plugin, "reset")) == 1 and ac.load_cell == 0


def test_missing_sound_table_is_negatively_cached() -> None:
    plugin, ac, _, pos = _world()
    pos.x_m = 9 * 192 + 150.0
    _run(plugin, 2)
    pos.x_m += 24.0
    _run(plugin, 2)
    assert len(_ticks(plugin, "rebuild")) == 2
    misses = plugin.events.where(source="ac", event="stb_not_found")
    assert len(misses) == 1 and misses[0]["stb_id"] == C
    assert ac.region is not None and ac.region.stb_descs[2].stb_not_found
    snap = ac.last_rebuild
    assert snap is not None
    assert not (snap.weight[snap.stb == 2] > 0).any()
    assert not [s for s in ac.ambient.sounds if s.desc.stb_id == C]


def test_bad_listener_is_skipped_with_an_event() -> None:
    plugin, ac, listener, pos = _world()
    _run(plugin, 2)
    pos.x_m = float("nan")
    _run(plugin, 5)
    assert len(_ticks(plugin, "bad_listener")) == 1  # one per bad streak
    pos.x_m = START[0]
    _run(plugin, 1)
    pos.z_m = float("inf")
    _run(plugin, 3)
    pos.z_m = START[2]
    _run(plugin, 1)
    listener.heading_rad = float("nan")
    _run(plugin, 3)
    listener.heading_rad = 0.0
    _run(plugin, 1)
    listener.objcell_id = -4
    _run(plugin, 2)
    assert len(_ticks(plugin, "bad_listener")) == 4
    assert _ticks(plugin, "rebuild") == [1]
    listener.objcell_id = None
    pos.x_m = 2016.0
    _run(plugin, 1)
    assert _ticks(plugin, "rebuild")[-1] == plugin.context.clock.tick
    assert not plugin.events.where(event="error")
    assert ac.manager.player_origin[0] == 2016.0 - 10 * 192


def test_voicing_through_the_ac_channel_bank() -> None:
    plugin, ac, _, pos = _world(features=("audio", "ac"))
    ctx = plugin.context
    bank = ctx.channels["ac"]
    for name in ("a_bed", "a_call", "b_bed", "b_call"):
        ctx.sounds.add(name, np.zeros(4410, dtype=np.float32), 22050)
    pos.x_m = 2250.0
    _run(plugin, 120)
    plays = plugin.events.where(source="ac", event="play")
    starts = plugin.events.where(source="ac", event="start")  # the bank's own records
    assert plays and len(starts) == len(plays)
    for play, start in zip(plays, starts, strict=True):
        assert isinstance(play["channel"], int) and play["channel"] == start["channel"]
        assert start["gain"] == play["db"] and start["pan"] == play["pan"]
        assert start["sound"] == play["sound"] and start["pos"] == play["pos"]
    assert bank.profile == "ac"
    # constants play from the listener's centre: no position, no pan
    constants = [p for p in plays if p["kind"] == "constant"]
    intermittents = [p for p in plays if p["kind"] == "intermittent"]
    assert constants and intermittents
    assert all(p["pos"] is None and p["pan"] == 0 for p in constants)
    # intermittents are positioned, with the AC volume chain and pan
    for play in intermittents:
        assert len(play["pos"]) == 3 and play["pos"][1] == START[1]
        assert play["db"] == attenuation_db(play["distance_m"], play["volume"], 1.0)
        assert play["pan"] == pan(play["bearing_deg"], 0.0, play["distance_m"])
    assert any(p["pan"] != 0 for p in intermittents)


def test_same_seed_same_events() -> None:
    logs = []
    for run in range(2):
        esper.switch_world(f"ac-determinism-{run}")
        plugin, _, _, pos = _world(seed=21)
        _run(plugin, 400, pos, 0.6)
        logs.append([r for r in plugin.events.records if r["source"] == "ac"])
        plugin.uninstall()
        esper.switch_world("default")
        esper.delete_world(f"ac-determinism-{run}")
    assert logs[0] == logs[1] and len(logs[0]) > 15


def test_height_counts_in_the_weight() -> None:
    plugin, ac, _, pos = _world()
    pos.x_m = 2250.0
    _run(plugin, 2)
    flat_total = ac.ambient.total_sound_count
    pos.y_m = 90.0  # high above the flat terrain
    pos.x_m += 24.0
    _run(plugin, 1)
    pos.x_m -= 24.0
    _run(plugin, 1)
    assert ac.ambient.total_sound_count < flat_total
    b_sound = next(s for s in ac.ambient.sounds if s.label == f"{B:#010x}#1")
    assert isinstance(b_sound, IntermitSound)


def test_malformed_landblock_components_are_skipped() -> None:
    from soundscape.components.ac import Landblock, LandCell

    plugin, ac, _, _ = _world()
    esper.create_entity(Landblock(3, 3, (0,) * 81, (0.0,) * 81, (LandCell(1, 0, (0.0, 0.0, 0.0)),)))
    esper.create_entity(Landblock(4, 4, (0,) * 80, (0.0,) * 81))
    bare = esper.create_entity(Landblock(5, 5, (4,) * 81, ()))
    esper.create_entity(Landblock(10, 10, (0,) * 81, (0.0,) * 81))  # a second (10, 10): bare
    _run(plugin, 2)
    errors = plugin.events.where(source="ac", event="error")
    assert len(errors) == 3
    assert (3, 3) not in ac.landscape.blocks and (4, 4) not in ac.landscape.blocks
    assert len(ac.landscape.blocks[(5, 5)].cells) == 64  # built from its words
    assert ac.landscape.blocks[(5, 5)].cells[0].terrain_word == 4
    assert esper.entity_exists(bare)
    assert ac.rebuilds == 1
