"""``AmbientPlaybackSystem`` (Phase.AMBIENT_PLAYBACK): AC ``Ambient::UseTime`` 0x551880.

Pops every heap deadline strictly earlier than the clock's ``now_s`` and plays
it (``Ambient::Play``): a sound that can still be heard fires (or rolls and
stays quiet) and is re-inserted at ``now + GetPlayInterval()``; one that cannot
leaves the heap until the next rebuild.
"""

from __future__ import annotations

from typing import ClassVar

from soundscape.phase import Phase
from soundscape.system import SoundSystem


class AmbientPlaybackSystem(SoundSystem):
    """Plays the AC ambient deadlines that came due."""

    phase: ClassVar[Phase] = Phase.AMBIENT_PLAYBACK
    source: ClassVar[str] = "ac"

    def _tick(self, ticks: int) -> None:
        self.ctx.ac.ambient.use_time(self.ctx.clock.now_s)
