"""Phase OBJECT_UPDATE step 5: dialogue-record updates (after object updates)."""

from __future__ import annotations

from soundscape.phase import Phase
from soundscape.redguard.system import RedguardSystem


class RgDialogueSystem(RedguardSystem):
    """Skip latch, then each active record in index order (21 x ticks off its lifetime)."""

    phase = Phase.OBJECT_UPDATE
    step = 5

    def _tick(self, ticks: int) -> None:
        rt = self.ctx.redguard
        rt.dialogue.update(ticks, rt.player_lockout)
