"""Voice slots: one ``Channel`` component per channel of a channel bank."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, IntFlag


class ChannelKind(IntEnum):
    """What a channel carries (Oni: 1 mono, 2 stereo; a sound plays on its own kind)."""

    MONO = 1
    STEREO = 2


class ChannelFlags(IntFlag):
    """Oni's channel flag byte (+0x1b) and the states the other runtimes need.

    For reading and printing: ``ChannelFlags(channel.flags)`` names the bits of a
    channel. ``Channel.flags`` itself is a plain ``int`` and the hot paths test it
    against the module's int constants (``PLAYING``, ``LOCKED``...): an ``IntFlag``
    operation costs about a microsecond, a plain ``int`` one a few tens of ns.

    >>> ChannelFlags(PLAYING | LOOPING)
    <ChannelFlags.PLAYING|LOOPING: 3>
    """

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


# The same bits as plain ints: ``channel.flags & PLAYING`` stays int arithmetic.
NONE = int(ChannelFlags.NONE)
PLAYING = int(ChannelFlags.PLAYING)
LOOPING = int(ChannelFlags.LOOPING)
LOCKED = int(ChannelFlags.LOCKED)
UPDATING = int(ChannelFlags.UPDATING)
PAUSED = int(ChannelFlags.PAUSED)
CAN_PAN = int(ChannelFlags.CAN_PAN)
AMBIENT = int(ChannelFlags.AMBIENT)


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

    ``flags`` is a plain ``int`` of ``ChannelFlags`` bits; write it with the
    module's int constants (``channel.flags |= LOCKED``) so it stays one.
    """

    bank: str
    index: int
    kind: ChannelKind = ChannelKind.MONO
    profile: str = "modern"
    priority: int = 1
    flags: int = NONE
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
    rate_scale: float = 1.0
    """Multiplies a retail profile's buffer rate (Oni's 22,050 x pitch, Redguard's
    ``rate_hz``): the sound's frames per frame of its original (1 unless the sound
    was converted for the ``modern`` profile); Oni ``oni_buffer_rate = "source"``
    makes it the sound's rate over 22,050."""
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
    send: tuple[int, float] | None = None
    """(reverb zone id, linear send level) of the zone the voice sounds in, or None
    (set each tick by the ``rooms`` feature; the level excludes the voice's gain)."""
    ear_rad: float | None = None
    """Headphone output: the source's azimuth from the listener's heading (clockwise,
    radians) for the head model; None renders through the side gains (``rooms``)."""
    voice_id: int = 0
    """The voice command stream's id of the current start (``soundscape.audio.commands``;
    never reused within a plugin); 0 before the first start."""
    lowpass_hz: float = 0.0
    """The voice's low-pass cutoff in the mixer (``modern``: the walls a generic
    emitter is heard through); 0 is no filter."""
    bus: str = "sfx"
    """The bus the voice plays on (``ctx.buses``; set by ``ChannelBank.play``)."""
    level: float = 1.0
    """The voice's fader (linear, 1 = as played): a fade in seconds
    (``ChannelBank.fade_to``) moves it; it multiplies the float profiles' side gains."""
    level_target: float = 1.0
    level_rate_per_tick: float = 0.0
    level_stop: bool = False
    """Stop the voice when ``level`` reaches 0 (a stop with ``fade_out_s``)."""

    @property
    def playing(self) -> bool:
        """PLAYING is set: a sound is on this channel."""
        return self.flags & PLAYING != 0

    @property
    def locked(self) -> bool:
        """LOCKED is set: held by an ambient."""
        return self.flags & LOCKED != 0

    @property
    def flag_set(self) -> ChannelFlags:
        """``flags`` as a ``ChannelFlags`` (readable; not for hot paths)."""
        return ChannelFlags(self.flags)
