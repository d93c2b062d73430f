"""Miles sample status of a channel, read on the hot path.

``Channel.playing`` goes through ``IntFlag`` arithmetic (about a microsecond);
the Redguard tasks ask for it dozens of times a tick, so they read the flag
bit with plain integer arithmetic instead.
"""

from __future__ import annotations

from soundscape.components.channel import Channel, ChannelFlags

PLAYING_BIT = int(ChannelFlags.PLAYING)


def is_playing(channel: Channel) -> bool:
    """Miles status 4 (playing) of ``channel``."""
    return bool(int.__and__(channel.flags, PLAYING_BIT))
