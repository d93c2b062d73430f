"""A voice the mixer's audio side is playing: its params, samples, cursor and gains.

``Mixer`` keeps one ``Voice`` per started voice id until it ends or is cut; while it is
a row of the block matrix (``mixer_rows.Rows``) the row holds its cursor and gains,
written back at each layout (``Mixer._sync``).
"""

from __future__ import annotations

import math

from soundscape.audio.commands import Command, VoiceParams
from soundscape.audio.mixer_store import Segment
from soundscape.audio.streams import StreamRing


class Voice:
    """One voice the audio side is playing (rendered or silent)."""

    __slots__ = ("key", "spec", "seg", "cur_i", "cur_f", "g_left", "g_right", "fate",
                 "rendered", "stream", "stream_frames", "bus_gain")

    def __init__(self, key: int, spec: VoiceParams, seg: Segment, start: float,
                 bus_gain: float = 1.0) -> None:
        self.key, self.spec, self.seg = key, spec, seg
        whole = math.floor(start)
        self.cur_i, self.cur_f = int(whole), float(start - whole)
        self.g_left, self.g_right = spec.gain_left, spec.gain_right
        self.fate = "live"
        self.rendered = False
        """Has been a row of a rendered block: a later gain change ramps from its gains."""
        self.stream: StreamRing | None = None
        """A streamed voice's ring (``soundscape.audio.streams``); ``seg`` is the ring."""
        self.stream_frames = 0
        """A streamed voice's whole frames from its start (its cursor wraps in the ring)."""
        self.bus_gain = bus_gain
        """Its bus's gain as last rendered (``mixer_buses``: changes ramp from here)."""


def faded_in(voice: Voice, command: Command) -> Voice:
    """A voice restored from virtual (``Command.fade_in``) with ramped gains
    (``modern``) rises from silence across its first block."""
    if command.fade_in and voice.spec.ramp:
        voice.g_left = voice.g_right = 0.0
        voice.rendered = True  # a set before its first block ramps from 0 as well
    return voice
