"""Phase OCCLUSION, step 0: mirror the ``Wall`` components into the pymunk space."""

from __future__ import annotations

import esper

from soundscape.components.occlusion import Wall
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
        service = self.ctx.occlusion
        for entity, reason in service.walls.sync(esper.get_component(Wall)):
            self.ctx.events.emit(self.source, "wall_rejected", entity=entity, error=reason)
