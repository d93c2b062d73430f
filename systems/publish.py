"""Phase PUBLISH: hand the mixer this tick's voice commands (start, set, stop).

They are appended to the mixer's command stream (the audio side never waits). With
the offline backend the tick's frames are rendered right here, so a scene
stepped tick by tick renders the same audio every run
(``soundscape.audio.publish``).
"""

from __future__ import annotations

from soundscape.audio.publish import publish
from soundscape.phase import Phase
from soundscape.system import SoundSystem


class PublishSystem(SoundSystem):
    """Sends the tick's voice commands and lets a tick-driven backend render."""

    phase = Phase.PUBLISH
    source = "mixer"

    def _tick(self, ticks: int) -> None:
        publish(self.ctx, ticks)
