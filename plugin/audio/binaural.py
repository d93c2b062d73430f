"""Headphone output: positional voices through a spherical-head model.

``Settings(output="headphones")`` renders each positional mono voice to the two
ears instead of panning it between speakers:

* **Interaural time difference**, Woodworth's formula for a rigid sphere of
  radius ``HEAD_RADIUS_M`` (8.75 cm): ``(a / c)(theta + sin theta)`` for a
  source ``theta`` off the median plane. The far ear's copy is delayed by it, to
  the nearest frame (20.8 us at 48 kHz, about the smallest ITD a listener tells apart).
* **Head shadow**, Brown and Duda's spherical-head filter ("A structural model
  for binaural sound synthesis", IEEE TSAP 6(5), 1998): per ear
  ``H(s) = (alpha s + beta) / (s + beta)``, ``beta = 2c/a``, with
  ``alpha(theta) = 1 + alpha_min/2 + (1 - alpha_min/2) cos(theta / 150 deg x 180 deg)``
  for ``theta`` the angle between the source and the ear's axis (``alpha_min`` 0.1):
  up to +6 dB at high frequency facing the ear, down to -20 dB in its shadow. Its
  own low-frequency group delay adds to the Woodworth delay below about 1 kHz,
  as a real head's does (Kuhn 1977: low-frequency ITDs are about 1.5 x the high).
* **Front/back cue**: a source behind the listener has both ears' high-frequency
  gain ``alpha`` scaled by ``1 - REAR_CUT x (-cos azimuth)`` (up to -6 dB straight
  behind), the pinna's shadow, so behind sounds duller than in front.

Because ``H = alpha + (1 - alpha) LP`` with ``LP = beta / (s + beta)``, each ear is
two weighted sums of the voices (one straight, one through a single low-pass
per ear): a whole block is a gather, two small ``einsum`` per ear and one
first-order recursion per ear, whatever the number of voices; the views a block
length needs are made once (per layout of the voices). Same bytes every run (no
BLAS).

Example:
    >>> round(float(woodworth_itd_s(math.pi / 2)) * 1000, 3)   # ms, a source at 90 degrees
    0.656
    >>> round(float(shadow_alpha(0.0)), 3), round(float(shadow_alpha(math.radians(150))), 3)
    (2.0, 0.1)
"""

from __future__ import annotations

import math

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

__all__ = ["HEAD_RADIUS_M", "REAR_CUT", "SPEED_OF_SOUND_M_S", "Binaural", "ear_filters",
           "shadow_alpha", "woodworth_itd_s"]

HEAD_RADIUS_M = 0.0875
"""The head's radius (Woodworth; Brown and Duda's average head)."""

SPEED_OF_SOUND_M_S = 343.0

Rows = np.ndarray | tuple[tuple[int, int], ...] | None
"""Which rows of the mixer's are the ears' voices (see ``Binaural.mix``)."""

ALPHA_MIN = 0.1
THETA_MIN_RAD = math.radians(150.0)
"""Brown and Duda's deepest shadow (alpha 0.1, -20 dB) is 150 degrees from the ear."""

REAR_CUT = 0.5
"""High-frequency gain lost straight behind (x 0.5: -6 dB), the front/back cue."""


def woodworth_itd_s(azimuth_rad: float | np.ndarray,
                    head_radius_m: float = HEAD_RADIUS_M) -> np.ndarray:
    """Woodworth's interaural time difference (s) of a source at ``azimuth_rad``
    (0 ahead, clockwise): ``(a/c)(theta + sin theta)``, ``theta`` the angle off the
    median plane (so a source behind has the ITD of its mirror in front).

    >>> float(woodworth_itd_s(0.0)), round(float(woodworth_itd_s(math.pi)), 9)
    (0.0, 0.0)
    """
    lateral = np.arcsin(np.clip(np.abs(np.sin(azimuth_rad)), 0.0, 1.0))
    return np.asarray(head_radius_m / SPEED_OF_SOUND_M_S * (lateral + np.sin(lateral)))


def shadow_alpha(incidence_rad: float | np.ndarray) -> np.ndarray:
    """Brown and Duda's high-frequency gain of an ear for a source ``incidence_rad``
    from the ear's axis (0: facing it, pi: opposite)."""
    theta = np.abs(incidence_rad)
    return np.asarray((1.0 + ALPHA_MIN / 2.0)
                      + (1.0 - ALPHA_MIN / 2.0) * np.cos(theta / THETA_MIN_RAD * math.pi))


def _off_axis(azimuth_rad: np.ndarray, ear_rad: float) -> np.ndarray:
    """The angle 0..pi between a source at ``azimuth_rad`` and an ear at ``ear_rad``."""
    d = np.mod(azimuth_rad - ear_rad + math.pi, 2.0 * math.pi) - math.pi
    return np.abs(d)


def ear_filters(azimuth_rad: np.ndarray, sample_rate_hz: float,
                head_radius_m: float = HEAD_RADIUS_M) -> tuple[np.ndarray, np.ndarray]:
    """(delay frames (2, V), alpha (2, V)) of the left and right ears for sources at
    ``azimuth_rad`` (V,) relative to the listener's heading (clockwise: + is right).

    The ear nearer the source has no delay; the other has Woodworth's ITD.

    >>> d, a = ear_filters(np.array([math.pi / 2]), 48_000)
    >>> round(float(d[0, 0]), 2), float(d[1, 0]), round(float(a[0, 0] / a[1, 0]), 3)
    (31.48, 0.0, 0.141)
    """
    az = np.asarray(azimuth_rad, dtype=np.float64)
    itd = woodworth_itd_s(az, head_radius_m) * sample_rate_hz
    right = np.sin(az) > 0.0
    delay = np.stack([np.where(right, itd, 0.0), np.where(right, 0.0, itd)])
    rear = 1.0 - REAR_CUT * np.maximum(-np.cos(az), 0.0)
    alpha = np.stack([shadow_alpha(_off_axis(az, -math.pi / 2)),
                      shadow_alpha(_off_axis(az, math.pi / 2))]) * rear
    return delay, alpha


class Binaural:
    """Mixes mono voice rows to two ears (audio side).

    Args:
        sample_rate_hz: the mixer's rate.
        block_frames: the largest block.
        head_radius_m: the sphere's radius.
    """

    def __init__(self, sample_rate_hz: int, block_frames: int,
                 head_radius_m: float = HEAD_RADIUS_M) -> None:
        self.rate = float(sample_rate_hz)
        self.block = int(block_frames)
        self.head_radius_m = float(head_radius_m)
        itd_max = float(woodworth_itd_s(math.pi / 2, head_radius_m)) * self.rate
        self.history = int(math.ceil(itd_max)) + 1
        """Frames of each voice kept from the previous block (the longest delay + 1)."""
        beta = 2.0 * SPEED_OF_SOUND_M_S / self.head_radius_m
        # The low-pass beta / (s + beta), bilinear: y = b0 (x + x[-1]) + p y[-1].
        self.b0 = beta / (2.0 * self.rate + beta)
        self.pole = (2.0 * self.rate - beta) / (2.0 * self.rate + beta)
        reach = int(250.0 / -math.log10(self.pole)) if self.pole > 0.0 else self.block
        self._chunk = max(1, min(self.block, reach))  # pole^-chunk <= 1e250
        k = np.arange(self._chunk, dtype=np.float64)
        self._up = self.b0 * self.pole ** -k
        self._down = self.pole ** k
        self._carry = self.pole ** (k + 1)
        chunks = -(-self.block // self._chunk)
        self._v = np.zeros(chunks * self._chunk, dtype=np.complex128)
        self._y = np.zeros(self.block, dtype=np.complex64)  # the ears' low-passes, as sent
        self._lp_views: dict[int, tuple[np.ndarray, ...]] = {}
        self._ear_views: dict[int, tuple[np.ndarray, ...]] = {}
        self._x_prev = 0j
        self._y_prev = 0j
        self._pairs = np.zeros((2, self.block), dtype=np.float32)
        self._keys: list[object] = []
        self._w = np.zeros((2, 2, 0), dtype=np.float32)
        self._az: np.ndarray | None = None
        self._g: np.ndarray | None = None
        self._az_given: object = None
        self._g_given: object = None
        self._rows2 = np.zeros(0, dtype=np.intp)
        self._starts2 = np.zeros(0, dtype=np.intp)
        self._ramps: dict[int, np.ndarray] = {}
        self._alloc(16)

    def _alloc(self, rows: int) -> None:
        self._cap = rows
        width = self.history + self.block
        self._z = np.zeros((rows, width), dtype=np.float32)
        self._win = sliding_window_view(self._z, self.block, axis=1)
        self._sums = np.zeros((2, 2, self.block), dtype=np.float32)
        self._dsums = np.zeros((2, 2, self.block), dtype=np.float32)
        self._lp_in = np.zeros((2, self.block), dtype=np.float32)
        self._ear_views = {}

    @property
    def voices(self) -> int:
        """Voices laid out in the last block (0: only the filters' state is left)."""
        return len(self._keys)

    def reset(self) -> None:
        """Forget every voice's history and the filters' state."""
        self._z[:] = 0.0
        self._keys, self._w = [], np.zeros((2, 2, 0), dtype=np.float32)
        self._ear_views = {}
        self._az = self._g = None
        self._az_given = self._g_given = None
        self._x_prev = self._y_prev = 0j

    def _relayout(self, keys: list[object]) -> None:
        """Keep each voice's history and weights when the rows are laid out anew
        (a new voice starts at its own weights: NaN until ``_prepare`` fills them)."""
        old = {key: row for row, key in enumerate(self._keys)}
        hist = self._z[:len(self._keys), :self.history].copy()
        if len(keys) > self._cap:
            self._alloc(max(len(keys), 2 * self._cap))
        self._z[:, :self.history] = 0.0
        weights = np.full((2, 2, len(keys)), np.nan, dtype=np.float32)
        for row, key in enumerate(keys):
            was = old.get(key)
            if was is not None:
                self._z[row, :self.history] = hist[was]
                weights[:, :, row] = self._w[:, :, was]
        self._keys, self._w = list(keys), weights
        self._ear_views = {}
        self._az = self._g = None
        self._az_given = self._g_given = None

    @staticmethod
    def _weights(alpha: np.ndarray, gain: np.ndarray) -> np.ndarray:
        """(2 ears, 2, V): each voice's straight (``g alpha``) and low-passed
        (``g (1 - alpha)``) weights."""
        straight = gain * alpha
        return np.stack([straight, gain - straight], axis=1).astype(np.float32)

    def _prepare(self, azimuth_rad: np.ndarray, gain: np.ndarray) -> np.ndarray | None:
        """Work out the ears' delays and weights when the directions or gains change;
        the weights' change to ramp across this block, or None."""
        if azimuth_rad is self._az_given and gain is self._g_given:
            return None  # the caller's very arrays: nothing changed
        self._az_given, self._g_given = azimuth_rad, gain
        az = np.asarray(azimuth_rad, dtype=np.float64)
        g = np.asarray(gain, dtype=np.float64)
        if (self._az is not None and self._g is not None and np.array_equal(az, self._az)
                and np.array_equal(g, self._g)):
            return None
        delay, alpha = ear_filters(az, self.rate, self.head_radius_m)
        v = az.shape[0]
        self._rows2 = np.concatenate([np.arange(v), np.arange(v)])
        self._starts2 = (self.history - np.rint(delay)).astype(np.intp).ravel()
        new = self._weights(alpha, g[None, :])
        fresh = np.isnan(self._w[0, 0])
        self._w[:, :, fresh] = new[:, :, fresh]
        change = new - self._w
        self._az, self._g = az, g
        return change if change.any() else None

    def mix(self, samples: np.ndarray, keys: list[object], azimuth_rad: np.ndarray,
            gain: np.ndarray, n: int, out: np.ndarray, rows: Rows = None) -> None:
        """Add ``samples`` (V, >= n) mono rows to ``out`` (2, n) through the head
        (``rows``: which rows of ``samples`` are the V voices, in order: None, the
        first V; runs of rows, ``((first, stop), ...)``; or an index array).

        ``keys`` name the rows' voices (their history and previous weights follow
        them between blocks); ``azimuth_rad`` (V,) is each source's direction
        from the listener's heading (clockwise); ``gain`` (V,) the linear gain
        each ear gets. A change of gain or direction ramps across the block (the
        whole-frame delay itself moves at the block's start).
        """
        if keys != self._keys:
            self._relayout(keys)
        # with no voice the filters ring out on silence
        lp_in = (self._ears(samples, rows, azimuth_rad, gain, n, out) if keys
                 else self._lp_in[:, :n])
        self._lowpass(lp_in, n, out)

    def _ears(self, samples: np.ndarray, rows: Rows, azimuth_rad: np.ndarray,
              gain: np.ndarray, n: int, out: np.ndarray) -> np.ndarray:
        """Add both ears' straight parts to ``out``; their shadowed parts (2, n)."""
        views = self._ear_views.get(n) or self._make_ear_views(n)
        now, kept, last, w_left, w_right, left, right, straight, shadowed = views
        v = len(self._keys)
        if rows is None:
            now[...] = samples[:v, :n]
        elif isinstance(rows, np.ndarray):
            now[...] = samples[rows, :n]  # (a gather and a copy: runs copy once)
        else:
            at = 0
            for first, stop in rows:
                now[at:at + stop - first] = samples[first:stop, :n]
                at += stop - first
        change = self._prepare(azimuth_rad, gain)
        got = self._win[self._rows2, self._starts2]  # both ears' delayed rows
        if n != self.block:
            got = got[:, :n]
        # (two 2-D einsums beat one batched 3-D one by 3x)
        np.einsum("ki,ij->kj", w_left, got[:v], out=left)
        np.einsum("ki,ij->kj", w_right, got[v:], out=right)
        if change is not None:
            d = self._dsums[:, :, :n]
            for ear in range(2):
                np.einsum("ki,ij->kj", change[ear], got[ear * v:(ear + 1) * v], out=d[ear])
            d *= self._ramp(n)
            self._sums[:, :, :n] += d
            self._w += change
        out += straight
        kept[...] = last  # the last frames, for the next block's delays
        return shadowed

    def _make_ear_views(self, n: int) -> tuple[np.ndarray, ...]:
        """The views ``_ears`` works through for ``n`` frames (until the rows change)."""
        v, h = len(self._keys), self.history
        z, sums = self._z[:v], self._sums[:, :, :n]
        views = (z[:, h:h + n], z[:, :h], z[:, n:n + h], self._w[0], self._w[1],
                 sums[0], sums[1], sums[:, 0], sums[:, 1])
        self._ear_views[n] = views
        return views

    def _ramp(self, n: int) -> np.ndarray:
        ramp = self._ramps.get(n)
        if ramp is None:
            ramp = self._ramps[n] = np.arange(1, n + 1, dtype=np.float32) / np.float32(n)
        return ramp

    def _lowpass(self, x: np.ndarray, n: int, out: np.ndarray) -> None:
        """Add both ears' first-order low-pass of ``x`` (2, n) to ``out``, state carried.

        ``y = b0 (x + x[-1]) + p y[-1]``, the two ears as one complex signal (left
        real, right imaginary: one sequential sum instead of two), in float64 chunks
        short enough that ``p^-chunk`` stays below 1e250 (a whole block at 22 kHz and
        up): within a chunk ``y = p^k cumsum(p^-k v)`` (each output is led by its
        latest terms, so it keeps float64's relative precision), then each chunk gets
        the state the one before left. The float32 pairs are scaled by ``b0 p^-k``
        straight into the complex signal's two halves, and ``p^k`` lands in float32 at
        once (the ears' sum is float32); the views a block length needs are made once.
        """
        views = self._lp_views.get(n) or self._make_lp_views(n)
        (v, first, local, tail, pairs, left, right, up_left, up_right, up, down, y, y_left,
         y_right) = views
        if tail.size:
            tail[...] = 0.0  # a short block's last chunk ends in zeros
        np.add(x[:, 1:n], x[:, :n - 1], out=pairs)
        np.multiply(left, up, out=up_left)  # times b0 p^-k, into the complex signal
        np.multiply(right, up, out=up_right)
        # the first frame's pair, and the state the last block left (y[0] = b0 v[0] + p y[-1])
        v[0] = (complex(x[0, 0], x[1, 0]) + self._x_prev
                + self.pole / self.b0 * self._y_prev) * self.b0
        self._x_prev = complex(x[0, n - 1], x[1, n - 1])
        np.cumsum(local, axis=1, out=local)
        if local.shape[0] == 1:  # times p^k, rounded to the output's float32 at once
            np.multiply(first, down, out=y, casting="same_kind")
            self._y_prev = complex(v[n - 1]) * float(down[n - 1])
        else:  # (one chunk a block at 22 kHz and up)
            local *= self._down
            for c in range(1, local.shape[0]):
                local[c] += complex(local[c - 1, -1]) * self._carry
            np.copyto(y, first, casting="same_kind")
            self._y_prev = complex(v[n - 1])
        out[0] += y_left
        out[1] += y_right

    def _make_lp_views(self, n: int) -> tuple[np.ndarray, ...]:
        """The views ``_lowpass`` works through for ``n`` frames (made once per length)."""
        size = self._chunk
        chunks = -(-n // size)
        v = self._v[:chunks * size]
        pairs = self._pairs[:, :n - 1]
        y = self._y[:n]
        views = (v, v[:n], v.reshape(chunks, size), v[n:], pairs, pairs[0], pairs[1], v.real[1:n],
                 v.imag[1:n], np.tile(self._up, chunks)[1:n], self._down[:n], y, y.real, y.imag)
        self._lp_views[n] = views
        return views
