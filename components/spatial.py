"""Where things are: the shared world frame every runtime converts from.

The frame is right-handed with **y up**: x east, z north, metres. Headings are
compass headings in radians: 0 faces +z (north), pi/2 faces +x (east),
clockwise seen from above. Each runtime converts to its own units (AC metres
with z up, Oni world units, Redguard world units x 256 and 2048-unit angles).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol


class Mapping2D(Protocol):
    """What ``Position.from_2d`` needs of a 2D mapping (``soundscape.coords.Map2D``)."""

    def to_world(self, x: float, y: float) -> tuple[float, float, float]: ...


@dataclass(slots=True)
class Position:
    """A point in the world frame, metres (x east, y up, z north)."""

    x_m: float = 0.0
    y_m: float = 0.0
    z_m: float = 0.0

    def is_finite(self) -> bool:
        """False when any coordinate is NaN or infinite (such a place is skipped)."""
        return math.isfinite(self.x_m) and math.isfinite(self.y_m) and math.isfinite(self.z_m)

    def as_tuple(self) -> tuple[float, float, float]:
        return (self.x_m, self.y_m, self.z_m)

    @classmethod
    def from_2d(cls, x: float, y: float, mapping: Mapping2D) -> Position:
        """The place of a 2D game's point ``(x, y)`` (pixels, tiles...) under ``mapping``
        (a ``soundscape.coords.Map2D``: scale, origin, which way y runs).

        >>> from soundscape.coords import Map2D
        >>> Position.from_2d(64, 96, Map2D(pixels_per_m=32))
        Position(x_m=2.0, y_m=0.0, z_m=3.0)
        """
        x_m, y_m, z_m = mapping.to_world(x, y)
        return cls(x_m, y_m, z_m)

    def set_2d(self, x: float, y: float, mapping: Mapping2D) -> None:
        """Move to the 2D point ``(x, y)`` under ``mapping`` (in place)."""
        self.x_m, self.y_m, self.z_m = mapping.to_world(x, y)


@dataclass(slots=True)
class Velocity:
    """How fast an emitter or the listener moves, metres a second (world frame).

    Doppler reads it from an entity with an ``Emitter`` or the ``Listener``.
    Without one, the plugin derives the velocity from the change of the entity's
    ``Position`` since the last tick (a jump at the speed of sound or faster is
    taken as a teleport: velocity 0).
    """

    x_mps: float = 0.0
    y_mps: float = 0.0
    z_mps: float = 0.0

    def as_tuple(self) -> tuple[float, float, float]:
        return (self.x_mps, self.y_mps, self.z_mps)


@dataclass(slots=True)
class Listener:
    """The ears. An entity with ``Listener`` and ``Position`` is what every runtime hears from.

    Attributes:
        heading_rad: compass heading the listener faces (0 north, clockwise).
        objcell_id: AC objcell the listener stands in; 0 means "no cell"
            (``CellManager::Reset``); None lets the AC runtime derive it from the position.
        outdoors: AC "outdoors or seen_outside": False silences the terrain ambience.
        active: several listeners may exist; the runtimes hear from the first active one.
    """

    heading_rad: float = 0.0
    objcell_id: int | None = None
    outdoors: bool = True
    active: bool = True
