"""Phase PUBLISH: hand the mixer an immutable snapshot of every voice.

The snapshot is swapped in by reference (the audio side never waits). With
the offline backend the tick's frames are rendered right here, so a scene
stepped tick by tick renders the same audio every run.
"""

from __future__ import annotations

from soundscape.audio.snapshot import build_snapshot
from soundscape.phase import Phase
from soundscape.system import SoundSystem


class PublishSystem(SoundSystem):
    """Builds the snapshot, publishes it and lets a tick-driven backend render."""

    phase = Phase.PUBLISH
    source = "mixer"

    def _tick(self, ticks: int) -> None:
        mixer = self.ctx.mixer if self.ctx.has("mixer") else None
        if mixer is not None:
            mixer.publish(build_snapshot(self.ctx))
        for bank in list(self.ctx.channels.values()):
            bank.mark_published()
        if mixer is not None and mixer.backend is not None:
            mixer.backend.on_tick(ticks)
