"""Voice slots: one ``Channel`` component per channel of a channel bank."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, IntFlag


class ChannelKind(IntEnum):
    """What a channel carries (Oni: 1 mono, 2 stereo; a sound plays on its own kind)."""

    MONO = 1
    STEREO = 2


class ChannelFlags(IntFlag):
    """Oni's channel flag byte (+0x1b) and the states the other runtimes need."""

    NONE = 0
    PLAYING = 0x01
    LOOPING = 0x02
    LOCKED = 0x04
    """Held by an ambient: only the quietest-channel rule may take it."""
    UPDATING = 0x08
    """Its sound just ended; the owner's end handling runs this tick."""
    PAUSED = 0x10
    CAN_PAN = 0x20
    AMBIENT = 0x40
    """Owned by an ambient (taken from its ambient when stolen)."""


@dataclass(slots=True)
class Channel:
    """One voice slot of a channel bank.

    ``volume``, ``pan``, ``pitch`` and ``rate_hz`` are the inputs of the bank's
    profile law, in that profile's units:

    * ``ac``: volume = integer dB (<= 0), pan = -15..15 (x100 = hundredths of a dB).
    * ``oni``: volume = linear product, pan = signed hundredths of a dB (positive
      attenuates the left side), pitch multiplies the 22,050 Hz buffer rate.
    * ``redguard``: volume 0..127 (master-scaled), pan 0..127 (64 centre), rate_hz.
    * ``modern``: volume = linear gain, pan -1..1 (equal power), pitch = rate ratio.

    ``gain_left``, ``gain_right`` and ``step`` are the law's outputs (phase
    CHANNELS): linear per-side gains and source frames per output frame.
    """

    bank: str
    index: int
    kind: ChannelKind = ChannelKind.MONO
    profile: str = "modern"
    priority: int = 1
    flags: ChannelFlags = ChannelFlags.NONE
    owner: int = -1
    sound: str | None = None
    effect: int = -1
    generation: int = 0
    volume: float = 0.0
    pan: float = 0.0
    pitch: float = 1.0
    rate_hz: float = 0.0
    position: tuple[float, float, float] | None = None
    fade_target: float = 0.0
    fade_rate_per_tick: float = 0.0
    fading: bool = False
    loop: bool = False
    """Repeat the same sound whole when it ends (the mixer wraps the cursor)."""
    cursor_frames: float = 0.0
    length_frames: int = 0
    sample_rate_hz: int = 0
    started_tick: int = -1
    gain_left: float = 0.0
    gain_right: float = 0.0
    step: float = 1.0
    serial: int = 0
    """Counts ``play`` calls on this channel: the mixer tells one start from the next."""
    start_cursor_frames: float = 0.0
    """Source frame the sound is at when the mixer's current tick interval begins
    (negative: it starts that many frames into the interval, as a sound chained
    from an ``on_end`` callback does)."""
    audible: bool = True
    """False for a virtual voice outside its bank's loudest ``real_voices``."""

    @property
    def playing(self) -> bool:
        return bool(self.flags & ChannelFlags.PLAYING)

    @property
    def locked(self) -> bool:
        return bool(self.flags & ChannelFlags.LOCKED)
