"""Headphone rendering: Woodworth ITD, Brown-Duda head shadow, the front/back cue."""

from __future__ import annotations

import math

import numpy as np
import pytest

from soundscape.audio.binaural import (
    HEAD_RADIUS_M,
    Binaural,
    ear_filters,
    shadow_alpha,
    woodworth_itd_s,
)

RATE = 48_000
BLOCK = 1024


def render(azimuth_deg: float, seconds: float = 1.0, gain: float = 1.0,
           seed: int = 2) -> np.ndarray:
    """White noise from ``azimuth_deg`` (clockwise from ahead) through the head, (2, n)."""
    head = Binaural(RATE, BLOCK)
    frames = int(seconds * RATE) // BLOCK * BLOCK
    noise = np.random.default_rng(seed).standard_normal(frames).astype(np.float32) * 0.1
    out = np.zeros((2, frames), np.float32)
    az = np.array([math.radians(azimuth_deg)])
    for i in range(0, frames, BLOCK):
        head.mix(noise[None, i:i + BLOCK], ["v"], az, np.array([gain]), BLOCK,
                 out[:, i:i + BLOCK])
    return out


def itd_ms(out: np.ndarray) -> float:
    """The lag (ms) of the cross-correlation peak of the two ears, parabola-refined;
    positive when the left ear lags (the source is on the right)."""
    left, right = out.astype(np.float64)
    n = left.shape[0]
    xc = np.fft.irfft(np.fft.rfft(left, 2 * n) * np.conj(np.fft.rfft(right, 2 * n)), 2 * n)
    lags = np.r_[np.arange(0, 100), np.arange(-100, 0)]
    values = np.r_[xc[:100], xc[-100:]]
    k = int(np.argmax(values))
    a, b, c = values[k - 1], values[k], values[(k + 1) % len(values)]
    shift = 0.5 * (a - c) / (a - 2 * b + c) if (a - 2 * b + c) != 0 else 0.0
    return float((lags[k] + shift) / RATE * 1000.0)


def band_db(signal: np.ndarray, centre_hz: float) -> float:
    """Energy (dB) in the third-octave band around ``centre_hz``."""
    spectrum = np.abs(np.fft.rfft(signal.astype(np.float64))) ** 2
    freq = np.fft.rfftfreq(signal.shape[0], 1 / RATE)
    band = (freq > centre_hz / 2 ** (1 / 6)) & (freq < centre_hz * 2 ** (1 / 6))
    return float(10 * np.log10(spectrum[band].sum()))


def test_woodworth_and_brown_duda_values():
    assert float(woodworth_itd_s(math.pi / 2)) * 1000 == pytest.approx(
        HEAD_RADIUS_M / 343.0 * (math.pi / 2 + 1) * 1000)
    assert float(woodworth_itd_s(math.pi / 2)) * 1000 == pytest.approx(0.656, abs=0.001)
    assert float(woodworth_itd_s(math.radians(30))) == pytest.approx(
        float(woodworth_itd_s(math.radians(150))))  # front/back mirror
    assert float(shadow_alpha(0.0)) == pytest.approx(2.0)
    assert float(shadow_alpha(math.radians(150))) == pytest.approx(0.1)
    assert float(shadow_alpha(math.radians(90))) < 1.0


def test_a_source_at_90_degrees_gives_woodworths_itd_and_a_head_shadow():
    out = render(90.0)
    assert itd_ms(out) == pytest.approx(0.66, abs=0.05)  # the left (far) ear lags
    assert band_db(out[1], 4000.0) - band_db(out[0], 4000.0) >= 10.0
    mirrored = render(-90.0)
    assert itd_ms(mirrored) == pytest.approx(-0.66, abs=0.05)
    assert band_db(mirrored[0], 4000.0) - band_db(mirrored[1], 4000.0) >= 10.0


def test_a_source_in_front_gives_no_difference():
    out = render(0.0)
    assert itd_ms(out) == pytest.approx(0.0, abs=0.01)
    assert abs(band_db(out[1], 4000.0) - band_db(out[0], 4000.0)) < 0.01
    assert np.array_equal(out[0], out[1])


def test_behind_sounds_duller_than_in_front():
    front, back = render(0.0), render(180.0)
    assert np.array_equal(back[0], back[1])  # no interaural difference either
    assert band_db(front[0], 8000.0) - band_db(back[0], 8000.0) >= 4.0
    assert abs(band_db(front[0], 250.0) - band_db(back[0], 250.0)) < 0.5  # lows alike


def test_the_ear_filters_point_each_way():
    delay, alpha = ear_filters(np.radians([90.0, -90.0, 0.0, 45.0]), RATE)
    assert delay[0, 0] > 30 and delay[1, 0] == 0  # right source: the left ear waits
    assert delay[1, 1] > 30 and delay[0, 1] == 0
    assert delay[:, 2].tolist() == [0.0, 0.0] and alpha[0, 2] == alpha[1, 2]
    assert alpha[1, 3] > alpha[0, 3]


def test_history_follows_the_voices_when_rows_are_laid_out_again():
    rng = np.random.default_rng(4)
    a, b = (rng.standard_normal(4 * BLOCK).astype(np.float32) for _ in range(2))
    az = np.radians([80.0, -60.0])
    g = np.array([0.5, 0.7])
    steady, swapped = Binaural(RATE, BLOCK), Binaural(RATE, BLOCK)
    out1 = np.zeros((2, 4 * BLOCK), np.float32)
    out2 = np.zeros((2, 4 * BLOCK), np.float32)
    for k in range(4):
        sl = slice(k * BLOCK, (k + 1) * BLOCK)
        steady.mix(np.stack([a[sl], b[sl]]), ["a", "b"], az, g, BLOCK, out1[:, sl])
        if k % 2:
            swapped.mix(np.stack([b[sl], a[sl]]), ["b", "a"], az[::-1], g[::-1], BLOCK,
                        out2[:, sl])
        else:
            swapped.mix(np.stack([a[sl], b[sl]]), ["a", "b"], az, g, BLOCK, out2[:, sl])
    np.testing.assert_allclose(out2, out1, atol=1e-6)


def test_a_gain_change_ramps_across_the_block():
    head = Binaural(RATE, BLOCK)
    tone = np.full((1, BLOCK), 0.5, np.float32)  # DC: the ears' output follows the gain
    az = np.array([0.3])
    outs = []
    for gain in (1.0, 1.0, 0.0, 0.0):
        out = np.zeros((2, BLOCK), np.float32)
        head.mix(tone, ["v"], az, np.array([gain]), BLOCK, out)
        outs.append(out)
    whole = np.concatenate(outs, axis=1)
    step = np.abs(np.diff(whole[:, BLOCK:3 * BLOCK], axis=1)).max()
    assert step < 0.01  # a jump from ~0.5 to 0 in one frame would be 0.5
    assert np.abs(outs[3][:, -100:]).max() < 1e-3


def test_silence_after_sound_rings_out():
    head = Binaural(RATE, BLOCK)
    out = np.zeros((2, BLOCK), np.float32)
    head.mix(np.ones((1, BLOCK), np.float32), ["v"], np.array([1.0]), np.array([1.0]),
             BLOCK, out)
    for _ in range(3):
        out[:] = 0.0
        head.mix(np.zeros((0, BLOCK), np.float32), [], np.zeros(0), np.zeros(0), BLOCK, out)
    assert np.isfinite(out).all() and np.abs(out).max() < 1e-6


@pytest.mark.parametrize("rate", [48_000, 8_000])
def test_the_ears_low_pass_is_the_first_order_recursion(rate):
    """The chunked complex cumsum equals y = b0 (x + x[-1]) + p y[-1] run sample by
    sample, across blocks (at 8 kHz a block is two chunks)."""
    head = Binaural(rate, BLOCK)
    x = np.random.default_rng(6).standard_normal((2, 3 * BLOCK)).astype(np.float32)
    got = np.zeros((2, 3 * BLOCK), np.float32)
    for i in range(0, 3 * BLOCK, BLOCK):
        head._lowpass(x[:, i:i + BLOCK], BLOCK, got[:, i:i + BLOCK])
    want = np.zeros((2, 3 * BLOCK))
    xp = yp = np.zeros(2)
    for t in range(3 * BLOCK):
        yp = head.b0 * (x[:, t] + xp) + head.pole * yp
        xp = x[:, t].astype(np.float64)
        want[:, t] = yp
    np.testing.assert_allclose(got, want, atol=1e-5)


def test_voices_coming_and_going_mix_as_the_sum_of_each_alone():
    """The head is linear: a block's mix of several voices is the sum of each voice
    through a head of its own, across layouts that grow past the first allocation
    (16 rows), shrink, and change block length (each keeps its views per length)."""
    rng = np.random.default_rng(8)
    layouts = [[0, 1], list(range(20)), [3, 1], [3, 1], list(range(5)), [4]]
    lengths = [BLOCK, BLOCK, 300, BLOCK, 300, BLOCK]
    az_of = np.linspace(-3.0, 3.0, 20)
    joint = Binaural(RATE, BLOCK)
    alone = {key: Binaural(RATE, BLOCK) for key in range(20)}
    for keys, n in zip(layouts, lengths, strict=True):
        samples = rng.standard_normal((24, n)).astype(np.float32)
        rows = np.array([k + 2 for k in keys], dtype=np.intp)  # not the first rows
        az, gain = az_of[keys], np.full(len(keys), 0.5)
        got = np.zeros((2, n), np.float32)
        joint.mix(samples, list(keys), az, gain, n, got, rows)
        want = np.zeros((2, n), np.float64)
        for key, head in alone.items():
            mine = np.zeros((2, n), np.float32)
            if key in keys:
                head.mix(samples[key + 2:key + 3], [key], az_of[[key]], gain[:1], n, mine)
            else:
                head.mix(np.zeros((0, n), np.float32), [], np.zeros(0), np.zeros(0), n, mine)
            want += mine
        np.testing.assert_allclose(got, want, atol=2e-5)


def test_runs_of_rows_read_the_same_voices_as_an_index():
    rng = np.random.default_rng(9)
    index = np.array([0, 1, 2, 5, 6, 9], dtype=np.intp)
    runs = ((0, 3), (5, 7), (9, 10))
    az, gain = np.linspace(-2.0, 2.0, 6), np.full(6, 0.7)
    heads = (Binaural(RATE, BLOCK), Binaural(RATE, BLOCK))
    outs = (np.zeros((2, 3 * BLOCK), np.float32), np.zeros((2, 3 * BLOCK), np.float32))
    for i in range(0, 3 * BLOCK, BLOCK):
        samples = rng.standard_normal((12, BLOCK)).astype(np.float32)
        for head, out, rows in zip(heads, outs, (index, runs), strict=True):
            head.mix(samples, list("abcdef"), az, gain, BLOCK, out[:, i:i + BLOCK], rows)
    assert outs[0].any() and outs[0].tobytes() == outs[1].tobytes()
