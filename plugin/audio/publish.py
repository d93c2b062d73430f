"""Phase PUBLISH: the game side hands the audio side this tick's voice commands.

Every bank's starts, stops and changed parameters since the last publish
(``soundscape.audio.commands.collect_commands``) are appended to the mixer's
command stream in one go, so the audio side never waits; every bank then
forgets this tick's commands and advance marks; and a tick-driven backend (the
offline renderer) renders the tick's frames, so a scene stepped tick by tick
renders the same audio every run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from soundscape.audio.commands import collect_commands

if TYPE_CHECKING:
    from soundscape.context import Context


def publish(ctx: Context, ticks: int) -> None:
    """Send the commands to the mixer (if any), mark the banks, let the backend render."""
    mixer = ctx.mixer if ctx.has("mixer") else None
    if mixer is not None:
        mixer.send(collect_commands(ctx, ticks), tick=ctx.clock.tick)
    for bank in list(ctx.channels.values()):
        bank.mark_published()
    if mixer is not None:
        mixer.streams.collect(ctx.events)  # finished rings' blocks, stream_underrun events
    if ctx.has("sounds"):
        ctx.sounds.store.published()  # released blocks wait for the audio side from here
    if mixer is not None and mixer.backend is not None:
        mixer.backend.on_tick(ticks)
