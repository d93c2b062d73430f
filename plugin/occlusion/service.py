"""``ctx.occlusion``: Oni's ``OSiCalc_PositionAndVolume`` (0x511a00) over the pymunk walls.

The service answers "how loud is a sound at this place, through the walls?"
uncached (``query``, for impulses and flybys) and, once a tick, for every placed
record with the seed's 12-tick cache (``update_records``, run by the OCCLUSION
phase). Generic emitters (``Emitter(occlusion=True)``, ``play_at(occlusion=True)``)
ask ``hear_through``: the same pymunk rays (``WallSpace``), the same 12-tick
staggered cache rule (``rules.cache_due``) and the same ray store, but the modern
law (the walls' summed ``transmission_db``, ``WallSpace.crossings``) instead of
Oni's count. It keeps the last ray of every record and emitter for drawing
(``last_rays``).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import esper

from soundscape.components.occlusion import Occluded, Wall
from soundscape.components.spatial import Position
from soundscape.errors import InputError
from soundscape.laws.oni import (
    OCCLUSION_MAX_WALLS,
    OCCLUSION_NO_OCCLUSION_ABOVE,
    in_hearing,
    occlusion_volume,
)
from soundscape.listener import usable
from soundscape.occlusion.flybys import FlybyTable
from soundscape.occlusion.rules import (
    CACHE_TICKS,
    OcclusionResult,
    count_walls,
    next_due,
)
from soundscape.occlusion.space import WallSpace

if TYPE_CHECKING:
    from soundscape.context import Context
    from soundscape.seams import OniForOcclusion

Vec3 = tuple[float, float, float]

SOURCE = "occlusion"

_INF = math.inf


@dataclass(slots=True)
class RayTrace:
    """The last ray a record cast: from its place to the listener (metres), and what it met."""

    from_xyz: Vec3
    to_xyz: Vec3
    walls: int
    volume: float
    in_hearing: bool
    tick: int


@dataclass(slots=True)
class Heard:
    """A generic emitter's cached walls: how many, their summed loss (dB), and the tick
    they are counted again (``rules.next_due`` of the tick they were counted)."""

    walls: int
    transmission_db: float
    due_tick: int


def _finite3(v: Vec3) -> bool:
    return math.isfinite(v[0]) and math.isfinite(v[1]) and math.isfinite(v[2])


class OcclusionService:
    """Walls, rays, the per-record cache and the flyby records of one plugin.

    Attributes:
        walls: the ``WallSpace`` (pymunk) the ``Wall`` components are mirrored into.
        units_per_m: Oni units per metre (setting ``oni_units_per_m``, default 1).
        level_loaded: False reproduces retail's "no level": every count is 3.
        log_recomputes: emit an ``occlusion`` event whenever a record recounts.
        last_rays: entity -> the ``RayTrace`` of its last count.
        recent_queries: the ``RayTrace`` of the latest uncached queries (impulses,
            flybys), newest last.
        flybys: the ``FlybyTable``, the 24 flyby records.
    """

    def __init__(self, ctx: Context, units_per_m: float = 1.0) -> None:
        self.ctx = ctx
        self.units_per_m = float(units_per_m)
        self.walls = WallSpace(self.units_per_m, ctx.walls.reader())
        self.level_loaded = True
        self.log_recomputes = True
        self.last_rays: dict[int, RayTrace] = {}
        self.recent_queries: deque[RayTrace] = deque(maxlen=64)
        self._bad_places: set[int] = set()
        self._no_listener_logged = False
        self.heard: dict[int, Heard] = {}
        """Generic emitters' cached walls by key (``hear_through``)."""
        self._walls_tick = -1
        self.flybys = FlybyTable(self)

    # -- the listener ---------------------------------------------------------------

    def oni(self) -> OniForOcclusion | None:
        """The Oni runtime (its ears, its impulses) when the feature is installed."""
        return self.ctx.oni if self.ctx.has("oni") else None

    def listener_xyz(self) -> Vec3 | None:
        """Where the rays end (metres), or None when there is no usable listener.

        With the Oni runtime installed, its ears (``ctx.oni.update_listener()``: the
        player's ears in the follow camera, else the camera, ``OSrUpdate`` 0x514f20);
        otherwise the first active ``Listener``'s ``Position`` when its pose is finite
        (``soundscape.listener.usable``).
        """
        oni = self.oni()
        if oni is not None:
            ears = oni.update_listener()
            if ears.source == "none":
                return None
            xyz = ears.xyz
            return (xyz[0], xyz[1], xyz[2]) if _finite3(xyz) else None
        found = usable()
        return None if found is None else found.xyz

    # -- the walls (OCCLUSION phase, step 0) -------------------------------------------

    def sync_walls(self) -> None:
        """Mirror the ``Wall`` components that changed into the pymunk space.

        Walls added or removed (or replaced with ``esper.add_component``) are found
        by themselves; a wall edited in place is mirrored when marked with
        ``wall_moved``. Nothing is compared while no wall changed, so the cost does
        not grow with the number of walls (``WallSpace.follow``).
        A wall with NaN end points or no length is skipped (its old segment goes) and
        logged once as a ``wall_rejected`` event until it changes again.
        """
        self._walls_tick = self.ctx.clock.tick
        for entity, reason in self.walls.follow(esper.get_component(Wall)):
            self.ctx.events.emit(SOURCE, "wall_rejected", entity=entity, error=reason)

    def wall_moved(self, entity: int) -> None:
        """Say that ``entity``'s ``Wall`` was edited in place (a door slid, a wall fell).

        The next OCCLUSION phase mirrors it (``sync_walls``); the records' cached
        counts follow at their next due tick, as before. The same as
        ``ctx.walls.moved(entity)``: the rooms' walled zones hear it too.
        """
        self.ctx.walls.moved(entity)

    # -- generic emitters (the modern law) --------------------------------------------

    def hear_through(self, key: int, place: Vec3, listener: Vec3) -> tuple[int, float]:
        """(walls, summed ``transmission_db``) between a generic emitter and the listener.

        Counted through the same rays as Oni's records, and cached by the same rule:
        a count holds until ``rules.cache_due`` (12 ticks, staggered by ``key % 12``);
        a new key counts at once. ``key`` is the emitter's entity (a ``play_at``
        one-shot: -1 - its voice id). The walls are mirrored first when this tick's
        OCCLUSION phase has not run yet (emitters update in OBJECT_UPDATE).
        """
        tick = self.ctx.clock.tick
        cached = self.heard.get(key)
        if cached is not None and tick < cached.due_tick:  # (``rules.cache_due``)
            return cached.walls, cached.transmission_db
        if self._walls_tick != tick:
            self.sync_walls()
        walls, loss = self.walls.crossings(place, listener)
        self.heard[key] = Heard(walls, loss, next_due(tick, key))
        self.last_rays[key] = RayTrace(place, listener, walls, 10.0 ** (loss / 20.0), True, tick)
        return walls, loss

    def hear_through_many(self, keys: Sequence[int], place_of: Callable[[int], Vec3],
                          listener: Vec3) -> list[tuple[int, float]]:
        """``hear_through`` of each of ``keys`` (``place_of(i)``: the place of ``keys[i]``,
        asked only when its count is due): the same counts, casts and records, without
        a call a key while its cached count holds (most keys, most ticks)."""
        tick, found = self.ctx.clock.tick, self.heard.get
        out: list[tuple[int, float]] = []
        for i, key in enumerate(keys):
            cached = found(key)
            if cached is None or tick >= cached.due_tick:
                out.append(self.hear_through(key, place_of(i), listener))
            else:
                out.append((cached.walls, cached.transmission_db))
        return out

    # -- counting -------------------------------------------------------------------

    def count(self, place: Vec3, listener: Vec3) -> int:
        """Walls between ``place`` and ``listener`` by the seed's rules (3 with no level)."""
        if not self.level_loaded:
            return OCCLUSION_MAX_WALLS
        return count_walls(self.walls.hit_tuples(place, listener))

    def query(
        self,
        place_xyz: Vec3,
        far: float,
        min_occlusion: float = 0.0,
        *,
        listener_xyz: Vec3 | None = None,
    ) -> OcclusionResult:
        """``OSiCalc_PositionAndVolume`` without the cache (impulses, flybys).

        Args:
            place_xyz: the sound's place, metres in the world frame.
            far: its maximum distance, Oni units.
            min_occlusion: its minimum occlusion; above 0.99 the volume is 1.
            listener_xyz: where the ears are; default the active ``Listener``.

        Raises:
            InputError: a NaN place, far, min_occlusion or listener, or no listener.
        """
        place = (float(place_xyz[0]), float(place_xyz[1]), float(place_xyz[2]))
        if not _finite3(place):
            raise InputError(f"occlusion.query: place {place} is not finite")
        if not math.isfinite(far):
            raise InputError(f"occlusion.query: far distance {far!r} is not finite")
        if not math.isfinite(min_occlusion):
            raise InputError(f"occlusion.query: min_occlusion {min_occlusion!r} is not finite")
        listener = listener_xyz if listener_xyz is not None else self.listener_xyz()
        if listener is None or not _finite3(listener):
            raise InputError(f"occlusion.query: no usable listener ({listener})")
        result = self._evaluate(place, listener, far, min_occlusion)
        ears = (float(listener[0]), float(listener[1]), float(listener[2]))
        self.recent_queries.append(
            RayTrace(place, ears, result.walls, result.volume, result.in_hearing,
                     self.ctx.clock.tick)
        )
        return result

    def _evaluate(self, place: Vec3, listener: Vec3, far: float, min_occ: float) -> OcclusionResult:
        u = self.units_per_m
        dx, dy, dz = place[0] - listener[0], place[1] - listener[1], place[2] - listener[2]
        if not in_hearing((dx * dx + dy * dy + dz * dz) * u * u, far):
            return OcclusionResult(0.0, 0, False)
        if min_occ > OCCLUSION_NO_OCCLUSION_ABOVE:
            return OcclusionResult(1.0, 0, True)
        walls = self.count(place, listener)
        return OcclusionResult(occlusion_volume(walls, min_occ), walls, True)

    # -- the placed records (OCCLUSION phase) ----------------------------------------

    def update_records(self) -> int:
        """Hear every (``Position``, ``Occluded``) record; recount the due ones.

        Every record's hearing is tested each tick; a record in hearing whose cache
        is due (``cache_due``) casts its ray, stores the tick and the volume, and
        logs an ``occlusion`` event. Returns how many records recounted.
        """
        listener = self.listener_xyz()
        if listener is None:
            if not self._no_listener_logged:
                self.ctx.events.emit(SOURCE, "no_listener")
                self._no_listener_logged = True
            return 0
        self._no_listener_logged = False
        tick = self.ctx.clock.tick
        lx, ly, lz = listener
        u2 = self.units_per_m * self.units_per_m
        records = esper.get_components(Position, Occluded)
        if len(self.last_rays) > len(records) + len(self.heard):
            live = {entity for entity, _ in records} | self.heard.keys()
            self.last_rays = {e: r for e, r in self.last_rays.items() if e in live}
        bad = self._bad_places
        due: list[tuple[int, Vec3, Occluded]] = []
        inf, period, no_occlusion, hearing = _INF, CACHE_TICKS, OCCLUSION_NO_OCCLUSION_ABOVE, \
            in_hearing
        # This loop runs for every record every tick: plain arithmetic on locals; its one
        # call is the hearing law (laws.oni.in_hearing), kept in one place.
        for entity, (pos, occ) in records:
            dx, dy, dz = pos.x_m - lx, pos.y_m - ly, pos.z_m - lz
            d2 = (dx * dx + dy * dy + dz * dz) * u2
            far = occ.far
            if not (d2 < inf and far < inf):  # NaN or infinite place or far
                self._bad_place(entity, pos, occ)
                continue
            if bad and entity in bad:
                bad.discard(entity)
            if not hearing(d2, far):
                occ.in_hearing = False
                continue
            occ.in_hearing = True
            if occ.min_occlusion > no_occlusion:
                occ.volume = 1.0
                continue
            # cache_due(), inlined.
            if tick >= (occ.cache_tick // period + 1) * period + occ.cache_index % period:
                due.append((entity, (pos.x_m, pos.y_m, pos.z_m), occ))
        for entity, place, occ in due:
            self._recount(entity, place, listener, occ, tick)
        return len(due)

    def _recount(self, entity: int, place: Vec3, listener: Vec3, occ: Occluded, tick: int) -> None:
        walls = self.count(place, listener)
        volume = occlusion_volume(walls, occ.min_occlusion)
        occ.walls, occ.volume, occ.cache_tick = walls, volume, tick
        self.last_rays[entity] = RayTrace(place, listener, walls, volume, True, tick)
        if self.log_recomputes:
            self.ctx.events.emit(
                SOURCE, "occlusion", pos=place, gain=volume, walls=walls, in_hearing=True,
                entity=entity,
            )

    def _bad_place(self, entity: int, pos: Position, occ: Occluded) -> None:
        """A NaN place (or far) is out of hearing; it is logged once until it heals."""
        occ.in_hearing = False
        if entity not in self._bad_places:
            self._bad_places.add(entity)
            self.ctx.events.emit(
                SOURCE, "bad_place", entity=entity, place=pos.as_tuple(), far=occ.far
            )

    def forget(self, entity: int) -> None:
        """Drop what the service keeps for a deleted record or emitter (its last ray)."""
        self.last_rays.pop(entity, None)
        self.heard.pop(entity, None)
        self._bad_places.discard(entity)
