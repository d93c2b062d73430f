"""Issue 18: culled virtual voices keep time on the game side and never reach the audio side.

A virtual bank voices its loudest ``real_voices``. A voice culled at its start sends
no ``start`` and is never heard; a culled voice is stopped on the audio side; a
restored one starts again (a new voice id) at the source frame the game side's
cursor has reached, one-shot or loop; one that ends while culled is never heard.
Rendered through the offline backend and compared sample for sample.
"""

from __future__ import annotations

import random

import esper
import numpy as np
import pytest

from soundscape import Settings, SoundscapePlugin
from soundscape.audio.channels import ensure_bank
from soundscape.audio.commands import START, STOP

RATE = 48_000
TICK = RATE // 60


def marked(frames: int, seed: int = 0) -> np.ndarray:
    """A mono sound whose every frame is non-zero and differs from its neighbours."""
    k = np.arange(frames, dtype=np.float64)
    return (0.1 + 0.4 * ((k * 0.618 + seed * 0.1) % 1.0)).astype(np.float32)


def offline(profile: str = "modern", real_voices: int = 1):
    """An offline plugin (limiter off: exact samples) and a virtual bank ``v``; every
    command the mixer is sent is recorded on ``sent``."""
    plugin = SoundscapePlugin(Settings(backend="offline", features=("audio",),
                                       limiter=False)).install()
    ctx = plugin.context
    bank = ensure_bank(ctx, "v", count=0, policy="virtual", profile=profile,
                       real_voices=real_voices)
    sent: list = []
    send = ctx.mixer.send

    def spy(commands, tick=None):
        batch = list(commands)
        sent.extend(batch)
        send(batch, tick)

    ctx.mixer.send = spy
    return plugin, ctx, bank, sent


def run(ticks: int) -> None:
    for _ in range(ticks):
        esper.process(1 / 60)


def test_a_voice_culled_at_its_start_sends_nothing_and_is_not_heard():
    plugin, ctx, bank, sent = offline()
    ctx.sounds.add("loud", marked(RATE, 1), RATE)
    ctx.sounds.add("quiet", marked(RATE, 2), RATE)
    assert bank.play(bank.acquire(), "loud", volume=1.0, pan=-1.0, loop=True)
    quiet = bank.acquire()
    assert bank.play(quiet, "quiet", volume=0.5, pan=1.0, loop=True)
    run(30)
    voice = bank.get(quiet).voice_id
    assert not bank.get(quiet).audible and bank.is_playing(quiet)
    assert [c.voice for c in sent if c.op == START] == [voice - 1]  # the loud one only
    assert not any(c.voice == voice for c in sent)
    audio = ctx.mixer.backend.audio()
    assert audio[:, 0].any() and not audio[:, 1].any()  # nothing of it on the right
    assert ctx.mixer.voice_count == 1
    # the game side kept its time: 30 ticks of 800 frames
    assert bank.get(quiet).cursor_frames == pytest.approx(30 * TICK)
    plugin.uninstall()


@pytest.mark.parametrize("loop", [False, True])
@pytest.mark.parametrize("profile", ["modern", "ac"])
def test_a_restored_voice_resumes_at_the_game_side_cursor(loop, profile):
    """Culled from its start, restored at tick 12 when the loud voice stops: from then
    on the output is the quiet sound exactly where the game side's cursor is (a loop's
    phase modulo its length). ``modern`` rises across the first block (a fade-in, as
    its cuts fade out); ``ac`` jumps, so its first frame is exact too."""
    plugin, ctx, bank, sent = offline(profile)
    length = 3 * RATE if not loop else 2_345  # the loop wraps several times before 12
    quiet_src = ctx.sounds.add("quiet", marked(length, 2), RATE).samples[:, 0]
    loud_src = ctx.sounds.add("loud", marked(RATE, 1), RATE).samples[:, 0]
    loud_vol, quiet_vol, quiet_pan = (1.0, 0.5, 1.0) if profile == "modern" else (0, -6, 15)
    loud = bank.acquire()
    assert bank.play(loud, "loud", volume=loud_vol, pan=-quiet_pan, loop=True)
    quiet = bank.acquire()
    assert bank.play(quiet, "quiet", volume=quiet_vol, pan=quiet_pan, loop=loop)
    run(12)
    assert not bank.get(quiet).audible
    loud_right = np.float32(bank.get(loud).gain_right)  # 0 for modern; ac pans in dB
    bank.stop(loud)
    run(8)
    channel = bank.get(quiet)
    assert channel.audible
    restore = [r for r in ctx.events if r["event"] == "restore"]
    assert [(r["sound"], r["tick"]) for r in restore] == [("quiet", 13)]
    starts = [c for c in sent if c.op == START and c.sound.name == "quiet"]
    assert len(starts) == 1 and starts[0].voice == channel.voice_id and starts[0].fade_in
    assert starts[0].offset == pytest.approx(12 * TICK % length)  # at tick 13's first frame
    right = ctx.mixer.backend.audio()[:, 1]
    before = np.arange(12 * TICK)
    assert np.array_equal(right[: 12 * TICK], loud_right * loud_src[before])  # none of it
    frames = np.arange(12 * TICK, 20 * TICK)
    expected = np.float32(channel.gain_right) * quiet_src[frames % length]
    exact_from = 13 * TICK if profile == "modern" else 12 * TICK  # after modern's fade-in
    assert np.array_equal(right[exact_from:], expected[exact_from - 12 * TICK:])
    if profile == "modern":  # the fade-in: a straight ramp from silence across the block
        ramp = np.arange(1, TICK + 1, dtype=np.float32) / np.float32(TICK)
        head = right[12 * TICK: exact_from]
        assert np.allclose(head, expected[:TICK] * ramp, rtol=0, atol=1e-6)
    plugin.uninstall()


@pytest.mark.parametrize("profile", ["modern", "ac"])
def test_a_culled_voice_is_cut_as_its_profile_cuts(profile):
    """A louder voice starts at tick 10 and takes the only real voice: the culled one
    gets a ``stop``; ``modern`` fades it out across the next block, ``ac`` cuts it at
    the block. Its channel plays on on the game side."""
    plugin, ctx, bank, sent = offline(profile)
    quiet_src = ctx.sounds.add("quiet", marked(RATE, 2), RATE).samples[:, 0]
    loud_src = ctx.sounds.add("loud", marked(RATE, 1), RATE).samples[:, 0]
    (q_vol, l_vol, pan) = (0.5, 1.0, 1.0) if profile == "modern" else (-6, 0, 15)
    quiet = bank.acquire()
    assert bank.play(quiet, "quiet", volume=q_vol, pan=pan, loop=True)
    run(10)
    q_right = np.float32(bank.get(quiet).gain_right)
    loud = bank.acquire()
    assert bank.play(loud, "loud", volume=l_vol, pan=-pan, loop=True)
    run(4)
    assert bank.is_playing(quiet) and not bank.get(quiet).audible
    voice = next(c.voice for c in sent if c.op == START and c.sound.name == "quiet")
    assert [c.op for c in sent if c.voice == voice] == [START, STOP]
    right = ctx.mixer.backend.audio()[:, 1]
    l_right = np.float32(bank.get(loud).gain_right)  # 0 for modern; ac pans in dB
    frames = np.arange(14 * TICK)
    assert np.array_equal(right[: 10 * TICK], q_right * quiet_src[frames[: 10 * TICK]])
    after = 11 * TICK if profile == "modern" else 10 * TICK
    loud_part = l_right * loud_src[frames[after:] - 10 * TICK]
    assert np.array_equal(right[after:], loud_part)  # nothing of the quiet one
    if profile == "modern":  # faded out across the block: a straight ramp down
        fall = 1 - np.arange(1, TICK + 1, dtype=np.float32) / np.float32(TICK)
        block = right[10 * TICK: 11 * TICK]
        assert np.allclose(block, q_right * quiet_src[frames[10 * TICK: 11 * TICK]] * fall,
                           rtol=0, atol=1e-6)
    plugin.uninstall()


def test_a_voice_that_ends_while_culled_is_never_heard():
    plugin, ctx, bank, sent = offline()
    ctx.sounds.add("loud", marked(RATE, 1), RATE)
    ctx.sounds.add("blip", marked(5 * TICK, 3), RATE)
    loud = bank.acquire()
    assert bank.play(loud, "loud", volume=1.0, pan=-1.0, loop=True)
    blip = bank.acquire()
    assert bank.play(blip, "blip", volume=0.5, pan=1.0)
    run(10)
    assert not bank.is_playing(blip)
    assert [r["sound"] for r in ctx.events if r["event"] == "end"] == ["blip"]  # on time
    assert [r["tick"] for r in ctx.events if r["event"] == "end"] == [5]
    bank.stop(loud)
    run(5)
    assert [r["sound"] for r in ctx.events if r["event"] == "restore"] == []
    assert [c.sound.name for c in sent if c.op == START] == ["loud"]
    assert not ctx.mixer.backend.audio()[:, 1].any()
    plugin.uninstall()


@pytest.mark.parametrize("profile", ["modern", "ac"])
def test_the_audio_side_never_voices_more_than_real_voices(profile):
    """40 voices whose volumes change every tick on a bank of 4 real voices: the
    audio side never has more than 4 live voices, plus the tails of the voices cut in
    that block (``modern`` fades a culled voice over one block)."""
    plugin, ctx, bank, sent = offline(profile, real_voices=4)
    ctx.sounds.add("tone", marked(RATE, 4), RATE)
    rng = random.Random(9)
    handles = []
    for _ in range(40):
        handles.append(handle := bank.acquire())
        assert bank.play(handle, "tone", volume=rng.uniform(0.0, 1.0) if profile == "modern"
                         else rng.randint(-40, 0), loop=True)
    live: set[int] = set()
    churn = 0
    for tick in range(60):
        for handle in handles:
            if rng.random() < 0.2:
                bank.set_volume(handle, rng.uniform(0.0, 1.0) if profile == "modern"
                                else rng.randint(-40, 0))
        before = len(sent)
        run(1)
        cut = 0
        for command in sent[before:]:
            if command.op == START:
                live.add(command.voice)
            elif command.op == STOP:
                live.discard(command.voice)
                cut += 1
        churn += cut
        assert len(live) <= 4, tick
        assert ctx.mixer.voice_count <= 4 + (cut if profile == "modern" else 0), tick
    assert churn > 20  # the ranking really changed
    assert live == {c.voice_id for c in bank.channels if c.audible} and len(live) == 4
    plugin.uninstall()


def churn_scene(monkeypatch, park: bool, ticks: int = 240, columns: bool = False,
                voices: int = 120, more: int = 10):
    """``voices`` voices (``more`` started every 20 ticks) on a bank of 8 real voices,
    most of them still for long stretches (so they park), with one-shots ending while
    culled, on_end chains, loops, and every kind of change a game makes: setters, direct
    field writes, pitch, pauses, fades in seconds, Oni-style fades, a held bus, the
    overall volume, stops and steals. Returns
    the event log, the commands sent and every channel's cursor after every tick.
    ``columns``: the bank keeps its channels as columns (``channel_arrays``: no
    parking), else one channel at a time, parking culled voices when ``park``."""
    import soundscape.audio.channel_cull as cull_module
    import soundscape.audio.channels as channels_module

    monkeypatch.setattr(cull_module, "PARK_AFTER_TICKS", 8 if park else 10**9)
    monkeypatch.setattr(channels_module, "COLUMN_PROFILES", ("modern",) if columns else ())
    esper.switch_world(f"churn-{park}-{columns}")
    plugin, ctx, bank, sent = offline(real_voices=8)
    for i in range(6):
        ctx.sounds.add(f"s{i}", marked(400 + 1_700 * i, i), RATE)
    rng = random.Random(21)

    def chain(b, handle, channel, overshoot):
        if channel.sound == "s1":
            b.play(handle, "s2", volume=channel.volume, offset_frames=overshoot)

    bank.on_end.append(chain)
    handles = []

    def start():
        handle = bank.acquire()
        name = f"s{rng.randrange(6)}"
        bank.play(handle, name, volume=rng.uniform(0.01, 1.0), pan=rng.uniform(-1, 1),
                  pitch=rng.choice((1.0, 1.0, 0.5, 1.37)), loop=rng.random() < 0.5)
        handles.append(handle)

    for _ in range(voices):
        start()
    cursors = []
    for tick in range(ticks):
        if tick % 20 == 0:
            for _ in range(more):
                start()
        for _ in range(3):
            handle = rng.choice(handles)
            what = rng.randrange(10)
            channel = bank.get(handle)
            if what == 0:
                bank.set_volume(handle, rng.uniform(0.0, 1.0))
            elif what == 1 and channel is not None:
                channel.volume = rng.uniform(0.0, 1.0)  # a direct write
            elif what == 2:
                bank.set_pitch(handle, rng.choice((0.5, 1.0, 2.0)))
            elif what == 3:
                bank.pause(handle, rng.random() < 0.5)
            elif what == 4:
                bank.fade_to(handle, rng.uniform(0.0, 1.0), rng.uniform(0.0, 0.3))
            elif what == 5:
                bank.fade(handle, rng.uniform(0.0, 1.0), 0.05)
            elif what == 6:
                bank.stop(handle)
            elif what == 7 and channel is not None:
                channel.pan = rng.uniform(-1, 1)  # a direct write
        if tick == 100:
            ctx.buses["sfx"].paused = True
        if tick == 130:
            ctx.buses["sfx"].paused = False
        if tick in (150, 190):
            bank.set_overall_volume(0.5 if tick == 150 else 1.0)
        esper.process((1 + tick % 2) / 60)  # one tick, then two
        cursors.append([(c.cursor_frames, c.flags, c.audible) for c in bank.channels])
    events = [dict(r) for r in ctx.events]
    commands = [(c.op, c.voice, c.tick, c.offset, c.params) for c in sent]
    audio = ctx.mixer.backend.audio().copy()
    parked_max = bank._parked.count if bank._parked is not None else 0
    plugin.uninstall()
    esper.switch_world("default")
    esper.delete_world(f"churn-{park}-{columns}")
    return events, commands, cursors, audio, parked_max


def test_parked_voices_keep_the_same_time_events_and_sound(monkeypatch):
    """Parking (culled voices with still inputs moved in one numpy step) changes nothing
    a game or a listener can see: the same events (ends, culls, restores, ranks, ticks),
    the same commands, every cursor the same to the bit after every tick, the same bytes."""
    parked = churn_scene(monkeypatch, park=True)
    plain = churn_scene(monkeypatch, park=False)
    assert parked[4] > 0 and plain[4] == 0  # voices really parked
    assert parked[0] == plain[0]
    assert len([r for r in parked[0] if r["event"] == "end"]) > 20
    assert len([r for r in parked[0] if r["event"] == "restore"]) > 10
    assert parked[1] == plain[1]
    assert parked[2] == plain[2]
    assert np.array_equal(parked[3], plain[3])


def test_a_bank_of_columns_keeps_the_same_time_events_and_sound(monkeypatch):
    """The same churn on a bank that keeps its channels as columns (its laws and cull as
    arrays) against one channel at a time: the same events, commands, cursors, bytes."""
    columns = churn_scene(monkeypatch, park=False, columns=True)
    plain = churn_scene(monkeypatch, park=False)
    assert len([r for r in columns[0] if r["event"] == "cull"]) > 10
    assert columns[0] == plain[0]
    assert [list(r) for r in columns[0]] == [list(r) for r in plain[0]]  # keys in order too
    assert columns[1] == plain[1]
    assert columns[2] == plain[2]
    assert np.array_equal(columns[3], plain[3])


def test_a_small_bank_of_columns_keeps_the_same_time_events_and_sound(monkeypatch):
    """The same churn on a bank of columns with fewer than ``ARRAYS_FROM`` channels
    (each channel in turn, read from the columns: ``advance_few``, ``few_modern_laws``,
    the cull's handful) against one channel at a time."""
    from soundscape.audio.channel_arrays import ARRAYS_FROM

    columns = churn_scene(monkeypatch, park=False, columns=True, voices=10, more=3)
    plain = churn_scene(monkeypatch, park=False, voices=10, more=3)
    assert max(len(tick) for tick in columns[2]) < ARRAYS_FROM
    assert len([r for r in columns[0] if r["event"] == "cull"]) > 10
    assert len([r for r in columns[0] if r["event"] == "end"]) > 5
    assert columns[0] == plain[0]
    assert columns[1] == plain[1]
    assert columns[2] == plain[2]
    assert np.array_equal(columns[3], plain[3])


def test_a_direct_write_wakes_a_parked_voice(monkeypatch):
    import soundscape.audio.channels as channels_module

    monkeypatch.setattr(channels_module, "COLUMN_PROFILES", ())  # a bank that parks
    plugin, ctx, bank, sent = offline(real_voices=1)
    ctx.sounds.add("a", marked(RATE, 1), RATE)
    loud = bank.acquire()
    bank.play(loud, "a", volume=0.8, loop=True)
    quiet = bank.acquire()
    bank.play(quiet, "a", volume=0.1, loop=True)
    run(17)
    assert bank._parked.count == 1  # the quiet one: the same inputs at ticks 9 and 17
    bank.get(quiet).volume = 0.9  # straight into the component, no setter
    run(1)
    assert bank.get(quiet).audible and not bank.get(loud).audible
    assert [r["sound"] for r in ctx.events if r["event"] == "restore"] == ["a"]
    assert bank.get(quiet).cursor_frames == pytest.approx(18 * TICK)
    plugin.uninstall()


@pytest.mark.parametrize("loop", [False, True])
def test_a_restored_resampled_voice_goes_on_as_if_never_culled(loop):
    """Pitch 1.37 on a 22,050 Hz sound (resampled, a fractional cursor): restored at
    tick 13, from the block after its fade-in the voice is the one a bank that never
    culled it plays, sample for sample: the game side's cursor and the mixer's agree."""

    def scene(real_voices: int) -> np.ndarray:
        esper.switch_world(f"resampled-{real_voices}-{loop}")
        plugin, ctx, bank, _ = offline(real_voices=real_voices)
        ctx.sounds.add("loud", marked(RATE, 1), RATE)
        ctx.sounds.add("quiet", marked(9_001, 2), 22_050)
        loud = bank.acquire()
        assert bank.play(loud, "loud", volume=1.0, pan=-1.0, loop=True)
        assert bank.play(bank.acquire(), "quiet", volume=0.5, pan=1.0, pitch=1.37, loop=loop)
        run(12)
        bank.stop(loud)
        run(8)
        right = ctx.mixer.backend.audio()[:, 1].copy()
        plugin.uninstall()
        esper.switch_world("default")
        esper.delete_world(f"resampled-{real_voices}-{loop}")
        return right

    restored, never_culled = scene(1), scene(2)
    assert not restored[: 12 * TICK].any() and never_culled[: 12 * TICK].any()
    tail = slice(13 * TICK, 20 * TICK)
    assert np.abs(never_culled[tail]).max() > 0.05  # still sounding (1.37 x 22,050 Hz)
    assert np.array_equal(restored[tail], never_culled[tail])
