"""The sound-design helpers of ``soundscape.synth`` (issue 21): seeded, deterministic,
and each makes what it says (measured on the samples, not on the parameters)."""

from __future__ import annotations

import numpy as np
import pytest

from soundscape import synth

RATE = synth.DEFAULT_RATE_HZ


def _peak_hz(x: np.ndarray) -> float:
    power = np.abs(np.fft.rfft(x * np.hanning(x.shape[0])))
    return float(np.fft.rfftfreq(x.shape[0], 1.0 / RATE)[int(np.argmax(power))])


def _rms(x: np.ndarray, window_s: float) -> np.ndarray:
    n = int(window_s * RATE)
    usable = x[: x.shape[0] // n * n]
    return np.sqrt((usable.reshape(-1, n, *x.shape[1:]) ** 2).mean(axis=1))


HELPERS = {
    "fm_chirp": lambda seed: synth.fm_chirp(2_000 + seed, 3_000, 0.3, mod_hz=20.0,
                                            mod_depth=0.1),
    "pulsed_band": lambda seed: synth.pulsed_band(4_000, 0.5, seed),
    "click_train": lambda seed: synth.click_train(seed, 6),
    "moving_noise": lambda seed: synth.moving_noise(1.0, seed, stereo=True, sway=0.5),
    "uniform": lambda seed: synth.uniform(seed, 8),
    "periodic_curve": lambda seed: synth.periodic_curve(500, seed),
}


@pytest.mark.parametrize("name", sorted(HELPERS))
def test_helpers_are_seeded_and_deterministic(name):
    make = HELPERS[name]
    a, b, c = make(1), make(1), make(2)
    assert a.tobytes() == b.tobytes()
    assert a.tobytes() != c.tobytes()
    if name not in ("uniform", "periodic_curve"):
        assert a.dtype == np.float32 and 0.0 < float(np.abs(a).max()) <= 1.0


def test_fm_chirp_glides_and_trills():
    x = synth.fm_chirp(1_000, 4_000, 0.4).astype(np.float64)
    quarter = x.shape[0] // 4
    assert abs(_peak_hz(x[:quarter]) - 1_200) < 300
    assert abs(_peak_hz(x[-quarter:]) - 3_400) < 500
    # A trill: the zero-crossing rate swings at the modulation rate, a plain tone's does not.
    trill = synth.fm_chirp(3_000, 3_000, 0.5, mod_hz=25.0, mod_depth=0.2).astype(np.float64)
    steady = synth.fm_chirp(3_000, 3_000, 0.5).astype(np.float64)

    def crossing_rates(y):
        n = RATE // 200  # 5 ms windows
        mid = y[RATE // 10: -RATE // 10]
        signs = np.signbit(mid[: mid.shape[0] // n * n]).reshape(-1, n)
        return np.abs(np.diff(signs.astype(int), axis=1)).sum(axis=1)

    assert np.ptp(crossing_rates(trill)) >= 8
    assert np.ptp(crossing_rates(steady)) <= 2


def test_pulsed_band_is_a_narrow_band_in_pulses():
    x = synth.pulsed_band(4_500, 1.0, 3, bandwidth_hz=300.0, pulse_hz=30.0, pulses=4,
                          chirp_hz=2.0).astype(np.float64)
    power = np.abs(np.fft.rfft(x)) ** 2
    freqs = np.fft.rfftfreq(x.shape[0], 1.0 / RATE)
    assert power[(freqs > 4_250) & (freqs < 4_750)].sum() > 0.9 * power.sum()
    # Two chirps a second of four pulses each: 8 bursts, silence between the chirps.
    envelope = _rms(x, 0.005)
    on = envelope > 0.3 * envelope.max()
    bursts = int(np.count_nonzero(on[1:] & ~on[:-1]) + on[0])
    assert bursts == 8
    assert envelope[int(0.2 / 0.005): int(0.45 / 0.005)].max() == 0.0


def test_click_train_knocks_count_times_on_its_ring():
    x = synth.click_train(4, 10, interval_s=0.05, ring_hz=1_500.0).astype(np.float64)
    envelope = _rms(x, 0.002)
    on = envelope > 0.2 * envelope.max()
    assert int(np.count_nonzero(on[1:] & ~on[:-1]) + on[0]) == 10
    assert abs(_peak_hz(x) - 1_500) < 120
    # fade < 1: the knocks get quieter.
    assert envelope[: int(0.05 / 0.002)].max() > 1.5 * envelope[-int(0.05 / 0.002):].max()


def test_moving_noise_moves_its_level_cutoff_and_balance_and_loops():
    x = synth.moving_noise(4.0, 9, cutoff_hz=(300.0, 4_000.0), level=(0.2, 1.0),
                           stereo=True, sway=0.8).astype(np.float64)
    assert x.shape == (4 * RATE, 2)
    level = _rms(x.mean(axis=1), 0.25)
    assert level.max() > 2.5 * level.min()  # gusts
    n = int(0.25 * RATE)
    centroids = []
    for k in range(x.shape[0] // n):
        power = np.abs(np.fft.rfft(x[k * n: (k + 1) * n].mean(axis=1))) ** 2
        freqs = np.fft.rfftfreq(n, 1.0 / RATE)
        centroids.append((power * freqs).sum() / power.sum())
    assert max(centroids) > 1.5 * min(centroids)  # the cutoff moves
    sides = _rms(x, 0.25)
    balance_db = 20 * np.log10(sides[:, 1] / sides[:, 0])
    assert np.ptp(balance_db) > 4.0  # left/right balance moves
    # Periodic: the last frame runs into the first like any two neighbours do.
    steps = np.abs(np.diff(x[:, 0]))
    assert abs(x[0, 0] - x[-1, 0]) < np.percentile(steps, 99.5)
    spectrum_loop = np.abs(np.fft.rfft(x[:, 0]))
    assert spectrum_loop[-100:].max() < 1e-6 * spectrum_loop.max()  # nothing above high_hz


def test_refire_loop_replays_without_a_seam():
    periodic = synth.moving_noise(1.0, 5, stereo=True, sway=0.5)
    sound = synth.refire_loop(periodic, 0.1)
    period, tail = periodic.shape[0], int(0.1 * RATE)
    assert sound.shape == (period + tail, 2)
    # Played again one period later: the sum is the periodic signal, frame for frame.
    chained = np.zeros((2 * period + tail, 2))
    chained[:sound.shape[0]] += sound
    chained[period:] += sound
    assert np.allclose(chained[tail:2 * period], np.concatenate([periodic, periodic])[tail:],
                       atol=1e-6)
    assert abs(float(sound[0, 0])) < 0.01 and abs(float(sound[-1, 0])) < 0.01  # no click
    with pytest.raises(ValueError, match="tail"):
        synth.refire_loop(periodic, 2.0)


def test_periodic_curve_repeats_and_spans_minus_one_to_one():
    c = synth.periodic_curve(4_000, 2, (1, 3))
    assert abs(float(np.abs(c).max()) - 1.0) < 1e-12
    longer = synth.periodic_curve(8_000, 2, (2, 6))  # twice the cycles over twice the length
    assert np.allclose(longer[:4_000], longer[4_000:], atol=1e-12)
