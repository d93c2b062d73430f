"""The immutable voice snapshot the game thread hands the mixer (phase PUBLISH).

A ``Snapshot`` is built once a tick from every channel bank and swapped into
the mixer by reference; the audio side reads it without locks and never waits
on the game thread. Each playing channel becomes a ``VoiceSpec``; stops and
steals since the last snapshot are ``cuts`` (the mixer silences those sounds
instead of letting them play out).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from soundscape.audio.profiles import miles_factors
from soundscape.audio.sounds import Sound
from soundscape.components.channel import PAUSED, PLAYING

if TYPE_CHECKING:
    from soundscape.context import Context

__all__ = ["Snapshot", "VoiceKey", "VoiceSpec", "build_snapshot", "miles_factors"]

VoiceKey = tuple[str, int, int]
"""(bank name, channel index, the channel's play serial): one start of one sound."""


class VoiceSpec(NamedTuple):
    """One playing channel as the mixer needs it.

    ``miles`` is None for float profiles, else ``(a_left, a_right, t_left,
    t_right)``: the Redguard contribution of a sample ``s`` (16-bit units) is
    ``floor(floor(s a / 128) t / 128)`` (16-bit PCM: ``a`` the coefficient, ``t`` 128).
    """

    key: VoiceKey
    sound: Sound
    gain_left: float
    gain_right: float
    step: float
    loop: bool
    paused: bool
    audible: bool
    ramp: bool
    start_cursor_frames: float
    miles: tuple[int, int, int, int] | None


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Every voice of one tick; ``cuts`` are keys stopped or stolen since the last one."""

    tick: int
    voices: tuple[VoiceSpec, ...]
    cuts: frozenset[VoiceKey]


def build_snapshot(ctx: Context) -> Snapshot:
    """A snapshot of every playing channel in ``ctx.channels`` (game thread)."""
    voices: list[VoiceSpec] = []
    cuts: set[VoiceKey] = set()
    sounds = ctx.sounds if ctx.has("sounds") else None
    for bank in ctx.channels.values():
        for slot, serial in bank.cuts:
            cuts.add((bank.name, slot, serial))
        for channel in bank.channels:
            if not channel.flags & PLAYING or channel.sound is None:
                continue
            sound = sounds.get(channel.sound) if sounds is not None else None
            if sound is None:
                continue
            miles = None
            if bank.profile == "redguard" and sound.pcm is not None:
                miles = miles_factors(channel.volume, channel.pan, sound.bits)
            voices.append(VoiceSpec(
                key=(bank.name, channel.index, channel.serial),
                sound=sound,
                gain_left=float(channel.gain_left),
                gain_right=float(channel.gain_right),
                step=float(channel.step),
                loop=bool(channel.loop),
                paused=channel.flags & PAUSED != 0,
                audible=bool(channel.audible),
                ramp=bank.profile == "modern",
                start_cursor_frames=float(channel.start_cursor_frames),
                miles=miles,
            ))
    return Snapshot(ctx.clock.tick, tuple(voices), frozenset(cuts))
