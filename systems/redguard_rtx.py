"""Phase OBJECT_UPDATE step 7: the periodic RTX cache update (after dialogue)."""

from __future__ import annotations

from soundscape.phase import Phase
from soundscape.redguard.system import RedguardSystem


class RgRtxCacheSystem(RedguardSystem):
    """Keeps playing entries, forgets finished samples, ages and releases unused entries."""

    phase = Phase.OBJECT_UPDATE
    step = 7

    def _tick(self, ticks: int) -> None:
        self.ctx.redguard.rtx.update(ticks)
