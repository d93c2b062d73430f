"""Phase OBJECT_UPDATE step 2: the player's torch loop (an object update of the player)."""

from __future__ import annotations

from soundscape.phase import Phase
from soundscape.system import SoundSystem


class RgTorchSystem(SoundSystem):
    """While the torch burns: restart effect 25 when finished, refresh volume and pan."""

    phase = Phase.OBJECT_UPDATE
    step = 2
    source = "redguard"

    def _tick(self, ticks: int) -> None:
        self.ctx.redguard.engine.torch_tick()
