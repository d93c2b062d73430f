"""Where things are: the shared world frame every runtime converts from.

The frame is right-handed with **y up**: x east, z north, metres. Headings are
compass headings in radians: 0 faces +z (north), pi/2 faces +x (east),
clockwise seen from above. Each runtime converts to its own units (AC metres
with z up, Oni world units, Redguard world units x 256 and 2048-unit angles).
"""

from __future__ import annotations

import math
from dataclasses import dataclass


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
