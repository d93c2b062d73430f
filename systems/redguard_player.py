"""Phase OBJECT_UPDATE step 2: the player's object update (inhibition sample, torch)."""

from __future__ import annotations

from soundscape.phase import Phase
from soundscape.redguard.maintenance import player_controller_sample
from soundscape.redguard.system import RedguardSystem


class RgPlayerSystem(RedguardSystem):
    """The player controller samples the maintenance inhibition; the torch loop follows.

    While the torch burns: effect 25 restarted when finished, volume and pan
    refreshed every tick.
    """

    phase = Phase.OBJECT_UPDATE
    step = 2

    def _tick(self, ticks: int) -> None:
        rt = self.ctx.redguard
        player_controller_sample(rt)
        rt.engine.torch_tick()
