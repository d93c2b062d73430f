"""``CellRebuildSystem`` (Phase.CELL_REBUILD): AC ``CellManager::ChangePosition`` 0x4559b0.

Every tick it latches the listener (``SoundManager::SetPlayerPosition``) and asks
the runtime to rebuild the ambient weighting; the rebuild happens only when the
listener's objcell changed (``load_pos`` compare), when it becomes 0 (reset),
or when the current cell was not loaded yet.
"""

from __future__ import annotations

from typing import ClassVar

from soundscape.ac.runtime import AcRuntime
from soundscape.phase import Phase
from soundscape.system import SoundSystem


class CellRebuildSystem(SoundSystem):
    """Rebuilds the AC ambient weighting on objcell changes."""

    phase: ClassVar[Phase] = Phase.CELL_REBUILD
    source: ClassVar[str] = "ac"

    def _tick(self, ticks: int) -> None:
        runtime: AcRuntime = self.ctx.ac
        runtime.sync_landblocks()
        runtime.follow_listener()
