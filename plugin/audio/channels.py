"""Channel banks: voice slots with the retail allocation policies.

A ``ChannelBank`` owns ``count`` ``Channel`` components (one esper entity each)
and hands them out by one of three policies (the rules: ``channel_rules``):

* ``oni``: ``SSiSoundChannels_GetChannelForPlay`` 0x47fab0 (free; lower
  priority unlocked; quiet; quietest, taken from its ambient; priority 0 only
  free), on channels of the sound's own kind.
* ``redguard``: the first idle channel at or above a start index; none idle
  drops the sound; playing sounds are never stolen.
* ``virtual``: any number of logical voices; the mixer voices the loudest N.

Runtimes talk to a bank through ``Handle`` values; a handle whose channel has
since been given to another sound is stale and does nothing.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING, NamedTuple

import esper
import numpy as np

from soundscape.audio.channel_rules import free_channel, oni_channel, redguard_channel
from soundscape.audio.commands import Command, VoiceParams, set_params, start, stop
from soundscape.audio.profiles import (
    MAX_STEP,
    MODERN_INPUTS,
    ONI_BUFFER_RATE_HZ,
    apply_law,
    apply_modern_laws,
    held_rate_hz,
    miles_factors,
    modern_inputs,
)
from soundscape.audio.pymath import py_max, py_min
from soundscape.audio.virtual import PARK_AFTER_TICKS, ParkedVoices, signature
from soundscape.components.channel import (
    AMBIENT,
    CAN_PAN,
    LOCKED,
    LOOPING,
    NONE,
    PAUSED,
    PLAYING,
    UPDATING,
    Channel,
    ChannelKind,
)
from soundscape.context import Context
from soundscape.errors import InputError, SoundscapeError

if TYPE_CHECKING:
    from soundscape.audio.sounds import Sound, SoundBank

POLICIES = ("oni", "redguard", "virtual")
LAW_INPUTS = attrgetter("volume", "pan", "pitch", "rate_hz", "level", "rate_scale",
                        "sample_rate_hz", "serial")
"""What ``profiles.apply_law`` reads of a channel (``serial`` stands for its sound, whose
bit depth the law reads): a channel whose inputs are as at its last law keeps its
gains and step (``ChannelBank.step``)."""
MODERN_ARRAY_LAWS = 16
"""From this many changed channels on, a ``modern`` bank runs their laws as arrays
(``profiles.apply_modern_laws``: the same numbers, less per-channel Python)."""
OVERALL_SLIDE_PER_FRAME = 0.05
"""Oni's overall volume moves to its target by at most this much a frame (0x483bd0;
``SS2iVolume_Update`` runs once per ``SS2rUpdate``, whatever the ticks the frame took)."""


class Handle(NamedTuple):
    """Names one start on one channel: (bank, channel index ``slot``, generation)."""

    bank: str
    slot: int
    generation: int


class SoundHandle(Handle):
    """A ``Handle`` that steers its own voice (``play_2d``, ``play_at``, ``Emitter.handle``).

    It equals (and hashes as) the plain ``Handle`` of the same start, so it works
    wherever a handle does; a stale one does nothing and returns False.
    """

    # no __slots__: the instance carries its bank
    bank_ref: ChannelBank

    @classmethod
    def of(cls, bank: ChannelBank, handle: Handle) -> SoundHandle:
        made = cls(*handle)
        made.bank_ref = bank
        return made

    @property
    def playing(self) -> bool:
        """True while this start is still playing (paused counts)."""
        return self.bank_ref.is_playing(self)

    def fade(self, volume: float, seconds: float) -> bool:
        """Fade the voice's fader to ``volume`` (linear, 1 = as played) over ``seconds``."""
        return self.bank_ref.fade_to(self, volume, seconds)

    def stop(self, fade_out_s: float = 0.0) -> bool:
        """Stop it, after fading out over ``fade_out_s`` seconds (0: now)."""
        return self.bank_ref.stop(self, fade_out_s=fade_out_s)

    def pause(self) -> bool:
        """Hold it where it is (``ChannelBank.pause``)."""
        return self.bank_ref.pause(self, True)

    def resume(self) -> bool:
        """Go on from the frame where it was paused."""
        return self.bank_ref.pause(self, False)


EndCallback = Callable[["ChannelBank", Handle, Channel, float], None]
"""Called as ``fn(bank, handle, channel, overshoot_frames)`` when a sound ends. One that
raises is reported once (``EventLog.call``: a ``callback_error``); the tick goes on."""
StealCallback = Callable[["ChannelBank", Handle, Channel], None]
"""Called as ``fn(bank, old_handle, channel)`` before a channel is taken from its owner
(reported like ``EndCallback`` when it raises)."""


class ChannelBank:
    """A named set of channels with one allocation policy and one profile law."""

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
        self._bad_buses: set[tuple[str, str]] = set()
        """(channel, serial) of voices already logged as ``bad_value``."""
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
        self._parked = ParkedVoices() if policy == "virtual" else None
        """A virtual bank's culled voices whose inputs hold still (``soundscape.audio.virtual``)."""
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
        channel = Channel(bank=self.name, index=len(self.channels), kind=kind, profile=self.profile)
        self.channels.append(channel)
        if self._parked is not None:
            self._parked.grow(len(self.channels))
            self._awake.append(channel)  # the list an advance may be going through
        self.entities.append(esper.create_entity(channel))
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
                self._cut(channel)
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
            return free_channel(self.channels) or self._new_channel(kind)
        return oni_channel(self.channels, priority, kind, self.overall_volume)

    # -- playing -------------------------------------------------------------

    def play(
        self,
        handle: Handle | None,
        sound: str,
        *,
        volume: float,
        pan: float = 0.0,
        pitch: float = 1.0,
        rate_hz: float | None = None,
        loop: bool = False,
        position: tuple[float, float, float] | None = None,
        effect: int = -1,
        can_pan: bool = False,
        offset_frames: float = 0.0,
        bus: str | None = None,
    ) -> bool:
        """Start ``sound`` on the handle's channel; False for a stale handle, a
        missing sound or one that cannot be loaded (a corrupt file, a name outside
        the sound root): the bank logs each such name once (``missing`` or
        ``bad_sound`` with the error) and the channel stays as it was.

        ``bus``: the voice's bus (None: the bank's ``bus``); a name the bus tree
        does not have plays on the bank's bus, logged once as ``bad_value``."""
        channel = self.get(handle)
        if channel is None:
            return False
        try:
            data = self.ctx.sounds.get(sound, self.convert_rate_hz) if self.ctx.has(
                "sounds") else None
            problem = None if data is not None else "missing"
        except SoundscapeError as error:  # a corrupt file or a name escaping the root
            data, problem = None, str(error)
        if data is None:
            if sound not in self.missing_reported:  # once per name, like a missing one
                self.missing_reported.add(sound)
                event = "missing" if problem == "missing" else "bad_sound"
                self.ctx.events.emit(self.name, event, sound=sound, channel=channel.index,
                                     reason=problem)
            return False
        if channel.playing:
            self._cut(channel)  # a restart cuts the old sound
        self._freeze(channel)
        channel.sound, channel.effect, channel.position = sound, effect, position
        channel.volume, channel.pan, channel.pitch = float(volume), float(pan), float(pitch)
        # a new sound's fade target is its own volume: a later fade to another target
        # starts; set_volume leaves the target (the seed's re-take quirk)
        channel.fade_target, channel.fading = channel.volume, False
        channel.rate_hz = float(rate_hz) if rate_hz is not None else float(data.sample_rate_hz)
        channel.loop = loop
        channel.lowpass_hz = 0.0
        channel.bus = self._bus_for(bus, sound)
        channel.level = channel.level_target = 1.0
        channel.level_rate_per_tick, channel.level_stop = 0.0, False
        channel.length_frames, channel.sample_rate_hz = data.frames, data.sample_rate_hz
        channel.rate_scale = self._rate_scale(sound, data)
        self._reported.discard((channel.index, channel.serial))  # bounded: one per channel
        channel.serial += 1
        channel.cursor_frames = float(offset_frames)
        # Played after this tick's advance (an on_end callback): the sound began
        # inside the interval the mixer is about to render, ``offset`` frames ago.
        advanced = self._ticks_advanced(channel.index)
        channel.voice_id = next(self.ctx.voice_ids)
        self._unsent[channel.voice_id] = None
        self._ops.append((channel.voice_id, channel.index, advanced, float(offset_frames), data))
        channel.start_cursor_frames = float(offset_frames) - (
            self.playback_rate_hz(channel) * advanced / self.ctx.clock.tick_hz)
        channel.started_tick = self.ctx.clock.tick
        channel.audible = True
        if self._parked is not None:
            self._parked.audible[channel.index] = True
        # int(): a caller may have stored a ChannelFlags; keep the field a plain int
        flags = (int(channel.flags) | PLAYING) & ~(UPDATING | PAUSED)
        channel.flags = flags | (LOOPING if loop else NONE) | (CAN_PAN if can_pan else NONE)
        self.ctx.events.emit(self.name, "start", sound=sound, channel=channel.index, pos=position,
                             gain=channel.volume, pan=channel.pan, owner=channel.owner)
        return True

    def _bus_for(self, bus: str | None, sound: str) -> str:
        if bus is None or bus == self.bus:
            return self.bus
        if not self.ctx.has("buses") or bus in self.ctx.buses:
            return bus
        if ("bus", bus) not in self._bad_buses:
            self._bad_buses.add(("bus", bus))
            self.ctx.events.emit(self.name, "bad_value", sound=sound,
                                 reason=f"no bus {bus!r}: plays on {self.bus!r}")
        return self.bus

    @property
    def convert_rate_hz(self) -> int | None:
        """The rate this bank's sounds are converted to at load: the output rate for the
        ``modern`` profile (``SoundBank.get``), None for the retail profiles."""
        return self.ctx.settings.sample_rate_hz if self.profile == "modern" else None

    def _rate_scale(self, name: str, data: Sound) -> float:
        """``Channel.rate_scale`` for ``data``: Oni ``"source"`` plays the sound's own
        rate; Oni ``"retail"`` plays 22,050 x pitch and logs one ``rate_mismatch`` per
        sound made at another rate (seed 001 l.86)."""
        if self.profile != "oni":
            return data.rate_scale
        if self.ctx.settings.oni_buffer_rate == "source":
            return data.sample_rate_hz / ONI_BUFFER_RATE_HZ
        if data.original_rate_hz != ONI_BUFFER_RATE_HZ and name not in self._rate_reported:
            self._rate_reported.add(name)
            self.ctx.events.emit(self.name, "rate_mismatch", sound=name,
                                 rate_hz=data.original_rate_hz,
                                 buffer_rate_hz=int(ONI_BUFFER_RATE_HZ),
                                 reason="plays at 22,050 x pitch (oni_buffer_rate = 'retail')")
        return data.rate_scale

    def stop(self, handle: Handle | None, reason: str = "stop", *,
             fade_out_s: float = 0.0) -> bool:
        """Stop the handle's sound now (no end callback). False for a stale handle.

        ``fade_out_s`` > 0: fade its ``level`` to 0 over that many seconds first
        (``fade_to``), then stop it (reason ``faded out``).
        """
        channel = self.get(handle)
        if channel is None or not channel.playing:
            return False
        if fade_out_s:
            self.fade_to(handle, 0.0, fade_out_s)
            channel.level_stop = True
            if channel.level > 0.0:
                return True
        channel.flags = int(channel.flags) & ~(PLAYING | LOOPING)
        self._cut(channel)
        self.ctx.events.emit(self.name, "stop", sound=channel.sound, channel=channel.index,
                             reason=reason)
        return True

    def pause(self, handle: Handle | None, paused: bool = True) -> bool:
        """Hold (or with ``paused=False`` resume) the handle's sound where it is.

        A paused channel keeps its sound and place (PAUSED, Oni's flag bit 0x10):
        its cursor stands still in ``advance`` (a fade goes on) and the mixer
        renders it silent; resuming goes on from the same frame. False for a stale
        handle or a channel with nothing playing.
        """
        channel = self.get(handle)
        if channel is None or not channel.playing:
            return False
        flags = int(channel.flags)
        channel.flags = flags | PAUSED if paused else flags & ~PAUSED
        return True

    def fade_to(self, handle: Handle | None, level: float, seconds: float) -> bool:
        """Move the voice's fader (``Channel.level``, linear, 1 = as played) to
        ``level`` in a straight line over ``seconds`` of game time (0: at once).

        Applies to the float profiles (``modern``, ``ac``, ``oni``); the retail
        runtimes' own per-tick slides (``fade``, the overall volume) are apart from
        it. A level outside 0..4 or a negative or non-finite time is an
        ``InputError``; False for a stale handle.
        """
        where = f"fade on {self.name!r}"
        if not (isinstance(level, (int, float)) and math.isfinite(level)
                and 0.0 <= level <= 4.0):
            raise InputError(f"{where}: volume {level!r} must be a linear gain in 0..4")
        if not (isinstance(seconds, (int, float)) and math.isfinite(seconds) and seconds >= 0):
            raise InputError(f"{where}: seconds {seconds!r} must be finite and >= 0")
        channel = self.get(handle)
        if channel is None or not channel.playing:
            return False
        channel.level_stop = False
        channel.level_target = float(level)
        ticks = float(seconds) * self.ctx.clock.tick_hz
        if ticks <= 0.0:
            channel.level, channel.level_rate_per_tick = float(level), 0.0
        else:
            channel.level_rate_per_tick = abs(float(level) - channel.level) / ticks
        return True

    def release(self, handle: Handle | None) -> None:
        """Unlock the handle's channel and drop its owner; a playing sound plays on."""
        channel = self.get(handle)
        if channel is not None:
            channel.flags = int(channel.flags) & ~(LOCKED | AMBIENT)
            channel.owner = -1

    def set_volume(self, handle: Handle | None, volume: float) -> None:
        if (channel := self.get(handle)) is not None:
            channel.volume = float(volume)

    def set_pan(self, handle: Handle | None, pan: float) -> None:
        if (channel := self.get(handle)) is not None:
            channel.pan = float(pan)

    def set_pitch(self, handle: Handle | None, pitch: float) -> None:
        if (channel := self.get(handle)) is not None:
            channel.pitch = float(pitch)

    def set_lowpass(self, handle: Handle | None, cutoff_hz: float) -> None:
        """The voice's low-pass cutoff in the mixer (0: none; ``Channel.lowpass_hz``)."""
        if (channel := self.get(handle)) is not None:
            channel.lowpass_hz = float(cutoff_hz)

    def set_rate_hz(self, handle: Handle | None, rate_hz: float) -> None:
        if (channel := self.get(handle)) is not None:
            channel.rate_hz = float(rate_hz)

    def set_position(self, handle: Handle | None, position: tuple[float, float, float]) -> None:
        if (channel := self.get(handle)) is not None:
            channel.position = position

    def fade(self, handle: Handle | None, target: float, rate_per_tick: float) -> None:
        """Oni volume fade (0x482000, 0x481860): move toward ``target`` by ``rate_per_tick``
        (a rate per sixtieth of a second: one tick of the 60 Hz clock).

        The fade starts only when the target changes: asking again for the target
        already set leaves the volume where it is (the seed's re-take quirk). A
        NaN or infinite target or rate is ignored (a ``bad_value`` event).
        """
        channel = self.get(handle)
        if channel is None or target == channel.fade_target:
            return
        if not (math.isfinite(target) and math.isfinite(rate_per_tick)):
            self.ctx.events.emit(self.name, "bad_value", sound=channel.sound,
                                 channel=channel.index,
                                 reason=f"fade to {target!r} at {rate_per_tick!r}: ignored")
            return
        channel.fade_target = float(target)
        channel.fade_rate_per_tick = abs(float(rate_per_tick))
        channel.fading = True

    def set_overall_volume(self, target: float, *, immediate: bool = False) -> None:
        """Oni's overall volume (0x483bd0): slides to ``target`` by at most 0.05 a frame.

        ``immediate`` sets it at once (a game's own master slider). The target is
        held to 0..1; a NaN one is ignored (a ``bad_value`` event).
        """
        if math.isnan(target):
            self.ctx.events.emit(self.name, "bad_value", reason="overall volume NaN: ignored")
            return
        self.overall_target = min(max(float(target), 0.0), 1.0)
        if immediate:
            self.overall_volume = self.overall_target

    # -- the command stream (phase PUBLISH) ---------------------------------------

    def _cut(self, channel: Channel) -> None:
        """The channel's voice is stopped or stolen: a ``stop`` for the audio side
        when it has the voice (one started since the last publish is simply never
        sent; a culled one was stopped when it was culled)."""
        voice = channel.voice_id
        if self._parked is not None:
            self._parked.wake(channel)
        sent = self._sent.pop(channel.index, None)
        if voice in self._unsent:
            del self._unsent[voice]
        elif sent is not None and sent[0] == voice:
            self._ops.append((voice, -1, 0, 0.0, None))

    def _freeze(self, channel: Channel) -> None:
        """Before a channel is played again: a voice of it not yet published (one
        that started and ended since) keeps the parameters it had."""
        voice = channel.voice_id
        if voice in self._unsent and self._unsent[voice] is None:
            sound = next(op[4] for op in self._ops if op[0] == voice)
            if sound is not None:
                apply_law(self, channel, self.ctx.settings.sample_rate_hz, sound.bits)
                self._unsent[voice] = self._params(channel, sound)

    def _params(self, channel: Channel, sound: Sound) -> VoiceParams:
        """What the mixer needs of ``channel``'s voice (after the profile law)."""
        miles = None
        if self.profile == "redguard" and sound.bits:
            miles = miles_factors(channel.volume, channel.pan, sound.bits)
        left, right = float(channel.gain_left), float(channel.gain_right)
        send = ear = None
        if channel.send is not None or channel.ear_rad is not None:  # the rooms feature
            mono = math.sqrt((left * left + right * right) / 2.0)
            if channel.send is not None:
                send = (channel.send[0], channel.send[1] * mono)
            if channel.ear_rad is not None:
                ear, left, right = (channel.ear_rad, mono), 0.0, 0.0
        bus, paused = 0, channel.flags & PAUSED != 0
        if self.ctx.has("buses"):
            buses = self.ctx.buses
            bus = buses.index(channel.bus) if channel.bus in buses else 0
            paused = paused or channel.bus in buses.paused_names
        return VoiceParams(left, right, float(channel.step), bool(channel.loop), paused,
                           bool(channel.audible), self.profile == "modern", miles, send=send,
                           ear=ear, lowpass_hz=float(channel.lowpass_hz), bus=bus)

    def commands(self, first_tick: int, out: list[Command]) -> None:
        """Append this bank's commands since the last publish to ``out`` (PUBLISH).

        Starts and stops in the order they happened (a start made before the
        channel phase sits at ``first_tick``, one chained after it at the tick
        after the frame's last), then a ``set`` for each voice whose parameters
        changed, a ``stop`` for each voice culled since (``cull_voices``), and a
        ``start`` for each voice restored: a new voice id, at the source frame the
        game side's cursor had at ``first_tick`` (a loop's phase), so the sound
        goes on where it would be. A voice culled at its start sends nothing, nor
        does one that stays culled or ends while it is culled.
        """
        for voice, slot, advanced, offset, sound in self._ops:
            if slot < 0:
                out.append(stop(voice))
                continue
            if voice not in self._unsent or sound is None:
                continue  # started and cut before this publish: never heard
            channel = self.channels[slot]
            params = self._unsent[voice]
            if params is None:
                params = self._params(channel, sound)
            if not params.audible:
                continue  # culled at its start: a restore starts it where it is then
            out.append(start(voice, sound, params, tick=first_tick + advanced, offset=offset))
            if channel.voice_id == voice:
                self._sent[slot] = (voice, params, sound)
        sent = self._sent
        for slot, (voice, last, sound) in list(sent.items()):
            channel = self.channels[slot]
            if channel.voice_id != voice or not channel.flags & PLAYING:
                del sent[slot]  # it ended: the audio side plays it out
                continue
            if not channel.audible:
                del sent[slot]  # culled: the audio side cuts it (``modern`` fades it)
                out.append(stop(voice))
                continue
            if voice in self._unsent:
                continue  # its start has this tick's parameters
            params = self._params(channel, sound)
            if params != last:
                out.append(set_params(voice, params))
                sent[slot] = (voice, params, sound)
        for slot in self._restored:
            self._restore(self.channels[slot], first_tick, out)

    def _sound_of(self, channel: Channel) -> Sound | None:
        """The sound data ``channel`` plays, as its ``play`` found it (the sound bank
        keeps a sound while a channel plays it, culled or not)."""
        if channel.sound is None or not self.ctx.has("sounds"):
            return None
        try:
            return self.ctx.sounds.get(channel.sound, self.convert_rate_hz)
        except SoundscapeError:
            return None

    def _restore(self, channel: Channel, first_tick: int, out: list[Command]) -> None:
        """A voice back from virtual starts again on the audio side (a new voice id)
        at the source frame its game-side cursor had when this tick interval began."""
        slot, sound = channel.index, self._sound_of(channel)
        if not (channel.flags & PLAYING and channel.audible) or slot in self._sent \
                or channel.voice_id in self._unsent or sound is None:
            return  # stopped, culled again or played anew since: nothing to restore
        moved = 0.0
        held = self.ctx.buses.paused_names if self.ctx.has("buses") else frozenset()
        if not channel.flags & PAUSED and channel.bus not in held:
            ticks = self._ticks_advanced(slot)
            moved = self.playback_rate_hz(channel) * ticks / self.ctx.clock.tick_hz
        offset = channel.cursor_frames - moved
        if channel.loop and channel.length_frames > 0:
            offset %= channel.length_frames
        channel.voice_id = voice = next(self.ctx.voice_ids)
        params = self._params(channel, sound)
        out.append(start(voice, sound, params, tick=first_tick, offset=max(offset, 0.0),
                         fade_in=True))
        self._sent[slot] = (voice, params, sound)

    def mark_published(self) -> None:
        """The mixer has this tick's commands: later plays start at the next interval."""
        self._advanced_ticks.clear()
        if self._parked is not None:
            self._parked.moved[:] = False
        self._ops.clear()
        self._unsent.clear()
        self._restored.clear()

    def _ticks_advanced(self, slot: int) -> int:
        """Ticks channel ``slot`` has advanced since the last publish (0: a play on it
        starts at the interval's first tick; else at the tick after its last)."""
        ticks = self._advanced_ticks.get(slot)
        if ticks is not None:
            return ticks
        parked = self._parked
        return self._last_ticks if parked is not None and parked.moved[slot] else 0

    # -- time ----------------------------------------------------------------

    def playback_rate_hz(self, channel: Channel) -> float:
        """Source frames a second: Oni's 22,050 x pitch buffer, Redguard's rate,
        else the sound's own rate times the pitch, held as the mixer holds it
        (``profiles.held_rate_hz``: 0 for a negative or non-finite rate)."""
        return held_rate_hz(self.profile, channel, self.ctx.settings.sample_rate_hz)

    def advance(self, ticks: int) -> None:
        """Move every playing channel on by ``ticks``: fades, cursors and ends.

        A sound that ends clears PLAYING, sets UPDATING and calls the ``on_end``
        callbacks with the frames it overshot, so an owner can start the next
        sound on the same channel without a gap.
        """
        self._slide_overall()
        held = self.ctx.buses.paused_names if self.ctx.has("buses") else frozenset()
        self._last_ticks = ticks
        channels = self.channels if self._parked is None else self._advance_parked(ticks, held)
        if self.profile == "modern" and not self.on_end and len(channels) >= MODERN_ARRAY_LAWS:
            self._advance_modern(channels, ticks, held)
            return
        for channel in channels:
            self._advanced_ticks[channel.index] = ticks
            self._advance_one(channel, ticks, held)

    def _advance_one(self, channel: Channel, ticks: int, held: frozenset[str] | set[str], *,
                     moved: bool = False) -> None:
        """One channel's fade, fader, cursor and end (``advance``); ``moved``: its cursor
        has already moved this tick (``_advance_modern``), only its end is left."""
        if not moved:
            if channel.fading:
                self._fade_step(channel, ticks)
            flags = channel.flags
            if flags & UPDATING:
                channel.flags = flags = flags & ~UPDATING
            if flags & (PLAYING | PAUSED) != PLAYING or (held and channel.bus in held):
                return  # paused, or its bus is: time stands still for it
            if channel.level_rate_per_tick and self._level_step(channel, ticks):
                return
            channel.cursor_frames += self.playback_rate_hz(channel) * ticks / self.ctx.clock.tick_hz
        if channel.cursor_frames < channel.length_frames:
            return
        if channel.loop and channel.length_frames > 0:
            channel.cursor_frames %= channel.length_frames
            return
        overshoot = channel.cursor_frames - channel.length_frames
        channel.flags = (channel.flags & ~PLAYING) | UPDATING
        self.ctx.events.emit(self.name, "end", sound=channel.sound, channel=channel.index)
        handle = self.handle(channel)
        for callback in list(self.on_end):  # one that raises is reported once
            self.ctx.events.call(self.name, callback, self, handle, channel, overshoot,
                                 role="on_end")

    def _advance_modern(self, channels: list[Channel], ticks: int,
                        held: frozenset[str] | set[str]) -> None:
        """``advance`` of a busy ``modern`` bank with no ``on_end`` callback: the cursors of
        its plainly playing channels (not paused, fading or held) move in one array step
        (``held_rate_hz``'s float operations, so the same numbers); the channels with
        anything else to do, and those that reached their end, go one by one in order."""
        self._advanced_ticks.update(dict.fromkeys([c.index for c in channels], ticks))
        # 0: plainly playing, its cursor moves in the array step; 1: nothing to do
        # (stopped or paused, not fading, no end to clear); 2: one by one
        kinds = np.fromiter(
            [0 if (f := c.flags) & (PLAYING | PAUSED | UPDATING) == PLAYING and not c.fading
             and not c.level_rate_per_tick and not (held and c.bus in held)
             else 1 if not (c.fading or f & UPDATING) and f & (PLAYING | PAUSED) != PLAYING
             else 2 for c in channels], np.int8, len(channels))
        todo = np.flatnonzero(kinds == 2)
        plain = np.flatnonzero(kinds == 0)
        if plain.size:
            moving = [channels[i] for i in plain.tolist()]
            n, output_hz = len(moving), float(self.ctx.settings.sample_rate_hz)
            rate = (np.fromiter([c.sample_rate_hz for c in moving], np.float64, n)
                    * np.fromiter([c.pitch for c in moving], np.float64, n))
            with np.errstate(all="ignore"):  # a NaN or infinite rate holds still
                held_rate = np.where(np.isfinite(rate),
                                     py_min(py_max(rate, 0.0), MAX_STEP * output_hz), 0.0)
                cursor = (np.fromiter([c.cursor_frames for c in moving], np.float64, n)
                          + held_rate * ticks / self.ctx.clock.tick_hz)
                ended = ~(cursor < np.fromiter([c.length_frames for c in moving], np.float64, n))
            for channel, frames in zip(moving, cursor.tolist(), strict=True):
                channel.cursor_frames = frames
            if ended.any():
                todo = np.union1d(todo, plain[ended])
        for i in todo.tolist():
            self._advance_one(channels[i], ticks, held, moved=bool(kinds[i] == 0))

    def _advance_parked(self, ticks: int, held: frozenset[str] | set[str]) -> list[Channel]:
        """A virtual bank's parked voices (``soundscape.audio.virtual``): wake the ones
        whose inputs changed, whose bus is held or whose bank's overall volume moved;
        move the others on in one step, waking those that end (the per-channel loop
        ends them); write their cursors back. Returns the channels to step one by one."""
        parked = self._parked
        if parked is None:
            return self.channels
        if parked.count:
            self._refresh()
            if self.overall_volume != parked.overall:
                parked.wake_all(self.channels)
            else:
                for channel in parked.changed():
                    parked.wake(channel)
                if held:
                    for channel in list(parked.channels):
                        if channel.bus in held:
                            parked.wake(channel)
        self._refresh()
        for slot in parked.advance(ticks, self.ctx.clock.tick_hz):
            parked.wake(self.channels[slot])
        self._refresh()
        parked.write_back()
        return self._awake

    def _refresh(self) -> list[Channel]:
        """A virtual bank's channels that are not parked (laid out again after a change)."""
        parked = self._parked
        if parked is not None and parked.dirty:
            parked.layout(self.channels)
            on = parked.on[: len(self.channels)].tolist()
            self._awake = [c for c, off in zip(self.channels, on, strict=True) if not off]
        return self._awake

    def _slide_overall(self) -> None:
        """One frame's slide (``SS2iVolume_Update``): 0.05 at most, however many ticks
        the frame stepped, like the placed ambients' 0.05 slew of the same frame."""
        delta = self.overall_target - self.overall_volume
        step = OVERALL_SLIDE_PER_FRAME
        if abs(delta) <= step:
            self.overall_volume = self.overall_target
        else:
            self.overall_volume += step if delta > 0 else -step

    def _level_step(self, channel: Channel, ticks: int) -> bool:
        """Move the fader toward its target; True when a fade-out stopped the voice."""
        delta = channel.level_target - channel.level
        step = channel.level_rate_per_tick * ticks
        if abs(delta) <= step:
            channel.level, channel.level_rate_per_tick = channel.level_target, 0.0
        else:
            channel.level += step if delta > 0 else -step
        if channel.level_stop and channel.level <= 0.0:
            return self.stop(self.handle(channel), reason="faded out")
        return False

    @staticmethod
    def _fade_step(channel: Channel, ticks: int) -> None:
        delta = channel.fade_target - channel.volume
        step = channel.fade_rate_per_tick * ticks
        if abs(delta) <= step:
            channel.volume = channel.fade_target
            channel.fading = False
        else:
            channel.volume += step if delta > 0 else -step

    # -- phase CHANNELS --------------------------------------------------------------

    def step(self, ticks: int, sounds: SoundBank | None) -> None:
        """Phase CHANNELS for this bank: ``advance``, the profile law, the real voices.

        Every playing channel's volume, pan and pitch become ``gain_left``,
        ``gain_right`` and ``step`` by the bank's profile (``profiles.apply_law``;
        ``sounds`` gives each sound's bit depth); a voice whose values cannot be
        used is silenced and logged once per start as ``bad_value``. A channel
        whose ``LAW_INPUTS`` (and the bank's profile, overall volume and output
        rate) are as at its last law is skipped: the law is a pure function of
        them, so its gains and step stand; a ``modern`` bank with many changed
        channels runs their laws as arrays. Then a
        virtual bank marks its loudest ``real_voices`` audible (``cull_voices``).
        """
        self.advance(ticks)
        rate_hz = self.ctx.settings.sample_rate_hz
        context = (self.profile, self.overall_volume, rate_hz)
        if context != self._law_context:
            self._law_context = context
            self._law_inputs.clear()
            self._law_rows = None
        # a virtual bank's parked voices keep the gains of their unchanged inputs
        channels = self.channels if self._parked is None else self._refresh()
        unsent = self._unsent
        # a voice that started and ended since the last publish still gets its gains
        stepped = [c for c in channels if c.flags & PLAYING or c.voice_id in unsent]
        if self.profile == "modern" and len(stepped) >= MODERN_ARRAY_LAWS:
            self._modern_laws(stepped, rate_hz)
        else:
            self._laws(stepped, rate_hz, sounds)
        self.cull_voices()

    def _laws(self, stepped: list[Channel], rate_hz: int, sounds: SoundBank | None) -> None:
        """``apply_law`` on each of ``stepped`` whose ``LAW_INPUTS`` changed."""
        if self._law_rows is not None:
            self._law_rows = None  # the arrays' memory is stale from here on
        done = self._law_inputs
        for channel in stepped:
            inputs = LAW_INPUTS(channel)
            if done.get(channel.index) == inputs:
                continue  # the same law of the same inputs: gains and step stand
            done[channel.index] = inputs
            sound = sounds.get(channel.sound) if sounds is not None and channel.sound else None
            if not apply_law(self, channel, rate_hz, sound.bits if sound is not None else 16):
                self._report_bad_value(channel)

    def _modern_laws(self, stepped: list[Channel], rate_hz: int) -> None:
        """The ``modern`` laws of many channels as arrays: their inputs read at once,
        compared with the inputs of their last law (``_law_rows``, a column a slot), and
        ``profiles.apply_modern_laws`` on the ones that changed."""
        inputs = modern_inputs(stepped)
        slots = np.fromiter([c.index for c in stepped], np.int64, len(stepped))
        rows = self._law_rows
        if rows is None or rows.shape[1] < len(self.channels):
            grown = np.full((len(MODERN_INPUTS), max(2 * len(self.channels), 64)), np.nan)
            if rows is not None:
                grown[:, : rows.shape[1]] = rows
            elif self._law_inputs:
                self._law_inputs.clear()  # the dict's memory is stale from here on
            rows = self._law_rows = grown
        changed = np.flatnonzero((inputs != rows[:, slots]).any(axis=0))
        if not changed.size:
            return
        rows[:, slots[changed]] = inputs[:, changed]
        at = changed.tolist()
        for channel in apply_modern_laws(self.overall_volume, [stepped[i] for i in at],
                                         rate_hz, inputs[:, changed]):
            self._report_bad_value(channel)

    def _report_bad_value(self, channel: Channel) -> None:
        key = (channel.index, channel.serial)
        if key not in self._reported:
            self._reported.add(key)
            self.ctx.events.emit(self.name, "bad_value", sound=channel.sound, channel=channel.index,
                                 reason="non-finite or huge volume, pan, pitch or rate: silenced")

    def cull_voices(self) -> None:
        """Virtual banks: only the loudest ``real_voices`` playing channels are audible.

        Loudness is the larger side gain; ties go to the lower channel index (one
        ``np.partition`` over the bank, not a sort). A voice that goes virtual is
        logged once as ``cull`` (with its loudness and rank), one that comes back as
        ``restore``; a voice stays culled quietly while it is. The audio side hears
        of a cull as a ``stop`` and of a restore as a new ``start`` (``commands``).
        Culled voices whose inputs hold still are then parked
        (``soundscape.audio.virtual``).
        """
        parked = self._parked
        if parked is None:
            for rank, channel in enumerate(c for c in self.channels if c.flags & PLAYING):
                if not channel.audible:
                    self._changed(channel, True, rank)
            return
        awake = self._refresh()
        slots = [c.index for c in awake]
        parked.playing[slots] = [c.flags & PLAYING != 0 for c in awake]
        parked.loud[slots] = [max(c.gain_left, c.gain_right) for c in awake]
        playing = np.flatnonzero(parked.playing[: len(self.channels)])
        n, limit = playing.size, self.real_voices
        if limit is None or n <= limit:
            for rank in np.flatnonzero(~parked.audible[playing]).tolist():
                self._changed(self.channels[int(playing[rank])], True, rank)
        else:
            self._rank(playing, limit)
        self._park(awake)

    def _rank(self, playing: np.ndarray, limit: int) -> None:
        """Voice the loudest ``limit`` of the ``playing`` slots; log the changes."""
        parked = self._parked
        if parked is None:
            return
        neg = -parked.loud[playing]
        edge = np.partition(neg, limit - 1)[limit - 1] if limit > 0 else -np.inf
        audible = neg < edge
        if limit > 0:
            ties = np.flatnonzero(neg == edge)[: limit - int(np.count_nonzero(audible))]
            audible[ties] = True  # the lower channel indices among equals
        changed = np.flatnonzero(audible != parked.audible[playing])
        if not changed.size:
            return
        n = playing.size
        ranks = np.empty(n, dtype=np.int64)
        ranks[np.lexsort((np.arange(n), neg))] = np.arange(n)
        for i in changed[np.argsort(ranks[changed], kind="stable")].tolist():
            self._changed(self.channels[int(playing[i])], bool(audible[i]), int(ranks[i]))

    def _park(self, awake: list[Channel]) -> None:
        """Every ``PARK_AFTER_TICKS`` ticks: park the culled voices whose inputs are as
        they were at the last pass, not fading, not paused, their bus not held and
        the bank's overall volume still (a voice steered every tick never parks; the
        pass costs nothing on the ticks between)."""
        parked = self._parked
        tick = self.ctx.clock.tick
        if parked is None or tick < parked.next_pass or self.overall_volume != self.overall_target:
            return
        parked.next_pass = tick + PARK_AFTER_TICKS
        if parked.count and parked.overall != self.overall_volume:
            parked.wake_all(self.channels)
        parked.overall = self.overall_volume
        held = self.ctx.buses.paused_names if self.ctx.has("buses") else frozenset()
        before, now = parked.pending, {}
        for channel in awake:
            if channel.audible or channel.flags & (PLAYING | PAUSED) != PLAYING \
                    or channel.fading or channel.level_rate_per_tick or channel.bus in held:
                continue
            inputs = signature(channel)
            if before.get(channel.index) == inputs:
                parked.park(channel, self.playback_rate_hz(channel),
                            max(channel.gain_left, channel.gain_right))
            else:
                now[channel.index] = inputs
        parked.pending = now

    def _changed(self, channel: Channel, audible: bool, rank: int) -> None:
        """Log one ``cull`` or ``restore`` and mark the channel."""
        self.ctx.events.emit(self.name, "restore" if audible else "cull", sound=channel.sound,
                             channel=channel.index,
                             gain=max(channel.gain_left, channel.gain_right), rank=rank,
                             real_voices=self.real_voices)
        channel.audible = audible
        if self._parked is not None:
            self._parked.audible[channel.index] = audible
            if audible:
                self._parked.wake(channel)
        if audible:
            self._restored.append(channel.index)


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
