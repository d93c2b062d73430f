"""Deterministic numpy synthesis: noise beds, tones, chirps, clicks and swooshes.

For sound design: ``fm_chirp`` (bird calls, trills), ``pulsed_band`` (crickets),
``click_train`` (a woodpecker's drumming), ``moving_noise`` (wind in gusts,
water under swells: a loop whose cutoff and level move) and ``refire_loop`` (a
bed re-fired every period plays without a seam); ``uniform`` gives a recipe its
seeded parameters.

The demo's sounds are made here, so no binary asset is committed. Every helper
is a pure function of its arguments: noise comes from a counter-based hash of
``(seed, index)`` (no global or library random state), so the same call gives
the same bytes on every run. The noise itself is integer arithmetic and the
same everywhere; the shaping uses numpy's float64 ``exp``/``log``/``power``,
whose SIMD kernels numpy picks by CPU (AVX-512 or not), so another CPU family
may round a few samples differently in the last bit.

>>> a = noise_bed(0.1, seed=3)
>>> b = noise_bed(0.1, seed=3)
>>> a.dtype.name, a.shape, bool((a == b).all())
('float32', (2205,), True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

DEFAULT_RATE_HZ = 22_050
_MASK64 = np.uint64(0xFFFFFFFFFFFFFFFF)


def white_noise(frames: int, seed: int) -> np.ndarray:
    """``frames`` uniform values in [-1, 1) from a splitmix64 hash of (seed, index)."""
    with np.errstate(over="ignore"):
        x = np.arange(frames, dtype=np.uint64) + np.uint64(
            (seed * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF)
        x = (x + np.uint64(0x9E3779B97F4A7C15)) & _MASK64
        x = ((x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)) & _MASK64
        x = ((x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)) & _MASK64
        x = x ^ (x >> np.uint64(31))
    top = (x >> np.uint64(40)).astype(np.float64)  # 24 bits
    return (top / float(1 << 23) - 1.0).astype(np.float32)


def _frames(duration_s: float, rate_hz: int) -> int:
    if duration_s <= 0 or rate_hz <= 0:
        raise ValueError("synth: duration and rate must be positive")
    return max(1, int(round(duration_s * rate_hz)))


def _normalise(x: np.ndarray, peak: float) -> np.ndarray:
    top = float(np.max(np.abs(x))) if x.size else 0.0
    return (x * (peak / top) if top > 0 else x).astype(np.float32)


def _fade(x: np.ndarray, frames: int) -> np.ndarray:
    """Raised-cosine fade in and out over ``frames`` (no click at the ends)."""
    frames = min(frames, x.shape[0] // 2)
    if frames > 0:
        ramp = 0.5 - 0.5 * np.cos(np.linspace(0.0, np.pi, frames, dtype=np.float64))
        x[:frames] *= ramp.astype(np.float32)
        x[-frames:] *= ramp[::-1].astype(np.float32)
    return x


def noise_bed(duration_s: float, seed: int, *, rate_hz: int = DEFAULT_RATE_HZ,
              low_hz: float = 40.0, high_hz: float = 2_000.0, tilt: float = 1.0,
              peak: float = 0.5) -> np.ndarray:
    """A loopable band-limited noise bed (wind, room tone, water).

    White noise is shaped in the frequency domain (a band from ``low_hz`` to
    ``high_hz`` with a 1/f^tilt slope), so the result is periodic: looped whole
    it has no seam.
    """
    n = _frames(duration_s, rate_hz)
    spectrum = np.fft.rfft(white_noise(n, seed).astype(np.float64))
    freqs = np.fft.rfftfreq(n, 1.0 / rate_hz)
    shape = np.where((freqs >= low_hz) & (freqs <= high_hz), 1.0, 0.0)
    shape = shape / np.maximum(freqs, 1.0) ** (tilt / 2.0)
    return _normalise(np.fft.irfft(spectrum * shape, n), peak)


def tone(freq_hz: float, duration_s: float, *, rate_hz: int = DEFAULT_RATE_HZ,
         harmonics: tuple[float, ...] = (1.0,), decay_s: float | None = None,
         peak: float = 0.5, fade_s: float = 0.005) -> np.ndarray:
    """A tone with optional harmonics (amplitudes of 1x, 2x, 3x... ``freq_hz``) and decay."""
    n = _frames(duration_s, rate_hz)
    t = np.arange(n, dtype=np.float64) / rate_hz
    x = sum(a * np.sin(2 * np.pi * freq_hz * (k + 1) * t) for k, a in enumerate(harmonics))
    x = np.asarray(x, dtype=np.float64)
    if decay_s is not None:
        x *= np.exp(-t / decay_s)
    return _fade(_normalise(x, peak), int(fade_s * rate_hz))


def chirp(f0_hz: float, f1_hz: float, duration_s: float, *, rate_hz: int = DEFAULT_RATE_HZ,
          peak: float = 0.5, fade_s: float = 0.01) -> np.ndarray:
    """An exponential sweep from ``f0_hz`` to ``f1_hz`` (a bird call, a laser)."""
    n = _frames(duration_s, rate_hz)
    t = np.arange(n, dtype=np.float64) / rate_hz
    k = np.log(f1_hz / f0_hz) / duration_s
    phase = 2 * np.pi * f0_hz * (np.expm1(k * t) / k if k != 0 else t)
    return _fade(_normalise(np.sin(phase), peak), int(fade_s * rate_hz))


def click(seed: int, *, duration_s: float = 0.03, rate_hz: int = DEFAULT_RATE_HZ,
          peak: float = 0.8) -> np.ndarray:
    """A short decaying noise burst (footstep, tick, impact)."""
    n = _frames(duration_s, rate_hz)
    t = np.arange(n, dtype=np.float64) / rate_hz
    x = white_noise(n, seed).astype(np.float64) * np.exp(-t / (duration_s / 6.0))
    return _normalise(x, peak)


def swoosh(seed: int, *, duration_s: float = 0.6, rate_hz: int = DEFAULT_RATE_HZ,
           f0_hz: float = 300.0, f1_hz: float = 3_000.0, peak: float = 0.6) -> np.ndarray:
    """A swept band of noise with a bell envelope (a flyby, a sword swing)."""
    n = _frames(duration_s, rate_hz)
    spectrum = np.fft.rfft(white_noise(n, seed).astype(np.float64))
    freqs = np.fft.rfftfreq(n, 1.0 / rate_hz)
    centre = np.sqrt(f0_hz * f1_hz)
    band = np.exp(-0.5 * (np.log(np.maximum(freqs, 1.0) / centre) / 0.8) ** 2)
    x = np.fft.irfft(spectrum * band, n)
    t = np.linspace(0.0, 1.0, n)
    return _normalise(x * np.sin(np.pi * t) ** 2, peak)


# -- sound design ---------------------------------------------------------------------


def uniform(seed: int, count: int, lo: float = 0.0, hi: float = 1.0) -> np.ndarray:
    """``count`` seeded values in [lo, hi) (float64): a recipe's random parameters.

    >>> bool((uniform(4, 3) == uniform(4, 3)).all()), bool((uniform(4, 3) < 1.0).all())
    (True, True)
    """
    return lo + (hi - lo) * (white_noise(count, seed).astype(np.float64) + 1.0) / 2.0


def periodic_curve(frames: int, seed: int, cycles: tuple[int, ...] = (1, 2, 3)) -> np.ndarray:
    """A smooth curve in [-1, 1] repeating exactly every ``frames`` (a loop's LFO).

    A sum of sines of whole ``cycles`` per length, with seeded amplitudes and phases.

    >>> c = periodic_curve(1000, 5)
    >>> round(float(abs(c).max()), 6), bool(abs(c[0] - periodic_curve(1001, 5)[-1]) < 0.02)
    (1.0, True)
    """
    t = np.arange(frames, dtype=np.float64) / frames
    draws = uniform(seed, 2 * len(cycles))
    x = np.zeros(frames)
    for k, c in enumerate(cycles):
        x += (0.5 + 0.5 * draws[2 * k]) / c * np.sin(2 * np.pi * (c * t + draws[2 * k + 1]))
    top = float(np.max(np.abs(x)))
    return x / top if top > 0 else x


def fm_chirp(f0_hz: float, f1_hz: float, duration_s: float, *,
             rate_hz: int = DEFAULT_RATE_HZ, mod_hz: float = 0.0, mod_depth: float = 0.0,
             harmonics: tuple[float, ...] = (1.0,), shape: float = 1.0,
             peak: float = 0.5) -> np.ndarray:
    """A frequency-modulated sweep: bird chirps, trills, gulls, a hawk's scream.

    The frequency glides exponentially from ``f0_hz`` to ``f1_hz`` while a sine at
    ``mod_hz`` swings it by ``mod_depth`` (a fraction: 0.2 is +-20 %); fast, deep
    modulation is a trill. The amplitude is a bell ``sin(pi t / T) ** shape``.
    """
    n = _frames(duration_s, rate_hz)
    t = np.arange(n, dtype=np.float64) / rate_hz
    glide = f0_hz * (f1_hz / f0_hz) ** (t / duration_s)
    freq = glide * (1.0 + mod_depth * np.sin(2 * np.pi * mod_hz * t))
    phase = 2 * np.pi * np.cumsum(freq) / rate_hz
    x = sum(a * np.sin((k + 1) * phase) for k, a in enumerate(harmonics))
    envelope = np.sin(np.pi * np.arange(n, dtype=np.float64) / n) ** shape
    return _normalise(np.asarray(x, dtype=np.float64) * envelope, peak)


def band_noise(frames: int, seed: int, low_hz: float, high_hz: float,
               rate_hz: int = DEFAULT_RATE_HZ) -> np.ndarray:
    """Noise band-limited to ``low_hz..high_hz`` (periodic over ``frames``), float64, unit RMS."""
    spectrum = np.fft.rfft(white_noise(frames, seed).astype(np.float64))
    freqs = np.fft.rfftfreq(frames, 1.0 / rate_hz)
    x = np.fft.irfft(np.where((freqs >= low_hz) & (freqs <= high_hz), spectrum, 0.0), frames)
    rms = float(np.sqrt(np.mean(x * x)))
    return x / rms if rms > 0 else x


def pulsed_band(centre_hz: float, duration_s: float, seed: int, *,
                rate_hz: int = DEFAULT_RATE_HZ, bandwidth_hz: float = 300.0,
                pulse_hz: float = 30.0, pulses: int = 4, chirp_hz: float = 2.0,
                peak: float = 0.5) -> np.ndarray:
    """A narrow band of noise in pulses grouped into chirps: a cricket, a cicada, a frog.

    Each chirp (``chirp_hz`` of them a second) is ``pulses`` raised-cosine pulses at
    ``pulse_hz``; the band is ``bandwidth_hz`` wide around ``centre_hz``.
    """
    n = _frames(duration_s, rate_hz)
    t = np.arange(n, dtype=np.float64) / rate_hz
    carrier = band_noise(n, seed, centre_hz - bandwidth_hz / 2, centre_hz + bandwidth_hz / 2,
                         rate_hz)
    in_chirp = np.mod(t, 1.0 / chirp_hz)
    pulse = 0.5 - 0.5 * np.cos(2 * np.pi * pulse_hz * in_chirp)
    gate = np.where(in_chirp < pulses / pulse_hz, pulse, 0.0)
    return _fade(_normalise(carrier * gate, peak), int(0.005 * rate_hz))


def click_train(seed: int, count: int, *, rate_hz: int = DEFAULT_RATE_HZ,
                interval_s: float = 0.05, accel: float = 1.0, ring_hz: float = 1_200.0,
                ring_s: float = 0.008, fade: float = 0.92, peak: float = 0.7) -> np.ndarray:
    """``count`` knocks on a resonant body: a woodpecker's drumming, a rattle, a latch.

    Each knock is a noise tick ringing a damped sine at ``ring_hz`` (+-5 % seeded);
    the interval is multiplied by ``accel`` and the level by ``fade`` each knock.
    """
    draws = uniform(seed, count, -0.05, 0.05)
    times, t_s, gap = [], 0.0, interval_s
    for _ in range(count):
        times.append(t_s)
        t_s, gap = t_s + gap, gap * accel
    knock_n = _frames(ring_s * 6, rate_hz)
    out = np.zeros(int(round(t_s * rate_hz)) + knock_n)
    tt = np.arange(knock_n, dtype=np.float64) / rate_hz
    tick = white_noise(knock_n, seed).astype(np.float64) * np.exp(-tt / 0.0008)
    for k, start_s in enumerate(times):
        ring = np.sin(2 * np.pi * ring_hz * (1 + draws[k]) * tt) * np.exp(-tt / ring_s)
        i = int(round(start_s * rate_hz))
        out[i: i + knock_n] += fade ** k * (ring + 0.5 * tick)
    return _normalise(out, peak)


def moving_noise(duration_s: float, seed: int, *, rate_hz: int = DEFAULT_RATE_HZ,
                 low_hz: float = 60.0, high_hz: float = 6_000.0, tilt: float = 1.0,
                 cutoff_hz: tuple[float, float] = (400.0, 3_000.0),
                 level: tuple[float, float] = (0.3, 1.0), cycles: tuple[int, ...] = (1, 2, 3),
                 curve_seed: int | None = None, stereo: bool = False, sway: float = 0.0,
                 bands: int = 8, peak: float = 0.5) -> np.ndarray:
    """A loop of noise whose low-pass cutoff and level move together (wind gusts, swells).

    One periodic curve (``periodic_curve(cycles)``, seeded by ``curve_seed`` or
    ``seed``) drives the cutoff between ``cutoff_hz`` and the level between
    ``level``: a gust is louder and brighter. The noise is split into ``bands``
    log-spaced bands, each weighed by a second-order low-pass response at the
    moving cutoff, so the result loops without a seam over ``duration_s``.
    ``stereo`` gives (frames, 2) with independent noise per side, and ``sway``
    (0..1) lets a second curve move the balance between the sides.
    """
    n = _frames(duration_s, rate_hz)
    drive = 0.5 + 0.5 * periodic_curve(n, seed if curve_seed is None else curve_seed, cycles)
    inv_cutoff4 = (cutoff_hz[0] * (cutoff_hz[1] / cutoff_hz[0]) ** drive) ** -4.0
    gain = level[0] + (level[1] - level[0]) * drive
    edges = np.geomspace(low_hz, high_hz, bands + 1)
    freqs = np.fft.rfftfreq(n, 1.0 / rate_hz)
    slope = 1.0 / np.maximum(freqs, 1.0) ** (tilt / 2.0)
    masks = [(freqs >= lo) & (freqs < hi) for lo, hi in zip(edges[:-1], edges[1:], strict=True)]
    sides = []
    for side in range(2 if stereo else 1):
        spectrum = np.fft.rfft(white_noise(n, seed * 2 + side).astype(np.float64)) * slope
        x = np.zeros(n)
        for mask, centre in zip(masks, np.sqrt(edges[:-1] * edges[1:]), strict=True):
            part = np.fft.irfft(np.where(mask, spectrum, 0.0), n)
            x += part / np.sqrt(1.0 + centre ** 4 * inv_cutoff4)
        sides.append(x * gain)
    if not stereo:
        return _normalise(sides[0], peak)
    theta = np.pi / 4 * (1.0 + sway * periodic_curve(n, seed + 7919, (1, 2)))
    return _normalise(np.stack([sides[0] * np.cos(theta), sides[1] * np.sin(theta)], axis=1),
                      peak)


def refire_loop(periodic: np.ndarray, tail_s: float, rate_hz: int = DEFAULT_RATE_HZ) -> np.ndarray:
    """A periodic signal as a sound re-fired every ``len(periodic)`` frames without a seam.

    The result is one period plus a tail of ``tail_s`` that continues the period
    (it wraps to the start); a raised-cosine fade-in opens it and the matching
    fade-out closes the tail. Started again one period later, the new sound's
    fade-in and the old tail's fade-out sum to exactly the periodic signal.

    >>> x = np.sin(np.arange(100) * 2 * np.pi / 100).astype(np.float32)
    >>> y = refire_loop(x, 20 / DEFAULT_RATE_HZ)
    >>> y.shape, bool(np.allclose(y[100:] + y[:20], x[:20], atol=1e-6))
    ((120,), True)
    """
    tail = int(round(tail_s * rate_hz))
    n = periodic.shape[0]
    if not 0 < tail <= n:
        raise ValueError("refire_loop: the tail must be positive and at most one period")
    out = np.concatenate([periodic, periodic[:tail]]).astype(np.float64)
    ramp = 0.5 - 0.5 * np.cos(np.linspace(0.0, np.pi, tail, endpoint=False) + np.pi / tail / 2)
    ramp = ramp.reshape((tail,) + (1,) * (out.ndim - 1))
    out[:tail] *= ramp
    out[n:] *= 1.0 - ramp
    return out.astype(np.float32)


def stereo(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Two mono signals as one (frames, 2) stereo sound (the shorter is zero-padded)."""
    n = max(left.shape[0], right.shape[0])
    out = np.zeros((n, 2), dtype=np.float32)
    out[: left.shape[0], 0] = left
    out[: right.shape[0], 1] = right
    return out


def add_to(bank: Any, name: str, samples: np.ndarray, rate_hz: int = DEFAULT_RATE_HZ, *,
           bits: int = 0) -> Any:
    """Add ``samples`` to a ``SoundBank``; ``bits`` 16 or 8 also keeps PCM for Redguard."""
    samples = np.asarray(samples, dtype=np.float32)
    if bits == 16:
        pcm = np.clip(np.round(samples * 32768.0), -32768, 32767).astype(np.int16)
        return bank.add(name, pcm.astype(np.float32) / 32768.0, rate_hz, pcm=pcm)
    if bits == 8:
        pcm8 = np.clip(np.round(samples * 128.0 + 128.0), 0, 255).astype(np.uint8)
        return bank.add(name, (pcm8.astype(np.float32) - 128.0) / 128.0, rate_hz, pcm=pcm8)
    return bank.add(name, samples, rate_hz)
