"""The plugin's fixed-step clock.

AC keeps time as double seconds (``Timer::cur_time``); Oni and Redguard count
whole 60 Hz ticks and scale their per-frame work by the ticks that elapsed
(Oni ``iComputeDeltaTicks``, Redguard's "whole nominal ticks"). The game passes
real ``dt`` once a frame; the clock accumulates it and steps whole ticks, so the
same inputs give the same ticks on any machine.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

TICK_HZ = 60
"""Oni and Redguard count game time in sixtieths of a second."""

MAX_FRAME_S = 1.0
"""The most game time one frame may step: a longer hitch (a 1e30 s ``dt``) would
step ~1e31 ticks and render that much audio; the excess is dropped."""


@dataclass(slots=True)
class Clock:
    """Fixed-step time: ``now_s`` (double seconds), ``tick`` and ``elapsed_ticks``.

    ``elapsed_ticks`` is how many whole ticks the latest ``advance`` stepped; the
    plugin's systems do a frame's work only when it is positive and scale
    per-tick rates by it.

    >>> c = Clock()
    >>> c.advance(0.05)
    3
    >>> c.tick, round(c.now_s, 6), c.elapsed_ticks
    (3, 0.05, 3)
    """

    tick_hz: int = TICK_HZ
    tick: int = 0
    elapsed_ticks: int = 0
    _pending_s: float = field(default=0.0, repr=False)

    def __post_init__(self) -> None:
        if self.tick_hz <= 0:
            raise ValueError(f"Clock.tick_hz must be positive, got {self.tick_hz}")

    @property
    def tick_s(self) -> float:
        """Length of one tick in seconds."""
        return 1.0 / self.tick_hz

    @property
    def now_s(self) -> float:
        """Seconds since start, derived from the tick count so it never drifts."""
        return self.tick / self.tick_hz

    def advance(self, dt_s: float) -> int:
        """Accumulate ``dt_s`` real seconds and step every whole tick now due.

        Returns the number of ticks stepped (also kept in ``elapsed_ticks``). A NaN,
        infinite or negative ``dt_s`` is refused with ``ValueError``: it would
        stall or rewind every deadline in the runtimes. At most ``MAX_FRAME_S``
        of time is stepped at once.

        >>> Clock().advance(1e30)
        60
        """
        if not math.isfinite(dt_s) or dt_s < 0.0:
            raise ValueError(f"Clock.advance: dt must be a finite, non-negative time, got {dt_s!r}")
        self._pending_s = min(self._pending_s + dt_s, MAX_FRAME_S)
        # A hair of tolerance keeps three 1/60 s frames from losing a tick to rounding.
        due = int(math.floor(self._pending_s * self.tick_hz + 1e-6))
        self._pending_s = max(self._pending_s - due / self.tick_hz, 0.0)
        self.tick += due
        self.elapsed_ticks = due
        return due

    def step(self, ticks: int = 1) -> None:
        """Move time on by exactly ``ticks`` whole ticks (tests and offline renders)."""
        if ticks < 0:
            raise ValueError(f"Clock.step: ticks must be non-negative, got {ticks}")
        self.tick += ticks
        self.elapsed_ticks = ticks
