"""Phase OCCLUSION, step 1: every placed record hears through the walls (0x511a00)."""

from __future__ import annotations

from soundscape.phase import Phase
from soundscape.system import SoundSystem


class OcclusionSystem(SoundSystem):
    """Runs ``OcclusionService.update_records``: hearing each tick, walls every 12 ticks.

    It runs before the Oni PLACED_AMBIENTS phase, which reads ``Occluded.volume``
    and ``Occluded.in_hearing``.
    """

    phase = Phase.OCCLUSION
    step = 1
    source = "occlusion"

    def _tick(self, ticks: int) -> None:
        self.ctx.occlusion.update_records()
