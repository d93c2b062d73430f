"""The village: buildings (walls and indoor cells) and where the sound objects stand.

Everything here is plain data in the shared frame (x east, z north, metres). The
game turns it into entities: a ``Wall`` per wall segment, an indoor AC cell per
building interior, Oni placed ambients, the archer tower's bolts, the villager,
the Redguard rope and effects.

>>> village = build_village()
>>> village.building_at(356.0, 410.0).name
'house'
>>> village.building_at(384.0, 384.0) is None
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from soundscape.demo_world.world import VILLAGE_CENTRE_M

WALL_SEGMENT = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class Building:
    """An axis-aligned building with one door gap in its south wall.

    Attributes:
        name: what the game calls it.
        x0_m, z0_m, x1_m, z1_m: the footprint (south-west and north-east corners).
        door_x0_m, door_x1_m: the door gap in the south wall.
        cell_id: the AC indoor objcell id (>= 0x100 in its landblock, as EnvCells are).
    """

    name: str
    x0_m: float
    z0_m: float
    x1_m: float
    z1_m: float
    door_x0_m: float
    door_x1_m: float
    cell_id: int

    def contains(self, x_m: float, z_m: float) -> bool:
        return self.x0_m < x_m < self.x1_m and self.z0_m < z_m < self.z1_m

    def walls(self) -> list[WALL_SEGMENT]:
        """The wall segments (ax, az, bx, bz), counter-clockwise, the door left open."""
        x0, z0, x1, z1 = self.x0_m, self.z0_m, self.x1_m, self.z1_m
        return [
            (x0, z0, self.door_x0_m, z0),
            (self.door_x1_m, z0, x1, z0),
            (x1, z0, x1, z1),
            (x1, z1, x0, z1),
            (x0, z1, x0, z0),
        ]


@dataclass(frozen=True, slots=True)
class Spot:
    """A named place in the village."""

    name: str
    x_m: float
    z_m: float

    def as_xz(self) -> tuple[float, float]:
        return (self.x_m, self.z_m)


@dataclass(slots=True)
class Village:
    """The village's buildings, free-standing walls and named spots."""

    buildings: list[Building]
    palisade: list[WALL_SEGMENT]
    spots: dict[str, Spot] = field(default_factory=dict)
    music_radius_m: float = 100.0

    def building_at(self, x_m: float, z_m: float) -> Building | None:
        """The building whose interior holds the point, or None outdoors."""
        for building in self.buildings:
            if building.contains(x_m, z_m):
                return building
        return None

    def walls(self) -> list[WALL_SEGMENT]:
        """Every occluding (and blocking) wall segment of the village."""
        segments = list(self.palisade)
        for building in self.buildings:
            segments.extend(building.walls())
        return segments

    def in_music_zone(self, x_m: float, z_m: float) -> bool:
        cx, cz = VILLAGE_CENTRE_M
        return math.hypot(x_m - cx, z_m - cz) < self.music_radius_m

    def spot(self, name: str) -> Spot:
        return self.spots[name]


def indoor_cell_id(x_m: float, z_m: float, index: int) -> int:
    """An AC EnvCell id in the landblock under the point: ``0xXXYY0100 + index``.

    Landblock bytes count 192 m blocks from the world origin.
    """
    bx, bz = int(x_m // 192.0), int(z_m // 192.0)
    return (bx << 24) | (bz << 16) | (0x100 + index)


def build_village() -> Village:
    """The fixed village around ``VILLAGE_CENTRE_M`` (the tour's route relies on it)."""
    house = Building("house", 340.0, 396.0, 372.0, 420.0, 352.0, 360.0,
                     indoor_cell_id(356.0, 408.0, 0))
    smithy = Building("smithy", 396.0, 396.0, 428.0, 420.0, 408.0, 416.0,
                      indoor_cell_id(412.0, 408.0, 1))
    palisade = [(330.0, 440.0, 440.0, 440.0)]
    spots = {
        spot.name: spot
        for spot in (
            Spot("waterfall", 384.0, 462.0),
            Spot("forge", 412.0, 410.0),
            Spot("tower", 300.0, 350.0),
            Spot("bolt_target", 300.0, 440.0),
            Spot("villager", 440.0, 376.0),
            Spot("rope", 370.0, 360.0),
            Spot("bell", 384.0, 384.0),
            Spot("mill", 460.0, 404.0),
            Spot("start", 240.0, 384.0),
            Spot("well", 398.0, 372.0),
        )
    }
    return Village(buildings=[house, smithy], palisade=palisade, spots=spots)
