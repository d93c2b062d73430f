"""AC ``Ambient::Play`` and ``SoundManager::PlayAmbientSound[FromCenter]``: every draw,
every gate and the re-insert (seed 000 sections 5, 7, 8 and 11).

Each test replays the expected draws on twin generators and checks the runtime's
generators end in the same state, so a missing, extra or reordered draw fails:
``Random::RollDice`` draws ``Random::rand`` (``LecuyerRand``, the manager's
``dice``) and the ``probability_`` roll MSVC ``rand()`` (``MsvcRand``, ``rng``).
"""

from __future__ import annotations

import math

import pytest

from soundscape import Context, Settings
from soundscape.ac.ambient import Ambient
from soundscape.ac.region import Region, SoundTableEntry
from soundscape.ac.region_toml import region_from_dict
from soundscape.ac.sample import sample_region
from soundscape.ac.sound_manager import AcSoundManager
from soundscape.ac.sound_types import SOUND_TYPES
from soundscape.ac.sounds import ConstantSound, IntermitSound
from soundscape.laws.ac import Direction, attenuation_db
from soundscape.rng import LecuyerRand, MsvcRand

SEED = 23
AMBIENT1 = SOUND_TYPES["Ambient1"]


def _setup() -> tuple[Context, Region, Ambient]:
    ctx = Context.create(Settings(seed=SEED, backend="none", features=("ac",)))
    region = region_from_dict(sample_region(1))
    region.init_sound_table(region.stb_descs[0])
    manager = AcSoundManager(ctx, MsvcRand(SEED), (0, 0), dice=LecuyerRand(SEED))
    manager.player_cell, manager.player_origin = 0x0A0A0001, (50.0, 60.0, 7.0)
    ambient = Ambient(manager)
    ambient.init_sounds(0x0A0A0001, (50.0, 60.0, 7.0))
    return ctx, region, ambient


def _constant(ambient: Ambient, region: Region, volume: float = 0.5) -> ConstantSound:
    sound = ambient.get_sound(region.stb_descs[0], 0)
    assert isinstance(sound, ConstantSound)
    sound.current_volume = volume
    return sound


def _intermit(ambient: Ambient, region: Region, chance: float) -> IntermitSound:
    sound = ambient.get_sound(region.stb_descs[0], 1)  # volume 0.5, rates 3..7
    assert isinstance(sound, IntermitSound)
    sound.add_to(1.0, (0.0, 30.0, 0.0), Direction.NORTH_OF_VIEWER)
    sound.play_chance = chance
    return sound


def _events(ctx: Context, event: str) -> list[dict[str, object]]:
    return ctx.events.where(source="ac", event=event)


def test_constant_play_draws_the_entry_pick_and_the_probability_roll_only() -> None:
    ctx, region, ambient = _setup()
    sound = _constant(ambient, region)
    twin = MsvcRand(SEED)
    ambient.play(sound, 10.0)
    twin.unit()  # rand() vs probability_, after GetSound's one RollDice(0, 1) pick
    assert ambient.manager.rng.state == twin.state
    assert ambient.manager.dice.draws == 1  # no PlayNow roll, no interval roll
    assert ambient.heap() == [(13.0, sound)]  # min_rate 3, max_rate unused
    (play,) = _events(ctx, "play")
    assert play["pos"] is None and play["pan"] == 0  # from the centre
    assert play["db"] == attenuation_db(0.0, 0.5) == -6


def test_play_now_is_inclusive_at_the_play_chance() -> None:
    ctx, region, ambient = _setup()
    first = LecuyerRand(SEED).unit()  # PlayNow's RollDice(0, 1) is 0 + 1 * this draw
    sound = _intermit(ambient, region, first)
    ambient.play(sound, 0.0)
    assert len(_events(ctx, "play")) == 1 and not _events(ctx, "skip")


def test_failed_play_now_still_reinserts_with_only_the_interval_drawn() -> None:
    ctx, region, ambient = _setup()
    twin = LecuyerRand(SEED)
    first = twin.unit()
    sound = _intermit(ambient, region, math.nextafter(first, 0.0))
    ambient.play(sound, 5.0)
    interval = 3.0 + (7.0 - 3.0) * twin.unit()  # GetPlayInterval: RollDice(min, max)
    assert ambient.manager.dice.draws == twin.draws == 2  # no position, no table pick
    assert ambient.manager.rng.state == SEED  # and no probability roll
    assert [r["reason"] for r in _events(ctx, "skip")] == ["chance"]
    assert not _events(ctx, "play")
    assert ambient.heap() == [(5.0 + interval, sound)] and sound.on_queue


def test_probability_roll_is_strictly_below() -> None:
    ctx, region, ambient = _setup()
    roll = MsvcRand(SEED).unit()  # the first rand(): GetSound's pick draws Random::rand
    entry = region.stb_descs[0].sound_table.entries[AMBIENT1][0]  # type: ignore[union-attr]
    entry.probability = roll  # rand()/32768 < probability_: equal fails
    sound = _constant(ambient, region)
    ambient.play(sound, 0.0)
    assert [r["reason"] for r in _events(ctx, "skip")] == ["probability"]
    assert ambient.heap() == [(3.0, sound)]  # still re-inserted
    entry.probability = math.nextafter(roll, 1.0)
    ambient.manager.rng.state = SEED
    ambient.play(sound, 3.5)
    assert len(_events(ctx, "play")) == 1


def test_entry_pick_is_int_of_roll_times_count_less_one() -> None:
    # The public decompile (acclient.c:383432): (int)((n - 1) * RollDice(0, 1)), kept when
    # below n. Random::rand stays below 1, so the last of three entries never plays.
    ctx, region, ambient = _setup()
    table = region.stb_descs[0].sound_table
    assert table is not None
    table.entries[AMBIENT1] = [SoundTableEntry(f"e{i}", 1, 1.0, 1.0) for i in range(3)]
    sound = _constant(ambient, region)
    twin = LecuyerRand(SEED)
    expected = []
    for _ in range(40):
        expected.append(f"e{int(twin.unit() * 2)}")
        ambient.play(sound, 0.0)
    assert [r["sound"] for r in _events(ctx, "play")] == expected
    assert set(expected) == {"e0", "e1"}  # e2 is dead data
    table.entries[AMBIENT1] = table.entries[AMBIENT1][:1]
    ambient.play(sound, 0.0)  # one entry: (1 - 1) x r = 0 always
    assert _events(ctx, "play")[-1]["sound"] == "e0"


def test_no_table_entry_plays_nothing_and_draws_nothing() -> None:
    ctx, region, ambient = _setup()
    table = region.stb_descs[0].sound_table
    assert table is not None
    del table.entries[AMBIENT1]
    sound = _constant(ambient, region)
    ambient.play(sound, 1.0)
    assert ambient.manager.rng.state == SEED and ambient.manager.dice.draws == 0
    assert [r["reason"] for r in _events(ctx, "skip")] == ["no_entry"]
    assert ambient.heap() == [(4.0, sound)]


def test_vol_min_rejection_still_reinserts() -> None:
    ctx, region, ambient = _setup()
    ambient.manager.ambient_volume = 0.05  # squared: 0.5 * 0.0025 is -58 dB
    sound = _constant(ambient, region)
    ambient.play(sound, 2.0)
    assert attenuation_db(0.0, 0.5, 0.05) is None
    assert [r["reason"] for r in _events(ctx, "skip")] == ["vol_min"]
    assert ambient.heap() == [(5.0, sound)]


@pytest.mark.parametrize("kind", ["constant", "intermittent"])
def test_cannot_hear_unarms_without_a_draw(kind: str) -> None:
    ctx, region, ambient = _setup()
    if kind == "constant":
        sound: ConstantSound | IntermitSound = _constant(ambient, region, volume=0.0299)
    else:
        sound = _intermit(ambient, region, 0.0)
    sound.on_queue = True  # as if its deadline was just popped
    ambient.play(sound, 1.0)
    assert ambient.manager.rng.state == SEED and ambient.manager.dice.draws == 0
    assert not sound.on_queue and len(ambient) == 0
    assert [r["reason"] for r in _events(ctx, "unarm")] == ["inaudible"]
    assert not _events(ctx, "play") and not _events(ctx, "skip")


def test_released_table_silences_a_constant_until_reloaded() -> None:
    _, region, ambient = _setup()
    desc = region.stb_descs[0]
    sound = _constant(ambient, region)
    assert sound.can_hear()
    ambient.release_sound_tables()  # nobody counted the desc this rebuild
    assert desc.sound_table is None and not sound.can_hear()
    assert region.init_sound_table(desc) and sound.can_hear()  # GetSTBDesc's lazy reload
