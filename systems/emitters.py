"""Phase OBJECT_UPDATE (last step): generic emitters follow their entities."""

from __future__ import annotations

from typing import TYPE_CHECKING

from soundscape.phase import Phase
from soundscape.system import SoundSystem

if TYPE_CHECKING:
    from soundscape.audio.emitters import EmitterService
    from soundscape.context import Context


class EmitterSystem(SoundSystem):
    """Starts, steers (distance gain, equal-power pan) and stops ``Emitter`` voices."""

    phase = Phase.OBJECT_UPDATE
    step = 9
    source = "emitters"

    def __init__(self, ctx: Context, service: EmitterService) -> None:
        super().__init__(ctx)
        self.service = service

    def _tick(self, ticks: int) -> None:
        self.service.update()
