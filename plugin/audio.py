"""Feature ``audio``: the sound bank, channel advancement, the mixer and its backend."""

from __future__ import annotations

from soundscape.context import Context
from soundscape.sounds import SoundBank
from soundscape.system import SoundSystem
from soundscape.systems.channels import ChannelSystem


def install(ctx: Context) -> list[SoundSystem]:
    """Create ``ctx.sounds`` and return the CHANNELS system."""
    ctx.sounds = SoundBank()
    return [ChannelSystem(ctx)]
