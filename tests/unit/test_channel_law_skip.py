"""Phase CHANNELS skips the law of a channel whose inputs did not change, and phase
PUBLISH sends nothing for a voice whose parameters did not change (issue 18)."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from soundscape import Context, Settings
from soundscape.audio import channel_cull, channel_laws, channel_stream, profiles
from soundscape.audio import channels as channels_module
from soundscape.audio.buses import Buses
from soundscape.audio.channels import ensure_bank
from soundscape.audio.commands import SET, Command
from soundscape.audio.profiles import MODERN_INPUTS, apply_law, held_rate_hz, modern_law_arrays
from soundscape.audio.sounds import SoundBank
from soundscape.components.channel import Channel


def make_ctx() -> Context:
    ctx = Context.create(Settings(backend="none"))
    ctx.sounds = SoundBank()
    ctx.sounds.add("tone", np.zeros(48_000, dtype=np.float32), 48_000)
    return ctx


def count_laws(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the bank's calls of ``apply_law`` (the real law still runs)."""
    calls: list[int] = []

    def counted(bank, channel, rate_hz, bits=16):  # type: ignore[no-untyped-def]
        calls.append(channel.index)
        return apply_law(bank, channel, rate_hz, bits)

    for module in (channel_laws, channel_stream):  # the law step; a replay's freeze
        monkeypatch.setattr(module, "apply_law", counted)
    return calls


@pytest.mark.parametrize("profile", ["modern", "ac", "oni", "redguard"])
def test_law_runs_only_for_channels_whose_inputs_changed(profile, monkeypatch):
    # the per-channel path (a modern bank's columns: test_array_laws_run_only_...)
    monkeypatch.setattr(channels_module, "COLUMN_PROFILES", ())
    ctx = make_ctx()
    bank = ensure_bank(ctx, "b", count=3, policy="redguard", profile=profile)
    volume = {"modern": 0.5, "ac": -6, "oni": 0.5, "redguard": 100}[profile]
    handles = []
    for _ in range(3):
        handles.append(handle := bank.acquire())
        bank.play(handle, "tone", volume=volume, loop=True, rate_hz=22_050)
    calls = count_laws(monkeypatch)
    bank.step(1, ctx.sounds)
    assert calls == [0, 1, 2]
    calls.clear()
    bank.step(1, ctx.sounds)
    assert calls == []  # nothing changed: every gain and step stands
    bank.set_pan(handles[1], bank.channels[1].pan + 1)
    bank.step(1, ctx.sounds)
    assert calls == [1]
    calls.clear()
    bank.set_overall_volume(0.5, immediate=True)  # a bank-wide input: every law again
    bank.step(1, ctx.sounds)
    assert calls == [0, 1, 2]


def test_skipped_laws_leave_the_gains_the_law_gives(monkeypatch):
    """Random changes to random channels over many ticks: every playing channel's
    gains and step equal a fresh law of its current inputs, NaN included."""
    ctx = make_ctx()
    bank = ensure_bank(ctx, "modern", count=0, policy="virtual", profile="modern",
                       real_voices=4)
    rng = random.Random(18)
    handles = []
    for _ in range(12):
        handle = bank.acquire()
        bank.play(handle, "tone", volume=rng.uniform(0, 1), pan=rng.uniform(-1, 1), loop=True)
        handles.append(handle)
    choices = [0.0, 0.25, 1.0, 2.0, -1.0, float("nan"), float("inf")]
    for _ in range(60):
        for _ in range(rng.randrange(4)):
            handle = rng.choice(handles)
            setter = rng.choice([bank.set_volume, bank.set_pan, bank.set_pitch])
            setter(handle, rng.choice(choices + [rng.uniform(-1, 1)]))
        if rng.random() < 0.1:
            bank.fade_to(rng.choice(handles), rng.uniform(0, 1), 0.1)
        bank.step(1, ctx.sounds)
        for channel in bank.channels:
            fresh = dataclasses.replace(channel)
            apply_law(bank, fresh, ctx.settings.sample_rate_hz, 16)
            assert (channel.gain_left, channel.gain_right, channel.step) == (
                fresh.gain_left, fresh.gain_right, fresh.step)
        bank.commands(1, [])
        bank.mark_published()


def publish(bank) -> list[Command]:
    out: list[Command] = []
    bank.commands(1, out)
    bank.mark_published()
    return out


def test_unchanged_and_culled_voices_send_no_command():
    ctx = make_ctx()
    bank = ensure_bank(ctx, "modern", count=0, policy="virtual", profile="modern",
                       real_voices=1)
    loud = bank.acquire()
    bank.play(loud, "tone", volume=0.9, loop=True)
    quiet = bank.acquire()
    bank.play(quiet, "tone", volume=0.1, loop=True)
    bank.step(1, ctx.sounds)
    assert bank.channels[1].audible is False
    publish(bank)  # the start
    for _ in range(3):
        bank.step(1, ctx.sounds)
        assert publish(bank) == []  # nothing changed
    bank.set_pan(quiet, 0.5)  # a culled voice changes: still culled, nothing sent
    bank.step(1, ctx.sounds)
    assert publish(bank) == []
    bank.set_pan(loud, -0.5)  # the audible one changes: one set, for it
    bank.step(1, ctx.sounds)
    assert [(c.op, c.voice) for c in publish(bank)] == [(SET, bank.channels[0].voice_id)]


ODD = [0.0, -0.0, 1.0, -1.0, 1e300, -1e300, 1e-13, float("nan"), float("inf"), -float("inf")]
"""Values that take ``modern_law_arrays`` off its whole-array shortcuts."""
NEAR_EDGES = [-1.0 + 2.0 ** -53, 1.0 - 2.0 ** -53, -1.0 + 1e-12, 5e-7, 2e5, 1e6, 1e6 + 1.0,
              499_999.0, -3.0, 1e-300]
"""Pans beside -1 and 1 (the angle's smallest values), gains beside ``MAX_GAIN``, a
negative level, a volume so small that its gains are tiny."""


def assert_array_laws_equal_the_law(overall: float, channels: list[Channel]) -> None:
    """``modern_law_arrays`` over ``channels`` gives what ``apply_law`` gives each one:
    the same gains and step (``repr``), the same channels silenced."""
    ctx = make_ctx()
    bank = ensure_bank(ctx, "modern", count=0, policy="virtual", profile="modern")
    bank.overall_volume = overall
    copies = [dataclasses.replace(c) for c in channels]
    inputs = np.array([[float(getattr(c, name)) for c in channels] for name in MODERN_INPUTS])
    gains, step, usable = modern_law_arrays(overall, inputs, ctx.settings.sample_rate_hz)
    left, right = gains.tolist()
    for channel, gain_left, gain_right, frames in zip(channels, left, right, step.tolist(),
                                                      strict=True):
        channel.gain_left, channel.gain_right, channel.step = gain_left, gain_right, frames
    silenced = [] if usable is None else [channels[i] for i in np.flatnonzero(~usable)]
    # the advance's held rates, when given, make the same step
    held = np.array([held_rate_hz("modern", c, ctx.settings.sample_rate_hz) for c in copies])
    again = modern_law_arrays(overall, inputs, ctx.settings.sample_rate_hz, held)
    assert repr([gains.tolist(), step.tolist()]) == repr([again[0].tolist(), again[1].tolist()])
    # written into a bank's columns (views of wider arrays, stale values in them): the same
    for rates in (None, held):
        columns = np.full((3, len(channels) + 5), 7.0)
        into = modern_law_arrays(overall, inputs, ctx.settings.sample_rate_hz, rates,
                                 (columns[:2, :len(channels)], columns[2, :len(channels)]))
        assert into[0].base is columns and into[1].base is columns
        assert repr([into[0].tolist(), into[1].tolist()]) == repr([gains.tolist(), step.tolist()])
        assert repr(into[2]) == repr(usable)
    failed = [c.index for c in copies
              if not apply_law(bank, c, ctx.settings.sample_rate_hz, 16)]
    assert [c.index for c in silenced] == failed
    for got, want in zip(channels, copies, strict=True):
        assert repr((got.gain_left, got.gain_right, got.step)) == repr(
            (want.gain_left, want.gain_right, want.step))


def random_channels(seed: int, odd_share: float, odd: list[float]) -> list[Channel]:
    """400 channels of random inputs, ``odd_share`` of the values drawn from ``odd``."""
    rng = random.Random(seed)
    channels = []
    for index in range(400):
        channel = Channel("modern", index, sample_rate_hz=rng.choice([22_050, 44_100, 48_000]))
        for name, low, high in (("volume", -0.5, 3.0), ("pan", -1.5, 1.5), ("pitch", -1.0, 80.0),
                                ("rate_hz", 0.0, 48_000.0), ("level", 0.0, 2.0)):
            value = rng.choice(odd) if rng.random() < odd_share else rng.uniform(low, high)
            setattr(channel, name, 1.0 if name == "level" and rng.random() < 0.5 else value)
        channels.append(channel)
    return channels


@pytest.mark.parametrize("overall", [1.0, 0.37, 0.0, float("nan")])
def test_modern_laws_as_arrays_equal_the_law_to_the_bit(overall):
    """``modern_law_arrays`` against ``apply_law`` for random channels, odd values
    included."""
    assert_array_laws_equal_the_law(overall, random_channels(11, 0.1, ODD))


@pytest.mark.parametrize("overall", [1.0, 0.37, -2.0])
@pytest.mark.parametrize("odd_share", [0.0, 0.02])
def test_array_laws_shortcuts_equal_the_law(overall, odd_share):
    """The whole-array shortcuts (all finite, no tiny or huge gain, every rate held
    as it is) and their fall-backs, beside their edges: the law's numbers."""
    assert_array_laws_equal_the_law(overall, random_channels(12, odd_share, NEAR_EDGES))


def test_array_laws_of_tame_channels_take_the_shortcuts_to_the_law():
    """Channels with plain values only (volume 0..3, pitch 0.5..2, level 1): each
    shortcut holds, and the numbers are the law's."""
    rng = random.Random(13)
    channels = [Channel("modern", i, volume=rng.uniform(0.0, 3.0), pan=rng.uniform(-1.0, 1.0),
                        pitch=rng.uniform(0.5, 2.0)) for i in range(300)]
    inputs = np.array([[float(getattr(c, name)) for c in channels] for name in MODERN_INPUTS])
    assert profiles.usable_inputs(inputs, 1.0) is None
    gains, step, usable = modern_law_arrays(1.0, inputs, 48_000)
    assert usable is None and gains.min() >= 1e-12 and gains.max() <= 3.0
    assert_array_laws_equal_the_law(1.0, channels)


def test_a_modern_bank_steps_through_the_array_laws(monkeypatch):
    ctx = make_ctx()
    bank = ensure_bank(ctx, "modern", count=0, policy="virtual", profile="modern",
                       real_voices=4)
    for i in range(20):
        bank.play(bank.acquire(), "tone", volume=0.05 * i, pan=0.1 * i - 1.0, loop=True)
    bank.channels[3].volume = float("nan")
    calls = count_laws(monkeypatch)
    bank.step(1, ctx.sounds)
    assert calls == []  # all of them as arrays
    assert bank.channels[3].gain_left == 0.0 and bank.channels[3].step == 0.0
    assert [e["channel"] for e in ctx.events.where(event="bad_value")] == [3]
    for channel in bank.channels:
        fresh = dataclasses.replace(channel)
        apply_law(bank, fresh, ctx.settings.sample_rate_hz, 16)
        assert (channel.gain_left, channel.gain_right, channel.step) == (
            fresh.gain_left, fresh.gain_right, fresh.step) or channel.index == 3


def test_array_laws_run_only_for_changed_channels(monkeypatch):
    """A modern bank remembers its laws' inputs as arrays: a still tick runs no law, a
    changed channel runs alone, a stopped one not at all, and every gain is the law's."""
    ctx = make_ctx()
    bank = ensure_bank(ctx, "modern", count=0, policy="virtual", profile="modern")
    handles = []
    for i in range(18):
        handles.append(handle := bank.acquire())
        bank.play(handle, "tone", volume=0.04 * (i + 1), loop=True)
    ran: list[list[float]] = []
    monkeypatch.setattr(channel_laws, "modern_law_arrays",
                        lambda overall, inputs, *args: ran.append(inputs[0].tolist())
                        or modern_law_arrays(overall, inputs, *args))
    calls = count_laws(monkeypatch)
    bank.step(1, ctx.sounds)
    assert len(ran) == 1 and len(ran[0]) == 18 and calls == []
    ran.clear()
    bank.step(1, ctx.sounds)
    assert ran == []
    bank.set_pan(handles[5], 0.5)
    bank.step(1, ctx.sounds)
    assert ran == [[bank.channels[5].volume]]
    ran.clear()
    for handle in handles[3:]:
        bank.stop(handle)
    bank.set_volume(handles[0], 0.9)
    bank.step(1, ctx.sounds)
    assert ran == [[0.9]]
    for channel in bank.channels:
        fresh = dataclasses.replace(channel)
        apply_law(bank, fresh, ctx.settings.sample_rate_hz, 16)
        assert (channel.gain_left, channel.gain_right, channel.step) == (
            fresh.gain_left, fresh.gain_right, fresh.step)


def _busy_bank(array_paths: bool, monkeypatch: pytest.MonkeyPatch,
               real_voices: int = 8, voices: int = 40) -> list[tuple]:
    """A busy modern bank of ``voices`` voices to begin with, under random plays,
    pitches (odd ones too), pauses, fades, fade-outs, stops and a paused bus, stepped
    tick by tick; every channel's state and every event after each tick."""
    if not array_paths:  # a modern bank without columns: one channel at a time
        monkeypatch.setattr(channels_module, "COLUMN_PROFILES", ())
    if not array_paths:  # the cull's array ranking every tick, never its voice-all path
        monkeypatch.setattr(channel_cull, "voice_all", lambda bank, awake: False)
    ctx = make_ctx()
    ctx.buses = Buses()
    ctx.sounds.add("blip", np.zeros(2_400, dtype=np.float32), 48_000)
    ctx.sounds.add("hum", np.zeros(14_400, dtype=np.float32), 48_000)
    bank = ensure_bank(ctx, "modern", count=0, policy="virtual", profile="modern",
                       real_voices=real_voices)
    rng = random.Random(5)
    pitches = [1.0, 1.5, 0.25, -1.0, 0.0, 100.0, float("nan"), float("inf")]

    def play() -> None:
        bank.play(bank.acquire(), rng.choice(["blip", "hum"]), volume=rng.uniform(0, 1),
                  pan=rng.uniform(-1, 1), pitch=rng.choice(pitches[:3]),
                  loop=rng.random() < 0.5, bus=rng.choice(["sfx", "sfx", "music"]))

    for _ in range(voices):
        play()
    trace: list[tuple] = []
    for tick in range(120):
        handles = [bank.handle(c) for c in bank.channels if c.playing]
        for _ in range(rng.randrange(6)):
            if not handles:
                break
            handle, roll = rng.choice(handles), rng.random()
            if roll < 0.3:
                bank.set_pitch(handle, rng.choice(pitches + [rng.uniform(0.1, 3.0)] * 4))
            elif roll < 0.45:
                bank.pause(handle, rng.random() < 0.5)
            elif roll < 0.6:
                bank.fade_to(handle, rng.uniform(0, 1), rng.choice([0.0, 0.05, 0.3]))
            elif roll < 0.7:
                bank.stop(handle, fade_out_s=rng.choice([0.0, 0.1]))
            else:
                play()
        if tick % 30 == 10:
            ctx.buses["music"].paused = not ctx.buses["music"].paused
        bank.step(rng.choice([1, 1, 2, 3]), ctx.sounds)
        sent: list[Command] = []
        bank.commands(1, sent)
        bank.mark_published()
        trace.append(tuple(repr((c.cursor_frames, c.flags, c.level, c.volume, c.gain_left,
                                 c.gain_right, c.step, c.audible)) for c in bank.channels))
        # the commands (a bank with columns sends its sets from them: channel_stream.sets)
        trace.append(tuple(repr((c.op, c.voice, c.tick, c.frame, c.params, c.offset,
                                 c.fade_in)) for c in sent))
    trace.append(tuple(repr(dict(e)) for e in ctx.events.where(source="modern")))
    return trace


@pytest.mark.parametrize("real_voices", [8, 34, 64])
def test_a_busy_modern_bank_steps_as_one_channel_at_a_time(monkeypatch, real_voices):
    """The column paths (laws, cursors, cull, sets) against the per-channel code: every
    channel's cursor, flags, fader, gains and step and the commands sent after every
    tick, and every event, the same
    (and the cull's voice-all path, taken while no more than ``real_voices`` play,
    against its array ranking every tick)."""
    arrays = _busy_bank(True, monkeypatch, real_voices)
    one_by_one = _busy_bank(False, monkeypatch, real_voices)
    assert len(arrays) == len(one_by_one)
    for tick, (got, want) in enumerate(zip(arrays, one_by_one, strict=True)):
        assert got == want, f"tick {tick}"


def _plain_bank(array_paths: bool, monkeypatch: pytest.MonkeyPatch,
                voices: int = 40) -> tuple[list[tuple], int]:
    """A modern bank whose every voice plainly plays (no pause, fade or held bus):
    one-shots that end (played again at once, so the next tick all play again),
    loops that wrap, pitches held and not, one to three ticks a step. Every
    channel's state and the commands after each tick, every event; and how many
    steps took ``channel_advance``'s all-plain path."""
    from soundscape.audio import channel_advance

    if not array_paths:
        monkeypatch.setattr(channels_module, "COLUMN_PROFILES", ())
    plain_steps = []
    all_plain = channel_advance.all_plain
    monkeypatch.setattr(channel_advance, "all_plain",
                        lambda *args: plain_steps.append(all_plain(*args)) or plain_steps[-1])
    ctx = make_ctx()
    ctx.buses = Buses()
    ctx.sounds.add("blip", np.zeros(2_400, dtype=np.float32), 48_000)
    bank = ensure_bank(ctx, "modern", count=0, policy="virtual", profile="modern",
                       real_voices=8)
    rng = random.Random(8)
    pitches = [1.0, 1.5, 0.25, 0.0, 65.0, float("nan"), -1.0, 1.0]

    def play() -> None:
        bank.play(bank.acquire(), "blip", volume=rng.uniform(0, 1), pan=rng.uniform(-1, 1),
                  pitch=rng.choice(pitches[:3]), loop=rng.random() < 0.5)

    for _ in range(voices):
        play()
    trace: list[tuple] = []
    for tick in range(90):
        for _ in range(rng.randrange(3)):
            channel = rng.choice(bank.channels)
            bank.set_pitch(bank.handle(channel), rng.choice(pitches) if tick > 45 else 1.0)
        bank.step(rng.choice([1, 1, 2, 3]), ctx.sounds)
        sent: list[Command] = []
        bank.commands(1, sent)
        bank.mark_published()
        trace.append(tuple(repr((c.cursor_frames, c.flags, c.gain_left, c.gain_right, c.step,
                                 c.audible)) for c in bank.channels))
        trace.append(tuple(repr((c.op, c.voice, c.tick, c.params)) for c in sent))
        for _ in range(sum(not c.playing for c in bank.channels)):
            play()
    trace.append(tuple(repr(dict(e)) for e in ctx.events.where(source="modern")))
    return trace, sum(plain_steps)


@pytest.mark.parametrize("voices", [40, 9])
def test_a_plainly_playing_bank_steps_as_one_channel_at_a_time(monkeypatch, voices):
    """``advance_columns``' all-plain path (no masks: every voice plays, nothing else to
    do), and ``advance_few``'s plain cursors under ``ARRAYS_FROM`` channels, with ends,
    wraps and held pitches, against the per-channel code."""
    arrays, plain_steps = _plain_bank(True, monkeypatch, voices)
    one_by_one, _ = _plain_bank(False, monkeypatch, voices)
    assert plain_steps > 60 if voices >= 16 else plain_steps == 0
    assert sum(r.count("'end'") for r in arrays[-1]) >= voices // 3
    for tick, (got, want) in enumerate(zip(arrays, one_by_one, strict=True)):
        assert got == want, f"tick {tick}"


def test_a_bank_growing_past_arrays_from_steps_as_one_channel_at_a_time(monkeypatch):
    """A busy bank of a few voices, stepped one channel at a time from the columns,
    that grows past ``ARRAYS_FROM`` into the array paths: the per-channel code's
    numbers, events and commands on every tick, before, across and after."""
    from soundscape.audio.channel_arrays import ARRAYS_FROM

    sizes: list[int] = []
    modern_laws = channel_laws.modern_laws
    monkeypatch.setattr(channel_laws, "modern_laws",
                        lambda bank, *args: sizes.append(len(bank.channels))
                        or modern_laws(bank, *args))
    arrays = _busy_bank(True, monkeypatch, voices=3)
    one_by_one = _busy_bank(False, monkeypatch, voices=3)
    assert len(arrays[0]) < ARRAYS_FROM and 20 < len(sizes) < 100
    for tick, (got, want) in enumerate(zip(arrays, one_by_one, strict=True)):
        assert got == want, f"tick {tick}"


@pytest.mark.parametrize("columns", [True, False])
def test_cull_loudness_is_the_larger_side_gain_as_python_max(monkeypatch, columns):
    """``cull_voices`` ranks by Python's ``max(gain_left, gain_right)`` (written without
    the builtin call): the left on a tie (``0.0`` against ``-0.0``) and on a NaN right,
    the NaN on a NaN left; with columns (``channel_cull.loudness``) and without
    (the parked voices' ``loud``)."""
    from soundscape.audio.channel_cull import cull_voices, loudness

    pairs = [(0.25, 0.5), (0.5, 0.25), (0.0, -0.0), (-0.0, 0.0), (0.3, float("nan")),
             (float("nan"), 0.3), (-1.0, -2.0), (0.7, 0.7)]
    if columns:
        left, right = (np.array(side) for side in zip(*pairs, strict=True))
        loud = loudness(left, right).tolist()
    else:
        monkeypatch.setattr(channels_module, "COLUMN_PROFILES", ())
        ctx = make_ctx()
        bank = ensure_bank(ctx, "modern", count=0, policy="virtual", profile="modern",
                           real_voices=2)
        for _ in pairs:
            bank.play(bank.acquire(), "tone", volume=0.5, loop=True)
        bank.step(1, ctx.sounds)
        for channel, (gain_left, gain_right) in zip(bank.channels, pairs, strict=True):
            channel.gain_left, channel.gain_right = gain_left, gain_right
        cull_voices(bank)
        loud = bank._parked.loud[: len(pairs)].tolist()
    assert repr(loud) == repr([max(left, right) for left, right in pairs])
    assert repr(loud) != repr([max(right, left) for left, right in pairs])  # order matters


def test_voice_params_and_set_commands_fill_every_field_in_place():
    """``voice_params`` and ``set_params`` build their tuples positionally (the
    per-tick path): each value lands in its named field."""
    from soundscape.audio.commands import VoiceParams, set_params

    ctx = make_ctx()
    ctx.buses = Buses()
    bank = ensure_bank(ctx, "modern", count=0, policy="virtual", profile="modern")
    handle = bank.acquire()
    bank.play(handle, "tone", volume=0.5, pan=0.25, pitch=1.5, loop=True, bus="music")
    bank.set_lowpass(handle, 900.0)
    bank.step(1, ctx.sounds)
    channel = bank.channels[0]
    channel.send = (4, 0.5)
    sound = ctx.sounds.get("tone")
    params = channel_stream.voice_params(bank, channel, sound)
    mono = ((channel.gain_left ** 2 + channel.gain_right ** 2) / 2.0) ** 0.5
    assert params == VoiceParams(gain_left=channel.gain_left, gain_right=channel.gain_right,
                                 step=1.5, loop=True, paused=False, audible=True, ramp=True,
                                 miles=None, send=(4, 0.5 * mono), ear=None,
                                 lowpass_hz=900.0, bus=ctx.buses.index("music"))
    assert params.bus != 0
    command = set_params(7, params)
    assert command == Command(SET, 7, params=params)
    assert (command.op, command.voice, command.params, command.sound) == (SET, 7, params, None)


def test_moved_slots_reads_the_pan_row_first_then_every_row():
    """A slot moved when any of its law's inputs differs from its last law's (a NaN
    always does): whether the pan row answers for all (None: every slot) or every row
    is compared."""
    last = np.arange(24.0).reshape(8, 3)
    law = last.copy()
    law[channel_laws.PAN_ROW] += 1.0  # every pan moved
    assert channel_laws.moved_slots(law, last) is None
    law = last.copy()
    law[channel_laws.PAN_ROW, 0] += 1.0  # one pan, another slot's pitch, a NaN serial
    law[2, 1] += 1.0
    assert channel_laws.moved_slots(law, last).tolist() == [True, True, False]
    law[7, 2] = last[7, 2] = float("nan")
    assert channel_laws.moved_slots(law, last).tolist() == [True, True, True]
    assert channel_laws.moved_slots(last, last.copy()).tolist() == [False, False, True]


def test_an_empty_bank_steps_only_its_time(monkeypatch):
    """A bank no sound has played on (the ``ac`` bank of a game without AC sounds)
    skips the per-channel machinery: its overall volume slides, its latest ticks and
    its parking passes keep the ticks they had through the full step (``advance``,
    the laws, ``cull_voices``), so voices played later park on the same ticks."""
    monkeypatch.setattr(channels_module, "COLUMN_PROFILES", ())  # a virtual bank that parks
    banks = []
    for _ in range(2):
        ctx = make_ctx()
        bank = ensure_bank(ctx, "ac", count=0, policy="virtual", profile="ac", real_voices=1)
        bank.set_overall_volume(0.6)
        banks.append((ctx, bank))
    (ctx, fast), (ref_ctx, full) = banks
    for tick in range(60):
        if tick == 37:
            for _, bank in banks:
                for volume in (0.9, 0.2, 0.1):
                    bank.play(bank.acquire(), "tone", volume=volume, loop=True)
        for c, _ in banks:
            c.clock.step(1 + tick % 2)
        fast.step(1 + tick % 2, ctx.sounds)
        if full.channels:
            full.step(1 + tick % 2, ref_ctx.sounds)
        else:  # what step did for an empty bank before it skipped the machinery
            full.advance(1 + tick % 2)
            channel_laws.laws(full, [], ref_ctx.settings.sample_rate_hz, ref_ctx.sounds)
            full.cull_voices()
        assert fast.overall_volume == full.overall_volume and fast._last_ticks == full._last_ticks
        assert fast._parked is not None and full._parked is not None
        assert (fast._parked.next_pass, fast._parked.overall, fast._parked.count) == (
            full._parked.next_pass, full._parked.overall, full._parked.count), tick
    assert fast._parked.count > 0
    assert [dict(r) for r in ctx.events] == [dict(r) for r in ref_ctx.events]


@pytest.mark.parametrize("columns", [True, False])
def test_a_bad_value_listener_changing_a_later_channel_is_heard_in_turn(monkeypatch, columns):
    """On a few channels the law runs a channel at a time: a ``bad_value`` listener
    that changes a later channel's volume has the later law read the new volume (the
    columns' copy of the inputs is read again), as one channel at a time does."""
    if not columns:
        monkeypatch.setattr(channels_module, "COLUMN_PROFILES", ())
    ctx = make_ctx()
    bank = ensure_bank(ctx, "modern", count=0, policy="virtual", profile="modern")
    for i in range(6):
        bank.play(bank.acquire(), "tone", volume=0.1 * (i + 1), loop=True)
    bank.channels[1].volume = float("nan")
    ctx.events.subscribe(lambda record: record["event"] == "bad_value"
                         and setattr(bank.channels[4], "volume", 0.9))
    bank.step(1, ctx.sounds)
    assert (bank.columns is not None) == columns
    assert [c.gain_left for c in bank.channels[:2]] == [
        pytest.approx(0.1 * 2 ** -0.5), 0.0]
    assert bank.channels[4].gain_left == pytest.approx(0.9 * 2 ** -0.5)


@pytest.mark.parametrize("bus", ["sfx", "master"])
def test_the_sets_of_a_bank_on_one_bus_carry_its_pause(monkeypatch, bus):
    """A bank with columns whose voices are all on one bus reads that bus's index and
    pause once for all of them (``channel_stream.column_params``): pausing the bus, and
    a voice paused on its own, give the sets the voices sent one by one give."""

    def run(from_columns: bool) -> list[str]:
        monkeypatch.setattr(channel_stream, "SETS_FROM",
                            8 if from_columns else 1 << 30)
        ctx = make_ctx()
        ctx.buses = Buses()
        bank = ensure_bank(ctx, "modern", count=0, policy="virtual", profile="modern",
                           real_voices=12)
        for i in range(12):
            bank.play(bank.acquire(), "tone", volume=0.1 * (i + 1), pan=0.1 * i - 0.5,
                      loop=True, bus=bus)
        assert bank.columns is not None
        handles = [bank.handle(channel) for channel in bank.channels]
        sent: list[str] = []
        for tick in range(6):
            if tick == 2:
                ctx.buses[bus].paused = True
            if tick == 3:
                bank.pause(handles[4], True)
            if tick == 4:
                ctx.buses[bus].paused = False
            for handle in handles:
                bank.set_volume(handle, 0.05 * (tick + 1))
            bank.step(1, ctx.sounds)
            out: list[Command] = []
            bank.commands(1, out)
            bank.mark_published()
            sent.extend(repr((c.op, c.voice, c.params)) for c in out)
        assert any("paused=True" in s for s in sent)
        return sent

    assert run(True) == run(False)


def _listener_stops_a_voice(columns: bool, monkeypatch: pytest.MonkeyPatch,
                            all_move: bool) -> tuple:
    """20 plainly playing voices, 4 real; a NaN volume whose ``bad_value`` listener
    stops the loudest voice in the middle of the law step (every voice's pan moved
    too when ``all_move``). The events and which voices are audible after."""
    if not columns:
        monkeypatch.setattr(channels_module, "COLUMN_PROFILES", ())
    ctx = make_ctx()
    bank = ensure_bank(ctx, "modern", count=0, policy="virtual", profile="modern",
                       real_voices=4)
    handles = []
    for i in range(20):
        handles.append(handle := bank.acquire())
        bank.play(handle, "tone", volume=0.04 * (i + 1), loop=True)
    bank.step(1, ctx.sounds)
    ctx.events.subscribe(lambda record: record["event"] == "bad_value"
                         and bank.stop(handles[19]))
    bank.channels[5].volume = float("nan")
    for channel in bank.channels if all_move else ():
        channel.pan = 0.25
    bank.step(1, ctx.sounds)
    assert (bank.columns is not None) == columns
    return ([repr(dict(e)) for e in ctx.events], [c.audible for c in bank.channels])


@pytest.mark.parametrize("all_move", [True, False])
def test_the_cull_reads_the_flags_after_a_bad_value_listener(monkeypatch, all_move):
    """What the advance found (every voice plays) is not taken past game code: a
    ``bad_value`` listener that stops a voice during the laws (of every voice, or of
    the one that changed) has the cull rank without it, as one channel at a time does."""
    arrays = _listener_stops_a_voice(True, monkeypatch, all_move)
    one_by_one = _listener_stops_a_voice(False, monkeypatch, all_move)
    assert any("'stop'" in e for e in arrays[0])
    assert "'restore'" in arrays[0][-1] and "'channel': 15" in arrays[0][-1]
    assert arrays == one_by_one


def test_restores_read_from_the_columns_send_what_the_channels_send(monkeypatch):
    """A voice back from virtual in a bank with columns is started from its slot's
    columns (``channel_stream.restore_from_columns``): loops and one-shots, pitched,
    a voice paused, its bus paused and resumed, restored after one to three ticks a
    step; the commands are those read through the channels (``restore_channel``)."""

    def run(from_columns: bool) -> tuple[list[str], int]:
        taken: list[int] = []
        read = channel_stream.restore_from_columns if from_columns \
            else channel_stream.restore_channel
        monkeypatch.setattr(channel_stream, "restore_from_columns",
                            lambda bank, channel, *args: taken.append(channel.index)
                            or read(bank, channel, *args))
        ctx = make_ctx()
        ctx.buses = Buses()
        ctx.sounds.add("blip", np.linspace(-1, 1, 3_000, dtype=np.float32), 48_000)
        bank = ensure_bank(ctx, "modern", count=0, policy="virtual", profile="modern",
                           real_voices=5)
        rng = random.Random(11)
        handles = []
        for i in range(16):
            handles.append(handle := bank.acquire())
            bank.play(handle, "tone" if i % 3 else "blip", volume=rng.uniform(0.1, 1),
                      pitch=rng.choice([1.0, 0.5, 1.25]), loop=i % 4 != 0,
                      bus="music" if i % 2 else "sfx")
        assert bank.columns is not None
        sent: list[str] = []
        for tick in range(60):
            if tick in (20, 31):
                ctx.buses["music"].paused = not ctx.buses["music"].paused
            if tick == 25:
                bank.pause(handles[3], True)
            for handle in rng.sample(handles, 6):
                bank.set_volume(handle, rng.uniform(0.05, 1.0))
            bank.step(rng.choice([1, 1, 2, 3]), ctx.sounds)
            out: list[Command] = []
            bank.commands(tick, out)
            bank.mark_published()
            sent.extend(repr(tuple(c)) for c in out)
            sent.append(repr([c.voice_id for c in bank.channels]))
        return sent, len(taken)

    got, restores = run(True)
    want, _ = run(False)
    assert restores > 20
    assert got == want
