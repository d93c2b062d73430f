"""Redguard script calls, channels, start index, ownership and master volume (seed 002)."""

from __future__ import annotations

import esper
import numpy as np
import pytest
from rg_world import RgWorld

from soundscape.components.redguard import RgAttachment, RgLink, RgObject
from soundscape.components.spatial import Listener, Position
from soundscape.errors import DataError
from soundscape.laws import redguard as law


@pytest.fixture
def w():
    world = RgWorld()
    for index in range(10):
        world.add_effect(index, seconds=1.0, loop_flag=0xFF if index == 9 else 0)
    world.add_effect(30, seconds=1.0, rate=8000, base_volume=0)
    world.add_effect(31, seconds=1.0, base_volume=100)
    return world


def start_event(w, **match):
    events = w.events("rg_start", **match)
    assert events, f"no rg_start matching {match}"
    return events[-1]


def test_sound_is_positional_from_the_caller(w):
    caller = w.obj(x_wu=1000 / 2**0.5 * 0 + 1000, z_wu=0)  # due east, 1000 units
    assert w.rt.script.Sound(caller, 3, 0, 0) == 0
    ev = start_event(w, sound="rg.sfx.3")
    assert ev["volume"] == 72 and ev["pan"] == 64  # abeam: centred
    assert ev["gain"] == law.miles_volume(72, 255) == 71
    assert ev["owner"] == caller and ev["effect"] == 3 and ev["rate_hz"] == 22050
    diag = w.obj(x_wu=100, z_wu=100)
    w.rt.script.Sound(diag, 4, 0, 0)
    assert start_event(w, sound="rg.sfx.4")["pan"] == 96


def test_shipped_flatsound_volume_128_clamps_to_127(w):
    caller = w.obj(5000, 5000)  # far away: FlatSound is not positional
    assert w.rt.script.FlatSound(caller, 30, 128, 0) == 0
    ev = start_event(w, sound="rg.sfx.30")
    assert ev["volume"] == 127 and ev["pan"] == 64
    w.rt.script.FlatSound(caller, 31, 128, 0)  # base 100 + 128 -> 127
    assert start_event(w, sound="rg.sfx.31")["volume"] == 127
    w.rt.script.FlatSound(caller, 31, -20, 0)  # base 100 - 20
    assert start_event(w, sound="rg.sfx.31")["volume"] == 80


def test_flatsound_base_volume_wraps_at_32_bits(w):
    caller = w.obj()
    w.rt.script.FlatSound(caller, 31, 2**31 - 50, 0)  # 100 + 2^31 - 50 wraps negative
    assert start_event(w, sound="rg.sfx.31")["volume"] == 0


def test_shipped_rate_offset_minus_10000_clamps_to_512(w):
    caller = w.obj()
    w.rt.script.FlatSound(caller, 30, 100, -10000)
    assert start_event(w, sound="rg.sfx.30")["rate_hz"] == 512
    assert w.bank.channels[start_event(w, sound="rg.sfx.30")["channel"]].rate_hz == 512
    w.rt.script.Sound(caller, 3, 0, 2000)  # AmbientSound/Sound +2000
    assert start_event(w, sound="rg.sfx.3")["rate_hz"] == 24050


def test_shipped_flatsound_4_128_minus_10000_in_the_soup_table_order(w):
    # The public SOUP table (michidk/redguard-preservation docs/engine/sound.md):
    # FlatSound(effect, volume, rate_offset). The shipped FlatSound(4, 128, -10000) on a
    # 22,050 Hz effect of base volume 64 plays at clamp(64 + 128) = 127 and 22050 - 10000
    # = 12,050 Hz; read the other way round it was volume 0 (64 - 10000) at 22,178 Hz.
    caller = w.obj()
    w.rt.script.FlatSound(caller, 4, 128, -10000)
    ev = start_event(w, sound="rg.sfx.4")
    assert ev["volume"] == 127 and ev["rate_hz"] == 12050 and ev["pan"] == 64


def test_shipped_defaults_base_volume_64_distance_1600_twenty_lines():
    # MAIN.SFX header byte 0x0C is 64 in all 118 effects: FlatSound(e, 0, 0) plays at 64;
    # SYSTEM.INI [dialog] dialog_max_distance 1600, dialog_max_dialog_lines 20
    world = RgWorld()
    world.rt.effects.add(5, np.full(2205, 1000, np.int16), 22050)
    assert world.rt.effects.get(5).base_volume == 64
    world.rt.script.FlatSound(world.obj(), 5, 0, 0)
    assert start_event(world, sound="rg.sfx.5")["volume"] == 64
    assert world.rt.config.dialog_max_distance == 1600
    assert len(world.rt.dialogue.records) == 20


@pytest.mark.parametrize("effect", [-1, 118, 127])
def test_out_of_range_effects_start_nothing(w, effect):
    caller = w.obj()
    assert w.rt.script.Sound(caller, effect, 0, 0) == 0
    assert w.rt.script.FlatSound(caller, effect, 0, 0) == 0
    assert w.playing() == []
    assert len(w.events("skip", reason="effect out of range")) == 2


def test_a_missing_effect_inside_the_bank_starts_nothing(w):
    """Bad input (missing sound): index 20 is below the bank's count (118) but was never
    loaded; every start path skips it with an event, returns as usual, and no state is lost."""
    caller = w.obj()
    assert len(w.rt.effects) > 20 and w.rt.effects.get(20) is None
    w.rt.script.Sound(caller, 1, 0, 0)
    assert w.rt.script.Sound(caller, 20, 0, 0) == 0
    assert w.rt.script.FlatSound(caller, 20, 0, 0) == 0
    assert w.rt.engine.anim_play_sound(caller, 20, 0) is None
    assert len(w.playing()) == 1
    assert len(w.events("skip", sound=20)) == 3
    w.step(2)  # the loop goes on
    assert w.ctx.events.where(event="error") == []


def test_shipped_ambientsound_effect_127_never_sounds(w):
    caller = w.obj(100, 0)
    task = w.rt.script.AmbientSound(caller, 127, 0, 0)
    w.step(30)
    assert w.playing() == [] and not task.done
    assert len(w.events("skip", sound=127)) == 1  # reported once, not every tick


def test_start_index_is_zero_at_boot_then_six(w):
    caller = w.obj()
    w.rt.script.Sound(caller, 1, 0, 0)
    assert start_event(w, sound="rg.sfx.1")["channel"] == 0  # boot: 0
    w.rt.engine.combat_hit(caller, 2)  # a special start resets the shared index
    assert start_event(w, sound="rg.sfx.2")["channel"] == 4
    assert w.rt.start_index == 6
    w.rt.script.Sound(caller, 3, 0, 0)
    assert start_event(w, sound="rg.sfx.3")["channel"] == 6


def test_channel_exhaustion_drops_and_never_steals(w):
    caller = w.obj()
    w.rt.start_index = 6
    for _ in range(10):
        w.rt.script.Sound(caller, 9, 0, 0)
    assert w.playing() == list(range(6, 16))
    before = [(c.sound, c.generation) for c in w.bank.channels]
    assert w.rt.script.Sound(caller, 1, 0, 0) == 0  # returns 0 though nothing starts
    assert [(c.sound, c.generation) for c in w.bank.channels] == before
    drops = w.ctx.events.where(source="redguard", event="drop")
    assert len(drops) == 1 and drops[0]["sound"] == "rg.sfx.1"
    assert w.ctx.events.where(event="steal") == []
    # channels below the start index stay free for speech and the player
    w.rt.engine.anim_play_sound(caller, 1, 0, player=True)
    assert start_event(w, sound="rg.sfx.1")["channel"] == 0


def test_master_change_reaches_a_playing_sound_only_at_its_next_volume_set(w):
    caller = w.obj(0, 1000)
    w.rt.script.Sound(caller, 9, 0, 0)  # a looping one-shot start
    ambient = w.obj(0, 1000)
    w.rt.start_index = 6
    w.rt.script.AmbientSound(ambient, 9, 0, 0)
    w.step(1)
    one_shot, amb = w.bank.channels[0], w.bank.channels[6]
    assert one_shot.volume == amb.volume == (72 * 255) >> 8
    w.rt.set_master(128)
    assert one_shot.volume == amb.volume == 71  # nothing sent yet
    w.step(1)  # the ambient task sets its volume every update
    assert amb.volume == (72 * 128) >> 8 == 36
    assert one_shot.volume == 71  # a one-shot keeps its start volume


@pytest.mark.parametrize("bad", [-1, 1.5, None, True])
def test_set_master_refuses_bad_values(w, bad):
    from soundscape.errors import InputError

    with pytest.raises(InputError, match="master"):
        w.rt.set_master(bad)
    assert w.rt.master == 255


def test_engine_default_master_256_sends_volume_unchanged(w):
    caller = w.obj(0, 1000)
    w.rt.set_master(law.MASTER_ENGINE_DEFAULT)
    w.rt.script.Sound(caller, 1, 0, 0)
    assert start_event(w, sound="rg.sfx.1")["gain"] == 72  # (72 x 256) >> 8


def test_end_calls_match_owner_and_requested_effect(w):
    a, b = w.obj(), w.obj()
    for caller, effect in ((a, 9), (a, 8), (b, 9), (b, 8)):
        w.rt.script.Sound(caller, effect, 0, 0)
    assert w.rt.script.EndMySound(a, 9) == 0
    assert sorted(w.bank.channels[i].owner for i in w.playing()) == [a, b, b]
    assert w.rt.script.EndSound(a, 8) == 0  # any owner
    assert [(w.bank.channels[i].owner, w.bank.channels[i].effect) for i in w.playing()] == [
        (b, 9)]
    assert w.rt.script.EndMySounds(a) == 0  # stops nothing: still zero
    assert w.rt.script.EndMySounds(b) == 0 and w.playing() == []
    w.rt.script.Sound(a, 9, 0, 0)
    w.rt.script.Sound(b, 9, 0, 0)
    assert w.rt.script.StopAllSounds(a) == 0 and w.playing() == []


def test_shell_and_code_object_owners(w):
    item_user = w.obj(0, 10)
    shell_entry = 9001
    w.rt.script.Sound(item_user, 9, 0, 0, owner=shell_entry)
    assert start_event(w, sound="rg.sfx.9")["owner"] == shell_entry
    w.rt.script.EndMySounds(item_user)
    assert w.playing() != []  # the object does not own it
    w.rt.script.EndMySounds(item_user, owner=shell_entry)
    assert w.playing() == []
    code_object = esper.create_entity()  # no world object: centred at the listener
    w.rt.script.Sound(code_object, 9, 0, 0)
    ev = start_event(w, sound="rg.sfx.9")
    assert ev["volume"] == 127 and ev["pan"] == 64 and ev["owner"] == code_object


def test_killme_stops_the_objects_channels(w):
    a, b = w.obj(), w.obj()
    w.rt.script.Sound(a, 9, 0, 0)
    w.rt.script.Sound(b, 9, 0, 0)
    w.rt.script.KillMe(a)
    assert [w.bank.channels[i].owner for i in w.playing()] == [b]
    obj = esper.component_for_entity(a, RgObject)
    assert obj.killed and obj.death_state == 8
    w.rt.script.Resurrect(a)
    assert not obj.killed


def test_emitter_rules_attachment_and_link(w):
    master = w.obj(0, 1000, yaw_units=512)  # faces east
    slave = w.obj(9999, 9999, attr_slave=True)
    # offset 500 forward in the master's frame -> 500 east of the master
    esper.add_component(slave, RgAttachment(master, offset_z_m=500 / 20))
    w.rt.script.Sound(slave, 1, 0, 0)
    point = w.rt.emitter(slave)
    assert point == (500 * 256, 0, 1000 * 256)
    assert start_event(w, sound="rg.sfx.1")["pan"] == law.pan(500 * 256, 1000 * 256)
    # without attr_slave the attachment is ignored
    esper.component_for_entity(slave, RgObject).attr_slave = False
    assert w.rt.emitter(slave) == (9999 * 256, 0, 9999 * 256)
    linked = w.obj(50, 50)
    record = esper.create_entity(Position(0.0, 0.0, -10.0))
    esper.add_component(linked, RgLink(record))
    assert w.rt.emitter(linked) == (0, 0, -200 * 256)


def test_listener_is_the_camera_yaw_only(w):
    esper.component_for_entity(w.listener, Listener).heading_rad = 3.14159265 / 4  # yaw 256
    caller = w.obj(100, 100)
    w.step(1)
    assert w.rt.yaw == 256
    w.rt.script.Sound(caller, 1, 0, 0)
    assert start_event(w, sound="rg.sfx.1")["pan"] == 64  # straight ahead


def test_nan_position_starts_nothing(w):
    caller = w.obj()
    esper.component_for_entity(caller, Position).x_m = float("nan")
    assert w.rt.script.Sound(caller, 1, 0, 0) == 0
    assert w.playing() == [] and w.events("skip", reason="emitter position not finite")


def test_bad_settings_are_refused():
    with pytest.raises(DataError, match="sound_distance"):
        RgWorld(extra={"sound_distance": 3})
    with pytest.raises(DataError, match="bogus"):
        RgWorld(extra={"bogus": 1})
    with pytest.raises(DataError, match="units_per_m"):
        RgWorld(extra={"units_per_m": -1.0})


def test_a_nan_camera_keeps_the_last_good_sample(w):
    listener = esper.component_for_entity(w.listener, Listener)
    position = esper.component_for_entity(w.listener, Position)
    listener.heading_rad = 3.14159265 / 2  # yaw 512
    position.z_m = 10.0
    w.step(1)
    assert w.rt.yaw == 512 and w.rt.listener == (0, 0, 200 * 256)
    listener.heading_rad = float("nan")
    position.x_m = float("inf")
    w.step(3)  # inside esper.process: no crash, nothing lost
    assert w.rt.yaw == 512 and w.rt.listener == (0, 0, 200 * 256)
    assert len(w.events("skip", reason="camera not finite")) == 1
    assert not w.ctx.events.where(event="error")
    listener.heading_rad, position.x_m = 0.0, 0.0
    w.step(1)
    assert w.rt.yaw == 0


def test_a_code_object_is_centred_whatever_the_camera_yaw(w):
    esper.component_for_entity(w.listener, Listener).heading_rad = 3.14159265 / 4  # yaw 256
    w.step(1)
    assert w.rt.yaw == 256
    code_object = esper.create_entity()
    w.rt.script.Sound(code_object, 9, -27, 0)
    ev = start_event(w, sound="rg.sfx.9")
    assert ev["pan"] == 64 and ev["volume"] == 100
    # an object standing exactly at the camera is not centred: heading 0 - yaw 256
    at_camera = w.obj(0, 0)
    w.rt.script.Sound(at_camera, 8, 0, 0)
    assert start_event(w, sound="rg.sfx.8")["pan"] == law.pan_from_angle(2048 - 256) == 32


def test_a_huge_finite_camera_heading_is_an_angle_not_a_crash(w):
    # Fuzzing found heading 1e308 overflowing round(heading x 2048 / 2 pi) inside
    # sound maintenance (OverflowError out of esper.process).
    listener = esper.component_for_entity(w.listener, Listener)
    listener.heading_rad = 1e308
    w.step(1)
    assert w.rt.yaw == 1865 and not w.ctx.events.where(event="error")
    listener.heading_rad = 3.14159265 / 2 + 2 * 3.14159265 * 1000  # whole turns drop out
    w.step(1)
    assert w.rt.yaw == 512
