"""The tour's fixed route: waypoints with dwell times, and an autopilot along it.

The route starts on the village's west road, passes under the archer's bolts,
visits the villager, steps into the house (an indoor cell), listens to the
waterfall from behind the palisade and then in the open, leaves the village
and crosses forest, snow, the lake shore and water, and the desert. However
long the tour, the whole route is walked: the walking speed is the route's
length over the time left after the dwells (the dwells shrink when the tour is
too short for them at ``MAX_SPEED_M_S``).

>>> pilot = Autopilot(ROUTE, 120.0)
>>> pilot.place(0.0)[:2] == (ROUTE[0].x_m, ROUTE[0].z_m)
True
>>> round(pilot.place(120.0)[0], 1) == ROUTE[-1].x_m
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from soundscape.demo_world.world import CELL_M, TERRAIN_IDS, Terrain


@dataclass(frozen=True, slots=True)
class Waypoint:
    """A place on the route; the autopilot waits ``dwell_s`` there facing ``face``."""

    label: str
    x_m: float
    z_m: float
    dwell_s: float = 0.0
    face: tuple[float, float] | None = None
    torch: bool | None = None
    """Light (True) or snuff (False) the torch on arriving; None leaves it."""
    terrain: str | None = None
    """The terrain this stop is for: ``route_for`` moves it onto that terrain."""


ROUTE: tuple[Waypoint, ...] = (
    Waypoint("west road (grassland)", 240.0, 384.0),
    Waypoint("under the bolts", 300.0, 384.0, 1.5, face=(300.0, 440.0)),
    Waypoint("village plaza", 384.0, 384.0),
    Waypoint("villager", 432.0, 380.0, 5.0, face=(440.0, 376.0)),
    Waypoint("house door", 356.0, 390.0),
    Waypoint("inside the house", 356.0, 410.0, 3.0, torch=True),
    Waypoint("house door", 356.0, 390.0),
    Waypoint("alley", 384.0, 392.0),
    Waypoint("behind the palisade", 384.0, 430.0, 3.0, face=(384.0, 462.0)),
    Waypoint("palisade end", 448.0, 432.0),
    Waypoint("round the palisade", 448.0, 452.0),
    Waypoint("waterfall in the open", 414.0, 472.0, 3.0, face=(384.0, 462.0)),
    Waypoint("village edge", 470.0, 520.0, torch=False),
    Waypoint("forest", 330.0, 690.0, 1.0, terrain="forest"),
    Waypoint("snow", 690.0, 700.0, 1.0, terrain="snow"),
    Waypoint("lake shore", 640.0, 490.0, 1.0, terrain="shore"),
    Waypoint("lake water", 640.0, 384.0, 1.0, terrain="water"),
    Waypoint("desert", 600.0, 130.0, 1.0, terrain="desert"),
    Waypoint("desert west", 420.0, 120.0),
    Waypoint("home meadow", 260.0, 300.0),
)

MAX_SPEED_M_S = 60.0
SEARCH_CELLS = 6
"""How far (land cells) ``route_for`` looks for a stop's terrain."""


def route_for(terrain: Terrain, route: tuple[Waypoint, ...] = ROUTE) -> tuple[Waypoint, ...]:
    """The route with every terrain stop moved onto its terrain for this seed's map.

    A stop goes to the centre of the cell, within ``SEARCH_CELLS`` of where it
    was, that has the most neighbours (3 x 3) of its terrain, the nearest first.
    """
    out = []
    for waypoint in route:
        if waypoint.terrain is None:
            out.append(waypoint)
            continue
        out.append(_move_onto(terrain, waypoint, TERRAIN_IDS[waypoint.terrain]))
    return tuple(out)


def _move_onto(terrain: Terrain, waypoint: Waypoint, wanted: int) -> Waypoint:
    cell = terrain.cell_index(waypoint.x_m, waypoint.z_m)
    if cell is None:
        return waypoint
    types = terrain.types
    best: tuple[int, float, int, int] | None = None
    for ix in range(cell[0] - SEARCH_CELLS, cell[0] + SEARCH_CELLS + 1):
        for iz in range(cell[1] - SEARCH_CELLS, cell[1] + SEARCH_CELLS + 1):
            if not (0 <= ix < terrain.cells_x and 0 <= iz < terrain.cells_z):
                continue
            if types[ix, iz] != wanted:
                continue
            around = types[max(ix - 1, 0): ix + 2, max(iz - 1, 0): iz + 2]
            score = min(int((around == wanted).sum()), 6)  # mostly its terrain is enough
            distance = math.hypot(ix - cell[0], iz - cell[1])
            if best is None or (score, -distance) > (best[0], -best[1]):
                best = (score, distance, ix, iz)
    if best is None:
        return waypoint
    x, z = (best[2] + 0.5) * CELL_M, (best[3] + 0.5) * CELL_M
    return replace(waypoint, x_m=x, z_m=z)


def _heading(dx: float, dz: float) -> float:
    """Compass heading of a direction (0 north, clockwise)."""
    return math.atan2(dx, dz) % (2 * math.pi)


@dataclass(frozen=True, slots=True)
class _Segment:
    start_s: float
    end_s: float
    a: Waypoint
    b: Waypoint | None  # None: dwelling at a


class Autopilot:
    """Where the player is at any tour time: walks the route, waits at the dwells."""

    def __init__(self, route: tuple[Waypoint, ...], seconds: float) -> None:
        if len(route) < 2:
            raise ValueError("a route needs at least two waypoints")
        if not (math.isfinite(seconds) and seconds > 0):
            raise ValueError(f"tour seconds must be positive, got {seconds!r}")
        self.route = route
        self.seconds = seconds
        lengths = [math.hypot(b.x_m - a.x_m, b.z_m - a.z_m) for a, b in zip(route, route[1:],
                                                                            strict=False)]
        self.length_m = sum(lengths)
        dwell = sum(w.dwell_s for w in route)
        walking = seconds - dwell
        scale = 1.0
        if walking < self.length_m / MAX_SPEED_M_S:
            walking = min(self.length_m / MAX_SPEED_M_S, seconds * 0.5)
            scale = (seconds - walking) / dwell if dwell else 1.0
        self.speed_m_s = self.length_m / walking
        self.segments: list[_Segment] = []
        t = 0.0
        for i, a in enumerate(route):
            if a.dwell_s:
                self.segments.append(_Segment(t, t + a.dwell_s * scale, a, None))
                t += a.dwell_s * scale
            if i < len(lengths):
                self.segments.append(_Segment(t, t + lengths[i] / self.speed_m_s, a, route[i + 1]))
                t += lengths[i] / self.speed_m_s

    def segment(self, t_s: float) -> _Segment:
        for seg in self.segments:
            if t_s < seg.end_s:
                return seg
        return self.segments[-1]

    def arrived(self, t_s: float) -> Waypoint | None:
        """The waypoint the player stands at (dwelling there), or None while walking."""
        seg = self.segment(t_s)
        return seg.a if seg.b is None else None

    def label(self, t_s: float) -> str:
        seg = self.segment(t_s)
        return seg.a.label if seg.b is None else f"to {seg.b.label}"

    def place(self, t_s: float) -> tuple[float, float, float]:
        """(x, z, heading) at tour time ``t_s``."""
        seg = self.segment(t_s)
        a, b = seg.a, seg.b
        if b is None:
            face = a.face
            heading = _heading(face[0] - a.x_m, face[1] - a.z_m) if face else 0.0
            if face is None:
                # Keep the heading the player arrived with.
                prev = self.route[max(self.route.index(a) - 1, 0)]
                heading = _heading(a.x_m - prev.x_m, a.z_m - prev.z_m)
            return a.x_m, a.z_m, heading
        span = seg.end_s - seg.start_s
        f = min(max((t_s - seg.start_s) / span, 0.0), 1.0) if span > 0 else 1.0
        x = a.x_m + (b.x_m - a.x_m) * f
        z = a.z_m + (b.z_m - a.z_m) * f
        return x, z, _heading(b.x_m - a.x_m, b.z_m - a.z_m)
