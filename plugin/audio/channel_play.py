"""Starting a sound on a bank's channel (``ChannelBank.play``): the sound looked up,
the channel's fields set for it, its bus and its rate scale (Oni's 22,050 Hz buffer)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from soundscape.audio import channel_stream
from soundscape.audio.channel_handles import Handle
from soundscape.audio.profiles import ONI_BUFFER_RATE_HZ
from soundscape.components.channel import CAN_PAN, LOOPING, NONE, PAUSED, PLAYING, UPDATING
from soundscape.errors import SoundscapeError

if TYPE_CHECKING:
    from soundscape.audio.channels import ChannelBank
    from soundscape.audio.sounds import Sound


def play(
    bank: ChannelBank,
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
    channel = bank.get(handle)
    if channel is None:
        return False
    try:
        data = bank.ctx.sounds.get(sound, bank.convert_rate_hz) if bank.ctx.has(
            "sounds") else None
        problem = None if data is not None else "missing"
    except SoundscapeError as error:  # a corrupt file or a name escaping the root
        data, problem = None, str(error)
    if data is None:
        if sound not in bank.missing_reported:  # once per name, like a missing one
            bank.missing_reported.add(sound)
            event = "missing" if problem == "missing" else "bad_sound"
            bank.ctx.events.emit(bank.name, event, sound=sound, channel=channel.index,
                                 reason=problem)
        return False
    if channel.playing:
        channel_stream.cut(bank, channel)  # a restart cuts the old sound
    channel_stream.freeze(bank, channel)
    channel.sound, channel.effect, channel.position = sound, effect, position
    channel.volume, channel.pan, channel.pitch = float(volume), float(pan), float(pitch)
    # a new sound's fade target is its own volume: a later fade to another target
    # starts; set_volume leaves the target (the seed's re-take quirk)
    channel.fade_target, channel.fading = channel.volume, False
    channel.rate_hz = float(rate_hz) if rate_hz is not None else float(data.sample_rate_hz)
    channel.loop = loop
    channel.lowpass_hz = 0.0
    channel.bus = bus_for(bank, bus, sound)
    channel.level = channel.level_target = 1.0
    channel.level_rate_per_tick, channel.level_stop = 0.0, False
    channel.length_frames, channel.sample_rate_hz = data.frames, data.sample_rate_hz
    channel.rate_scale = rate_scale(bank, sound, data)
    bank._reported.discard((channel.index, channel.serial))  # bounded: one per channel
    channel.serial += 1
    channel.cursor_frames = float(offset_frames)
    # Played after this tick's advance (an on_end callback): the sound began
    # inside the interval the mixer is about to render, ``offset`` frames ago.
    advanced = channel_stream.ticks_advanced(bank, channel.index)
    channel.voice_id = next(bank.ctx.voice_ids)
    bank._unsent[channel.voice_id] = None
    bank._ops.append((channel.voice_id, channel.index, advanced, float(offset_frames), data))
    channel.start_cursor_frames = float(offset_frames) - (
        bank.playback_rate_hz(channel) * advanced / bank.ctx.clock.tick_hz)
    channel.started_tick = bank.ctx.clock.tick
    channel.audible = True
    if bank._parked is not None:
        bank._parked.audible[channel.index] = True
    # int(): a caller may have stored a ChannelFlags; keep the field a plain int
    flags = (int(channel.flags) | PLAYING) & ~(UPDATING | PAUSED)
    channel.flags = flags | (LOOPING if loop else NONE) | (CAN_PAN if can_pan else NONE)
    bank.ctx.events.emit(bank.name, "start", sound=sound, channel=channel.index, pos=position,
                         gain=channel.volume, pan=channel.pan, owner=channel.owner)
    return True


def bus_for(bank: ChannelBank, bus: str | None, sound: str) -> str:
    if bus is None or bus == bank.bus:
        return bank.bus
    if not bank.ctx.has("buses") or bus in bank.ctx.buses:
        return bus
    if ("bus", bus) not in bank._bad_buses:
        bank._bad_buses.add(("bus", bus))
        bank.ctx.events.emit(bank.name, "bad_value", sound=sound,
                             reason=f"no bus {bus!r}: plays on {bank.bus!r}")
    return bank.bus


def rate_scale(bank: ChannelBank, name: str, data: Sound) -> float:
    """``Channel.rate_scale`` for ``data``: Oni ``"source"`` plays the sound's own
    rate; Oni ``"retail"`` plays 22,050 x pitch and logs one ``rate_mismatch`` per
    sound made at another rate (seed 001 l.86)."""
    if bank.profile != "oni":
        return data.rate_scale
    if bank.ctx.settings.oni_buffer_rate == "source":
        return data.sample_rate_hz / ONI_BUFFER_RATE_HZ
    if data.original_rate_hz != ONI_BUFFER_RATE_HZ and name not in bank._rate_reported:
        bank._rate_reported.add(name)
        bank.ctx.events.emit(bank.name, "rate_mismatch", sound=name,
                             rate_hz=data.original_rate_hz,
                             buffer_rate_hz=int(ONI_BUFFER_RATE_HZ),
                             reason="plays at 22,050 x pitch (oni_buffer_rate = 'retail')")
    return data.rate_scale
