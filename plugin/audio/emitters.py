"""Generic positional emitters and one-shots for the ``modern`` profile.

A game puts an ``Emitter`` (``soundscape.components.emitter``) on an entity
with a ``Position``; ``play_at(ctx, sound, position)`` fires a one-shot. Each
tick the plugin sets every such voice's gain from its distance to the first
active ``Listener`` (``laws.modern.inverse_distance``) and its equal-power pan
from the bearing against the listener's compass heading
(``laws.modern.bearing_pan``). No listener, or a non-finite position, silences
the voice without stopping it.

Example:
    >>> import esper
    >>> from soundscape import Settings, SoundscapePlugin, synth
    >>> from soundscape.components import Listener, Position
    >>> from soundscape.components.emitter import Emitter, check_distances
    >>> esper.switch_world("doctest-emitters")
    >>> plugin = SoundscapePlugin(Settings(backend="offline", features=("audio",))).install()
    >>> _ = synth.add_to(plugin.context.sounds, "hum", synth.tone(220, 1.0))
    >>> _ = esper.create_entity(Listener(), Position(0, 0, 0))
    >>> _ = esper.create_entity(Emitter("hum", min_distance_m=2), Position(4, 0, 0))
    >>> esper.process(1 / 60)
    >>> ch = plugin.context.channels["modern"].channels[0]
    >>> round(ch.volume, 3), round(ch.pan, 3)
    (0.5, 1.0)
    >>> plugin.uninstall(); esper.switch_world("default"); esper.delete_world("doctest-emitters")
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import esper

from soundscape.audio.channels import ChannelBank, Handle
from soundscape.components.emitter import Emitter, check_distances
from soundscape.components.spatial import Position
from soundscape.laws.modern import bearing_pan, inverse_distance
from soundscape.listener import usable
from soundscape.names import check_sound_name

if TYPE_CHECKING:
    from soundscape.context import Context

BANK = "modern"


@dataclass(slots=True)
class OneShot:
    """A ``play_at`` voice: where it is and its distance law."""

    handle: Handle
    position: tuple[float, float, float]
    volume: float
    min_distance_m: float
    max_distance_m: float


def listener_pose(ctx: Context) -> tuple[tuple[float, float, float], float] | None:
    """(position, heading) of the first active listener, or None when it is not finite
    (``soundscape.listener.usable``)."""
    found = usable()
    return None if found is None else (found.xyz, found.heading_rad)


def spatialise(volume: float, position: tuple[float, float, float], min_m: float,
               max_m: float, pose: tuple[tuple[float, float, float], float] | None
               ) -> tuple[float, float]:
    """(gain, pan) of a source at ``position`` heard from ``pose``."""
    if pose is None or not all(math.isfinite(c) for c in position):
        return 0.0, 0.0
    (lx, ly, lz), heading = pose
    dx, dy, dz = position[0] - lx, position[1] - ly, position[2] - lz
    distance = math.sqrt(dx * dx + dy * dy + dz * dz)
    return volume * inverse_distance(distance, min_m, max_m), bearing_pan(dx, dz, heading)


def finite_position(position: Any) -> tuple[float, float, float] | None:
    """``position`` as three floats, or None unless it is three finite numbers.

    >>> finite_position((1, 2, 3)), finite_position((0.0, float("nan"), 0.0))
    ((1.0, 2.0, 3.0), None)
    """
    try:
        x, y, z = (float(c) for c in position)
    except (TypeError, ValueError):
        return None
    return (x, y, z) if math.isfinite(x + y + z) else None


class EmitterService:
    """Starts, moves and stops emitter voices on the ``modern`` bank (``ctx.emitters``)."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.one_shots: list[OneShot] = []
        self.by_entity: dict[int, Handle] = {}
        self._bad_positions: set[int] = set()
        ctx.emitters = self

    @property
    def bank(self) -> ChannelBank:
        return self.ctx.channels[BANK]

    def play_at(self, sound: str, position: tuple[float, float, float], volume: float = 1.0,
                *, min_distance_m: float = 1.0, max_distance_m: float = 50.0,
                pitch: float = 1.0) -> Handle | None:
        """Play ``sound`` once at ``position``; its handle, or None when it cannot start.

        None also for a position that is not three finite numbers (logged as an
        ``emitters``/``bad_value`` event: a NaN from physics must not stop the
        game). Distances that make no sense, or a sound name that cannot be a file
        name, are a programming error: InputError.
        """
        check_sound_name(sound, "play_at")
        check_distances(min_distance_m, max_distance_m, "play_at")
        place = finite_position(position)
        if place is None:
            self.ctx.events.emit("emitters", "bad_value", sound=sound,
                                 reason=f"play_at: position {position!r} is not finite: not played")
            return None
        position = place
        pose = listener_pose(self.ctx)
        gain, pan = spatialise(volume, position, min_distance_m, max_distance_m, pose)
        handle = self.bank.acquire(sound=sound)
        if handle is None or not self.bank.play(handle, sound, volume=gain, pan=pan,
                                                pitch=pitch, position=position):
            return None
        self.one_shots.append(OneShot(handle, position, float(volume), min_distance_m,
                                      max_distance_m))
        return handle

    def update(self) -> None:
        """One tick: start, steer and stop every emitter and one-shot."""
        pose = listener_pose(self.ctx)
        bank = self.bank
        seen: set[int] = set()
        for ent, (emitter, pos) in esper.get_components(Emitter, Position):
            seen.add(ent)
            self._check_position(ent, emitter, pos)
            self._update_emitter(ent, emitter, pos.as_tuple(), pose)
        self._bad_positions &= seen
        for ent in [e for e in self.by_entity if e not in seen]:
            bank.stop(self.by_entity.pop(ent), reason="entity gone")
        alive = []
        for shot in self.one_shots:
            if not bank.is_playing(shot.handle):
                continue
            gain, pan = spatialise(shot.volume, shot.position, shot.min_distance_m,
                                   shot.max_distance_m, pose)
            bank.set_volume(shot.handle, gain)
            bank.set_pan(shot.handle, pan)
            alive.append(shot)
        self.one_shots = alive

    def _check_position(self, ent: int, emitter: Emitter, pos: Position) -> None:
        """Log an emitter whose position turns non-finite, once until it is finite again."""
        if pos.is_finite():
            self._bad_positions.discard(ent)
        elif ent not in self._bad_positions:
            self._bad_positions.add(ent)
            self.ctx.events.emit("emitters", "bad_value", sound=emitter.sound, entity=ent,
                                 reason="non-finite Position: silenced until it is finite")

    def _update_emitter(self, ent: int, emitter: Emitter, position: tuple[float, float, float],
                        pose: tuple[tuple[float, float, float], float] | None) -> None:
        bank = self.bank
        if not emitter.enabled:
            if emitter.handle is not None:
                bank.stop(emitter.handle, reason="disabled")
                emitter.handle = None
                self.by_entity.pop(ent, None)
            emitter.finished = False
            return
        gain, pan = spatialise(emitter.volume, position, emitter.min_distance_m,
                               emitter.max_distance_m, pose)
        channel = bank.get(emitter.handle)
        if channel is not None and channel.playing and channel.sound != emitter.sound:
            bank.stop(emitter.handle, reason="sound changed")  # restarted below
            emitter.handle, emitter.finished = None, False
        elif channel is not None and channel.playing:
            bank.set_volume(emitter.handle, gain)
            bank.set_pan(emitter.handle, pan)
            bank.set_pitch(emitter.handle, emitter.pitch)
            bank.set_position(emitter.handle, position)
            return
        if emitter.handle is not None and not emitter.loop:
            emitter.finished, emitter.handle = True, None  # a one-shot emitter ended
            self.by_entity.pop(ent, None)
        if emitter.finished:
            return
        handle = bank.acquire(owner=ent, sound=emitter.sound)
        if handle is not None and bank.play(handle, emitter.sound, volume=gain, pan=pan,
                                            pitch=emitter.pitch, loop=emitter.loop,
                                            position=position):
            emitter.handle = handle
            self.by_entity[ent] = handle


def play_at(ctx: Context, sound: str, position: tuple[float, float, float], volume: float = 1.0,
            **kwargs: Any) -> Handle | None:
    """Fire a positional one-shot on the ``modern`` bank (see ``EmitterService.play_at``)."""
    if not ctx.has("emitters"):
        raise RuntimeError("play_at: the audio feature is not installed")
    handle: Handle | None = ctx.emitters.play_at(sound, position, volume, **kwargs)
    return handle
