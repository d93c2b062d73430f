"""Parked virtual voices: culled voices whose inputs hold still, kept time in arrays.

A virtual bank (``ChannelBank``, policy ``virtual``) voices its loudest
``real_voices``; the others are culled and never reach the audio side. Most of a
big bank's voices stay culled tick after tick with nothing about them changing:
their only work is the cursor moving on and, for a one-shot, its end. Such a
voice is *parked* here: its cursor moves in one numpy step a tick for the whole
bank (the same float64 arithmetic, in the same order, as ``ChannelBank.advance``
does for one channel, so cursors and end ticks are the same to the bit), its
profile law is not run again (its inputs are those it was parked with), and the
ranking reads its loudness from an array.

A culled voice is parked when its inputs (``signature``) are as they were at the
bank's last parking pass (one every ``PARK_AFTER_TICKS`` ticks), with no fade
moving, not paused and on a bus that is not held. It wakes (goes back to the
per-channel path) when any of its inputs changes (checked before every advance,
so a direct write to a ``Channel`` field counts as much as ``bank.set_volume``),
when it would end this tick, when its bank's overall volume moves or its bus is
held, and when it is stopped, played again or restored. Its
``Channel.cursor_frames`` is written back every tick.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from soundscape.components.channel import Channel

PARK_AFTER_TICKS = 8
"""Ticks between a virtual bank's parking passes: a culled voice whose inputs held
from one pass to the next is parked (a moving emitter's voice, steered every tick,
stays on the per-channel path instead of parking and waking every tick)."""


def signature(channel: Channel) -> tuple[Any, ...]:
    """Everything the law, the cursor's pace and the parking rule read of ``channel``."""
    return (channel.volume, channel.pan, channel.pitch, channel.rate_hz, channel.level,
            channel.flags, channel.bus, channel.fading, channel.level_rate_per_tick,
            channel.loop, channel.serial)


class ParkedVoices:
    """One virtual bank's parked voices and the loudness the ranking reads.

    Arrays are indexed by channel slot and grow with the bank. ``loud``,
    ``playing`` and ``audible`` hold every channel (parked ones keep the values
    they were parked with; ``ChannelBank.cull_voices`` refreshes the others).
    """

    def __init__(self) -> None:
        self.size = 0
        self.on = np.zeros(0, dtype=bool)
        self.cursor = np.zeros(0)
        self.rate_hz = np.zeros(0)
        self.length = np.zeros(0)
        self.wraps = np.zeros(0, dtype=bool)
        """Loops with frames: wrap at their length instead of ending."""
        self.loud = np.zeros(0)
        self.playing = np.zeros(0, dtype=bool)
        self.audible = np.zeros(0, dtype=bool)
        self.moved = np.zeros(0, dtype=bool)
        """Parked when the bank last advanced (since the last publish)."""
        self.count = 0
        self.overall = 1.0
        """The bank's overall volume when the parked voices' laws were run."""
        self.slots: list[int] = []
        self.channels: list[Channel] = []
        self.signatures: list[tuple[Any, ...]] = []
        self._signature_of: dict[int, tuple[Any, ...]] = {}
        self.pending: dict[int, tuple[Any, ...]] = {}
        """Culled voices not parked at the last pass: slot -> their signature then."""
        self.next_pass = 0
        """The tick of the next parking pass (``channel_cull.park``)."""
        self.dirty = False
        """The parked set changed: ``layout`` before the next advance."""

    def grow(self, size: int) -> None:
        """Room for ``size`` channels (amortised doubling)."""
        if size <= self.size:
            return
        new = max(size, 2 * self.size, 16)
        for name in ("on", "cursor", "rate_hz", "length", "wraps", "loud", "playing",
                     "audible", "moved"):
            old = getattr(self, name)
            grown = np.zeros(new, dtype=old.dtype)
            grown[: old.shape[0]] = old
            setattr(self, name, grown)
        self.size = new

    def park(self, channel: Channel, rate_hz: float, loudness: float) -> None:
        slot = channel.index
        self.on[slot] = True
        self.cursor[slot] = channel.cursor_frames
        self.rate_hz[slot] = rate_hz
        self.length[slot] = channel.length_frames
        self.wraps[slot] = bool(channel.loop) and channel.length_frames > 0
        self.loud[slot] = loudness
        self._signature_of[slot] = signature(channel)
        self.count += 1
        self.dirty = True

    def wake(self, channel: Channel) -> None:
        """Back to the per-channel path (its cursor is written back)."""
        slot = channel.index
        if slot < self.size and self.on[slot]:
            self.on[slot] = False
            channel.cursor_frames = float(self.cursor[slot])
            del self._signature_of[slot]
            self.count -= 1
            self.dirty = True

    def wake_all(self, channels: Sequence[Channel]) -> None:
        for slot in self.slots:
            self.wake(channels[slot])

    def layout(self, channels: Sequence[Channel]) -> None:
        """The parked slots, channels and signatures as lists (after a change)."""
        self.slots = np.flatnonzero(self.on[: len(channels)]).tolist()
        self.channels = [channels[slot] for slot in self.slots]
        self.signatures = [self._signature_of[slot] for slot in self.slots]
        self.dirty = False

    def changed(self) -> list[Channel]:
        """The parked channels one of whose inputs changed since they were parked."""
        return [c for c, sig in zip(self.channels, self.signatures, strict=True)
                if signature(c) != sig]

    def advance(self, ticks: int, tick_hz: int) -> list[int]:
        """Move every parked cursor on by ``ticks``; wrap loops. Returns the slots
        that would end in this advance, left where they were (the caller wakes them
        and the per-channel path ends them, with their events and callbacks)."""
        self.moved[:] = self.on
        if not self.count:
            return []
        on = self.on
        cursor = np.where(on, self.cursor + self.rate_hz * ticks / tick_hz, self.cursor)
        over = on & (cursor >= self.length)
        ending: list[int] = []
        if over.any():
            ends = over & ~self.wraps
            if ends.any():
                ending = np.flatnonzero(ends).tolist()
                cursor[ends] = self.cursor[ends]
            loops = over & self.wraps
            cursor[loops] = np.remainder(cursor[loops], self.length[loops])
        self.cursor = cursor
        return ending

    def write_back(self) -> None:
        """Each parked channel's ``cursor_frames`` from the array."""
        for channel, cursor in zip(self.channels, self.cursor[self.slots].tolist(),
                                   strict=True):
            channel.cursor_frames = cursor
