"""Oni's 24 flyby records (0x61fa38): a projectile's impulse where it passes the listener.

A projectile with a flyby impulse (a ``Flyby`` component) takes a free record
when it is made (0x5156f0) and the record steps each tick (0x5157c0): when the
tick's move passes the point nearest the listener, the impulse plays there,
heard through the walls (``OSiCalc_PositionAndVolume`` with the impulse's far
distance and minimum occlusion) and not at all from three times its far distance.

esper has no creation or deletion callbacks, so the FLYBYS phase finds new and
vanished ``Flyby`` entities each tick, and a game calls ``projectile_dies`` before
it deletes a projectile so the last move is stepped (the deletion callback
0x508e90). An entity that vanishes unannounced, or whose ``Flyby`` component was
replaced, is freed without a last step, like a record whose particle no longer
has its +0x2c.

Two readings beyond retail (docs/divergences.md): ``teleport`` moves a
projectile (a wrap-around, a portal) without stepping the jump, which would
otherwise pass the listener and play a false flyby; and a projectile refused a
record because all 24 were taken waits and takes the first record that frees,
oldest refusal first, instead of never being heard.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import esper

from soundscape.components.occlusion import Flyby
from soundscape.components.spatial import Position
from soundscape.errors import InputError
from soundscape.laws.oni import flyby_point

if TYPE_CHECKING:
    from soundscape.occlusion.service import OcclusionService

FLYBY_RECORDS = 24
"""Oni keeps 24 flyby records of 0x28 bytes at 0x61fa38."""

PATH_POINTS = 240
"""How many past places a record keeps for drawing (4 s at 60 Hz)."""

SOURCE = "flyby"

Vec3 = tuple[float, float, float]


@dataclass(slots=True)
class FlybyTrigger:
    """One flyby impulse: where and when it played, and how the walls heard it."""

    tick: int
    record: int
    entity: int
    impulse: str
    point: Vec3
    volume: float
    walls: int
    in_hearing: bool
    played: bool | None


@dataclass(slots=True)
class FlybyRecord:
    """One of the 24 records: bit 0 in use, the place before (+4) and now (+0x10)."""

    index: int
    in_use: bool = False
    entity: int = -1
    flyby: Flyby | None = None
    before: Vec3 = (0.0, 0.0, 0.0)
    now: Vec3 = (0.0, 0.0, 0.0)
    path: deque[Vec3] = field(default_factory=lambda: deque(maxlen=PATH_POINTS))
    triggers: list[FlybyTrigger] = field(default_factory=list)


def _finite3(v: Vec3) -> bool:
    return math.isfinite(v[0]) and math.isfinite(v[1]) and math.isfinite(v[2])


class FlybyTable:
    """The 24 flyby records of one plugin (``ctx.occlusion.flybys``).

    Attributes:
        records: the 24 ``FlybyRecord`` (read ``path`` and ``triggers`` to draw).
        recent: the last freed records' paths and triggers, newest last.
        triggers: every recent ``FlybyTrigger``, newest last.
    """

    def __init__(self, service: OcclusionService) -> None:
        self.service = service
        self.records = [FlybyRecord(i) for i in range(FLYBY_RECORDS)]
        self.recent: deque[FlybyRecord] = deque(maxlen=32)
        self.triggers: deque[FlybyTrigger] = deque(maxlen=256)
        self._by_entity: dict[int, FlybyRecord] = {}
        self._seen: dict[int, Flyby] = {}
        """Every projectile met, with its component: one record per creation."""
        self._waiting: dict[int, Flyby] = {}
        """Projectiles refused a record, oldest first: they take the next that frees."""

    def in_use(self) -> int:
        """How many records are taken."""
        return len(self._by_entity)

    def record_of(self, entity: int) -> FlybyRecord | None:
        """The record ``entity`` holds, if any."""
        return self._by_entity.get(entity)

    # -- creation and freeing ---------------------------------------------------------

    def waiting(self) -> list[int]:
        """Projectiles refused a record that will take the next one that frees, oldest first."""
        return list(self._waiting)

    def _take(self, entity: int, flyby: Flyby, place: Vec3,
              retry: bool = False) -> FlybyRecord | None:
        """0x5156f0: a free record for a new projectile; none when all 24 are taken.

        A projectile refused because all are taken waits (``waiting``; its retries
        are not logged again); one whose place fails is refused for good, as retail.
        """
        events = self.service.ctx.events
        if not _finite3(place):
            self._waiting.pop(entity, None)
            events.emit(SOURCE, "refused", sound=flyby.impulse, entity=entity, reason="bad_place")
            return None
        for record in self.records:
            if not record.in_use:
                record.in_use, record.entity, record.flyby = True, entity, flyby
                record.before = record.now = place
                record.path = deque([place], maxlen=PATH_POINTS)
                record.triggers = []
                self._by_entity[entity] = record
                self._waiting.pop(entity, None)
                events.emit(SOURCE, "take", sound=flyby.impulse, pos=place, record=record.index,
                            entity=entity, retried=retry)
                return record
        if not retry:
            events.emit(SOURCE, "refused", sound=flyby.impulse, entity=entity,
                        reason="all_taken")
        self._waiting[entity] = flyby
        return None

    def _free(self, record: FlybyRecord, reason: str) -> None:
        """0x515a00: the record is free again; its path is kept in ``recent`` for drawing."""
        self._by_entity.pop(record.entity, None)
        impulse = record.flyby.impulse if record.flyby is not None else None
        self.service.ctx.events.emit(SOURCE, "free", sound=impulse, record=record.index,
                                     entity=record.entity, reason=reason)
        self.recent.append(FlybyRecord(record.index, False, record.entity, record.flyby,
                                       record.before, record.now, record.path, record.triggers))
        record.in_use, record.entity, record.flyby = False, -1, None

    # -- the step -----------------------------------------------------------------------

    def _step(self, record: FlybyRecord, place: Vec3, listener: Vec3 | None) -> None:
        """0x5157c0: the place moves on; the impulse plays where the move passes the listener."""
        if not _finite3(place):
            self._free(record, "bad_place")  # "a failed real place frees the record"
            return
        record.before, record.now = record.now, place
        record.path.append(place)
        if listener is None:
            return
        point = flyby_point(record.before, place, listener)
        if point is not None:
            self._play(record, point, listener)

    def _impulse_params(self, flyby: Flyby) -> tuple[float, float]:
        """The impulse's far distance and minimum occlusion (``OSIm`` 0x30/0x6c): the Oni
        database's record when the runtime knows the impulse, else the component's own."""
        oni = self.service.oni()
        impulse = oni.impulse(flyby.impulse) if oni is not None else None
        if impulse is None:
            return (flyby.far, flyby.min_occlusion)
        return (float(impulse.far), float(impulse.min_occlusion))

    def _play(self, record: FlybyRecord, point: Vec3, listener: Vec3) -> None:
        flyby = record.flyby
        if flyby is None:
            return
        far, min_occ = self._impulse_params(flyby)
        try:
            result = self.service.query(point, far, min_occ, listener_xyz=listener)
        except InputError as error:
            self.service.ctx.events.emit(SOURCE, "error", sound=flyby.impulse, error=str(error))
            return
        tick = self.service.ctx.clock.tick
        played: bool | None = None
        if result.in_hearing:
            oni = self.service.oni()
            if oni is not None:
                played = bool(oni.play_impulse(flyby.impulse, point, result.volume))
        trigger = FlybyTrigger(tick, record.index, record.entity, flyby.impulse, point,
                               result.volume, result.walls, result.in_hearing, played)
        record.triggers.append(trigger)
        self.triggers.append(trigger)
        self.service.ctx.events.emit(
            SOURCE, "flyby" if result.in_hearing else "out_of_hearing", sound=flyby.impulse,
            pos=point, gain=result.volume, walls=result.walls, record=record.index,
            entity=record.entity, played=played,
        )

    # -- each tick and the game's calls --------------------------------------------------

    def tick(self) -> None:
        """FLYBYS phase: free vanished projectiles, step the others, take records for new ones."""
        listener = self.service.listener_xyz()
        current = esper.get_components(Flyby, Position)
        live: dict[int, tuple[Flyby, Position]] = {e: (f, p) for e, (f, p) in current}
        for record in self.records:
            if not record.in_use:
                continue
            found = live.get(record.entity)
            if found is None or found[0] is not record.flyby:
                self._free(record, "vanished")
                continue
            pos = found[1]
            self._step(record, (pos.x_m, pos.y_m, pos.z_m), listener)
        seen = self._seen
        if len(seen) > len(live):
            self._seen = seen = {e: f for e, f in seen.items() if e in live}
        if self._waiting:
            self._retry(live)
        for entity, (flyby, pos) in current:
            if seen.get(entity) is flyby:
                continue
            seen[entity] = flyby
            if entity not in self._by_entity:
                self._take(entity, flyby, (pos.x_m, pos.y_m, pos.z_m))

    def _retry(self, live: dict[int, tuple[Flyby, Position]]) -> None:
        """Waiting projectiles take the records that freed, oldest refusal first."""
        for entity, flyby in list(self._waiting.items()):
            found = live.get(entity)
            if found is None or found[0] is not flyby:
                del self._waiting[entity]  # gone, or a new Flyby: it is a new projectile
                continue
            if len(self._by_entity) >= FLYBY_RECORDS:
                return
            pos = found[1]
            self._take(entity, flyby, (pos.x_m, pos.y_m, pos.z_m), retry=True)

    def teleport(self, entity: int, place: Vec3 | None = None) -> bool:
        """Move a projectile to ``place`` (default: its ``Position``) without a flyby.

        A wrap-around or a portal is a jump, not a flight: stepping it would pass
        the listener and play the impulse at full volume where nothing flew. The
        record's place before and now both become ``place``, so the next step starts
        there; its drawn path starts again. Call it after moving the ``Position`` (or
        give the new place) in the same frame, before the plugin's FLYBYS phase.
        Returns False when the projectile holds no record (a waiting one takes its
        record where it is when one frees).
        """
        record = self._by_entity.get(entity)
        if record is None:
            return False
        if place is None:
            pos = esper.try_component(entity, Position) if esper.entity_exists(entity) else None
            if pos is None:
                return False
            place = pos.as_tuple()
        new = (float(place[0]), float(place[1]), float(place[2]))
        if not _finite3(new):
            self._free(record, "bad_place")
            return True
        record.before = record.now = new
        record.path = deque([new], maxlen=PATH_POINTS)
        impulse = record.flyby.impulse if record.flyby is not None else None
        self.service.ctx.events.emit(SOURCE, "teleport", sound=impulse, pos=new,
                                     record=record.index, entity=entity)
        return True

    def projectile_dies(self, entity: int, final_pos: Vec3 | None = None) -> bool:
        """The deletion callback (0x508e90): a last step to the final place, then free.

        Call it when a projectile dies, before (or instead of waiting for) the
        entity's deletion. ``final_pos`` defaults to the entity's ``Position``.
        Returns False when the projectile holds no record.
        """
        flyby = esper.try_component(entity, Flyby) if esper.entity_exists(entity) else None
        if flyby is not None:
            self._seen[entity] = flyby  # dead: never take a record for it again
        self._waiting.pop(entity, None)
        record = self._by_entity.get(entity)
        if record is None:
            return False
        if final_pos is None:
            pos = esper.try_component(entity, Position) if esper.entity_exists(entity) else None
            final_pos = pos.as_tuple() if pos is not None else record.now
        place = (float(final_pos[0]), float(final_pos[1]), float(final_pos[2]))
        self._step(record, place, self.service.listener_xyz())
        if record.in_use and record.entity == entity:
            self._free(record, "died")
        return True
