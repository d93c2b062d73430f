"""Generic emitters as arrays: the emitter laws over every ``Emitter`` at once.

``EmitterService.update`` keeps esper's ``(Emitter, Position)`` query as one
``EmitterRows``, rebuilt only when esper hands out a new query list (an entity or
component was added or removed) whose entities or components are not the rows'
(``EmitterRows.holds``): the entities and their components, each
emitter's settings as numpy arrays (read again only for the emitters whose
``Emitter.revision`` moved, and not looked at when no ``Emitter`` was written at all:
``revision_stamp``), the place and tick each was last seen at (a derived
velocity) and the channel each plays on. Each tick every position is read into
one (3, rows) array and every distance, gain, pan and doppler factor is computed with
array operations (``emitter_hearing.hear_rows``, the array twin of
``EmitterService.hear``), and every playing voice is steered at once
(``emitter_hearing.steer_rows``).

The array laws do the floating-point operations of the per-source laws
(``EmitterService.hear``, ``soundscape.laws.spatial``, ``laws.modern.bearing_pan``)
in the same order, so they give the same numbers to the bit: ``+ - * /`` and
``sqrt`` are correctly rounded in numpy as in Python, and the pan law is made of
them alone (``laws.modern.bearing_pan``); ``soundscape.audio.pymath.py_min``/``py_max``
copy Python's ``min``/``max`` (the first argument on a tie or a NaN); and what numpy
computes differently from the C library (its ``arctan2``, ``arccos`` and ``power`` are
vectorised approximations) runs through the per-source law itself: the whole law
for the few emitters with a cone, the exponential or a custom rolloff.
"""

from __future__ import annotations

import math
from itertools import chain
from operator import attrgetter, is_, itemgetter
from typing import TYPE_CHECKING, Any

import esper
import numpy as np

from soundscape.audio.emitter_types import model_of
from soundscape.audio.pymath import Array, all_set, positive_max, positive_min, py_max, py_min
from soundscape.components.emitter import Emitter, revision_stamp
from soundscape.components.spatial import Position, Velocity
from soundscape.laws.spatial import (
    DistanceModel,
    distance_gain,
)

if TYPE_CHECKING:
    from soundscape.audio.channels import ChannelBank
    from soundscape.components.channel import Channel

PLACE = attrgetter("x_m", "y_m", "z_m")
"""``Position.as_tuple`` without the method call (the per-voice loop's place)."""
_FIRST, _SECOND = itemgetter(0), itemgetter(1)
INVERSE, LINEAR, NONE, BY_LAW = 0, 1, 2, 3
"""``EmitterRows.rolloff`` codes: the three models done in arrays, and the rest
(``"exponential"``, ``"custom"``) done by ``laws.spatial.distance_gain`` per emitter."""
_ROLLOFF = {"inverse": INVERSE, "linear": LINEAR, "none": NONE, "exponential": BY_LAW,
            "custom": BY_LAW}


class EmitterRows:
    """One tick's emitters in esper's query order, and what is kept of them between ticks.

    Attributes:
        query: the esper query list these rows were built from (its identity tells
            whether they still hold).
        entities, emitters, positions, velocities: per row (``velocities``: the
            entity's ``Velocity`` component or None; ``given``: not None, ``any_given``:
            any row's). ``every_row``: 0, 1, 2, ... (the row indices).
        channels: the channel the emitter's handle names when read (None: none).
        slot, generation_at, serial_at, sound_ok: that channel's slot, generation and
            serial when read (-1: none) and whether it played the emitter's sound then
            (arrays: ``emitter_hearing.steer_rows`` checks a voice is still the row's).
        enabled, volume, rolloff, ref, far, factor, pitch, coned, occlusion,
        doppler, idle: the emitter's settings as arrays (``idle``: an emitter
        with nothing to start, stop or steer: disabled with no handle, or a
        finished one-shot).
        xyz: the places read last tick (3 x rows), to write a channel's
            ``position`` only when it moved.
        tracked, track_xyz, track_tick, track_velocity: each emitter's last place,
            the tick it was seen there and the velocity derived then.
    """

    def __init__(self, query: list[Any] | None = None, previous: EmitterRows | None = None
                 ) -> None:
        self.query = query
        rows = query or []
        self.entities: list[int] = [entity for entity, _ in rows]
        self.emitters: list[Emitter] = [parts[0] for _, parts in rows]
        self.positions: list[Position] = [parts[1] for _, parts in rows]
        self.velocities: list[Velocity | None] = [
            esper.try_component(entity, Velocity) for entity in self.entities]
        self.given = np.array([v is not None for v in self.velocities], bool)
        self.any_given = bool(self.given.any())
        self.row_of = {entity: row for row, entity in enumerate(self.entities)}
        n = self.count = len(rows)
        self.every_row = np.arange(n)
        self.revision: list[int] = [-1] * n
        self.stamp = -2
        """``revision_stamp()`` at the last ``refresh``."""
        self.channels: list[Channel | None] = [None] * n
        self.slot = np.full(n, -1, np.int64)
        self.generation_at = np.full(n, -1, np.int64)
        self.serial_at = np.full(n, -1, np.int64)
        self.sound_ok = np.zeros(n, bool)
        self._run: tuple[int, int] | tuple[()] | None = None
        """``slot_run``'s answer (``()``: no run) while no row's channel was read again
        (None: not known)."""
        self.sounds: list[str] = [""] * n
        self.models: list[DistanceModel] = [DistanceModel()] * n
        self.cones: list[tuple[float, float, float, float]] = [(0.0, 360.0, 360.0, 0.0)] * n
        self.enabled = np.zeros(n, bool)
        self.idle = np.zeros(n, bool)
        self.live = np.zeros(n, bool)
        self.volume = np.zeros(n)
        self.rolloff = np.zeros(n, np.int8)
        self.ref = np.ones(n)
        self.far = np.ones(n)
        self.factor = np.ones(n)
        self.pitch = np.ones(n)
        self.coned = np.zeros(n, bool)
        self.occlusion = np.zeros(n, bool)
        self.doppler = np.zeros(n, bool)
        self.xyz = np.full((3, n), np.nan)
        self.tracked = np.zeros(n, bool)
        self.track_xyz = np.zeros((3, n))
        self.track_tick = np.zeros(n, np.int64)
        self.all_seen_at: int | None = None
        """The tick every row was last seen at, when all were seen together (the
        common case, ``derived_velocity``'s one-pass path), else None."""
        self.track_velocity = np.zeros((3, n))
        if previous is not None and previous.count and n:
            self._carry(previous)
        self._plan_laws()

    def holds(self, query: list[Any]) -> bool:
        """True when a new esper query list (any entity or component created or
        deleted anywhere makes one) has these rows' entities, ``Emitter`` and
        ``Position`` objects in the same order, and each entity the same ``Velocity``:
        the rows still stand (compared in C passes of identity, as
        ``walls.WallReader.changes``)."""
        if len(query) != self.count or list(map(_FIRST, query)) != self.entities:
            return False
        parts = list(map(_SECOND, query))
        return (all(map(is_, map(_FIRST, parts), self.emitters))
                and all(map(is_, map(_SECOND, parts), self.positions))
                and all(map(is_, [esper.try_component(entity, Velocity)
                                  for entity in self.entities], self.velocities)))

    def _carry(self, previous: EmitterRows) -> None:
        """Keep what the old rows knew of the entities still here: places, tracks, and
        the settings and channel of an unchanged ``Emitter`` object."""
        old = np.array([previous.row_of.get(entity, -1) for entity in self.entities], np.int64)
        here = np.flatnonzero(old >= 0)
        if not here.size:
            return
        was = old[here]
        for name in ("xyz", "track_xyz", "track_velocity"):
            getattr(self, name)[:, here] = getattr(previous, name)[:, was]
        self.tracked[here] = previous.tracked[was]
        self.track_tick[here] = previous.track_tick[was]
        same = [row for row, before in zip(here.tolist(), was.tolist(), strict=True)
                if previous.emitters[before] is self.emitters[row]]
        if not same:
            return
        keep = np.array(same, np.int64)
        before = old[keep]
        for name in ("enabled", "idle", "live", "volume", "rolloff", "ref", "far", "factor",
                     "pitch", "coned", "occlusion", "doppler", "slot", "generation_at",
                     "serial_at", "sound_ok"):
            getattr(self, name)[keep] = getattr(previous, name)[before]
        for row, b in zip(same, before.tolist(), strict=True):
            self.revision[row] = previous.revision[b]
            self.channels[row] = previous.channels[b]
            self.sounds[row] = previous.sounds[b]
            self.models[row] = previous.models[b]
            self.cones[row] = previous.cones[b]

    # -- settings ---------------------------------------------------------------

    def refresh(self, bank: ChannelBank) -> None:
        """Read again the settings of every emitter written since they were last read."""
        if not self.count:
            return
        stamp_before, stamp = self.stamp, revision_stamp()
        self.stamp = stamp
        if stamp == stamp_before + 1:
            return  # no Emitter anywhere was written since
        revision = [e.revision for e in self.emitters]
        if revision == self.revision:
            return  # nothing written since (one C comparison of the lists)
        changed = [row for row, (now, then) in enumerate(zip(revision, self.revision, strict=True))
                   if now != then]
        for row in changed:
            self._read(row, bank)
        self.revision = revision
        if changed:
            self._plan_laws()

    def _plan_laws(self) -> None:
        """What the rows' laws need after a settings change: which models beyond the
        inverse one (``gains``), the cones' constants (``cone_gains``), whether any row
        is occluded (``hear_rows`` asks the walls) and whether every pitch is 1."""
        self.any_occlusion = bool(self.occlusion.any())
        self.unit_pitch = bool((self.pitch == 1.0).all())
        """Every emitter's ``pitch`` is 1: its voice's pitch is the doppler factor itself."""
        # ref finite and > 0, factor finite and >= 0, d - ref finite (far is) unless the
        # factor is above 0 (0 x inf is NaN): then ref + factor (d - ref) >= ref > 0
        ref, factor = self.ref, self.factor
        self.plain_inverse = bool((np.isfinite(ref) & (ref > 0.0) & (self.far >= ref)
                                   & np.isfinite(factor)
                                   & ((factor > 0.0) | ((factor == 0.0)
                                                        & np.isfinite(self.far)))).all())
        self.any_linear = bool((self.rolloff == LINEAR).any())
        self.any_flat = bool((self.rolloff == NONE).any())
        self.by_law = np.flatnonzero(self.rolloff == BY_LAW).tolist()
        self.coned_rows = np.flatnonzero(self.coned).tolist()
        cones = [self.cones[row] for row in self.coned_rows]
        # each coned row's heading as ``facing_angle`` takes it (the C library's sin and
        # cos, once a setting), its half angles as ``cone_gain`` halves them, its gain
        self.cone_laws = np.array(
            [(math.sin(heading), math.cos(heading), inner / 2.0, outer / 2.0, outer_gain)
             for heading, inner, outer, outer_gain in cones], np.float64).reshape(-1, 5).T

    def reread(self, row: int, bank: ChannelBank) -> None:
        """Read one row's emitter and channel again (after the per-emitter path ran)."""
        self._read(row, bank)
        self.revision[row] = self.emitters[row].revision
        self._plan_laws()

    def _read(self, row: int, bank: ChannelBank) -> None:
        emitter = self.emitters[row]
        channel = bank.get(emitter.handle)
        self.channels[row] = channel
        self.slot[row] = channel.index if channel is not None else -1
        self._run = None
        self.generation_at[row] = channel.generation if channel is not None else -1
        self.serial_at[row] = channel.serial if channel is not None else -1
        # a channel's sound changes only with a play, which moves its serial
        self.sound_ok[row] = channel is not None and channel.sound == emitter.sound
        enabled = bool(emitter.enabled)
        self.enabled[row] = enabled
        self.live[row] = enabled and channel is not None
        self.idle[row] = emitter.handle is None and (
            not enabled and not emitter.finished or enabled and bool(emitter.finished))
        self.sounds[row] = emitter.sound
        model = self.models[row] = model_of(emitter)
        self.volume[row] = emitter.volume
        self.rolloff[row] = _ROLLOFF.get(emitter.rolloff, INVERSE)
        self.ref[row], self.far[row] = model.min_distance_m, model.max_distance_m
        self.factor[row] = model.rolloff_factor
        self.pitch[row] = emitter.pitch
        self.coned[row] = emitter.cone_inner_deg < 360.0
        self.cones[row] = (emitter.heading_rad, emitter.cone_inner_deg, emitter.cone_outer_deg,
                           emitter.cone_outer_gain)
        self.occlusion[row] = bool(emitter.occlusion)
        self.doppler[row] = bool(emitter.doppler)

    def slot_run(self) -> tuple[int, int] | None:
        """(first, end) when every row is live and row ``i`` plays on slot ``first + i``
        (emitters made together take their bank's slots in order): their columns are
        then read and written as one slice (``emitter_hearing.steer_rows``); else None."""
        if self._run is None:
            n, slot = self.count, self.slot
            first = int(slot[0]) if n else -1
            in_order = (first >= 0 and bool(self.live.all())
                        and bool((slot == self.every_row + first).all()))
            self._run = (first, first + n) if in_order else ()
        return self._run or None

    # -- places -----------------------------------------------------------------

    def places(self) -> Array:
        """Every emitter's x, y, z this tick (3 x rows, metres, float64)."""
        positions, n = self.positions, self.count
        # three list comprehensions: reading the floats is most of the cost, and one
        # ``fromiter`` over their chain costs less than three arrays stacked
        return np.fromiter(chain([p.x_m for p in positions], [p.y_m for p in positions],
                                 [p.z_m for p in positions]), np.float64, 3 * n).reshape(3, n)

    def derived_velocity(self, rows: Array, place: Array, tick: int, tick_hz: float,
                         limit_sq: float) -> Array:
        """``EmitterService.velocity_of`` for ``rows`` without a ``Velocity``: the move
        since the tick each was last seen, over that time (0 the first tick, and for a
        move at ``limit_sq`` (the speed of sound squared) or faster). Updates the tracks.
        ``place``: this tick's places (3 x rows).
        """
        seen_at = self.all_seen_at
        self.all_seen_at = None
        if rows.size == self.count and seen_at is not None and seen_at != tick:
            if np.array_equal(place, self.track_xyz):  # none moved (and no NaN place):
                # (x - x) * rate is 0 (-0 for a -0 beside a 0: the same pitch)
                self.track_velocity = np.zeros((3, self.count))
                self.track_tick.fill(tick)
                self.all_seen_at = tick
                return np.zeros((3, self.count))
            # each seen at the same earlier tick: one rate, one pass over the three axes
            v = (place - self.track_xyz) * (tick_hz / float(tick - seen_at))
            # the sum over axis 0 adds x, y, z in that order, as the per-row law
            subsonic = (v * v).sum(axis=0) < limit_sq
            if not all_set(subsonic):
                v[:, ~subsonic] = 0.0  # teleports (and NaN moves)
            self.track_velocity, self.track_xyz = v, place.copy()  # ``place`` is rows.xyz
            self.track_tick.fill(tick)
            self.all_seen_at = tick
            return v.copy()
        x, y, z = place
        out = np.zeros((3, rows.size))
        tracked = self.tracked[rows]
        seen_now = self.track_tick[rows] == tick
        same = tracked & seen_now
        out[:, same] = self.track_velocity[:, rows[same]]
        moved = tracked & ~seen_now
        if moved.any():
            at = rows[moved]
            rate = tick_hz / (tick - self.track_tick[at]).astype(np.float64)
            v = np.stack(((x[at] - self.track_xyz[0, at]) * rate,
                          (y[at] - self.track_xyz[1, at]) * rate,
                          (z[at] - self.track_xyz[2, at]) * rate))
            teleport = ~(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] < limit_sq)
            v[:, teleport] = 0.0
            out[:, moved] = v
            self.track_velocity[:, at] = v
        update = rows[~same]
        self.track_xyz[0, update], self.track_xyz[1, update] = x[update], y[update]
        self.track_xyz[2, update] = z[update]
        self.track_tick[update] = tick
        self.tracked[update] = True
        self.track_velocity[:, rows[~tracked]] = 0.0
        if rows.size == self.count and self.tracked.all() and (self.track_tick == tick).all():
            self.all_seen_at = tick
        return out

    def track_one(self, row: int, xyz: tuple[float, float, float], tick: int, tick_hz: float,
                  limit_sq: float) -> tuple[float, float, float]:
        """``derived_velocity`` of one row (``emitter_hearing.update_few``): the same
        float operations on the same tracks."""
        self.all_seen_at = None
        if not self.tracked[row]:
            self.tracked[row] = True
            self.track_xyz[:, row] = xyz
            self.track_tick[row] = tick
            self.track_velocity[:, row] = 0.0
            return (0.0, 0.0, 0.0)
        last = int(self.track_tick[row])
        if last == tick:
            vx, vy, vz = self.track_velocity[:, row].tolist()
            return (vx, vy, vz)
        x, y, z = xyz
        tx, ty, tz = self.track_xyz[:, row].tolist()
        rate = tick_hz / float(tick - last)
        v = ((x - tx) * rate, (y - ty) * rate, (z - tz) * rate)
        if not v[0] * v[0] + v[1] * v[1] + v[2] * v[2] < limit_sq:
            v = (0.0, 0.0, 0.0)
        self.track_velocity[:, row] = v
        self.track_xyz[:, row] = xyz
        self.track_tick[row] = tick
        return v

    # -- the laws ---------------------------------------------------------------

    def gains(self, dx: Array, dy: Array, dz: Array, distance: Array | None = None,
              no_nan: bool = False) -> Array:
        """``volume x distance_gain x cone_gain`` of every row (``EmitterService.hear``);
        ``distance``: ``sqrt(dx dx + dy dy + dz dz)``, if already computed; ``no_nan``:
        no distance is NaN (every place finite), so none is made 0."""
        if distance is None:
            distance = np.sqrt(dx * dx + dy * dy + dz * dz)
        ref, far, factor, rolloff = self.ref, self.far, self.factor, self.rolloff
        if self.plain_inverse:
            # bounds above 0 (``positive_min`` is Python's min), and every denominator is
            # at least ref > 0 but a NaN distance's, whose gain is made 0 below
            d = positive_min(positive_max(distance, ref), far)
            gain = ref / (ref + factor * (d - ref))
        else:
            d = py_min(py_max(distance, ref), far)
            denominator = ref + factor * (d - ref)
            gain = np.where(ref <= 0.0, 1.0,
                            np.where(denominator > 0.0, ref / denominator, 1.0))
        if self.any_linear:
            line = py_min(py_max(1.0 - factor * (d - ref) / (far - ref), 0.0), 1.0)
            gain = np.where(rolloff == LINEAR, np.where(far <= ref, 1.0, line), gain)
        if self.any_flat:
            gain = np.where(rolloff == NONE, 1.0, gain)
        for row in self.by_law:
            gain[row] = distance_gain(float(distance[row]), self.models[row])
        gain = self.volume * (gain if no_nan else np.where(np.isnan(distance), 0.0, gain))
        if self.coned_rows:
            gain[self.coned_rows] *= self.cone_gains(dx, dy, dz)
        return gain

    def cone_gains(self, dx: Array, dy: Array, dz: Array) -> Array:
        """``cone_gain(facing_angle(...))`` of each coned row (``coned_rows``; ``dx``...: the
        offsets from the listener to every row): the laws' operations in their order over
        arrays, but ``acos``, which numpy computes differently from the C library, per
        row through ``math.acos``."""
        at = self.coned_rows
        sin_h, cos_h, inner, outer, outer_gain = self.cone_laws
        x, y, z = -dx[at], -dy[at], -dz[at]  # from the source to the listener
        with np.errstate(all="ignore"):  # a far or NaN offset: NaN, as the law's
            length = np.sqrt(x * x + y * y + z * z)
            cos = py_min(py_max((x * sin_h + z * cos_h) / length, -1.0), 1.0)
            angle = np.where(length == 0.0, 0.0, [math.acos(c) for c in cos.tolist()])
            degrees = np.abs(angle) * (180.0 / math.pi)  # math.degrees
            between = 1.0 + (outer_gain - 1.0) * (degrees - inner) / (outer - inner)
        return np.where(degrees <= inner, 1.0, np.where(degrees >= outer, outer_gain,
                                                        np.where(outer > inner, between,
                                                                 outer_gain)))
