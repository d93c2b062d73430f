"""The mixer's bus stage: each voice row times its bus's gain, ramped per block.

The game side sends every bus's gain (``commands.BUSES``: the product of the
bus's and its ancestors' volume, mute and duck; ``soundscape.audio.buses``)
whenever one changes. Each voice carries its bus index (``VoiceParams.bus``)
and remembers the bus gain it was last rendered at, so a change ramps linearly
from the old gain to the new one across the next block: no zipper noise, at any
rate of change (a fade or duck moves the gain every tick; each block is one
straight piece).

Where it sits:

* float rows (``modern``, ``ac``, ``oni``): the row's samples are multiplied in
  place after ``Rows.fill`` (and the per-voice DSP), before the gain sums of
  ``mixer_sum``: bus gain x row x side gain.
* Redguard rows: the Miles integer path runs first, unchanged; the bus gain
  multiplies each voice's integer contribution ``floor(floor(s a / 128) t / 128)``
  before the voices are summed (``mix_miles(..., bus=...)``).

At unity (every voice's bus gain 1 before and after) the stage touches no
sample, so the mix is bit for bit what it was without buses (the golden hash).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from soundscape.audio.mixer_rows import Rows


class BusStage:
    """Bus gains by index and, per row, the gain it was rendered at."""

    def __init__(self) -> None:
        self.gains = np.ones(1, dtype=np.float32)
        self._index = np.zeros(0, dtype=np.intp)
        self._prev = np.ones(0, dtype=np.float32)
        self._buf = np.zeros((0, 0), dtype=np.float32)
        self._unity = True
        """Every row was at gain 1 and its bus's gain is 1: nothing to do."""
        self._ones = True
        """Every bus's gain is 1."""

    def set(self, gains: Sequence[float]) -> None:
        """New bus gains (a ``BUSES`` command, at the start of a block)."""
        self.gains = np.asarray(gains, dtype=np.float32).reshape(-1)
        self._ones = bool(np.all(self.gains == 1.0))
        self._check()

    def gain(self, bus: int) -> float:
        """The current gain of bus ``bus`` (1 for an index not sent yet)."""
        if self._ones:
            return 1.0
        return float(self.gains[bus]) if 0 <= bus < self.gains.shape[0] else 1.0

    def layout(self, voices: Sequence[Any]) -> None:
        """The rows' buses and their last gains (after ``Rows.layout`` sorted them)."""
        self._index = np.array([v.spec.bus for v in voices], dtype=np.intp)
        self._prev = np.array([v.bus_gain for v in voices], dtype=np.float32)
        self._check()

    def place(self, row: int, bus: int, gain: float) -> None:
        """A new voice in ``row`` (``Rows.replace``): its bus and the gain it starts at."""
        self._index[row] = bus
        self._prev[row] = gain
        if not (self._unity and gain == 1.0 and self.gain(bus) == 1.0):
            self._check()  # else every row is still at unity

    def steady(self, row: int) -> float | None:
        """``row``'s bus gain when it holds across the next block, else None."""
        if self._unity:
            return 1.0
        now = self._targets()[row]
        return float(now) if now == self._prev[row] else None

    def _targets(self) -> np.ndarray:
        index, gains = self._index, self.gains
        if index.size and (index.max() >= gains.shape[0] or index.min() < 0):
            ok = (index >= 0) & (index < gains.shape[0])
            return np.where(ok, gains[np.where(ok, index, 0)], np.float32(1.0))
        return gains[index]

    def _check(self) -> None:
        self._unity = bool(np.all(self._prev == 1.0)) and bool(np.all(self._targets() == 1.0))

    def apply(self, rows: Rows, voices: Sequence[Any], n: int,
              ramp: np.ndarray) -> np.ndarray | None:
        """Scale the float rows of this block in place; the Miles rows' (rows, n)
        factors for ``mix_miles`` (None: all at unity). ``ramp``: (n,) from 1/n to 1."""
        if self._unity:
            return None
        prev, now = self._prev, self._targets()
        moving = prev != now
        count = prev.shape[0]
        if self._buf.shape[0] < count or self._buf.shape[1] < n:
            self._buf = np.empty((max(count, 1), max(n, rows.block_frames)), dtype=np.float32)
        factors = self._buf[:count, :n]
        np.multiply((now - prev)[:, None], ramp[None, :n], out=factors)
        factors += prev[:, None]
        f = rows.n_float
        if f and (np.any(prev[:f] != 1.0) or np.any(now[:f] != 1.0)):
            # one in-place multiply over every float row: a row at unity is times
            # exactly 1.0, which leaves it bit for bit (cheaper than gathering the others)
            rows.sl[:f, :n] *= factors[:f]
            if rows.stereo[:f].any():
                rows.sr[:f, :n] *= factors[:f]
        miles = (factors[f:].copy() if np.any(prev[f:] != 1.0) or np.any(now[f:] != 1.0)
                 else None)
        if moving.any():
            for row in np.flatnonzero(moving).tolist():
                voices[row].bus_gain = float(now[row])
            self._prev = now.copy()
            self._check()
        return miles
