"""Phase SOUND_OBJECTS: Oni's ambient state machines, details, fades, the overall volume
slide and the scripts' stalled dialogue calls (``SSrUpdate``, 0x480c20, 0x483bd0)."""

from __future__ import annotations

from soundscape.phase import Phase
from soundscape.system import SoundSystem


class SoundObjectSystem(SoundSystem):
    """Runs ``ctx.oni.tick(ticks)`` once a frame."""

    phase = Phase.SOUND_OBJECTS
    source = "oni"

    def _tick(self, ticks: int) -> None:
        self.ctx.oni.tick(ticks)
