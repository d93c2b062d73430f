"""Steering a playing voice through its handle (``ChannelBank.stop``, ``pause``,
``fade_to``, the setters, Oni's ``fade`` and overall volume): the game-side writes
the bank's ``advance`` and laws then act on."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from soundscape.audio import channel_stream
from soundscape.audio.channel_handles import Handle
from soundscape.components.channel import AMBIENT, LOCKED, LOOPING, PAUSED, PLAYING
from soundscape.errors import InputError

if TYPE_CHECKING:
    from soundscape.audio.channels import ChannelBank


def stop(bank: ChannelBank, handle: Handle | None, reason: str = "stop", *,
         fade_out_s: float = 0.0) -> bool:
    """Stop the handle's sound now (no end callback). False for a stale handle.

    ``fade_out_s`` > 0: fade its ``level`` to 0 over that many seconds first
    (``fade_to``), then stop it (reason ``faded out``).
    """
    channel = bank.get(handle)
    if channel is None or not channel.playing:
        return False
    if fade_out_s:
        bank.fade_to(handle, 0.0, fade_out_s)
        channel.level_stop = True
        if channel.level > 0.0:
            return True
    channel.flags = int(channel.flags) & ~(PLAYING | LOOPING)
    channel_stream.cut(bank, channel)
    bank.ctx.events.emit(bank.name, "stop", sound=channel.sound, channel=channel.index,
                         reason=reason)
    return True


def pause(bank: ChannelBank, handle: Handle | None, paused: bool = True) -> bool:
    """Hold (or with ``paused=False`` resume) the handle's sound where it is.

    A paused channel keeps its sound and place (PAUSED, Oni's flag bit 0x10):
    its cursor stands still in ``advance`` (a fade goes on) and the mixer
    renders it silent; resuming goes on from the same frame. False for a stale
    handle or a channel with nothing playing.
    """
    channel = bank.get(handle)
    if channel is None or not channel.playing:
        return False
    flags = int(channel.flags)
    channel.flags = flags | PAUSED if paused else flags & ~PAUSED
    return True


def fade_to(bank: ChannelBank, handle: Handle | None, level: float, seconds: float) -> bool:
    """Move the voice's fader (``Channel.level``, linear, 1 = as played) to
    ``level`` in a straight line over ``seconds`` of game time (0: at once).

    Applies to the float profiles (``modern``, ``ac``, ``oni``); the retail
    runtimes' own per-tick slides (``fade``, the overall volume) are apart from
    it. A level outside 0..4 or a negative or non-finite time is an
    ``InputError``; False for a stale handle.
    """
    where = f"fade on {bank.name!r}"
    if not (isinstance(level, (int, float)) and math.isfinite(level)
            and 0.0 <= level <= 4.0):
        raise InputError(f"{where}: volume {level!r} must be a linear gain in 0..4")
    if not (isinstance(seconds, (int, float)) and math.isfinite(seconds) and seconds >= 0):
        raise InputError(f"{where}: seconds {seconds!r} must be finite and >= 0")
    channel = bank.get(handle)
    if channel is None or not channel.playing:
        return False
    channel.level_stop = False
    channel.level_target = float(level)
    ticks = float(seconds) * bank.ctx.clock.tick_hz
    if ticks <= 0.0:
        channel.level, channel.level_rate_per_tick = float(level), 0.0
    else:
        channel.level_rate_per_tick = abs(float(level) - channel.level) / ticks
    return True


def release(bank: ChannelBank, handle: Handle | None) -> None:
    """Unlock the handle's channel and drop its owner; a playing sound plays on."""
    channel = bank.get(handle)
    if channel is not None:
        channel.flags = int(channel.flags) & ~(LOCKED | AMBIENT)
        channel.owner = -1


def set_volume(bank: ChannelBank, handle: Handle | None, volume: float) -> None:
    """The voice's volume in its profile's units (``Channel.volume``), read by the
    bank's law at the next CHANNELS phase."""
    if (channel := bank.get(handle)) is not None:
        channel.volume = float(volume)


def set_pan(bank: ChannelBank, handle: Handle | None, pan: float) -> None:
    """The voice's pan in its profile's units (``Channel.pan``)."""
    if (channel := bank.get(handle)) is not None:
        channel.pan = float(pan)


def set_pitch(bank: ChannelBank, handle: Handle | None, pitch: float) -> None:
    """The voice's pitch in its profile's units (``Channel.pitch``)."""
    if (channel := bank.get(handle)) is not None:
        channel.pitch = float(pitch)


def set_lowpass(bank: ChannelBank, handle: Handle | None, cutoff_hz: float) -> None:
    """The voice's low-pass cutoff in the mixer (0: none; ``Channel.lowpass_hz``)."""
    if (channel := bank.get(handle)) is not None:
        channel.lowpass_hz = float(cutoff_hz)


def set_rate_hz(bank: ChannelBank, handle: Handle | None, rate_hz: float) -> None:
    """The voice's playback rate in Hz (``Channel.rate_hz``: Redguard's rate input)."""
    if (channel := bank.get(handle)) is not None:
        channel.rate_hz = float(rate_hz)


def set_position(bank: ChannelBank, handle: Handle | None,
                 position: tuple[float, float, float]) -> None:
    if (channel := bank.get(handle)) is not None:
        channel.position = position


def fade(bank: ChannelBank, handle: Handle | None, target: float, rate_per_tick: float) -> None:
    """Oni volume fade (0x482000, 0x481860): move toward ``target`` by ``rate_per_tick``
    (a rate per sixtieth of a second: one tick of the 60 Hz clock).

    The fade starts only when the target changes: asking again for the target
    already set leaves the volume where it is (the seed's re-take quirk). A
    NaN or infinite target or rate is ignored (a ``bad_value`` event).
    """
    channel = bank.get(handle)
    if channel is None or target == channel.fade_target:
        return
    if not (math.isfinite(target) and math.isfinite(rate_per_tick)):
        bank.ctx.events.emit(bank.name, "bad_value", sound=channel.sound,
                             channel=channel.index,
                             reason=f"fade to {target!r} at {rate_per_tick!r}: ignored")
        return
    channel.fade_target = float(target)
    channel.fade_rate_per_tick = abs(float(rate_per_tick))
    channel.fading = True


def set_overall_volume(bank: ChannelBank, target: float, *, immediate: bool = False) -> None:
    """Oni's overall volume (0x483bd0): slides to ``target`` by at most 0.05 a frame.

    ``immediate`` sets it at once (a game's own master slider). The target is
    held to 0..1; a NaN one is ignored (a ``bad_value`` event).
    """
    if math.isnan(target):
        bank.ctx.events.emit(bank.name, "bad_value", reason="overall volume NaN: ignored")
        return
    bank.overall_target = min(max(float(target), 0.0), 1.0)
    if immediate:
        bank.overall_volume = bank.overall_target
