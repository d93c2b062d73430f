"""The base of every soundscape processor."""

from __future__ import annotations

from typing import ClassVar

import esper

from soundscape.context import Context
from soundscape.errors import SoundscapeError
from soundscape.phase import Phase


class SoundSystem(esper.Processor):
    """An esper processor that does one phase's work on every tick the clock steps.

    Subclasses set ``phase`` (and ``step`` for a sub-step within the phase) and
    implement ``_tick(ticks)``; ``ticks`` is how many whole 60 Hz ticks this frame
    stepped (usually 1). Bad input met at run time (a ``SoundscapeError``) is
    written to the event log and the frame goes on: sound never crashes the game
    loop.
    """

    phase: ClassVar[Phase]
    step: ClassVar[int] = 0
    source: ClassVar[str] = "soundscape"

    def __init__(self, ctx: Context) -> None:
        super().__init__()
        self.ctx = ctx

    def process(self, *args: object, **kwargs: object) -> None:
        ticks = self.ctx.clock.elapsed_ticks
        if ticks <= 0:
            return
        try:
            self._tick(ticks)
        except SoundscapeError as error:
            self.ctx.events.emit(self.source, "error", system=type(self).__name__, error=str(error))

    def _tick(self, ticks: int) -> None:
        raise NotImplementedError
