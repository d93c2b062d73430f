"""The base of the Redguard processors: they step on whole nominal ticks.

Redguard's frame work (sound maintenance, the native tasks, the player
controller, dialogue records, the RTX cache) counts *whole nominal ticks*
(seed 002): a dialogue lifetime in 1/256 s loses 21 a tick, so a nominal tick
is 21/256 s (``Settings.redguard_tick_s``). The plugin's clock steps 60 Hz
ticks; ``NominalTicks`` turns the clock's tick count into whole nominal ticks,
and a Redguard processor does its frame's work only in a plugin frame in which
at least one whole nominal tick elapsed, with that count.
"""

from __future__ import annotations

from fractions import Fraction

from soundscape.clock import Clock
from soundscape.errors import SoundscapeError
from soundscape.system import SoundSystem


class NominalTicks:
    """Whole nominal ticks of ``tick_s`` seconds, counted on a 60 Hz ``Clock``.

    Exact: the count at clock tick ``n`` is ``floor(n / tick_hz / tick_s)`` in
    rational arithmetic (21/256 s is exact in binary), so a long run never drifts.

    >>> clock = Clock()
    >>> ticks = NominalTicks(clock, 21 / 256)
    >>> counts = []
    >>> for _ in range(12):
    ...     clock.step(1)
    ...     counts.append(ticks.frame_ticks())
    >>> counts  # 21/256 s is 4.92 ticks of 60 Hz
    [0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0]
    """

    def __init__(self, clock: Clock, tick_s: float) -> None:
        self.clock = clock
        self.tick_s = Fraction(tick_s).limit_denominator(1_000_000)
        self._clock_tick = clock.tick
        self._total = self.total_at(clock.tick)
        self._frame = 0

    def total_at(self, clock_tick: int) -> int:
        """Whole nominal ticks from the clock's start to ``clock_tick``."""
        return int(Fraction(clock_tick, self.clock.tick_hz) // self.tick_s)

    def frame_ticks(self) -> int:
        """The whole nominal ticks this plugin frame stepped (the same for every
        Redguard processor of one frame)."""
        tick = self.clock.tick
        if tick != self._clock_tick:
            total = self.total_at(tick)
            self._frame, self._total, self._clock_tick = total - self._total, total, tick
        return self._frame


class RedguardSystem(SoundSystem):
    """A Redguard processor: ``_tick(ticks)`` gets whole nominal ticks, and runs only
    in a frame that stepped at least one."""

    source = "redguard"

    def process(self, *args: object, **kwargs: object) -> None:
        if self.ctx.clock.elapsed_ticks <= 0:
            return
        ticks = self.ctx.redguard.nominal.frame_ticks()
        if ticks <= 0:
            return
        try:
            self._tick(ticks)
        except SoundscapeError as error:
            self.ctx.events.emit(self.source, "error", system=type(self).__name__, error=str(error))
