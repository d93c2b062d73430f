"""The mixer's one per-voice DSP stage: a low-pass per voice, between the rows and the sum.

A voice's ``VoiceParams.lowpass_hz`` (0: none) comes down the command stream
like its gains (a generic emitter heard through walls: ``laws.spatial.wall_cutoff_hz``).
``VoiceDsp.process`` runs after ``Rows.fill`` and before the sum, in place on the
float rows, and costs one test per block while no voice has a cutoff.

The filter is a one-pole low-pass, ``y[k] = y[k-1] + a[k] (x[k] - y[k-1])`` with
``a = 1 - exp(-2 pi f / fs)``. When a voice's cutoff changes, ``a`` moves in a
straight line from the old value to the new one across the block, sample by
sample, so the change never clicks; a filter that starts or stops ramps from or
to ``a`` of ``OPEN_HZ`` (nearly transparent); it starts from the voice's first
sample, and a filter that stops also crossfades to the dry voice across its last
block. The recursion with a time-varying ``a`` has a closed form, so every
voice is filtered at once with numpy: with ``p = 1 - a`` and ``P[k]`` the
running product of ``p``, ``y[k] = P[k] (y[-1] + sum over j <= k of a[j] x[j] / P[j])``,
in float64, in chunks of ``CHUNK`` frames short enough that ``P`` stays far
above float64's smallest number. The state (each side's last output, the
current ``a``) follows the voice's key across blocks and layouts.

>>> import numpy as np
>>> from types import SimpleNamespace as V
>>> dsp = VoiceDsp(48_000)
>>> rows = np.ones((1, 512), np.float32)
>>> voice = V(key=1, spec=V(lowpass_hz=1000.0))
>>> dsp.process(rows, rows, np.array([False]), [voice], 512)
>>> round(float(rows[0, 0]), 3), round(float(rows[0, -1]), 3)  # a step through the filter
(1.0, 1.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["CHUNK", "OPEN_HZ", "VoiceDsp", "one_pole_a"]

OPEN_HZ = 20_000.0
"""A filter that starts or stops ramps from or to this cutoff (capped below Nyquist)."""

CHUNK = 64
"""Frames per closed-form chunk: ``p >= 1 - a(OPEN_HZ)`` (0.07 at 48 kHz, 0.05 at
22 kHz) keeps ``P`` above 1e-90 over a chunk."""


def one_pole_a(cutoff_hz: float, sample_rate_hz: float) -> float:
    """The one-pole coefficient ``a = 1 - exp(-2 pi f / fs)`` (f held below 0.45 fs).

    >>> round(one_pole_a(1000.0, 48_000), 5)
    0.12269
    """
    f = min(max(cutoff_hz, 1.0), 0.45 * sample_rate_hz)
    return 1.0 - math.exp(-2.0 * math.pi * f / sample_rate_hz)


class _State:
    """A filtered voice: its current coefficient and each side's last output."""

    __slots__ = ("a", "cutoff", "live", "y")

    def __init__(self, a: float) -> None:
        self.a = a
        self.cutoff = -1.0
        self.live = False
        self.y: list[float] | None = None


class VoiceDsp:
    """Per-voice low-pass filters of one mixer (audio side).

    Attributes:
        active: True while some voice has a cutoff or a filter still opening;
            ``Mixer`` calls ``process`` only then (``wake`` sets it).
    """

    def __init__(self, sample_rate_hz: int) -> None:
        self.rate = float(sample_rate_hz)
        self.a_open = one_pole_a(OPEN_HZ, self.rate)
        self.state: dict[int, _State] = {}
        self.active = False
        self._ramps: dict[int, np.ndarray] = {}

    def wake(self) -> None:
        """A voice with a cutoff was started or set: filter from the next block."""
        self.active = True

    def _ramp(self, n: int) -> np.ndarray:
        ramp = self._ramps.get(n)
        if ramp is None:
            ramp = self._ramps[n] = np.arange(1, n + 1, dtype=np.float64) / n
        return ramp

    def process(self, sl: np.ndarray, sr: np.ndarray, stereo: np.ndarray,
                voices: Sequence[Any], n: int) -> None:
        """Filter the first ``len(voices)`` rows of ``sl`` (and ``sr`` where ``stereo``)
        in place over ``n`` frames. ``voices[row]`` has ``key`` and ``spec.lowpass_hz``
        (None for a free row)."""
        state = self.state
        lines: list[tuple[np.ndarray, int, _State, int]] = []  # (buffer, row, state, side)
        closing: list[int] = []
        a0: list[float] = []
        a1: list[float] = []
        filtered: list[_State] = []
        for row, voice in enumerate(voices):
            if voice is None:
                continue
            cutoff = float(voice.spec.lowpass_hz)
            st = state.get(voice.key)
            if st is None:
                if not cutoff > 0.0:
                    continue
                st = state[voice.key] = _State(self.a_open)
            st.cutoff = cutoff
            st.live = True
            end = one_pole_a(cutoff, self.rate) if cutoff > 0.0 else self.a_open
            filtered.append(st)
            for side, buffer in ((0, sl), (1, sr)) if stereo[row] else ((0, sl),):
                if not cutoff > 0.0:
                    closing.append(len(lines))
                lines.append((buffer, row, st, side))
                a0.append(st.a)
                a1.append(end)
            st.a = end
        if len(state) > len(filtered):  # voices that ended or were cut
            for key in [k for k, st in state.items() if not st.live]:
                del state[key]
        if not lines:
            self.active = False
            return
        x = np.empty((len(lines), n))
        y_prev = np.empty(len(lines))
        for j, (buffer, row, st, side) in enumerate(lines):
            x[j] = buffer[row, :n]
            y_prev[j] = x[j, 0] if st.y is None else st.y[side]  # a new filter: no step
        y = self._filter(x, np.array(a0), np.array(a1), y_prev, n)
        if closing:  # crossfade to the dry voice: the next block is bypassed seamlessly
            y[closing] += (x[closing] - y[closing]) * self._ramp(n)
        for j, (buffer, row, st, side) in enumerate(lines):
            buffer[row, :n] = y[j]
            if st.y is None:
                st.y = [0.0, 0.0]
            st.y[side] = float(y[j, n - 1])
        for key in [k for k, st in state.items() if not st.cutoff > 0.0]:
            del state[key]  # opened fully across this block: bypassed from the next
        for st in filtered:
            st.live = False
        self.active = bool(state)

    def _filter(self, x: np.ndarray, a0: np.ndarray, a1: np.ndarray, y_prev: np.ndarray,
                n: int) -> np.ndarray:
        """Every line of ``x`` (lines, n) through its one-pole, ``a`` ramped a0 -> a1."""
        lines = x.shape[0]
        chunks = -(-n // CHUNK)
        width = chunks * CHUNK
        a = np.empty((lines, width))
        np.multiply((a1 - a0)[:, None], self._ramp(n)[None, :], out=a[:, :n])
        a[:, :n] += a0[:, None]
        a[:, n:] = 0.0
        v = np.zeros((lines, width))
        np.multiply(a[:, :n], x, out=v[:, :n])
        p = 1.0 - a
        p3 = p.reshape(lines, chunks, CHUNK)
        big_p = np.cumprod(p3, axis=2)
        v3 = v.reshape(lines, chunks, CHUNK)
        v3 /= big_p
        np.cumsum(v3, axis=2, out=v3)
        state = y_prev
        for c in range(chunks):
            v3[:, c] += state[:, None]
            v3[:, c] *= big_p[:, c]
            state = v3[:, c, -1]
        return v[:, :n]
