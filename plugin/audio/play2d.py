"""``play_2d``: a sound with no place (menus, HUD clicks, music stings).

It plays on the ``modern`` channel bank at a fixed volume and equal-power pan,
on the ``ui`` bus unless told otherwise, and needs no ``Listener``: nothing
steers it after it starts. The handle it returns (``SoundHandle``) fades,
stops (with a fade-out), pauses and resumes it.

Example:
    >>> import esper
    >>> from soundscape import Settings, SoundscapePlugin, synth
    >>> esper.switch_world("doctest-play2d")
    >>> plugin = SoundscapePlugin(Settings(backend="offline", features=("audio",))).install()
    >>> _ = synth.add_to(plugin.context.sounds, "click", synth.tone(880, 0.1))
    >>> handle = play_2d(plugin.context, "click", volume=0.5, pan=-1.0)
    >>> esper.process(1 / 60)
    >>> ch = plugin.context.channels["modern"].get(handle)
    >>> ch.bus, round(ch.gain_left, 3), round(ch.gain_right, 3)
    ('ui', 0.5, 0.0)
    >>> plugin.uninstall(); esper.switch_world("default"); esper.delete_world("doctest-play2d")
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from soundscape.audio.channels import SoundHandle
from soundscape.errors import InputError
from soundscape.names import check_sound_name

if TYPE_CHECKING:
    from soundscape.context import Context

BANK = "modern"


def check_bus(ctx: Context, bus: str, where: str) -> str:
    """``bus`` if the tree has it, else an ``InputError`` naming the buses."""
    if not ctx.has("buses") or bus not in ctx.buses:
        names = ctx.buses.names if ctx.has("buses") else ()
        raise InputError(f"{where}: no bus {bus!r}; buses are {names}")
    return bus


def _number(value: object, where: str, name: str, low: float, high: float) -> float:
    if not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not low <= value <= high:
        raise InputError(f"{where}: {name} {value!r} must be a number in {low:g}..{high:g}")
    return float(value)


def play_2d(ctx: Context, sound: str, volume: float = 1.0, pan: float = 0.0, bus: str = "ui",
            pitch: float = 1.0, loop: bool = False) -> SoundHandle | None:
    """Play ``sound`` with no position: its handle, or None when it cannot start
    (a missing sound, logged once by the bank; no free voice).

    ``volume`` linear 0..4, ``pan`` -1 (left) .. 1 (right), equal power;
    ``pitch`` a playback-rate ratio in 0..64. A bad value or an unknown bus is an
    ``InputError`` (a programming error, raised at the call).
    """
    where = "play_2d"
    check_sound_name(sound, where)
    check_bus(ctx, bus, where)
    volume = _number(volume, where, "volume", 0.0, 4.0)
    pan = _number(pan, where, "pan", -1.0, 1.0)
    pitch = _number(pitch, where, "pitch", 0.0, 64.0)
    bank = ctx.channels[BANK]
    handle = bank.acquire(sound=sound)
    if handle is None:
        return None
    if not bank.play(handle, sound, volume=volume, pan=pan, pitch=pitch, loop=bool(loop),
                     bus=bus):
        return None
    return SoundHandle.of(bank, handle)
