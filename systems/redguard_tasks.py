"""Phase OBJECT_UPDATE step 1: Redguard native tasks (AmbientSound, AmbientRTX, RTX, RTXp)."""

from __future__ import annotations

from soundscape.phase import Phase
from soundscape.redguard.system import RedguardSystem


class RgTaskSystem(RedguardSystem):
    """Invokes every running native task once, in call order (ordinary object updates)."""

    phase = Phase.OBJECT_UPDATE
    step = 1

    def _tick(self, ticks: int) -> None:
        self.ctx.redguard.tasks.run(ticks)
