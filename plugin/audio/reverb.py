"""Room reverb: a feedback delay network (FDN), vectorised per block in numpy.

Eight delay lines (23-48 ms, mutually prime lengths) feed back through an
orthogonal matrix: a Householder reflection ``I - (2/N) 1 1^T`` followed by a
circular shift of the lines (Jot and Chaigne 1991; the shift keeps each line
from feeding itself, so the echo density builds faster). Each line has its own
gain and damping filter, set from the line's length so that every mode decays
at the same rate: the reverb's T60 is ``decay_s`` at 500 Hz (the ISO 3382 mid
band) and shorter above it by ``damping``.

A block is processed in chunks no longer than the shortest line, so a chunk
never reads what it writes: each step is a handful of numpy operations on an
(8, chunk) array. The delay memory is one (9, columns) array (the ninth row
is the predelay): every line writes the sample of time ``t`` at column ``t``
(one view) and line ``i`` reads column ``t - m_i`` (one gather of the windows).
What a block length needs (the windows' view, the flat damping buffers and
their coefficients, padded so that every row starts on a 64-byte line, the
write view) is made once per length, so a block allocates only its gather.
The output is float32 and the same bytes on every run (no BLAS, no threads).

On silence the network rings out and then stops: when nothing has come in for
longer than its longest path and its peak falls below ``FLUSH_LEVEL`` (about
-200 dB), the state is zeroed and blocks cost nothing until the next input, so
the tail never decays into float32 subnormals (which make x86 arithmetic slow).

Example:
    >>> fdn = Fdn(PRESETS["room"], 48_000)
    >>> send = np.zeros(4800, np.float32); send[0] = 1.0    # 0.1 s: an impulse
    >>> out = np.zeros((2, 4800), np.float32)
    >>> fdn.process(send, out)
    >>> int(np.flatnonzero(out[0])[0]), fdn.idle    # 4 ms predelay + the shortest line
    (1301, False)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from soundscape.errors import InputError

__all__ = ["FLUSH_LEVEL", "LINES", "PRESETS", "Fdn", "ReverbParams", "reverb_params"]

LINES = 8
"""Delay lines of the network."""

DELAYS_MS = (23.1, 26.3, 29.7, 33.1, 36.7, 40.3, 44.1, 47.9)
"""Nominal line lengths; each is rounded to a distinct prime number of frames."""

REFERENCE_HZ = 500.0
"""``decay_s`` is the T60 at this frequency (ISO 3382's mid band)."""

FLUSH_LEVEL = 1e-10
"""Below this peak (about -200 dB) a silent network's tail is zeroed."""

_OUT = np.array([[1, 1, -1, -1, 1, 1, -1, -1],
                 [1, -1, -1, 1, 1, -1, -1, 1]], dtype=np.float64)
"""Output taps: orthogonal sign patterns, so left and right are decorrelated."""


@dataclass(frozen=True, slots=True)
class ReverbParams:
    """How a reverb sounds.

    Attributes:
        decay_s: T60 (time to fall 60 dB) at 500 Hz.
        wet_db: reverberant energy relative to the dry sound sent in (the inverse of
            the direct-to-reverberant ratio): 0 dB, as much reverb as direct sound.
        predelay_ms: silence before the reverb starts (the first reflection's delay).
        damping: 0..0.95, high-frequency absorption: each mean loop through the
            network keeps ``1 - damping`` of the signal at Nyquist, so highs die
            sooner (0 leaves every frequency with ``decay_s``).
    """

    decay_s: float = 0.6
    wet_db: float = -12.0
    predelay_ms: float = 5.0
    damping: float = 0.3

    def __post_init__(self) -> None:
        checks = (("decay_s", 0.05, 30.0), ("wet_db", -96.0, 24.0),
                  ("predelay_ms", 0.0, 500.0), ("damping", 0.0, 0.95))
        for name, lo, hi in checks:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
                    math.isfinite(value) and lo <= value <= hi):
                raise InputError(f"ReverbParams.{name}: {value!r} is not a number in {lo}..{hi}")


PRESETS: dict[str, ReverbParams] = {
    "room": ReverbParams(decay_s=0.6, wet_db=-10.0, predelay_ms=4.0, damping=0.35),
    "hall": ReverbParams(decay_s=2.2, wet_db=-6.0, predelay_ms=20.0, damping=0.25),
    "cave": ReverbParams(decay_s=3.5, wet_db=-3.0, predelay_ms=30.0, damping=0.15),
    "forest": ReverbParams(decay_s=1.1, wet_db=-16.0, predelay_ms=12.0, damping=0.6),
    "underwater": ReverbParams(decay_s=1.6, wet_db=-2.0, predelay_ms=2.0, damping=0.9),
}
"""Named reverbs a ``ReverbZone`` can ask for."""


def reverb_params(preset: str = "room", *, decay_s: float | None = None,
                  wet_db: float | None = None, predelay_ms: float | None = None,
                  damping: float | None = None) -> ReverbParams:
    """A preset with any of its four values overridden.

    >>> reverb_params("cave", wet_db=-9.0).wet_db, reverb_params("cave").decay_s
    (-9.0, 3.5)
    """
    base = PRESETS.get(preset)
    if base is None:
        raise InputError(f"reverb preset {preset!r}: not one of {sorted(PRESETS)}")
    return ReverbParams(
        decay_s=base.decay_s if decay_s is None else decay_s,
        wet_db=base.wet_db if wet_db is None else wet_db,
        predelay_ms=base.predelay_ms if predelay_ms is None else predelay_ms,
        damping=base.damping if damping is None else damping)


def _prime_at_least(n: int) -> int:
    def prime(k: int) -> bool:
        return k > 1 and all(k % d for d in range(2, int(k ** 0.5) + 1))
    while not prime(n):
        n += 1
    return n


def line_lengths(sample_rate_hz: int) -> list[int]:
    """The lines' lengths in frames: distinct primes near ``DELAYS_MS``.

    >>> line_lengths(48_000)[:3]
    [1109, 1277, 1427]
    """
    lengths: list[int] = []
    for ms in DELAYS_MS:
        n = _prime_at_least(max(int(round(ms * sample_rate_hz / 1000.0)), 2))
        while n in lengths:
            n = _prime_at_least(n + 1)
        lengths.append(n)
    return lengths


class _Plan:
    """The arrays and views one block length ``n`` runs on (made once per length)."""

    __slots__ = ("window", "lines", "damped", "tmp", "c0", "c1", "flat", "reads", "sums")

    def __init__(self, fdn: Fdn, n: int) -> None:
        # Each row's window is n + 1 samples (from the sample before the read: the
        # damping's z^-1), padded to whole 64-byte lines so that every row of the
        # flat arrays below starts aligned.
        width = (n + 1 + 15) // 16 * 16
        self.window = sliding_window_view(fdn._lines, width, axis=1)
        # the writes: row k of the n columns from r is lines[k, r]
        self.lines = sliding_window_view(fdn._lines, n, axis=1, writeable=True)
        rows = LINES + 1
        self.flat = rows * width - 1  # the last value straddles the end: unused
        self.damped = np.zeros(rows * width, dtype=np.float32)
        self.tmp = np.zeros(rows * width, dtype=np.float32)
        self.c0 = np.repeat(fdn.c0, width)[:self.flat]
        self.c1 = np.repeat(fdn.c1, width)[:self.flat]
        self.reads = self.damped.reshape(rows, width)[:, :n]  # row k: its damped read
        self.sums = np.zeros((3, n), dtype=np.float32)


class Fdn:
    """One reverb: an 8-line feedback delay network with a predelay.

    Args:
        params: decay, level, predelay, damping.
        sample_rate_hz: the mixer's rate.
    """

    def __init__(self, params: ReverbParams, sample_rate_hz: int) -> None:
        self.params = params
        self.sample_rate_hz = int(sample_rate_hz)
        self.m = np.array(line_lengths(self.sample_rate_hz), dtype=np.int64)
        self.chunk = int(self.m.min())
        self.predelay = int(round(params.predelay_ms * self.sample_rate_hz / 1000.0))
        # Rows 0-7: row k holds line k - 1 (the feedback matrix's circular shift);
        # row 8: the predelay (the send, written predelay columns ahead of its read).
        self._rows = np.array([(k - 1) % LINES for k in range(LINES)] + [LINES], dtype=np.intp)
        self._back = np.append(-self.m[self._rows[:LINES]] - 1, -1)  # windows' starts
        self._filters(params)
        self._longest = int(self.m.max())
        # a window reaches up to 15 columns past the chunk it reads (its padding)
        self._cols = self._longest + 1 + max(self.predelay, 16) + 4 * self.chunk
        self._lines = np.zeros((LINES + 1, self._cols), dtype=np.float32)
        self._read = self._longest + 1  # write column; line i reads m_i columns back
        self._plans: dict[int, _Plan] = {}
        self._starts: dict[int, np.ndarray] = {}
        self._quiet = 0
        self.idle = True
        """True while the network holds nothing (a block then costs nothing)."""

    def _filters(self, params: ReverbParams) -> None:
        """Per-line gain and 2-tap damping ``g (c0 + c1 z^-1)``: Nyquist loss
        ``(1 - damping)^(m / mean m)``, T60 = ``decay_s`` at ``REFERENCE_HZ``."""
        m = self.m.astype(np.float64)
        nyquist = (1.0 - params.damping) ** (m / m.mean())
        c1 = (1.0 - nyquist) / 2.0
        c0 = 1.0 - c1
        w = 2.0 * math.pi * REFERENCE_HZ / self.sample_rate_hz
        at_ref = np.abs(c0 + c1 * np.exp(-1j * w))
        loop = 10.0 ** (-3.0 * m / (params.decay_s * self.sample_rate_hz))
        g = loop / at_ref
        rot = self._rows[:LINES]  # the rows hold the lines in shifted order
        # the predelay row passes through the damping unchanged (c0 1, c1 0)
        self.c0 = np.append((g * c0)[rot], 1.0).astype(np.float32)
        self.c1 = np.append((g * c1)[rot], 0.0).astype(np.float32)
        self._in_gain = np.array(1.0 / math.sqrt(LINES), dtype=np.float32)
        # The taps read the damped lines: a unit impulse leaves about (mean over
        # frequency of) g(w)^2 / (1 - g(w)^2) of energy there (g(w)^2 averaged over
        # the lines); the taps scale that to wet_db.
        w_grid = np.linspace(0.0, math.pi, 256)[:, None]
        g_w2 = ((g * np.abs(c0 + c1 * np.exp(-1j * w_grid))) ** 2).mean(axis=1)
        energy = float(np.mean(g_w2 / (1.0 - g_w2)))
        k = 10.0 ** (params.wet_db / 20.0) / math.sqrt(energy)
        self.taps = (_OUT * k).astype(np.float32)
        # (taps left, taps right, the reflection's (2/N) sum minus the predelayed input)
        weights = np.zeros((3, LINES + 1), dtype=np.float32)
        weights[:2, :LINES] = self.taps
        weights[2, :LINES] = 2.0 / LINES
        weights[2, LINES] = -1.0
        self.weights = weights

    def reset(self) -> None:
        """Silence the network at once (its memory is zeroed)."""
        self._lines[:] = 0.0
        self._read = self._longest + 1
        self._quiet = 0
        self.idle = True

    def _plan(self, n: int) -> _Plan:
        """A new block length's plan (kept: a mixer runs one or two lengths)."""
        plan = self._plans[n] = _Plan(self, n)
        return plan

    def process(self, send: np.ndarray, out: np.ndarray) -> None:
        """Add the reverb of the mono ``send`` (n,) to ``out`` (2, n), float32."""
        n = send.shape[0]
        if n == 0:
            return
        if self.idle:
            if not send.any():
                return
            self.idle = False
        if n <= self.chunk:
            self._chunk(send, out, n)
        else:
            for done in range(0, n, self.chunk):
                step = min(self.chunk, n - done)
                self._chunk(send[done:done + step], out[:, done:done + step], step)
        self._settle(send, n)

    def _chunk(self, send: np.ndarray, out: np.ndarray, n: int) -> None:
        """One chunk (``n`` <= the shortest line) through the network."""
        plan = self._plans.get(n) or self._plan(n)
        lines, r, ahead = self._lines, self._read, self.predelay
        if r + ahead + n + 16 > self._cols:  # compact: the past the lines read and
            keep = self._longest + 1  # the predelayed future move to the front
            lines[:, :keep + ahead] = lines[:, r - keep:r + ahead]
            r = keep
        self._read = r + n
        np.multiply(send, self._in_gain, out=lines[LINES, r + ahead:r + ahead + n])
        starts = self._starts.get(r)  # the windows' starts (r takes a few values)
        if starts is None:
            if len(self._starts) > 64:
                self._starts.clear()
            starts = self._starts[r] = self._back + r
        # every row's window, from the sample before its read: one gather
        g = plan.window[self._rows, starts].reshape(-1)
        # Each line's gain and damping g (c0 + c1 z^-1) on the windows as one flat
        # array (contiguous operands run at twice the speed of row views): flat k
        # holds c0 y + c1 y[-1] of its row; the values that straddle two rows are
        # never read.
        flat, damped, tmp = plan.flat, plan.damped, plan.tmp
        np.multiply(g[1:flat + 1], plan.c0, out=damped[:flat])
        np.multiply(g[:flat], plan.c1, out=tmp[:flat])
        damped += tmp
        # One pass over the damped lines: the two output taps, and what the
        # Householder reflection (x - (2/N) sum x) subtracts from every line less
        # the input.
        reads, sums = plan.reads, plan.sums
        np.einsum("ki,ij->kj", self.weights, reads, out=sums)
        out += sums[:2]
        np.subtract(reads[:LINES], sums[2], out=plan.lines[:LINES, r])  # written once

    def _settle(self, send: np.ndarray, n: int) -> None:
        """After a block: go idle once a silent tail has rung out below FLUSH_LEVEL."""
        if send[0] or send.any():  # (a sounding first sample settles it at once)
            self._quiet = 0
            return
        self._quiet += n
        if self._quiet < self.predelay + self._longest:
            return
        r = self._read
        live = self._lines[:, r - self._longest - 1:r]
        if float(np.abs(live).max()) < FLUSH_LEVEL:
            self.reset()
