"""Phase OBJECT_UPDATE step 0: Redguard sound maintenance (before object updates)."""

from __future__ import annotations

from soundscape.phase import Phase
from soundscape.redguard.maintenance import maintenance
from soundscape.redguard.system import RedguardSystem


class RgMaintenanceSystem(RedguardSystem):
    """Samples the camera, clears the reset flag, runs the periodic-reset accumulator."""

    phase = Phase.OBJECT_UPDATE
    step = 0

    def _tick(self, ticks: int) -> None:
        maintenance(self.ctx.redguard, ticks)
