"""Phase FLYBYS: the 24 flyby records step and play their impulses (0x5157c0)."""

from __future__ import annotations

from soundscape.phase import Phase
from soundscape.system import SoundSystem


class FlybySystem(SoundSystem):
    """Runs ``FlybyTable.tick``: frees vanished projectiles, steps, takes records."""

    phase = Phase.FLYBYS
    step = 0
    source = "flyby"

    def _tick(self, ticks: int) -> None:
        self.ctx.occlusion.flybys.tick()
