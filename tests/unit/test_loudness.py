"""BS.1770-style meters (issue 21): K-weighted gated loudness and true peak."""

from __future__ import annotations

import math

import numpy as np
import pytest

from soundscape.audio import loudness

RATE = 48_000


def _tone(seconds, dbfs, freq=997.0, sides=(1.0, 1.0), phase=0.0):
    t = np.arange(int(seconds * RATE)) / RATE
    x = np.sin(2 * np.pi * freq * t + phase) * 10 ** (dbfs / 20)
    return np.stack([x * s for s in sides], axis=1)


def _biquad(x, b, a):
    y = np.zeros_like(x)
    x1 = x2 = y1 = y2 = 0.0
    for i, v in enumerate(x.tolist()):
        o = b[0] * v + b[1] * x1 + b[2] * x2 - a[1] * y1 - a[2] * y2
        x2, x1, y2, y1 = x1, v, y1, o
        y[i] = o
    return y


def test_k_weighting_is_bs1770s_at_48k():
    (b1, a1), (b2, a2) = loudness.k_weighting(48_000)
    assert np.allclose(b1, [1.53512485958697, -2.69169618940638, 1.19839281085285])
    assert np.allclose(a1, [1.0, -1.69065929318241, 0.73248077421585])
    assert np.allclose(b2, [1.0, -2.0, 1.0])
    assert np.allclose(a2, [1.0, -1.99004745483398, 0.99007225036621])


def test_full_scale_997_hz_reads_minus_3_on_one_side_and_0_on_both():
    assert loudness.integrated_lufs(_tone(2.0, 0.0, sides=(1.0, 0.0)), RATE) == pytest.approx(
        -3.01, abs=0.05)
    assert loudness.integrated_lufs(_tone(2.0, 0.0), RATE) == pytest.approx(0.0, abs=0.05)
    assert loudness.integrated_lufs(_tone(2.0, -23.0), RATE) == pytest.approx(-23.0, abs=0.05)


def test_frequency_domain_matches_filtering_in_time():
    rng = np.random.default_rng(4)
    noise = rng.standard_normal((RATE, 2)) * 0.1
    noise[:, 1] *= 0.3
    noise[:, 0] += np.sin(np.arange(RATE) * 2 * np.pi * 60 / RATE) * 0.2  # low end too
    filtered = noise.copy()
    for c in range(2):
        for b, a in loudness.k_weighting(RATE):
            filtered[:, c] = _biquad(filtered[:, c], b, a)
    n, hop = int(0.4 * RATE), int(0.1 * RATE)
    z = np.array([(filtered[i: i + n] ** 2).mean(axis=0).sum()
                  for i in range(0, RATE - n + 1, hop)])
    expected = -0.691 + 10 * math.log10(z.mean())  # steady noise: no block is gated out
    assert loudness.integrated_lufs(noise, RATE) == pytest.approx(expected, abs=0.05)


def test_gates_drop_silence_and_quiet_passages():
    loud, quiet, silent = _tone(4.0, -20.0), _tone(4.0, -36.0), np.zeros((4 * RATE, 2))
    # Silence is under the absolute gate, the -36 passage under the relative one.
    # (The blocks straddling an edge are partly loud: they pull it a little under -20.)
    mixed = np.concatenate([loud, silent, quiet, loud])
    assert loudness.integrated_lufs(mixed, RATE) == pytest.approx(-20.0, abs=0.25)
    both = np.concatenate([loud, _tone(4.0, -26.0)])   # within 10 LU: both count
    assert loudness.integrated_lufs(both, RATE) < -21.0
    assert loudness.integrated_lufs(silent, RATE) == -math.inf


def test_momentary_loudness_is_per_side():
    times, lufs = loudness.momentary_lufs(_tone(2.0, -10.0, sides=(1.0, 0.0)), RATE)
    assert times[0] == pytest.approx(0.4) and times[-1] == pytest.approx(2.0)
    assert np.allclose(lufs[:, 0], -13.01, atol=0.05)
    assert np.all(np.isneginf(lufs[:, 1]))


def test_true_peak_finds_the_peak_between_samples():
    # A sine at a quarter of the rate sampled 45 degrees off its crests: every sample is
    # 3 dB under the true peak.
    x = _tone(0.5, -6.0, freq=RATE / 4, phase=math.pi / 4)
    assert 20 * math.log10(np.abs(x).max()) == pytest.approx(-9.01, abs=0.01)
    assert loudness.true_peak_dbfs(x, RATE) == pytest.approx(-6.0, abs=0.05)
    # On a long mix, pieces far under the loudest sample are skipped, the answer is the same.
    # (faded in and out: a sine cut off abruptly rings over its peak when band-limited).
    fade = np.sin(np.linspace(0.0, np.pi, x.shape[0]))[:, None] ** 0.05
    long = np.concatenate([_tone(3.0, -30.0, freq=440.0), x * fade,
                           _tone(3.0, -30.0, freq=440.0)])
    assert loudness.true_peak_dbfs(long, RATE) == pytest.approx(-6.0, abs=0.05)
    assert loudness.true_peak_dbfs(np.zeros((10, 2)), RATE) == -math.inf
