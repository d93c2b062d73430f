"""Channel allocation, one test per rule (seed 001 "Channels", seed 002), fades and handles."""

from __future__ import annotations

import numpy as np
import pytest

from soundscape import Context, Settings
from soundscape.audio.channels import ChannelBank, ensure_bank
from soundscape.audio.sounds import SoundBank
from soundscape.components.channel import AMBIENT, LOCKED, ChannelFlags, ChannelKind


def make_ctx() -> Context:
    ctx = Context.create(Settings(backend="none"))
    ctx.sounds = SoundBank()
    ctx.sounds.add("one_s", np.zeros(22050, dtype=np.float32), 22050)
    return ctx


def oni_bank(ctx: Context) -> ChannelBank:
    return ensure_bank(ctx, "oni", count=16, policy="oni", profile="oni", stereo_count=7)


def fill(bank: ChannelBank, kind: ChannelKind, volume: float = 1.0, **kw) -> list:
    handles = []
    for ch in bank.channels:
        if ch.kind == kind:
            h = bank.acquire(kind=kind, **kw)
            bank.play(h, "one_s", volume=volume)
            handles.append(h)
    return handles


# --- Oni (SSiSoundChannels_GetChannelForPlay 0x47fab0) ------------------------------

def test_oni_default_layout_is_7_stereo_9_mono():
    bank = oni_bank(make_ctx())
    kinds = [c.kind for c in bank.channels]
    assert kinds.count(ChannelKind.STEREO) == 7 and kinds.count(ChannelKind.MONO) == 9
    assert all(c.priority == 1 for c in bank.channels)


def test_oni_rule_1_first_free_channel_of_its_own_kind():
    bank = oni_bank(make_ctx())
    first_mono = bank.acquire(kind=ChannelKind.MONO)
    first_stereo = bank.acquire(kind=ChannelKind.STEREO)
    assert first_mono.slot == 7 and first_stereo.slot == 0
    bank.play(first_mono, "one_s", volume=1.0)
    assert bank.acquire(kind=ChannelKind.MONO).slot == 8


def test_oni_rule_2_first_unlocked_of_lower_priority():
    ctx = make_ctx()
    bank = oni_bank(ctx)
    fill(bank, ChannelKind.MONO)
    bank.channels[7].flags |= LOCKED  # held by an ambient
    steal = bank.acquire(kind=ChannelKind.MONO, priority=3)  # every channel has priority 1
    assert steal.slot == 8
    assert ctx.events.where(event="steal")[-1]["channel"] == 8


def test_oni_rule_3_unlocked_quiet_channel():
    ctx = make_ctx()
    bank = oni_bank(ctx)
    fill(bank, ChannelKind.MONO, volume=0.8)
    bank.channels[12].volume = 0.1  # 0.1 or less counts as quiet
    bank.channels[10].volume = 0.11
    h = bank.acquire(kind=ChannelKind.MONO, priority=1)
    assert h.slot == 12


def test_oni_rule_3_takes_the_first_quiet_unlocked_one_not_the_quietest():
    bank = oni_bank(make_ctx())
    fill(bank, ChannelKind.MONO, volume=0.8)
    bank.channels[8].volume = 0.01
    bank.channels[8].flags |= LOCKED  # quietest, but locked: rule 3 skips it
    bank.channels[11].volume = 0.1
    bank.channels[14].volume = 0.02  # quieter, but after 11
    assert bank.acquire(kind=ChannelKind.MONO, priority=1).slot == 11


def test_oni_rule_4_quietest_under_full_volume_taken_from_its_ambient():
    ctx = make_ctx()
    bank = oni_bank(ctx)
    fill(bank, ChannelKind.MONO, volume=1.0, lock=True, ambient=True)
    bank.channels[9].volume = 0.6
    bank.channels[13].volume = 0.4
    stolen = []
    bank.on_steal.append(
        lambda b, old, ch: stolen.append((old, ch.index, bool(ch.flags & AMBIENT))))
    h = bank.acquire(kind=ChannelKind.MONO, priority=1)
    assert h.slot == 13
    assert stolen and stolen[0][1] == 13 and stolen[0][2] is True
    assert bank.get(stolen[0][0]) is None  # the ambient's old handle is stale now
    assert not bank.channels[13].locked


def test_oni_rules_3_and_4_weigh_the_overall_volume_in():
    bank = oni_bank(make_ctx())
    fill(bank, ChannelKind.MONO, volume=1.0, lock=True)
    bank.channels[10].flags &= ~LOCKED
    bank.channels[10].volume = 0.15
    assert bank.acquire(kind=ChannelKind.MONO, priority=1).slot == 10  # rule 4 (0.15 < 1)
    fill(bank, ChannelKind.MONO, volume=1.0, lock=True)
    assert bank.acquire(kind=ChannelKind.MONO, priority=1) is None  # all at full volume
    bank.set_overall_volume(0.5, immediate=True)  # now every product is 0.5: under full
    taken = bank.acquire(kind=ChannelKind.MONO, priority=1)
    assert taken.slot == 7
    bank.play(taken, "one_s", volume=1.0)
    bank.channels[7].flags |= LOCKED
    bank.channels[12].flags &= ~LOCKED
    bank.channels[12].volume = 0.2  # 0.2 x 0.5 = 0.1: quiet (rule 3 takes it first)
    bank.channels[9].volume = 0.15  # quieter but locked: rule 4 would have taken it
    assert bank.acquire(kind=ChannelKind.MONO, priority=1).slot == 12


def test_oni_rule_4_quietest_locked_or_not_first_on_a_tie():
    bank = oni_bank(make_ctx())
    fill(bank, ChannelKind.MONO, volume=0.9)  # none quiet (> 0.1)
    bank.channels[8].flags |= LOCKED
    bank.channels[8].volume = 0.3  # locked and quietest: taken all the same
    bank.channels[12].volume = 0.3  # the same volume, later: not taken
    assert bank.acquire(kind=ChannelKind.MONO, priority=1).slot == 8


def test_oni_rule_4_nothing_when_all_at_full_volume():
    ctx = make_ctx()
    bank = oni_bank(ctx)
    fill(bank, ChannelKind.MONO, volume=1.0, lock=True)
    assert bank.acquire(kind=ChannelKind.MONO, priority=1, sound="x") is None
    assert ctx.events.where(event="drop", sound="x")


def test_oni_priority_0_gets_only_a_free_channel():
    ctx = make_ctx()
    bank = oni_bank(ctx)
    fill(bank, ChannelKind.MONO, volume=0.05)  # all quiet and unlocked
    assert bank.acquire(kind=ChannelKind.MONO, priority=0) is None
    bank.stop(bank.handle(bank.channels[15]))
    assert bank.acquire(kind=ChannelKind.MONO, priority=0).slot == 15


def test_oni_sound_plays_on_its_own_kind_only():
    bank = oni_bank(make_ctx())
    fill(bank, ChannelKind.STEREO, volume=1.0, lock=True)
    fill(bank, ChannelKind.MONO, volume=0.01)  # quiet, unlocked, but mono
    assert bank.acquire(kind=ChannelKind.STEREO, priority=3) is None
    bank.channels[3].volume = 0.5
    assert bank.acquire(kind=ChannelKind.STEREO, priority=3).slot == 3


def test_flags_stay_plain_ints_and_read_as_channel_flags():
    bank = oni_bank(make_ctx())
    h = bank.acquire(kind=ChannelKind.MONO, lock=True, ambient=True)
    bank.play(h, "one_s", volume=1.0, loop=True, can_pan=True)
    channel = bank.get(h)
    assert type(channel.flags) is int
    assert channel.flag_set == (ChannelFlags.PLAYING | ChannelFlags.LOOPING | ChannelFlags.LOCKED
                                | ChannelFlags.CAN_PAN | ChannelFlags.AMBIENT)
    channel.flags |= ChannelFlags.PAUSED  # a caller may still write the enum...
    bank.advance(1)
    assert channel.cursor_frames == 0.0  # ...and it is honoured (paused)
    bank.stop(h)
    assert type(channel.flags) is int and not channel.playing


# --- Redguard -----------------------------------------------------------------------

def rg_bank(ctx: Context) -> ChannelBank:
    return ensure_bank(ctx, "redguard", count=16, policy="redguard", profile="redguard")


def test_redguard_first_idle_at_or_above_start_index():
    bank = rg_bank(make_ctx())
    assert bank.acquire(start_index=6).slot == 6
    h = bank.acquire(start_index=4)
    bank.play(h, "one_s", volume=100, rate_hz=22050)
    assert h.slot == 4
    assert bank.acquire(start_index=4).slot == 5


def test_redguard_never_steals_and_logs_the_drop():
    ctx = make_ctx()
    bank = rg_bank(ctx)
    for i in range(14, 16):
        h = bank.acquire(start_index=i)
        bank.play(h, "one_s", volume=1, rate_hz=22050)
    assert bank.acquire(start_index=14, sound="clank", priority=9) is None
    assert not ctx.events.where(event="steal")
    drop = ctx.events.where(event="drop")[-1]
    assert drop["sound"] == "clank" and drop["reason"] == "no channel"
    assert all(c.playing for c in bank.channels[14:])


# --- virtual --------------------------------------------------------------------------

def test_virtual_bank_grows_and_voices_the_loudest_n():
    ctx = make_ctx()
    bank = ensure_bank(ctx, "ac", count=0, policy="virtual", profile="ac", real_voices=3)
    for i in range(6):
        h = bank.acquire()
        bank.play(h, "one_s", volume=-i * 3, pan=0)
    bank.channels[5].volume = 0  # now the loudest
    from soundscape.audio.profiles import apply_law

    for ch in bank.channels:
        apply_law(bank, ch, 48000)
    bank.cull_voices()
    assert len(bank.channels) == 6
    assert [c.index for c in bank.channels if c.audible] == [0, 1, 5]


# --- handles, fades, overall volume -----------------------------------------------

def test_stale_handle_does_nothing():
    bank = oni_bank(make_ctx())
    old = bank.acquire(kind=ChannelKind.MONO)
    bank.play(old, "one_s", volume=0.5)
    bank.stop(old)
    new = bank.acquire(kind=ChannelKind.MONO)
    assert new.slot == old.slot and new.generation == old.generation + 1
    bank.set_volume(old, 0.9)
    assert bank.play(old, "one_s", volume=1.0) is False
    assert bank.stop(old) is False
    assert bank.channels[old.slot].volume == 0.5


def test_oni_fade_rate_per_tick_and_only_on_a_new_target():
    bank = oni_bank(make_ctx())
    h = bank.acquire(kind=ChannelKind.MONO)
    bank.play(h, "one_s", volume=0.0, loop=True)
    bank.fade(h, 1.0, 0.1)
    bank.advance(1)
    assert bank.get(h).volume == pytest.approx(0.1)
    bank.advance(3)
    assert bank.get(h).volume == pytest.approx(0.4)
    bank.advance(6)
    assert bank.get(h).volume == 1.0 and not bank.get(h).fading
    bank.set_volume(h, 0.0)  # a re-take: volume 0, then the same target again...
    bank.fade(h, 1.0, 0.1)
    bank.advance(5)
    assert bank.get(h).volume == 0.0  # ...the fade does not start (seed 001, body state)


def test_overall_volume_slides_at_most_005_a_frame():
    # SS2iVolume_Update runs once a frame (SS2rUpdate): a frame of 10 ticks moves it
    # 0.05 like a frame of 1, as the placed ambients' slew does
    bank = oni_bank(make_ctx())
    bank.set_overall_volume(0.0)
    bank.advance(1)
    assert bank.overall_volume == pytest.approx(0.95)
    bank.advance(10)
    assert bank.overall_volume == pytest.approx(0.90)
    for _ in range(18):
        bank.advance(3)
    assert bank.overall_volume == 0.0


def test_overall_volume_target_is_held_to_0_1_and_nan_ignored():
    ctx = make_ctx()
    bank = oni_bank(ctx)
    bank.set_overall_volume(float("nan"))
    bank.set_overall_volume(float("inf"), immediate=True)
    assert bank.overall_volume == 1.0 and bank.overall_target == 1.0
    bank.set_overall_volume(-3.0)
    for _ in range(20):  # 0.05 a frame
        bank.advance(5)
    assert bank.overall_volume == 0.0
    assert len(ctx.events.where(event="bad_value")) == 1


def test_end_callback_can_chain_the_next_sound():
    ctx = make_ctx()
    bank = oni_bank(ctx)
    h = bank.acquire(kind=ChannelKind.MONO)
    bank.play(h, "one_s", volume=1.0)
    chained = []

    def next_sound(b, handle, channel, overshoot):
        chained.append(overshoot)
        b.play(handle, "one_s", volume=1.0, offset_frames=overshoot)

    bank.on_end.append(next_sound)
    bank.advance(61)  # 22,050 x 61/60 frames: 367.5 past the end
    assert chained == [pytest.approx(367.5)]
    assert bank.get(h).playing and bank.get(h).cursor_frames == pytest.approx(367.5)
    # it began inside this tick: 367.5 frames before the interval's end
    assert bank.get(h).start_cursor_frames == pytest.approx(367.5 - 22050 * 61 / 60)
    assert [r["event"] for r in ctx.events if r["channel"] == h.slot] == ["start", "end", "start"]


def test_fade_out_of_a_fresh_sound_starts():
    bank = oni_bank(make_ctx())
    h = bank.acquire(kind=ChannelKind.MONO)
    bank.play(h, "one_s", volume=0.8, loop=True)
    bank.fade(h, 0.0, 0.1)
    bank.advance(2)
    assert bank.get(h).volume == pytest.approx(0.6)


def test_a_nan_or_negative_pitch_holds_the_sound_where_it_is():
    ctx = make_ctx()
    bank = oni_bank(ctx)
    h = bank.acquire(kind=ChannelKind.MONO)
    bank.play(h, "one_s", volume=1.0)
    chained = []
    bank.on_end.append(lambda b, handle, ch, overshoot: chained.append(overshoot))
    bank.advance(6)
    assert bank.get(h).cursor_frames == pytest.approx(2205.0)
    for pitch in (float("nan"), -1.0, float("inf")):
        bank.set_pitch(h, pitch)
        bank.advance(120)  # two seconds: the 1 s sound would have ended
        assert bank.get(h).cursor_frames == pytest.approx(2205.0) and bank.get(h).playing
    assert chained == []  # no end with a NaN overshoot handed to an owner
    bank.set_pitch(h, 1.0)
    bank.advance(60)
    assert chained == [pytest.approx(2205.0)]


def test_a_nan_fade_is_ignored_and_logged():
    ctx = make_ctx()
    bank = oni_bank(ctx)
    h = bank.acquire(kind=ChannelKind.MONO)
    bank.play(h, "one_s", volume=0.5, loop=True)
    bank.fade(h, float("nan"), 0.1)
    bank.fade(h, 0.0, float("inf"))
    bank.advance(10)
    assert bank.get(h).volume == 0.5 and not bank.get(h).fading
    assert len(ctx.events.where(event="bad_value")) == 2
    bank.fade(h, 0.0, 0.1)  # a good fade afterwards still starts
    bank.advance(2)
    assert bank.get(h).volume == pytest.approx(0.3)
