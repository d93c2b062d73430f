"""The rooms update, the last sub-step before CHANNELS (``soundscape.rooms.service``).

It runs after every runtime has started and placed this tick's voices and before
the laws turn them into gains, so a voice's start already carries its zone's send
and, in headphone output, its direction.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from soundscape.phase import Phase
from soundscape.system import SoundSystem

if TYPE_CHECKING:
    from soundscape.context import Context
    from soundscape.rooms.service import RoomsService


class RoomsSystem(SoundSystem):
    """Zones, the listener's zone, each voice's send and ear (``RoomsService.update``)."""

    phase = Phase.SOUND_OBJECTS
    step = 9
    source = "rooms"

    def __init__(self, ctx: Context, service: RoomsService) -> None:
        super().__init__(ctx)
        self.service = service

    def _tick(self, ticks: int) -> None:
        self.service.update()
