"""The walls mirrored into one pymunk space, and the rays cast through it.

Oni casts ``AKrCollision_Point`` (0x4412d0) from a sound's place to the listener
and gets every quad on the way. Here each ``Wall`` component is a static pymunk
segment on the floor plan (x, z); a ray is a Chipmunk segment query
(``occlusion_rays.RayCaster``) from the place to the listener. pymunk gives the
hits unsorted, so they are ordered by ``alpha`` (from the place). Nothing ever
steps the space: queries need no step, and a moved wall is re-indexed with
``reindex_static``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from operator import itemgetter

import pymunk

from soundscape.components.occlusion import WALL_SKIPPED_FLAGS, Wall
from soundscape.errors import InputError
from soundscape.occlusion.rays import RayCaster
from soundscape.occlusion.rules import NEAR_PLACE_SQ, WallHit
from soundscape.walls import WallReader

_SKIPPED_CATEGORY = 0b10
"""Walls with skipped flags sit in their own pymunk category the rays mask out."""

_ALL = pymunk.ShapeFilter.ALL_CATEGORIES()
_RAY_FILTER = pymunk.ShapeFilter(mask=_ALL & ~_SKIPPED_CATEGORY)
_SKIPPED_FILTER = pymunk.ShapeFilter(categories=_SKIPPED_CATEGORY)

_alpha = itemgetter(0)

MIN_WALL_LENGTH_M = 1e-6
"""A wall shorter than this has no direction and no normal: it is refused."""

WallKey = tuple[float, float, float, float, int, int, float, float, float]


def wall_key(wall: Wall) -> WallKey:
    """The fields of a wall that its pymunk segment mirrors (to see when it changed)."""
    return (
        wall.ax_m,
        wall.az_m,
        wall.bx_m,
        wall.bz_m,
        wall.flags,
        wall.object_id,
        wall.normal_x,
        wall.normal_z,
        wall.transmission_db,
    )


def check_wall(key: WallKey) -> tuple[float, float]:
    """The wall's facing normal, or ``InputError`` for a wall that cannot be a segment.

    NaN or infinite end points (or transmission) and zero-length walls are refused.
    A zero normal means the right-hand side of a->b seen from above.

    >>> check_wall((0.0, 0.0, 0.0, 2.0, 0, -1, 0.0, 0.0, -9.0))
    (2.0, -0.0)
    """
    ax, az, bx, bz, _flags, _obj, nx, nz, transmission_db = key
    if not all(math.isfinite(v) for v in (ax, az, bx, bz, nx, nz)):
        raise InputError(f"Wall: end points and normal must be finite, got {key[:4]} "
                         f"n={key[6:8]}")
    if not math.isfinite(transmission_db):
        raise InputError(f"Wall: transmission_db {transmission_db!r} must be finite")
    if math.hypot(bx - ax, bz - az) < MIN_WALL_LENGTH_M:
        raise InputError(f"Wall: zero-length wall from ({ax}, {az}) to ({bx}, {bz})")
    if nx == 0.0 and nz == 0.0:
        return (bz - az, -(bx - ax))
    return (nx, nz)


@dataclass(slots=True)
class _Mirrored:
    key: WallKey
    shape: pymunk.Segment | None


class WallSpace:
    """Walls by entity, mirrored into one static pymunk ``Space``.

    Example:
        >>> space = WallSpace()
        >>> space.set_wall(1, Wall(0.0, -5.0, 0.0, 5.0))
        True
        >>> [round(h.distance, 3) for h in space.hits((-2.0, 0.0, 0.0), (3.0, 0.0, 0.0))]
        [2.0]
    """

    def __init__(self, units_per_m: float = 1.0, reader: WallReader | None = None) -> None:
        if not (math.isfinite(units_per_m) and units_per_m > 0.0):
            raise InputError(f"WallSpace: units_per_m must be positive, got {units_per_m!r}")
        self.units_per_m = units_per_m
        self.space = pymunk.Space()
        self._walls: dict[int, _Mirrored] = {}
        self.reader = WallReader() if reader is None else reader
        """Which walls changed since ``follow`` last looked (``soundscape.walls``)."""
        self.rays_cast = 0
        self.rays = RayCaster(self.space, _RAY_FILTER)

    def __len__(self) -> int:
        return sum(1 for m in self._walls.values() if m.shape is not None)

    def set_wall(self, entity: int, wall: Wall) -> bool:
        """Add or move ``entity``'s wall. False when unchanged; ``InputError`` when bad.

        A bad wall removes the entity's previous segment (the wall is skipped).
        """
        key = wall_key(wall)
        mirrored = self._walls.get(entity)
        if mirrored is not None and mirrored.key == key:
            return False
        self._store(entity, key, mirrored, reindex=True)
        return True

    def _store(self, entity: int, key: WallKey, mirrored: _Mirrored | None, reindex: bool) -> bool:
        """Mirror ``key``; True when an existing segment moved (needs ``reindex_static``)."""
        try:
            normal = check_wall(key)
        except InputError:
            if mirrored is not None and mirrored.shape is not None:
                self._drop_shape(mirrored.shape)
            self._walls[entity] = _Mirrored(key, None)
            raise
        ax, az, bx, bz, flags, object_id, _nx, _nz, transmission_db = key
        if mirrored is not None and mirrored.shape is not None:
            shape = mirrored.shape
            shape.unsafe_set_endpoints((ax, az), (bx, bz))
            moved = True
        else:
            shape = pymunk.Segment(self.space.static_body, (ax, az), (bx, bz), 0.0)
            self.space.add(shape)
            moved = False
        shape.filter = _SKIPPED_FILTER if flags & WALL_SKIPPED_FLAGS else _RAY_FILTER
        # a wall cannot amplify: a positive transmission counts as 0 dB
        self.rays.register(shape, (flags, object_id, normal[0], normal[1],
                                   min(transmission_db, 0.0)))
        self._walls[entity] = _Mirrored(key, shape)
        if moved and reindex:
            self.space.reindex_static()
        return moved

    def remove_wall(self, entity: int) -> bool:
        """Take ``entity``'s wall out of the space; False when it had none."""
        self.reader.components.pop(entity, None)
        mirrored = self._walls.pop(entity, None)
        if mirrored is None:
            return False
        if mirrored.shape is not None:
            self._drop_shape(mirrored.shape)
        return True

    def _drop_shape(self, shape: pymunk.Segment) -> None:
        """Remove ``shape`` for good, so walls that come and go do not grow the space
        (issue 13's soak). pymunk keeps a removed shape twice: in the space until the
        next ``Space.step`` (queries never step; Chipmunk returns at once for a zero
        step) and in its body's shape set until the shape leaves the body."""
        self.rays.forget(shape)
        self.space.remove(shape)
        self.space.step(0.0)
        shape.body = None

    def sync(self, walls: Iterable[tuple[int, Wall]]) -> list[tuple[int, str]]:
        """Mirror the world's walls: add new ones, move changed ones, drop vanished ones.

        Returns the walls refused this time as ``(entity, reason)``; a refused wall
        is reported once, until it changes again.
        """
        walls = list(walls)
        components = self.reader.components
        for entity, wall in walls:
            components[entity] = wall
        refused = self._mirror(walls)
        seen = {entity for entity, _ in walls}
        for entity in [e for e in self._walls if e not in seen]:
            self.remove_wall(entity)
        return refused

    def mark_moved(self, entity: int) -> None:
        """``entity``'s ``Wall`` was edited in place: ``follow`` mirrors it next time."""
        self.reader.marked.add(entity)

    def follow(self, walls: list[tuple[int, Wall]]) -> list[tuple[int, str]]:
        """``sync`` for the walls that changed: added, removed, replaced or marked moved
        (``WallReader.changes``: nothing is looked at while nothing changed).

        ``walls`` is esper's cached ``get_component(Wall)`` list. A wall edited in
        place and not marked keeps its old segment.
        """
        changed, gone = self.reader.changes(walls)
        for entity in gone:
            self.remove_wall(entity)
        return self._mirror(changed) if changed else []

    def _mirror(self, walls: list[tuple[int, Wall]]) -> list[tuple[int, str]]:
        """Mirror these walls (compared by key); the refused ones as ``(entity, reason)``."""
        refused: list[tuple[int, str]] = []
        moved = False
        for entity, wall in walls:
            key = wall_key(wall)
            mirrored = self._walls.get(entity)
            if mirrored is not None and mirrored.key == key:
                continue
            try:
                moved = self._store(entity, key, mirrored, reindex=False) or moved
            except InputError as error:
                refused.append((entity, str(error)))
        if moved:
            self.space.reindex_static()
        return refused

    def hits(
        self, place: tuple[float, float, float], listener: tuple[float, float, float]
    ) -> list[WallHit]:
        """Every wall from ``place`` to ``listener`` (metres, world frame), ordered from the place.

        Distances are along the 3D ray, in Oni units; skipped quads never appear.
        """
        return [WallHit._make(hit) for hit in self.hit_tuples(place, listener)]

    def hit_tuples(
        self, place: tuple[float, float, float], listener: tuple[float, float, float]
    ) -> list[tuple[float, int, int, float]]:
        """``hits`` as plain ``(distance, flags, object_id, facing_dot)`` tuples (the hot path)."""
        px, py, pz = place
        lx, ly, lz = listener
        dx, dz = lx - px, lz - pz
        self.rays_cast += 1
        if dx * dx + dz * dz <= 1e-18:
            return []
        raw = self.rays.cast((px, pz), (lx, lz))
        if not raw:
            return []
        length = math.sqrt(dx * dx + (ly - py) ** 2 + dz * dz) * self.units_per_m
        if len(raw) > 1:
            raw.sort(key=_alpha)
        return [
            (alpha * length, flags, object_id, nx * dx + nz * dz)
            for alpha, (flags, object_id, nx, nz, _db) in raw
        ]

    def crossings(
        self, place: tuple[float, float, float], listener: tuple[float, float, float]
    ) -> tuple[int, float]:
        """(walls, summed transmission dB) from ``place`` to ``listener``: the modern law.

        The same ray as ``hit_tuples`` (one query path); every wall on it counts
        but those within 0.1 m of the place (``rules.NEAR_PLACE_SQ``: a sound
        hung on a wall is not behind it). Skipped quads never appear.

        >>> space = WallSpace()
        >>> space.set_wall(1, Wall(0.0, -5.0, 0.0, 5.0, transmission_db=-6.0))
        True
        >>> space.crossings((-2.0, 0.0, 0.0), (3.0, 0.0, 0.0))
        (1, -6.0)
        """
        px, _py, pz = place
        lx, _ly, lz = listener
        dx, dz = lx - px, lz - pz
        self.rays_cast += 1
        length_sq = dx * dx + dz * dz
        if length_sq <= 1e-18:
            return 0, 0.0
        raw = self.rays.cast((px, pz), (lx, lz))
        near = NEAR_PLACE_SQ / length_sq  # alpha^2 below this: within 0.1 m
        walls, loss = 0, 0.0
        for alpha, info in raw:
            if alpha * alpha >= near:
                walls += 1
                loss += info[4]
        return walls, loss
