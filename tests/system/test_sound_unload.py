"""Unloading: SoundBank.remove and unload_unused, the store's reuse of freed space, the
voices of a removed sound ending with one event, and one copy of each sound's samples
shared by the bank and the mixer."""

from __future__ import annotations

import esper
import numpy as np
import pytest

from soundscape import Settings, SoundscapePlugin
from soundscape.audio.channels import ensure_bank
from soundscape.audio.mixer_store import GUARD_FRAMES, SampleStore
from soundscape.audio.sounds import SoundBank
from soundscape.audio.wav import write_wav
from soundscape.components.channel import ChannelKind

RATE = 48_000


def tone(seconds: float, freq_hz: float = 440.0, channels: int = 1) -> np.ndarray:
    t = np.arange(int(seconds * RATE)) / RATE
    mono = (0.5 * np.sin(2 * np.pi * freq_hz * t)).astype(np.float32)
    return mono if channels == 1 else np.stack([mono, -mono], axis=1)


@pytest.fixture
def plugin(tmp_path):
    plugin = SoundscapePlugin(Settings(features=("audio",), backend="offline",
                                       sound_root=tmp_path)).install()
    yield plugin
    plugin.uninstall()


def step(ticks: int = 1) -> None:
    for _ in range(ticks):
        esper.process(1 / 60)


def test_the_bank_and_the_mixer_share_one_copy(plugin):
    ctx = plugin.context
    sound = ctx.sounds.add("hum", tone(1.0, channels=2), RATE)
    assert ctx.mixer.store is ctx.sounds.store
    used = ctx.sounds.store.used
    assert used == 2 * (RATE + GUARD_FRAMES)  # each side once, with its guard frames
    assert np.shares_memory(sound.samples, ctx.sounds.store.data)
    bank = ensure_bank(ctx, "modern")
    assert bank.play(bank.acquire(sound="hum"), "hum", volume=1.0, loop=True)
    step(5)
    assert ctx.sounds.store.used == used  # playing copies nothing
    assert np.abs(ctx.mixer.backend.audio()).max() > 0.1


def test_replacing_a_sound_100_times_keeps_the_store_bounded(plugin):
    ctx = plugin.context
    bank = ensure_bank(ctx, "modern")
    sizes = []
    for i in range(100):
        ctx.sounds.add("music", tone(0.5, 200.0 + i), RATE)
        bank.play(bank.acquire(sound="music"), "music", volume=1.0, loop=True)
        step(3)
        sizes.append(ctx.sounds.store.data.shape[0])
    one = RATE // 2 + GUARD_FRAMES
    # three ticks a replacement: a freed block is reused once the mixer has rendered
    # three blocks past its stop, so at most three blocks are ever in use
    assert ctx.sounds.store.used <= 3 * one and max(sizes) <= 5 * one
    assert sizes[10:] == [sizes[10]] * 90  # no growth after the first few
    # the voice heard at the end is the latest sound, not a stale block
    audio = ctx.mixer.backend.audio()[-800:, 0]
    spectrum = np.abs(np.fft.rfft(audio * np.hanning(800)))
    peak_hz = np.argmax(spectrum) * RATE / 800
    assert abs(peak_hz - 299.0) <= RATE / 800


def test_voices_of_a_removed_sound_end_with_one_event_each(plugin):
    ctx = plugin.context
    ctx.sounds.add("bed", tone(1.0), RATE)
    ctx.sounds.add("other", tone(1.0, 880.0), RATE)
    modern = ensure_bank(ctx, "modern")
    oni = ensure_bank(ctx, "oni", count=2, policy="oni", profile="oni")
    modern.play(modern.acquire(sound="bed"), "bed", volume=1.0, loop=True)
    modern.play(modern.acquire(sound="other"), "other", volume=1.0, loop=True)
    oni.play(oni.acquire(kind=ChannelKind.MONO), "bed", volume=1.0, loop=True)
    step(3)
    assert ctx.sounds.remove("bed") and "bed" not in ctx.sounds
    assert not ctx.sounds.remove("bed")
    step(10)
    stops = [r for r in ctx.events.records if r["event"] == "stop"]
    assert len(stops) == 2 and {r["source"] for r in stops} == {"modern", "oni"}
    assert all(r["reason"] == "unloaded" and r["sound"] == "bed" for r in stops)
    assert not [r for r in ctx.events.records if r["event"] == "end"]
    playing = [c.sound for b in ctx.channels.values() for c in b.channels if c.playing]
    assert playing == ["other"]
    # after the stop's block only "other" (880 Hz) is heard
    tail = ctx.mixer.backend.audio()[-1600:, 0]
    spectrum = np.abs(np.fft.rfft(tail * np.hanning(1600)))
    assert abs(np.argmax(spectrum) * RATE / 1600 - 880.0) <= RATE / 1600


def test_unload_unused_drops_loaded_sounds_no_voice_plays(plugin, tmp_path):
    ctx = plugin.context
    for name in ("a", "b", "c"):
        write_wav(tmp_path / f"{name}.wav", tone(0.2), RATE)
    ctx.sounds.add("coded", tone(0.2), RATE)
    bank = ensure_bank(ctx, "modern")
    for name in ("a", "b", "c"):
        assert ctx.sounds.get(name) is not None
    bank.play(bank.acquire(sound="b"), "b", volume=1.0, loop=True)
    step(2)
    assert ctx.sounds.unload_unused() == ["a", "c"]
    assert ctx.sounds.names() == ["b", "coded"]
    unloaded = [r["sound"] for r in ctx.events.records if r["event"] == "unloaded"]
    assert unloaded == ["a", "c"]
    assert ctx.sounds.get("a") is not None  # loads again


def test_the_store_reuses_a_block_only_after_the_audio_side_moved_on():
    store = SampleStore(capacity=64)
    rendered = [0]
    store.attach_reader(lambda: rendered[0], 100)
    first = store.allocate(20, 1)
    store.release(first)
    assert store.allocate(20, 1).left != first.left  # not published yet
    store.published()
    rendered[0] += 299
    assert store.allocate(20, 1).left != first.left  # the audio side may still read it
    rendered[0] += 1
    again = store.allocate(20, 1)
    assert again.left == first.left and not store.data[again.left : again.left + 24].any()


def test_a_standalone_bank_keeps_its_own_store():
    bank = SoundBank()
    sound = bank.add("x", np.ones(8, dtype=np.float32), 8000)
    assert sound.store is bank.store and sound.samples.shape == (8, 1)
    with pytest.raises(ValueError):
        sound.samples[0, 0] = 2.0  # a read-only view
    assert bank.remove("x") and sound.removed
