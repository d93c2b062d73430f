"""Phase PUBLISH: the game side hands the audio side this tick's voices.

The snapshot (``soundscape.audio.snapshot``) is swapped in by reference, so the
audio side never waits; every bank then forgets this tick's cuts and advance
marks; and a tick-driven backend (the offline renderer) renders the tick's
frames, so a scene stepped tick by tick renders the same audio every run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from soundscape.audio.snapshot import build_snapshot

if TYPE_CHECKING:
    from soundscape.context import Context


def publish(ctx: Context, ticks: int) -> None:
    """Publish the snapshot to the mixer (if any), mark the banks, let the backend render."""
    mixer = ctx.mixer if ctx.has("mixer") else None
    if mixer is not None:
        mixer.publish(build_snapshot(ctx))
    for bank in list(ctx.channels.values()):
        bank.mark_published()
    if mixer is not None and mixer.backend is not None:
        mixer.backend.on_tick(ticks)
