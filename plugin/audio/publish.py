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
from soundscape.components.channel import PAUSED, PLAYING

if TYPE_CHECKING:
    from soundscape.context import Context


def sounding_buses(ctx: Context) -> set[str]:
    """The buses with a playing voice that is neither paused nor held by its bus."""
    held = ctx.buses.paused_names
    found: set[str] = set()
    for bank in ctx.channels.values():
        columns, n = bank.columns, len(bank.channels)
        if columns is None:
            found.update(channel.bus for channel in bank.channels
                         if channel.flags & (PLAYING | PAUSED) == PLAYING)
        elif n:  # a bank with columns: its buses from the columns at once
            sounding = columns.flags[:n] & (PLAYING | PAUSED) == PLAYING
            found.update(columns.bus_names[i] for i in set(columns.bus_id[:n][sounding].tolist()))
    return found - held


def step_buses(ctx: Context, ticks: int) -> None:
    """The bus tree's fades and ducks move on by this frame's ticks."""
    buses = ctx.buses
    if ticks <= 0:
        return
    dt_s = ticks / ctx.clock.tick_hz
    buses.tick(dt_s, sounding_buses(ctx) if buses.ducks else ())


def publish(ctx: Context, ticks: int) -> None:
    """Send the commands to the mixer (if any), mark the banks, let the backend render."""
    mixer = ctx.mixer if ctx.has("mixer") else None
    if ctx.has("buses"):
        step_buses(ctx, ticks)
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
