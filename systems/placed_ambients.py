"""Phase PLACED_AMBIENTS: Oni's ``OSiAmbient_Update`` 0x511f00 on every placed record
(hearing, start, wait, stop, volume slew), after the listener is found for the tick."""

from __future__ import annotations

from soundscape.phase import Phase
from soundscape.system import SoundSystem


class PlacedAmbientSystem(SoundSystem):
    """Finds Oni's ears for the tick, then updates ``ctx.oni.placed``."""

    phase = Phase.PLACED_AMBIENTS
    source = "oni"

    def _tick(self, ticks: int) -> None:
        oni = self.ctx.oni
        oni.update_listener()
        if oni.placed is not None:
            oni.placed.tick()
