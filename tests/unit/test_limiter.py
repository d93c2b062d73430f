"""The master limiter (issue 21): a soft-knee peak limiter with no latency, last in the mixer."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import esper
import numpy as np
import pytest

from soundscape import InputError, Settings, SoundscapePlugin
from soundscape.audio.commands import VoiceParams
from soundscape.audio.limiter import CEILING_DBFS, KNEE_DB, RELEASE_DB_PER_S, Limiter
from soundscape.audio.loudness import true_peak_dbfs
from soundscape.audio.mixer import Mixer
from soundscape.audio.sounds import SoundBank

RATE = 48_000
CEILING = 10 ** (CEILING_DBFS / 20)
KNEE_START = 10 ** ((CEILING_DBFS - KNEE_DB / 2) / 20)


def _noise(frames, level, seed=1):
    rng = np.random.default_rng(seed)
    return (rng.uniform(-1.0, 1.0, (frames, 2)) * level).astype(np.float32)


def _run(limiter, audio, block=1024):
    out = audio.copy()
    for start in range(0, out.shape[0], block):
        limiter.process(out[start: start + block])
    return out


def test_below_the_knee_the_bytes_pass_untouched():
    audio = _noise(RATE, KNEE_START * 0.999)
    limiter = Limiter(RATE)
    assert _run(limiter, audio).tobytes() == audio.tobytes()
    assert limiter.gain_db == 0.0 and limiter.max_reduction_db == 0.0


@pytest.mark.parametrize("level", [0.8, 1.0, 2.0, 16.0])
def test_no_sample_leaves_above_the_ceiling(level):
    t = np.arange(RATE) / RATE
    tone = np.sin(2 * np.pi * 440 * t) * level
    audio = np.stack([tone, 0.5 * tone], axis=1).astype(np.float32) + _noise(RATE, 0.05)
    out = _run(Limiter(RATE), audio)
    assert float(np.abs(out).max()) <= CEILING * (1 + 1e-6)
    # Linked stereo: both sides take the same gain, so the image stays where it was.
    ratio = out[:, 1] / np.where(out[:, 0] == 0, 1, out[:, 0])
    mask = np.abs(audio[:, 0]) > 0.2 * level
    expected = audio[:, 1] / np.where(audio[:, 0] == 0, 1, audio[:, 0])
    assert np.allclose(ratio[mask], expected[mask], rtol=1e-4)


def test_the_static_curve_is_soft_and_continuous():
    limiter = Limiter(RATE)
    levels_db = np.linspace(-10.0, 6.0, 1601)
    gains = limiter.curve_db(10 ** (levels_db / 20))
    out_db = levels_db + gains
    assert np.all(gains <= 0.0)
    assert np.all(gains[levels_db < CEILING_DBFS - KNEE_DB / 2] == 0.0)
    assert np.allclose(out_db[levels_db >= CEILING_DBFS + KNEE_DB / 2], CEILING_DBFS)
    assert np.all(np.diff(out_db) >= -1e-12)          # never turns a louder input quieter
    assert np.abs(np.diff(gains)).max() < 0.02          # no step (soft knee)
    mid = np.argmin(np.abs(levels_db - CEILING_DBFS))
    assert gains[mid] == pytest.approx(-KNEE_DB / 8, abs=1e-6)  # half-way into the knee


def test_the_gain_falls_at_once_and_recovers_at_the_release_rate():
    limiter = Limiter(RATE)
    loud = np.full((100, 2), 2.0, dtype=np.float32)          # 2.0 is +6 dBFS
    limiter.process(loud)
    deepest = CEILING_DBFS - 20 * math.log10(2.0)
    assert limiter.gain_db == pytest.approx(deepest)
    assert float(np.abs(loud).max()) <= CEILING * (1 + 1e-6)  # the first frame already
    quiet = np.full((RATE // 10, 2), 0.1, dtype=np.float32)    # 100 ms under the knee
    limiter.process(quiet)
    assert limiter.gain_db == pytest.approx(deepest + RELEASE_DB_PER_S * 0.1, abs=1e-6)
    assert float(quiet[-1, 0]) == pytest.approx(0.1 * 10 ** (limiter.gain_db / 20), rel=1e-5)
    limiter.process(np.zeros((RATE, 2), dtype=np.float32))  # a second: back at rest
    assert limiter.gain_db == 0.0
    assert limiter.max_reduction_db == pytest.approx(-deepest)


def test_any_block_size_gives_the_same_output():
    audio = _noise(RATE // 2, 1.6, seed=3)
    a = _run(Limiter(RATE), audio, 1024)
    b = _run(Limiter(RATE), audio, 800)
    c = _run(Limiter(RATE), audio, 37)
    assert np.allclose(a, b, atol=1e-6) and np.allclose(a, c, atol=1e-6)


def test_no_latency_a_click_stays_on_its_frame():
    audio = np.zeros((2048, 2), dtype=np.float32)
    audio[700] = 3.0
    out = _run(Limiter(RATE), audio)
    assert int(np.argmax(np.abs(out[:, 0]))) == 700
    assert not out[:700].any()


@pytest.mark.parametrize("kwargs", [
    {"ceiling_dbfs": 0.0}, {"ceiling_dbfs": math.nan}, {"knee_db": -1.0},
    {"release_db_per_s": 0.0}, {"sample_rate_hz": 0},
])
def test_bad_settings_are_input_errors(kwargs):
    args = {"sample_rate_hz": RATE, **kwargs}
    with pytest.raises(InputError, match="Limiter"):
        Limiter(**args)


def test_true_peak_of_the_limited_output_stays_under_minus_one_dbfs():
    """Program-like material pushed 12 dB over full scale: the ceiling's margin holds."""
    rate, seconds = RATE, 4
    t = np.arange(rate * seconds) / rate
    rng = np.random.default_rng(8)
    music = sum(np.sin(2 * np.pi * f * t + p) for f, p in
                zip((220, 330, 495, 1_320, 2_640, 5_280), rng.uniform(0, 6, 6), strict=True))
    audio = (np.stack([music, np.roll(music, 300)], axis=1) / 6 * 4.0).astype(np.float32)
    out = _run(Limiter(rate), audio)
    assert true_peak_dbfs(out, rate) <= -1.0


# -- in the mixer and the plugin ---------------------------------------------------------


def test_the_mixer_limits_its_output_after_the_master_gain():
    samples = (np.sin(np.arange(8_192) * 0.05) * 0.9).astype(np.float32)
    loud = SoundBank().add("loud", samples, RATE)
    plain, limited = Mixer(RATE, 1024), Mixer(RATE, 1024, limiter=Limiter(RATE))
    for mixer in (plain, limited):
        mixer.master_gain = 2.0  # +6 dB: the sum peaks at 1.8
        mixer.start(1, loud, VoiceParams(1.0, 1.0, 1.0))
    a, b = plain.render(4_096).copy(), limited.render(4_096).copy()
    assert float(np.abs(a).max()) == pytest.approx(1.8, rel=1e-3)
    assert float(np.abs(b).max()) <= CEILING * (1 + 1e-6)
    # Until the sum first reaches the knee the limiter changes nothing.
    first = int(np.argmax(np.abs(a[:, 0]) >= KNEE_START))
    assert first > 0 and b[:first].tobytes() == a[:first].tobytes()
    limited.limiter = None  # switched off while running: the next block is the laws' own
    plain.limiter = None
    assert limited.render(1_024).tobytes() == plain.render(1_024).tobytes()


def test_settings_switch_the_limiter_and_refuse_a_non_bool():
    on = SoundscapePlugin(Settings(backend="offline", features=("audio",))).install()
    assert isinstance(on.context.mixer.limiter, Limiter)
    on.uninstall()
    off = SoundscapePlugin(Settings(backend="offline", features=("audio",),
                                    limiter=False)).install()
    assert off.context.mixer.limiter is None
    off.uninstall()
    with pytest.raises(ValueError, match="limiter"):
        Settings(limiter="yes")  # type: ignore[arg-type]


def _golden():
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "system"))
    try:
        import test_audio_golden
    finally:
        sys.path.pop(0)
    return test_audio_golden


def test_limiter_in_the_plugin_holds_the_golden_scene():
    """The golden scene peaks at +2 dBFS; with the limiter on no sample passes the ceiling."""
    golden = _golden()
    plain, _ = golden.render_scene()
    esper.switch_world("limiter-golden")
    try:
        limited, _ = golden.render_scene(limiter=True)
    finally:
        esper.switch_world("default")
        esper.delete_world("limiter-golden")
    assert float(np.abs(plain).max()) > 1.2
    assert float(np.abs(limited).max()) <= CEILING * (1 + 1e-6)
    # Only turned down, never up or inverted, and not squashed: a gain in (0, 1] a frame.
    assert np.all(np.abs(limited) <= np.abs(plain) * (1 + 1e-6) + 1e-9)
    assert np.all(np.sign(limited) * np.sign(plain) >= 0)
    assert np.sqrt((limited ** 2).mean()) > 0.6 * np.sqrt((plain ** 2).mean())
