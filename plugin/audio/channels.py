"""Channel banks: voice slots with the retail allocation policies.

A ``ChannelBank`` owns ``count`` ``Channel`` components (one esper entity each)
and hands them out by one of three policies (the rules: ``channel_rules``):

* ``oni``: ``SSiSoundChannels_GetChannelForPlay`` 0x47fab0 (free; lower
  priority unlocked; quiet; quietest, taken from its ambient; priority 0 only
  free), on channels of the sound's own kind.
* ``redguard``: the first idle channel at or above a start index; none idle
  drops the sound; playing sounds are never stolen.
* ``virtual``: any number of logical voices; the mixer voices the loudest N.

Runtimes talk to a bank through ``Handle`` values (``channel_handles``); a handle
whose channel has since been given to another sound is stale and does nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import esper
import numpy as np

from soundscape.audio import (
    channel_advance,
    channel_cull,
    channel_laws,
    channel_play,
    channel_steer,
    channel_stream,
)
from soundscape.audio.channel_advance import OVERALL_SLIDE_PER_FRAME
from soundscape.audio.channel_arrays import ARRAYS_FROM, ArrayChannel, ChannelColumns
from soundscape.audio.channel_handles import EndCallback, Handle, SoundHandle, StealCallback
from soundscape.audio.channel_laws import LAW_INPUTS
from soundscape.audio.channel_rules import free_channel, oni_channel, redguard_channel
from soundscape.audio.commands import VoiceParams
from soundscape.audio.profiles import held_rate_hz
from soundscape.audio.virtual import PARK_AFTER_TICKS, ParkedVoices
from soundscape.components.channel import (
    AMBIENT,
    LOCKED,
    NONE,
    PLAYING,
    UPDATING,
    Channel,
    ChannelKind,
)
from soundscape.context import Context

if TYPE_CHECKING:
    from soundscape.audio.sounds import Sound, SoundBank

__all__ = [  # the bank's parts live in channel_*.py; these names stay importable here
    "LAW_INPUTS", "OVERALL_SLIDE_PER_FRAME", "PARK_AFTER_TICKS", "POLICIES",
    "Channel", "ChannelBank", "ChannelKind", "EndCallback", "Handle", "SoundHandle",
    "StealCallback", "ensure_bank", "sounds_in_use", "step_banks", "stop_voices_of",
]

POLICIES = ("oni", "redguard", "virtual")
COLUMN_PROFILES = ("modern",)
"""The profiles whose banks keep their channels as columns (``channel_arrays``) and step
them as arrays; the others go one channel at a time (as a ``modern`` bank does with this
emptied: the reference the array paths are tested against)."""


class ChannelBank:
    """A named set of channels with one allocation policy and one profile law.

    The bank holds the state; its parts are functions over it, one concept a
    module: ``channel_play`` (``play``), ``channel_steer`` (stop, pause, fades,
    setters), ``channel_advance`` (time), ``channel_laws`` (the law step),
    ``channel_cull`` (virtual voices) and ``channel_stream`` (the commands).
    """

    def __init__(
        self,
        ctx: Context,
        name: str,
        *,
        count: int,
        policy: str,
        profile: str,
        stereo_count: int = 0,
        real_voices: int | None = None,
        bus: str = "sfx",
    ) -> None:
        if policy not in POLICIES:
            raise ValueError(f"channel bank {name!r}: unknown policy {policy!r}")
        if count < 0 or not 0 <= stereo_count <= count:
            raise ValueError(f"channel bank {name!r}: bad channel counts {count}/{stereo_count}")
        self.ctx, self.name, self.policy, self.profile = ctx, name, policy, profile
        self.real_voices = real_voices
        self.bus = bus
        """The bus a voice plays on when ``play`` names none (``ctx.buses``)."""
        self._reported: set[tuple[int, int]] = set()
        """(channel, serial) of voices already logged as ``bad_value``."""
        self._bad_buses: set[tuple[str, str]] = set()
        """Unknown bus names already logged (``channel_play.bus_for``)."""
        self.channels: list[Channel] = []
        self.entities: list[int] = []
        self.on_end: list[EndCallback] = []
        self.on_steal: list[StealCallback] = []
        self.missing_reported: set[str] = set()
        self._rate_reported: set[str] = set()
        self.overall_volume = 1.0
        """Bank-wide volume (Oni's overall volume): part of the ``oni`` law's product,
        a plain factor on the side gains of the other profiles."""
        self.overall_target = 1.0
        self._advanced_ticks: dict[int, int] = {}
        self._last_ticks = 0
        """The ticks of the latest ``advance`` (parked voices moved by them too)."""
        self.columns = ChannelColumns() if profile in COLUMN_PROFILES else None
        """A ``modern`` bank's channels as columns (``channel_arrays``), else None."""
        self._parked = ParkedVoices() if policy == "virtual" and self.columns is None else None
        """A virtual bank's culled voices whose inputs hold still (``soundscape.audio.virtual``);
        a bank with columns steps every voice as arrays instead."""
        self._awake: list[Channel] = []
        """A virtual bank's channels that are not parked, in index order."""
        self._ops: list[tuple[int, int, int, float, Sound | None]] = []
        """Since the last publish, in order: starts (voice, slot, ticks advanced before
        it, source offset, sound) and stops (voice, -1, 0, 0.0, None)."""
        self._unsent: dict[int, VoiceParams | None] = {}
        """Voices started since the last publish: None, or their parameters frozen
        when their channel was played again before the publish."""
        self._sent: dict[int, tuple[int, VoiceParams, Sound]] = {}
        """slot -> (voice, the parameters last sent for it, its sound): the voices the
        audio side is playing (a culled voice is not among them)."""
        self._restored: list[int] = []
        """Slots whose voice came back from virtual since the last publish (``cull_voices``)."""
        self._law_inputs: dict[int, tuple[object, ...]] = {}
        """slot -> the ``LAW_INPUTS`` its gains and step were last computed from."""
        self._law_context: tuple[object, ...] = ()
        """(profile, overall volume, output rate) of those laws: a change re-runs them all."""
        self._law_rows: np.ndarray | None = None
        """A ``modern`` bank stepping many channels: the ``MODERN_INPUTS`` of each slot's
        last law, a column a slot (NaN: none), instead of ``_law_inputs``."""
        for index in range(count):
            kind = ChannelKind.STEREO if index < stereo_count else ChannelKind.MONO
            self._new_channel(kind)

    def _new_channel(self, kind: ChannelKind) -> Channel:
        index, columns = len(self.channels), self.columns
        channel: Channel
        if columns is None:
            channel = Channel(bank=self.name, index=index, kind=kind, profile=self.profile)
        else:
            columns.grow(index + 1)
            channel = ArrayChannel(bank=self.name, index=index, kind=kind,
                                   profile=self.profile, columns=columns)
        self.channels.append(channel)
        if self._parked is not None:
            self._parked.grow(len(self.channels))
            self._awake.append(channel)  # the list an advance may be going through
        entity = esper.create_entity()
        # filed under Channel: a game's esper.get_component(Channel) finds every voice slot
        esper.add_component(entity, channel, type_alias=Channel)
        self.entities.append(entity)
        return channel

    # -- handles -------------------------------------------------------------

    def handle(self, channel: Channel) -> Handle:
        """The handle of ``channel``'s current start."""
        return Handle(self.name, channel.index, channel.generation)

    def get(self, handle: Handle | None) -> Channel | None:
        """The channel ``handle`` names, or None when the handle is stale."""
        if handle is None or handle.bank != self.name:
            return None
        if not 0 <= handle.slot < len(self.channels):
            return None
        channel = self.channels[handle.slot]
        return channel if channel.generation == handle.generation else None

    def is_playing(self, handle: Handle | None) -> bool:
        channel = self.get(handle)
        return channel is not None and channel.playing

    # -- allocation ----------------------------------------------------------

    def acquire(
        self,
        *,
        priority: int = 1,
        kind: ChannelKind = ChannelKind.MONO,
        owner: int = -1,
        start_index: int = 0,
        lock: bool = False,
        ambient: bool = False,
        sound: str | None = None,
    ) -> Handle | None:
        """Find a channel by the bank's policy, or None (logged as a drop).

        The channel gets a new generation, the owner and the lock; a sound it was
        playing stops (logged as a steal). Play on it at once: an acquired
        channel that is not played or locked counts as free.
        """
        channel = self._choose(priority, kind, start_index)
        if channel is None:
            self.ctx.events.emit(self.name, "drop", sound=sound, reason="no channel",
                                 priority=priority, owner=owner)
            return None
        if channel.playing or channel.locked:
            old = self.handle(channel)
            if channel.playing:
                channel_stream.cut(self, channel)
            for callback in list(self.on_steal):  # one that raises is reported once
                self.ctx.events.call(self.name, callback, self, old, channel, role="on_steal")
            self.ctx.events.emit(self.name, "steal", sound=channel.sound, channel=channel.index,
                                 by=sound, priority=priority, gain=channel.volume)
        channel.generation += 1
        channel.flags = (LOCKED if lock else NONE) | (AMBIENT if ambient else NONE)
        channel.owner = owner
        channel.sound = None
        channel.fading = False
        if self.policy != "oni":
            channel.priority = priority  # Oni never writes a channel's priority (stays 1)
        return self.handle(channel)

    def _choose(self, priority: int, kind: ChannelKind, start_index: int) -> Channel | None:
        """The channel the bank's policy gives (``soundscape.audio.channel_rules``)."""
        if self.policy == "redguard":
            return redguard_channel(self.channels, start_index)
        if self.policy == "virtual":
            return self._free_channel() or self._new_channel(kind)
        return oni_channel(self.channels, priority, kind, self.overall_volume)

    def _free_channel(self) -> Channel | None:
        """``channel_rules.free_channel``, from the flags column when the bank has one."""
        columns = self.columns
        if columns is None:
            return free_channel(self.channels)
        free = np.flatnonzero(columns.flags[: len(self.channels)] & (PLAYING | LOCKED) == 0)
        return self.channels[int(free[0])] if free.size else None

    # -- playing and steering (``channel_play``, ``channel_steer``) -----------------

    play = channel_play.play
    stop = channel_steer.stop
    pause = channel_steer.pause
    fade_to = channel_steer.fade_to
    release = channel_steer.release
    set_volume = channel_steer.set_volume
    set_pan = channel_steer.set_pan
    set_pitch = channel_steer.set_pitch
    set_lowpass = channel_steer.set_lowpass
    set_rate_hz = channel_steer.set_rate_hz
    set_position = channel_steer.set_position
    fade = channel_steer.fade
    set_overall_volume = channel_steer.set_overall_volume

    @property
    def convert_rate_hz(self) -> int | None:
        """The rate this bank's sounds are converted to at load: the output rate for the
        ``modern`` profile (``SoundBank.get``), None for the retail profiles."""
        return self.ctx.settings.sample_rate_hz if self.profile == "modern" else None

    # -- the command stream (phase PUBLISH, ``channel_stream``) ----------------------

    commands = channel_stream.commands
    mark_published = channel_stream.mark_published

    # -- time ----------------------------------------------------------------

    def playback_rate_hz(self, channel: Channel) -> float:
        """Source frames a second: Oni's 22,050 x pitch buffer, Redguard's rate,
        else the sound's own rate times the pitch, held as the mixer holds it
        (``profiles.held_rate_hz``: 0 for a negative or non-finite rate)."""
        return held_rate_hz(self.profile, channel, self.ctx.settings.sample_rate_hz)

    def advance(self, ticks: int) -> np.ndarray | None:
        """Move every playing channel on by ``ticks``: fades, cursors and ends.

        A sound that ends clears PLAYING, sets UPDATING and calls the ``on_end``
        callbacks with the frames it overshot, so an owner can start the next
        sound on the same channel without a gap. Returns what
        ``channel_advance.advance_columns`` found (every channel's held rate when
        every one plainly played and none ended), else None.
        """
        channel_advance.slide_overall(self)
        held = self.ctx.buses.paused_names if self.ctx.has("buses") else frozenset()
        self._last_ticks = ticks
        if self.columns is not None:
            if self.on_end or len(self.channels) < ARRAYS_FROM:
                channel_advance.advance_few(self, ticks, held)
                return None
            return channel_advance.advance_columns(self, ticks, held)
        channels = (self.channels if self._parked is None
                    else channel_cull.advance_parked(self, ticks, held))
        advanced = self._advanced_ticks
        for channel in channels:
            advanced[channel.index] = ticks
            if channel.fading or channel.flags & (PLAYING | UPDATING):  # else nothing to do
                channel_advance.advance_one(self, channel, ticks, held)
        return None

    # -- phase CHANNELS --------------------------------------------------------------

    def step(self, ticks: int, sounds: SoundBank | None) -> None:
        """Phase CHANNELS for this bank: ``advance``, the profile law, the real voices.

        Every playing channel's volume, pan and pitch become ``gain_left``,
        ``gain_right`` and ``step`` by the bank's profile (``profiles.apply_law``;
        ``sounds`` gives each sound's bit depth); a voice whose values cannot be
        used is silenced and logged once per start as ``bad_value``. A channel
        whose ``LAW_INPUTS`` (and the bank's profile, overall volume and output
        rate) are as at its last law is skipped: the law is a pure function of
        them, so its gains and step stand; a bank with columns (``modern``) of
        ``ARRAYS_FROM`` channels or more runs them as arrays, a smaller one reads
        each channel's inputs from its columns (``channel_laws.few_modern_laws``).
        A bank no sound has played on yet only moves its time. Then a
        virtual bank marks its loudest ``real_voices`` audible (``cull_voices``).
        """
        if not self.channels:  # a bank no sound has played on yet: only time moves
            channel_advance.slide_overall(self)
            self._last_ticks = ticks
            if self._parked is not None:
                channel_cull.park(self, [])  # its parking passes keep their ticks
            return
        rates = self.advance(ticks)
        rate_hz = self.ctx.settings.sample_rate_hz
        context = (self.profile, self.overall_volume, rate_hz)
        if context != self._law_context:
            self._law_context = context
            self._law_inputs.clear()
            self._law_rows = None
        if self.columns is not None:
            if len(self.channels) >= ARRAYS_FROM:
                # what the advance found (every channel plays, their rates) holds until
                # game code runs: the laws take it, the cull if no bad_value was told
                every_plays = channel_laws.modern_laws(self, rate_hz, rates)
                channel_cull.cull_columns(self, every_plays=every_plays)
            else:
                channel_laws.few_modern_laws(self, rate_hz)
                self.cull_voices()
            return
        # a virtual bank's parked voices keep the gains of their unchanged inputs
        channels = self.channels if self._parked is None else channel_cull.awake_channels(self)
        unsent = self._unsent
        # a voice that started and ended since the last publish still gets its gains
        stepped = [c for c in channels if c.flags & PLAYING or c.voice_id in unsent]
        channel_laws.laws(self, stepped, rate_hz, sounds)
        self.cull_voices()

    cull_voices = channel_cull.cull_voices


def step_banks(ctx: Context, ticks: int) -> None:
    """Phase CHANNELS: every bank in ``ctx.channels`` steps (``ChannelBank.step``)."""
    sounds = ctx.sounds if ctx.has("sounds") else None
    for bank in list(ctx.channels.values()):
        bank.step(ticks, sounds)


def ensure_bank(ctx: Context, name: str, **kwargs: object) -> ChannelBank:
    """The bank called ``name`` on ``ctx``, created with ``kwargs`` if it is new."""
    bank = ctx.channels.get(name)
    if bank is None:
        bank = ctx.channels[name] = ChannelBank(ctx, name, **kwargs)  # type: ignore[arg-type]
    return bank


def sounds_in_use(ctx: Context) -> set[str]:
    """Names of the sounds some channel of ``ctx`` is playing (paused ones too)."""
    return {channel.sound for bank in ctx.channels.values() for channel in bank.channels
            if channel.flags & PLAYING and channel.sound is not None}


def stop_voices_of(ctx: Context, name: str) -> int:
    """Stop every voice playing the sound ``name`` (the sound bank let it go): one
    ``stop`` event each, reason ``unloaded``, and no end callback. Returns how many."""
    stopped = 0
    for bank in list(ctx.channels.values()):
        for channel in bank.channels:
            if channel.flags & PLAYING and channel.sound == name:
                stopped += bank.stop(bank.handle(channel), reason="unloaded")
    return stopped
