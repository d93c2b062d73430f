"""Feature ``rooms``: the rooms service and the mixer's rooms stage.

``install`` puts a ``RoomMix`` on the mixer (when there is one), creates
``ctx.rooms`` and returns the system that updates it once a tick.
"""

from __future__ import annotations

from soundscape.audio.room_mix import RoomMix
from soundscape.context import Context
from soundscape.rooms.service import RoomsService
from soundscape.system import SoundSystem
from soundscape.systems.rooms import RoomsSystem


def install(ctx: Context) -> list[SoundSystem]:
    """Create ``ctx.rooms`` (and ``ctx.mixer.rooms``); needs feature ``audio`` first."""
    mix = None
    if ctx.has("mixer"):
        settings = ctx.settings
        mix = ctx.mixer.rooms = RoomMix(settings.sample_rate_hz, settings.block_frames)
    return [RoomsSystem(ctx, RoomsService(ctx, mix))]
