"""AC ConstantSound / IntermitSound / Ambient (seed 000 sections 3-8, 10)."""

from __future__ import annotations

import math

import pytest

from soundscape import Context, Settings
from soundscape.ac.ambient import Ambient
from soundscape.ac.region import AmbientSTBDesc, Region
from soundscape.ac.region_toml import region_from_dict
from soundscape.ac.sample import sample_region
from soundscape.ac.sound_manager import AcSoundManager
from soundscape.ac.sounds import ConstantSound, IntermitSound
from soundscape.laws.ac import MIN_VOLUME, Direction, attenuation_db, direction_heading, f32
from soundscape.rng import LecuyerRand, MsvcRand

D = Direction


def _setup(seed: int = 1, slider: float = 1.0) -> tuple[Context, Region, Ambient]:
    ctx = Context.create(Settings(seed=seed, backend="none", features=("ac",),
                                  ambient_volume=slider))
    region = region_from_dict(sample_region(2))
    for desc in region.stb_descs:
        region.init_sound_table(desc)
    manager = AcSoundManager(ctx, MsvcRand(seed), (0, 0), dice=LecuyerRand(seed))
    manager.player_cell, manager.player_origin = 0x0A0A0001, (50.0, 60.0, 7.0)
    ambient = Ambient(manager)
    ambient.init_sounds(0x0A0A0001, (50.0, 60.0, 7.0))
    return ctx, region, ambient


# -- ConstantSound -------------------------------------------------------------------------


def test_constant_volume_is_the_terrain_share() -> None:
    _, region, ambient = _setup()
    desc = region.stb_descs[0]
    sound = ambient.get_sound(desc, 0)
    assert isinstance(sound, ConstantSound)
    sound.sound_count = 3.0
    sound.update_sound(4.0)
    assert sound.current_volume == f32(f32(0.8 / 4.0) * 3.0)
    assert desc.play_count == 1


def test_constant_zero_count_is_silent_and_not_counted() -> None:
    _, region, ambient = _setup()
    sound = ambient.get_sound(region.stb_descs[0], 0)
    sound.current_volume = 0.5
    sound.update_sound(4.0)
    assert sound.current_volume == 0.0 and region.stb_descs[0].play_count == 0


def test_constant_can_hear_floor_is_float32_0_03() -> None:
    _, region, ambient = _setup()
    sound = ambient.get_sound(region.stb_descs[0], 0)
    assert isinstance(sound, ConstantSound)
    sound.current_volume = MIN_VOLUME
    assert sound.can_hear()
    sound.current_volume = f32(0.0299999)
    assert not sound.can_hear()
    sound.current_volume = 0.5
    region.stb_descs[0].sound_table = None
    assert not sound.can_hear()  # needs a loaded table


def test_constant_reset_keeps_current_volume() -> None:
    _, region, ambient = _setup()
    sound = ambient.get_sound(region.stb_descs[0], 0)
    assert isinstance(sound, ConstantSound)
    sound.current_volume, sound.sound_count, region.stb_descs[0].play_count = 0.4, 2.0, 3
    sound.reset_count()
    assert (sound.current_volume, sound.sound_count, region.stb_descs[0].play_count) == (0.4, 0, 0)


def test_constant_interval_is_min_rate_without_a_draw() -> None:
    _, region, ambient = _setup()
    rng = MsvcRand(3)
    sound = ambient.get_sound(region.stb_descs[0], 0)
    assert sound.get_play_interval(rng) == 3.0 and rng.state == 3
    assert sound.play_now(rng) and rng.state == 3


# -- IntermitSound -----------------------------------------------------------------------------


def _intermit(ambient: Ambient, region: Region) -> IntermitSound:
    sound = ambient.get_sound(region.stb_descs[0], 1)
    assert isinstance(sound, IntermitSound)
    return sound


def test_in_viewer_source_adds_4_to_10_m_at_all_eight_bearings() -> None:
    _, region, ambient = _setup()
    sound = _intermit(ambient, region)
    sound.add_to(1.0, (3.0, 4.0, 0.0), D.IN_VIEWER_BLOCK)
    # N S E W NW NE SW SE: the public decompile's order (acclient.c:384259; seed l.464
    # lists NW SW NE SE)
    assert sound.slots() == [(d, 4.0, 10.0) for d in (1, 2, 3, 4, 5, 7, 6, 8)]
    assert sound.sound_count == 1.0


def test_neighbour_source_adds_a_20_m_shell_and_widens_strictly() -> None:
    _, region, ambient = _setup()
    sound = _intermit(ambient, region)
    sound.add_to(0.25, (0.0, 40.0, 0.0), D.NORTH_OF_VIEWER)
    sound.add_to(0.1, (30.0, 30.0, 0.0), D.NORTHEAST_OF_VIEWER)
    sound.add_to(0.5, (0.0, 30.0, 0.0), D.NORTH_OF_VIEWER)
    sound.add_to(0.5, (0.0, 35.0, 0.0), D.NORTH_OF_VIEWER)  # inside: no change
    ne = f32(math.sqrt(1800.0))
    assert sound.slots() == [
        (D.NORTH_OF_VIEWER, 20.0, 50.0),
        (D.NORTHEAST_OF_VIEWER, f32(ne - 10.0), f32(ne + 10.0)),
    ]
    assert sound.sound_count == f32(f32(f32(0.25 + 0.1) + 0.5) + 0.5)
    # Height counts in the shell distance (3D |offset|).
    sound.add_to(0.1, (0.0, -30.0, 40.0), D.SOUTH_OF_VIEWER)
    assert sound.slots()[2] == (D.SOUTH_OF_VIEWER, 40.0, 60.0)


def test_intermit_update_keeps_chance_when_count_is_zero_and_reset_clears() -> None:
    _, region, ambient = _setup()
    sound = _intermit(ambient, region)
    sound.sound_count = 2.0
    sound.update_sound(8.0)
    assert sound.play_chance == f32(f32(0.6 / 8.0) * 2.0)
    sound.sound_count = 0.0
    sound.update_sound(8.0)
    assert sound.play_chance > 0.0  # UpdateSound never clears it
    sound.add_to(1.0, (0.0, 0.0, 0.0), D.IN_VIEWER_BLOCK)
    sound.reset_count()
    assert (sound.play_chance, sound.sound_count, sound.num_dir) == (0.0, 0.0, 0)
    assert not sound.can_hear()


def test_sound_pos_draw_order_bearing_shell_and_z() -> None:
    _, region, ambient = _setup()
    sound = _intermit(ambient, region)
    sound.add_to(0.25, (0.0, 40.0, 0.0), D.NORTH_OF_VIEWER)
    sound.add_to(0.25, (-40.0, 0.0, 0.0), D.WEST_OF_VIEWER)
    rng, twin = MsvcRand(77), MsvcRand(77)
    origin = (50.0, 60.0, 7.0)
    pos = sound.get_sound_pos(origin, rng)
    assert pos is not None
    idx = int(math.floor(0.0 + 2.0 * twin.unit()))  # RollDice(0, num_dir)
    spread = f32(math.pi / 8)
    angle = direction_heading(sound.sound_dir[idx]) + spread * twin.unit() - spread * 0.5
    lo, hi = sound.min_dist[idx], sound.max_dist[idx]
    t = twin.unit()
    dist = lo + (hi - lo) * t * t
    assert pos == (f32(50.0 + math.sin(angle) * dist), f32(60.0 + math.cos(angle) * dist), 7.0)
    assert rng.state == twin.state


def test_sound_positions_stay_in_their_slots() -> None:
    _, region, ambient = _setup()
    sound = _intermit(ambient, region)
    sound.add_to(0.25, (0.0, 40.0, 0.0), D.NORTH_OF_VIEWER)
    sound.add_to(0.25, (50.0, -50.0, 0.0), D.SOUTHEAST_OF_VIEWER)
    rng = MsvcRand(5)
    seen = set()
    for _ in range(500):
        x, y, z = sound.get_sound_pos((0.0, 0.0, 3.0), rng)
        dist, bearing = math.hypot(x, y), math.degrees(math.atan2(x, y)) % 360
        ok = [i for i, d in enumerate(sound.sound_dir)
              if abs((bearing - math.degrees(direction_heading(d)) + 180) % 360 - 180) <= 11.25001
              and sound.min_dist[i] - 1e-3 <= dist <= sound.max_dist[i] + 1e-3]
        assert ok and z == 3.0
        seen.add(ok[0])
    assert seen == {0, 1}


# -- Ambient ------------------------------------------------------------------------------------


def test_get_sound_creates_by_is_continuous_in_first_use_order() -> None:
    _, region, ambient = _setup()
    second, first = region.stb_descs[1], region.stb_descs[0]
    a = ambient.get_sound(second, 2)
    b = ambient.get_sound(first, 0)
    assert ambient.get_sound(second, 2) is a
    assert [type(s) for s in ambient.sounds] == [IntermitSound, ConstantSound]
    assert ambient.sounds == [a, b] and not a.on_queue and a.sound_count == 0.0


def test_add_sound_culls_beyond_120_m_in_3d_and_adds_total() -> None:
    _, region, ambient = _setup()
    desc = region.stb_descs[0]
    ambient.add_sound(desc, 0x0A0A0001, (50.0, 60.0 + 119.0, 7.0))
    assert ambient.total_sound_count == f32(400.0 / f32(119.0 * 119.0))
    ambient.add_sound(desc, 0x0A0A0001, (50.0, 60.0 + 100.0, 7.0 + 70.0))  # 122 m in 3D
    assert ambient.total_sound_count == f32(400.0 / f32(119.0 * 119.0))
    assert [s.sound_count for s in ambient.sounds] == [ambient.total_sound_count] * 4


def test_add_sound_is_block_corrected() -> None:
    _, region, ambient = _setup()
    desc = region.stb_descs[0]
    # The cell's SW vertex at (0, 60) of the landblock to the east: 192 - 50 = 142 m away.
    ambient.add_sound(desc, 0x0B0A0001, (0.0, 60.0, 7.0))
    assert ambient.total_sound_count == 0.0
    ambient.add_sound(desc, 0x090A0001, (150.0, 60.0, 7.0))  # 50 + 42 = 92 m west
    assert ambient.total_sound_count == f32(400.0 / (92.0 * 92.0))
    sound = ambient.sounds[1]
    assert isinstance(sound, IntermitSound) and sound.sound_dir == [D.WEST_OF_VIEWER]


def test_update_play_queue_plays_unarmed_at_once_and_guards_armed() -> None:
    ctx, region, ambient = _setup()
    desc = region.stb_descs[0]
    ambient.add_sound(desc, 0x0A0A0001, (50.0, 70.0, 7.0))
    ambient.update_play_queue(0.0)
    plays = ctx.events.where(event="play")
    assert len(plays) >= 1 and plays[0]["kind"] == "constant"
    assert all(s.on_queue for s in ambient.sounds) and len(ambient) == 4
    before = len(ctx.events)
    ambient.update_play_queue(0.5)  # everything armed: nothing replays
    assert len(ctx.events) == before and len(ambient) == 4


def test_use_time_pops_strictly_earlier_deadlines() -> None:
    ctx, region, ambient = _setup()
    ambient.add_sound(region.stb_descs[0], 0x0A0A0001, (50.0, 70.0, 7.0))
    ambient.update_play_queue(1.0)
    constant = ambient.sounds[0]
    deadline = next(t for t, s in ambient.heap() if s is constant)
    assert deadline == 4.0
    ambient.use_time(4.0)  # 4.0 < 4.0 is false: not yet
    assert next(t for t, s in ambient.heap() if s is constant) == 4.0
    ambient.use_time(4.0 + 1e-9)
    assert next(t for t, s in ambient.heap() if s is constant) == pytest.approx(7.0 + 1e-9)


def test_inaudible_sound_leaves_the_heap() -> None:
    ctx, region, ambient = _setup()
    ambient.add_sound(region.stb_descs[0], 0x0A0A0001, (50.0, 70.0, 7.0))
    ambient.update_play_queue(0.0)
    ambient.init_sounds(0x0A0A0001, (50.0, 60.0, 7.0))  # a rebuild that adds nothing
    ambient.update_play_queue(0.1)
    assert len(ambient) == 4
    ambient.use_time(100.0)
    assert len(ambient) == 0 and not any(s.on_queue for s in ambient.sounds)
    assert len(ctx.events.where(event="unarm")) == 4


def test_flush_releases_tables_and_stale_deadlines_unarm_quietly() -> None:
    ctx, region, ambient = _setup()
    desc = region.stb_descs[0]
    ambient.add_sound(desc, 0x0A0A0001, (50.0, 70.0, 7.0))
    ambient.update_play_queue(0.0)
    plays = len(ctx.events.where(event="play"))
    ambient.flush_sound_tables()
    assert desc.sound_table is None and ambient.total_sound_count == 0.0
    assert len(ambient) == 4  # the heap is left alone
    ambient.use_time(100.0)
    assert len(ambient) == 0 and len(ctx.events.where(event="play")) == plays


def test_release_only_unused_tables() -> None:
    _, region, ambient = _setup()
    used, unused = region.stb_descs
    ambient.get_sound(unused, 0)
    ambient.add_sound(used, 0x0A0A0001, (50.0, 70.0, 7.0))
    ambient.update_play_queue(0.0)
    ambient.release_sound_tables()
    assert used.sound_table is not None and unused.sound_table is None


def test_intermittent_play_draws_in_retail_order() -> None:
    ctx, region, ambient = _setup(seed=11)
    desc = region.stb_descs[0]
    ambient.add_sound(desc, 0x0A0A0001, (50.0, 70.0, 7.0))  # in viewer: weight 1
    ambient.total_sound_count = 1.0
    sound = _intermit(ambient, region)
    sound.update_sound(1.0)
    twin, rand = LecuyerRand(11), MsvcRand(11)
    ambient.play(sound, 2.0)
    chance = twin.unit()  # PlayNow: RollDice(0, 1) <= play_chance (0.6)
    slot, jitter, t = twin.unit(), twin.unit(), twin.unit()  # GetSoundPos
    pick, roll = twin.unit(), rand.unit()  # GetSound entry, then rand() vs probability_
    interval = 3.0 + 4.0 * twin.unit()  # RollDice(min_rate 3, max_rate 7)
    assert ambient.manager.dice.draws == twin.draws == 6
    assert ambient.manager.rng.state == rand.state
    assert next(t for t, s in ambient.heap() if s is sound) == 2.0 + interval
    assert chance <= sound.play_chance  # this seed passes both rolls
    assert roll < 1.0 and 0.0 <= pick < 1.0 and slot >= 0.0 and jitter >= 0.0 and t >= 0.0
    record = ctx.events.where(event="play")[-1]
    assert record["sound"] == "ac_0_Ambient2" and record["kind"] == "intermittent"
    assert record["db"] == attenuation_db(record["distance_m"], 0.5)


def test_desc_without_sounds_still_counts_in_the_total() -> None:
    _, region, ambient = _setup()
    empty = AmbientSTBDesc(5, [])
    ambient.add_sound(empty, 0x0A0A0001, (50.0, 70.0, 7.0))
    assert ambient.total_sound_count == 1.0 and ambient.sounds == []
