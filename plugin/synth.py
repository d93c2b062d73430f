"""Deterministic numpy synthesis: noise beds, tones, chirps, clicks and swooshes.

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
