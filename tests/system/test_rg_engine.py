"""Engine-internal Redguard sounds: animation PlaySound, combat, torch, ropes (seed 002)."""

from __future__ import annotations

import esper
import pytest
from rg_world import RgWorld

from soundscape.components.redguard import RgAnimation, RgAttachment, RgLink, RgObject, RgRope
from soundscape.components.spatial import Position
from soundscape.laws import redguard as law
from soundscape.rng import Rng


@pytest.fixture
def w():
    world = RgWorld(seed=11)
    for index in (1, 2, 3, 25, 40, 41, 62, 63):
        world.add_effect(index, seconds=0.5, loop_flag=0)
    world.rt.start_index = 6
    return world


def starts(w, **match):
    return w.events("rg_start", **match)


# -- animation PlaySound ---------------------------------------------------------


def test_anim_rate_field_in_64_hz_steps_and_volume_curve(w):
    actor = w.obj(0, 1000)
    slot = w.rt.engine.anim_play_sound(actor, 40, 0x3F8)  # raw 10-bit -8
    ev = starts(w, sound="rg.sfx.40")[0]
    assert ev["rate_hz"] == 21538 and ev["volume"] == 72 and ev["channel"] == slot == 6
    assert esper.component_for_entity(actor, RgAnimation).sound_slot == slot


def test_anim_starts_even_when_silent(w):
    far = w.obj(0, 2300)
    assert w.rt.engine.anim_play_sound(far, 40, 0) is not None
    assert starts(w, sound="rg.sfx.40")[0]["volume"] == 0


def test_animation_sounds_come_from_the_object_itself(w):
    """Seed 002 emitter rules: an attached or linked object's script sounds come
    from its master / linked record, but its animation sounds from itself."""
    master = w.obj(0, 2290)  # beyond the silent distance
    slave = w.obj(0, 1000, attr_slave=True)
    esper.add_component(slave, RgAttachment(master))
    record = esper.create_entity(Position(0.0, 0.0, 2290 / 20))
    linked = w.obj(0, 1000)
    esper.add_component(linked, RgLink(record))
    for entity in (slave, linked):
        assert w.rt.emitter(entity) == (0, 0, 2290 * 256)  # script sounds: silent there
        w.rt.engine.anim_play_sound(entity, 40, 0)
        assert starts(w, sound="rg.sfx.40")[-1]["volume"] == 72  # as from z = 1000


def test_player_animation_uses_start_index_zero(w):
    player = w.obj(0, 10)
    assert w.rt.engine.anim_play_sound(player, 40, 0, player=True) == 0
    assert w.rt.start_index == 6


def test_surface_remap_only_for_animation(w):
    w.rt.surface.set(7, 40, 41)  # wood
    actor = w.obj(0, 10, surface=7)
    w.rt.engine.anim_play_sound(actor, 40, 0)
    ev = starts(w)[-1]
    assert ev["sound"] == "rg.sfx.41" and ev["effect"] == 40  # requested kept before remap
    w.rt.script.Sound(actor, 40, 0, 0)  # Sound is never remapped
    assert starts(w)[-1]["sound"] == "rg.sfx.40"
    esper.component_for_entity(actor, RgObject).surface = 0
    w.rt.engine.anim_play_sound(actor, 40, 0)
    assert starts(w)[-1]["sound"] == "rg.sfx.40"


def test_the_configured_unknown_row_is_bypassed(w, tmp_path):
    ini = tmp_path / "SURFACE.INI"
    ini.write_text("[unknown]\n40 = 41\n[water]\n40 = 63\n")
    w.rt.surface.load_ini(ini)
    assert w.rt.surface.table[40] == 41  # row 0 is configured ...
    actor = w.obj(0, 10, surface=0)
    w.rt.engine.anim_play_sound(actor, 40, 0)
    assert starts(w)[-1]["sound"] == "rg.sfx.40"  # ... but surface 0 never looks it up
    esper.component_for_entity(actor, RgObject).surface = 1
    w.rt.engine.anim_play_sound(actor, 40, 0)
    assert starts(w)[-1]["sound"] == "rg.sfx.63"


def test_the_selected_players_animation_defaults_to_start_index_zero(w):
    player, npc = w.obj(0, 10), w.obj(0, 20)
    w.rt.player = player
    assert w.rt.engine.anim_play_sound(player, 40, 0) == 0
    assert w.rt.engine.anim_play_sound(npc, 40, 0) == 6
    assert w.rt.engine.anim_play_sound(npc, 40, 0, player=True) == 1


def test_surface_lookup_bounds_as_the_seed_gives_them(w):
    remap = w.rt.surface
    remap.set(2, 3, 63)
    assert remap.lookup(13, 40) == 40 and remap.lookup(0, 40) == 40
    assert remap.lookup(12, 40) is None  # beyond the table: no defined remap
    assert remap.lookup(1, 256 + 3) == 63  # no source-ID check: reads row 2
    actor = w.obj(0, 10, surface=12)
    assert w.rt.engine.anim_play_sound(actor, 40, 0) is None
    assert w.events("skip", reason="surface 12 has no defined remap")
    remap.table = None
    assert remap.lookup(5, 40) == 40


def test_remap_target_passes_playback_validation(w):
    w.rt.surface.set(1, 40, 500)  # unsigned 16-bit target beyond the bank
    actor = w.obj(0, 10, surface=1)
    assert w.rt.engine.anim_play_sound(actor, 40, 0) is None
    assert w.events("skip", reason="effect out of range")


def test_handles_name_slots_end_animation_and_group_change(w):
    actor = w.obj(0, 10)
    first = w.rt.engine.anim_play_sound(actor, 40, 0)
    second = w.rt.engine.anim_play_sound(actor, 41, 0)
    assert w.playing() == [first, second]  # the first is not stopped
    w.rt.engine.end_animation(actor)
    assert w.playing() == [first]  # only the remembered slot stops
    third = w.rt.engine.anim_play_sound(actor, 40, 0)
    w.rt.engine.select_group(actor, 3)  # clears the handle without a stop
    w.rt.engine.end_animation(actor)
    assert third in w.playing()


def test_end_animation_stops_whatever_now_holds_the_slot(w):
    actor, other = w.obj(0, 10), w.obj(0, 20)
    slot = w.rt.engine.anim_play_sound(actor, 40, 0)
    w.rt.stop_slot(slot)  # the animation's sound is gone; the slot is reused
    w.rt.script.Sound(other, 41, 0, 0)
    assert w.bank.channels[slot].owner == other
    w.rt.engine.end_animation(actor)
    assert not w.bank.channels[slot].playing  # retail: no owner or effect compare


# -- combat ----------------------------------------------------------------------


def test_combat_hit_rate_offset_and_start_index(w):
    attacker = w.obj(0, 100)
    expected = Rng(11).msvc("redguard.combat")
    for _ in range(5):
        w.rt.engine.combat_hit(attacker, 2)
        offset = (expected.rand() % 128) * 16 - 1024
        ev = starts(w, sound="rg.sfx.2")[-1]
        assert -1024 <= offset <= 1008 and ev["rate_hz"] == 22050 + offset
        assert ev["start_index"] == 4 and ev["owner"] == attacker
    assert [e["channel"] for e in starts(w, sound="rg.sfx.2")] == [4, 5, 6, 7, 8]
    assert w.rt.start_index == 6


def test_combat_contact_service_uses_the_shared_index_and_silence_starts_nothing(w):
    attacker = w.obj(0, 100)
    w.rt.engine.combat_hit(attacker, 2, message_response=False)
    assert starts(w, sound="rg.sfx.2")[-1]["channel"] == 6
    far = w.obj(0, 2290)  # v = 0
    assert w.rt.engine.combat_hit(far, 2) is None
    assert w.events("skip", reason="silent (v = 0)")


# -- torch -----------------------------------------------------------------------


def test_torch_loop_restarts_refreshes_and_goes_out(w):
    player = w.obj(0, 0)
    w.rt.player = player
    w.rt.engine.set_torch(True)
    w.step(1)
    ev = starts(w, sound="rg.sfx.25")
    assert len(ev) == 1 and ev[0]["owner"] == player and ev[0]["volume"] == 127 - 40
    slot = w.rt.engine.torch_slot
    w.move(player, 0, 1000)
    w.step(1)
    assert w.bank.channels[slot].volume == law.miles_volume(law.volume(1000, -40))
    w.step(40)  # 0.5 s effect ends and is restarted
    assert len(starts(w, sound="rg.sfx.25")) >= 2
    assert sum(c.sound == "rg.sfx.25" and c.playing for c in w.bank.channels) == 1
    w.rt.engine.set_torch(False)
    assert not any(c.playing for c in w.bank.channels)
    w.step(5)
    assert w.playing() == []


# -- ropes -----------------------------------------------------------------------


def test_rope_thresholds_and_fall_through(w):
    rope = w.obj(0, 100)
    esper.add_component(rope, RgRope(effects=(62, 0, 63), max_swing_speed=40))  # q = 10
    engine = w.rt.engine
    assert engine.rope_update(rope, 5) is None  # a sign change, but slower than q
    assert engine.rope_update(rope, 36) is None  # same sign: nothing at any speed
    assert engine.rope_update(rope, -30) is not None  # >= 3q: third effect
    assert starts(w)[-1]["sound"] == "rg.sfx.63"
    assert engine.rope_update(rope, 25) is not None  # >= 2q: second is 0, falls to first
    assert starts(w)[-1]["sound"] == "rg.sfx.62"
    assert engine.rope_update(rope, -9) is None  # below q
    assert engine.rope_update(rope, 0) is None  # changed sign, speed 0
    assert engine.rope_update(rope, 0, speed=12) is not None  # stays at zero: plays by speed
    assert starts(w)[-1]["sound"] == "rg.sfx.62"


def test_rope_with_small_q_or_far_plays_nothing(w):
    small = w.obj(0, 100)
    esper.add_component(small, RgRope(effects=(62, 62, 63), max_swing_speed=11))  # q = 2
    assert w.rt.engine.rope_update(small, -50) is None
    three = w.obj(0, 100)
    esper.add_component(three, RgRope(effects=(62, 62, 63), max_swing_speed=12))  # q = 3
    assert w.rt.engine.rope_update(three, -2) is None  # below q
    assert w.rt.engine.rope_update(three, 3) is not None  # q = 3 is the first that plays
    assert starts(w)[-1]["sound"] == "rg.sfx.62"
    far = w.obj(0, 2295)
    esper.add_component(far, RgRope(effects=(62, 62, 63), max_swing_speed=40))
    assert w.rt.engine.rope_update(far, -50) is None
    assert len(starts(w)) == 1


@pytest.mark.parametrize("bad", [2.5, None, "40"])
def test_engine_calls_refuse_non_integer_arguments(w, bad):
    from soundscape.errors import InputError

    actor = w.obj(0, 10)
    esper.add_component(actor, RgRope(effects=(62, 62, 63), max_swing_speed=40))
    with pytest.raises(InputError, match="PlaySound: effect_field"):
        w.rt.engine.anim_play_sound(actor, bad, 0)
    with pytest.raises(InputError, match="combat_hit: hit_sound"):
        w.rt.engine.combat_hit(actor, bad)
    with pytest.raises(InputError, match="rope_update: velocity"):
        w.rt.engine.rope_update(actor, bad)
    assert w.playing() == []
