"""The channel allocation rules of the retail runtimes, as pure functions.

``ChannelBank.acquire`` picks its channel with one of these (by the bank's
policy); each takes the bank's channels and returns the one to use, or None.

* ``oni_channel``: ``SSiSoundChannels_GetChannelForPlay`` 0x47fab0 (seed 001).
* ``redguard_channel``: the first idle channel at or above a start index, no
  stealing (seed 002, "Starting a sound").
* ``free_channel``: the first channel neither playing nor locked (the
  ``virtual`` policy grows the bank when there is none).
"""

from __future__ import annotations

from collections.abc import Sequence

from soundscape.components.channel import LOCKED, PLAYING, Channel, ChannelKind

ONI_QUIET_VOLUME = 0.1
"""Oni's third rule takes an unlocked channel at this volume or less."""


def free_channel(channels: Sequence[Channel]) -> Channel | None:
    """The first channel neither playing nor locked."""
    return next((c for c in channels if not c.flags & (PLAYING | LOCKED)), None)


def redguard_channel(channels: Sequence[Channel], start_index: int) -> Channel | None:
    """The first idle channel at or above ``start_index``; None when all are busy
    (the sound is dropped: playing sounds are never stolen)."""
    for channel in channels[max(start_index, 0):]:
        if not channel.flags & PLAYING:
            return channel
    return None


def oni_channel(channels: Sequence[Channel], priority: int, kind: ChannelKind,
                overall: float = 1.0) -> Channel | None:
    """``SSiSoundChannels_GetChannelForPlay`` 0x47fab0, on channels of ``kind``.

    1. The first one neither locked nor playing.
    2. Else the first unlocked one of a lower priority (every channel has
       priority 1, so priority 2 and 3 take any unlocked one).
    3. Else the first unlocked one of priority up to the asked one and volume
       0.1 or less.
    4. Else the quietest one of priority up to the asked one, under full
       volume, locked or not; the caller takes it from its ambient. Ranked on
       the same product as rules 3 and 4's filter, with Bungie's strict
       ``volume < min_volume`` scan from 1.0 (``BFW_SoundSystem2.c``), so the
       first of equal products wins.

    Priority 0 (ambient details) only gets a free channel. A channel's volume
    here is its whole product: ``volume`` times the bank's ``overall`` volume
    (which the ``oni`` law multiplies in).
    """
    own_kind = [c for c in channels if c.kind == kind]
    for channel in own_kind:
        if not channel.flags & (LOCKED | PLAYING):
            return channel
    if priority <= 0:
        return None  # ambient details only ever get a free channel
    for channel in own_kind:
        if not channel.flags & LOCKED and channel.priority < priority:
            return channel
    for channel in own_kind:
        if not channel.flags & LOCKED and channel.priority <= priority and (
            channel.volume * overall <= ONI_QUIET_VOLUME
        ):
            return channel
    # Bungie's scan: ``volume < min_volume`` from 1.0, so the first of equal products
    # wins (at overall volume 0 every product is 0 and the first channel is taken).
    found, min_volume = None, 1.0
    for channel in own_kind:
        product = channel.volume * overall
        if channel.priority <= priority and product < min_volume:
            found, min_volume = channel, product
    return found
