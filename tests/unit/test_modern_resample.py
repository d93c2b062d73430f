"""The modern profile converts a sound to the output rate once, at load (python-soxr),
and interpolates linearly only for pitch; retail profiles keep their own paths."""

from __future__ import annotations

import esper
import numpy as np
import pytest

from soundscape import Settings, SoundscapePlugin
from soundscape.audio.channels import ensure_bank
from soundscape.audio.resample import convert, converted_frames
from soundscape.audio.wav import write_wav

pytest.importorskip("soxr")

SOURCE_HZ = 22_050
OUT_HZ = 48_000


def sine(freq_hz: float, seconds: float = 3.0, rate_hz: int = SOURCE_HZ) -> np.ndarray:
    t = np.arange(int(seconds * rate_hz)) / rate_hz
    return (0.5 * np.sin(2 * np.pi * freq_hz * t)).astype(np.float32)


def spurious_db(signal: np.ndarray, freq_hz: float) -> float:
    """Loudest bin other than the tone's, relative to the tone (one second, 1 Hz bins:
    an integer-Hz tone sits in one bin, no window needed)."""
    spectrum = np.abs(np.fft.rfft(signal.astype(np.float64)))
    tone = int(round(freq_hz))
    others = np.delete(spectrum, [tone - 1, tone, tone + 1])
    return float(20 * np.log10(others.max() / spectrum[tone]))


def render(sound: np.ndarray, bank: str, **play: object) -> tuple[np.ndarray, object]:
    plugin = SoundscapePlugin(Settings(features=("audio",), backend="offline")).install()
    ctx = plugin.context
    try:
        ctx.sounds.add("tone", sound, SOURCE_HZ)
        channels = ensure_bank(ctx, bank)
        assert channels.play(channels.acquire(sound="tone"), "tone", **play)
        for _ in range(150):  # 2.5 s
            esper.process(1 / 60)
        return ctx.mixer.backend.audio()[OUT_HZ : 2 * OUT_HZ, 0].copy(), ctx
    finally:
        plugin.uninstall()


@pytest.mark.parametrize("freq_hz", [1_000, 5_000, 9_000])
def test_modern_voice_has_no_spurious_tones_above_minus_100_db(freq_hz):
    modern, _ = render(sine(freq_hz), "modern", volume=1.0)
    assert spurious_db(modern, freq_hz) < -100.0
    # the same sound through linear interpolation (the ac profile plays it at its own
    # rate): the images the conversion removes are there
    linear, _ = render(sine(freq_hz), "ac", volume=0)
    assert spurious_db(linear, freq_hz) > -60.0


def test_a_sound_is_converted_once_and_pitch_alone_interpolates():
    plugin = SoundscapePlugin(Settings(features=("audio",), backend="offline")).install()
    ctx = plugin.context
    try:
        ctx.sounds.add("tone", sine(440.0, 1.0), SOURCE_HZ)
        bank = ensure_bank(ctx, "modern")
        assert bank.play(bank.acquire(sound="tone"), "tone", volume=1.0)
        assert bank.play(bank.acquire(sound="tone"), "tone", volume=1.0, pitch=1.5)
        sound = ctx.sounds.get("tone")
        assert sound.sample_rate_hz == OUT_HZ and sound.source_rate_hz == SOURCE_HZ
        assert sound.frames == converted_frames(SOURCE_HZ, SOURCE_HZ, OUT_HZ) == OUT_HZ
        esper.process(1 / 60)
        steps = sorted(c.step for c in bank.channels if c.playing)
        assert steps == [1.0, 1.5]  # pitch 1: a plain copy; pitch 1.5: interpolated
        resampled = [r for r in ctx.events.records if r["event"] == "resampled"]
        assert len(resampled) == 1 and resampled[0]["from_hz"] == SOURCE_HZ
    finally:
        plugin.uninstall()


def test_a_file_is_converted_while_it_is_decoded(tmp_path):
    write_wav(tmp_path / "hum.wav", sine(300.0, 0.5, 44_100), 44_100)
    plugin = SoundscapePlugin(Settings(features=("audio",), backend="offline",
                                       sound_root=tmp_path)).install()
    ctx = plugin.context
    try:
        bank = ensure_bank(ctx, "modern")
        assert bank.play(bank.acquire(sound="hum"), "hum", volume=1.0)
        sound = ctx.sounds.get("hum")
        assert sound.sample_rate_hz == OUT_HZ and sound.frames == 24_000
        assert sound.pcm is None and sound.rate_scale == pytest.approx(OUT_HZ / 44_100)
        whole = convert(sine(300.0, 0.5, 44_100)[:, None], 44_100, OUT_HZ)
        assert np.abs(sound.samples - whole).max() < 1e-4  # 16-bit file vs float source
    finally:
        plugin.uninstall()


def test_a_retail_voice_of_a_converted_sound_plays_as_the_original():
    plugin = SoundscapePlugin(Settings(features=("audio",), backend="offline")).install()
    ctx = plugin.context
    try:
        ctx.sounds.add("tone", sine(440.0, 1.0), SOURCE_HZ)
        modern = ensure_bank(ctx, "modern")
        modern.play(modern.acquire(sound="tone"), "tone", volume=1.0)
        oni = ensure_bank(ctx, "oni", count=2, policy="oni", profile="oni")
        handle = oni.acquire()
        oni.play(handle, "tone", volume=1.0, pitch=1.0)
        esper.process(1 / 60)
        channel = oni.get(handle)
        # 22,050 x pitch of the original = 48,000 frames/s of the converted sound
        assert channel.step == pytest.approx(1.0)
        assert not [r for r in ctx.events.records if r["event"] == "rate_mismatch"]
    finally:
        plugin.uninstall()
