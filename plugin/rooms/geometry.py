"""Which zone a point of the floor plan is in: shapes, and rooms bounded by walls.

A zone is a polygon or a circle. A zone bounded by walls keeps only the part of
its shape reachable from its anchor without crossing a wall: the shape's
bounding box is cut into ``CELL_M`` cells, the cells a wall passes through are
closed, and a 4-connected flood fill from the anchor's cell marks the room.
The fill is cached until the walls or the zone change; a lookup is one cell.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

import numpy as np

from soundscape.components.rooms import ReverbZone
from soundscape.errors import InputError

CELL_M = 0.25
"""Side of a flood-fill cell (a wall closes every cell it passes through)."""

MAX_CELLS = 1_000_000
"""A walled zone's grid is at most this many cells (about 250 x 250 m at 0.25 m)."""

Segment = tuple[float, float, float, float]


def check_zone(zone: ReverbZone, where: str) -> None:
    """Raise InputError naming ``where`` and the field when ``zone``'s shape is unusable."""
    if zone.polygon is not None:
        points = list(zone.polygon)
        if len(points) < 3 or not all(
                len(p) == 2 and all(isinstance(c, (int, float)) and math.isfinite(c) for c in p)
                for p in points):
            raise InputError(f"{where}.polygon: needs three or more finite (x_m, z_m) corners")
        if polygon_area(points) <= 0.0:
            raise InputError(f"{where}.polygon: its corners enclose no area")
    elif zone.center_m is not None:
        if len(zone.center_m) != 2 or not all(math.isfinite(c) for c in zone.center_m):
            raise InputError(f"{where}.center_m: {zone.center_m!r} is not a finite (x_m, z_m)")
        if not (math.isfinite(zone.radius_m) and zone.radius_m > 0.0):
            raise InputError(f"{where}.radius_m: {zone.radius_m!r} must be > 0")
    else:
        raise InputError(f"{where}: give a polygon or a center_m and radius_m")
    if not (math.isfinite(zone.send) and zone.send >= 0.0):
        raise InputError(f"{where}.send: {zone.send!r} must be finite and >= 0")


def polygon_area(points: list[tuple[float, float]]) -> float:
    """The polygon's area (shoelace), whatever its winding.

    >>> polygon_area([(0, 0), (2, 0), (2, 3), (0, 3)])
    6.0
    """
    total = 0.0
    for (x0, z0), (x1, z1) in zip(points, points[1:] + points[:1], strict=True):
        total += x0 * z1 - x1 * z0
    return abs(total) / 2.0


def in_polygon(x: float, z: float, points: tuple[tuple[float, float], ...]) -> bool:
    """Even-odd crossing test.

    >>> square = ((0, 0), (2, 0), (2, 2), (0, 2))
    >>> in_polygon(1, 1, square), in_polygon(3, 1, square)
    (True, False)
    """
    inside = False
    n = len(points)
    for i in range(n):
        x0, z0 = points[i]
        x1, z1 = points[(i + 1) % n]
        if (z0 > z) != (z1 > z) and x < x0 + (z - z0) * (x1 - x0) / (z1 - z0):
            inside = not inside
    return inside


def in_shape(zone: ReverbZone, x: float, z: float) -> bool:
    """``(x, z)`` inside the zone's polygon or circle."""
    if zone.polygon is not None:
        return in_polygon(x, z, zone.polygon)
    cx, cz = zone.center_m or (0.0, 0.0)
    return (x - cx) ** 2 + (z - cz) ** 2 <= zone.radius_m ** 2


def bounds(zone: ReverbZone) -> tuple[float, float, float, float]:
    """(min x, min z, max x, max z) of the zone's shape."""
    if zone.polygon is not None:
        xs = [p[0] for p in zone.polygon]
        zs = [p[1] for p in zone.polygon]
        return min(xs), min(zs), max(xs), max(zs)
    cx, cz = zone.center_m or (0.0, 0.0)
    r = zone.radius_m
    return cx - r, cz - r, cx + r, cz + r


def area(zone: ReverbZone) -> float:
    """The zone's area in square metres (the tie-break between overlapping zones)."""
    if zone.polygon is not None:
        return polygon_area(list(zone.polygon))
    return math.pi * zone.radius_m ** 2


def anchor(zone: ReverbZone) -> tuple[float, float]:
    """Where a walled zone's flood fill starts: ``anchor_m``, else the shape's centre."""
    if zone.anchor_m is not None:
        return zone.anchor_m
    if zone.polygon is not None:
        return (sum(p[0] for p in zone.polygon) / len(zone.polygon),
                sum(p[1] for p in zone.polygon) / len(zone.polygon))
    return zone.center_m or (0.0, 0.0)


@dataclass(slots=True)
class RoomGrid:
    """The cells of a walled zone reachable from its anchor."""

    x0: float
    z0: float
    cells: np.ndarray  # bool (nx, nz)

    def contains(self, x: float, z: float) -> bool:
        i = int(math.floor((x - self.x0) / CELL_M))
        k = int(math.floor((z - self.z0) / CELL_M))
        return 0 <= i < self.cells.shape[0] and 0 <= k < self.cells.shape[1] and bool(
            self.cells[i, k])


def room_grid(zone: ReverbZone, walls: list[Segment], where: str) -> RoomGrid:
    """Flood-fill the part of ``zone``'s shape its anchor reaches without crossing ``walls``."""
    x_lo, z_lo, x_hi, z_hi = bounds(zone)
    x0, z0 = x_lo - CELL_M, z_lo - CELL_M
    nx = int(math.ceil((x_hi - x0) / CELL_M)) + 2
    nz = int(math.ceil((z_hi - z0) / CELL_M)) + 2
    if nx * nz > MAX_CELLS:
        raise InputError(f"{where}: a walled zone of {nx * nz} cells is over {MAX_CELLS}; "
                         f"make it smaller or set walls=False")
    centres_x = x0 + (np.arange(nx) + 0.5) * CELL_M
    centres_z = z0 + (np.arange(nz) + 0.5) * CELL_M
    open_ = np.zeros((nx, nz), dtype=bool)
    for i, cx in enumerate(centres_x.tolist()):
        for k, cz in enumerate(centres_z.tolist()):
            open_[i, k] = in_shape(zone, cx, cz)
    for ax, az, bx, bz in walls:
        steps = max(int(math.hypot(bx - ax, bz - az) / (CELL_M / 4.0)), 1)
        t = np.linspace(0.0, 1.0, steps + 1)
        ii = np.floor((ax + (bx - ax) * t - x0) / CELL_M).astype(int)
        kk = np.floor((az + (bz - az) * t - z0) / CELL_M).astype(int)
        ok = (ii >= 0) & (ii < nx) & (kk >= 0) & (kk < nz)
        open_[ii[ok], kk[ok]] = False
    reached = np.zeros((nx, nz), dtype=bool)
    sx, sz = anchor(zone)
    start = (int(math.floor((sx - x0) / CELL_M)), int(math.floor((sz - z0) / CELL_M)))
    if 0 <= start[0] < nx and 0 <= start[1] < nz and open_[start]:
        reached[start] = True
        todo = deque([start])
        while todo:
            i, k = todo.popleft()
            for ni, nk in ((i + 1, k), (i - 1, k), (i, k + 1), (i, k - 1)):
                if 0 <= ni < nx and 0 <= nk < nz and open_[ni, nk] and not reached[ni, nk]:
                    reached[ni, nk] = True
                    todo.append((ni, nk))
    return RoomGrid(x0, z0, reached)
