"""Phase OCCLUSION, step 0: mirror the ``Wall`` components into the pymunk space."""

from __future__ import annotations

from soundscape.phase import Phase
from soundscape.system import SoundSystem


class WallSystem(SoundSystem):
    """Adds, moves and removes the static segments of ``ctx.occlusion.walls``.

    A wall with NaN end points or no length is skipped (its old segment goes) and
    logged once as a ``wall_rejected`` event until it changes again.
    """

    phase = Phase.OCCLUSION
    step = 0
    source = "occlusion"

    def _tick(self, ticks: int) -> None:
        self.ctx.occlusion.sync_walls()
