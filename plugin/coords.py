"""2D games in soundscape's 3D frame: pixels (or tiles) to metres and back.

soundscape hears in metres, right-handed with y up: x east, z north (see
``soundscape.components.spatial``). A 2D game thinks in pixels: x to the right,
and y up the screen (pyglet, arcade) or down it (most image and tile tools).
``Map2D`` joins the two: the screen's right is east, the screen's up is north,
the floor is at ``height_m``, and ``pixels_per_m`` pixels make one metre.

>>> screen = Map2D(pixels_per_m=32, origin=(320, 180), y_down=True)
>>> screen.to_world(352, 148)            # one metre right and one up from the origin
(1.0, 0.0, 1.0)
>>> screen.to_2d((1.0, 0.0, 1.0))
(352.0, 148.0)
>>> round(screen.heading(0, -5), 6), round(screen.heading(5, 0), 6)  # up, right
(0.0, 1.570796)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from soundscape.components.spatial import Position, Velocity
from soundscape.errors import InputError

__all__ = ["Map2D"]


@dataclass(frozen=True, slots=True)
class Map2D:
    """A 2D game's plane as soundscape's floor.

    Attributes:
        pixels_per_m: how many of the game's units make one metre (a 32-pixel
            tile as 1 m: 32). Distances, and so loudness, scale with it.
        origin: the game point that is the world's (0, 0), in game units.
        y_down: True when the game's y grows down the screen (images, Tiled,
            SDL); False (the default) when it grows up (pyglet, arcade).
        height_m: the world height of the plane (the listener's ear height is
            usually the same, so height makes no difference).
    """

    pixels_per_m: float = 1.0
    origin: tuple[float, float] = (0.0, 0.0)
    y_down: bool = False
    height_m: float = 0.0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.pixels_per_m) and self.pixels_per_m > 0.0):
            raise InputError(f"Map2D: pixels_per_m must be a positive number, "
                             f"got {self.pixels_per_m!r}")
        ox, oy = (float(v) for v in self.origin)
        if not (math.isfinite(ox) and math.isfinite(oy) and math.isfinite(self.height_m)):
            raise InputError(f"Map2D: origin {self.origin!r} and height_m {self.height_m!r} "
                             "must be finite")
        object.__setattr__(self, "origin", (ox, oy))

    @property
    def _north(self) -> float:
        return -1.0 if self.y_down else 1.0

    def to_world(self, x: float, y: float) -> tuple[float, float, float]:
        """World (x, y, z) metres of the game point (x, y)."""
        s = 1.0 / self.pixels_per_m
        return ((x - self.origin[0]) * s, self.height_m,
                (y - self.origin[1]) * s * self._north)

    def to_2d(self, xyz: Sequence[float] | Position) -> tuple[float, float]:
        """The game point of a world place (the plane's height is dropped)."""
        if isinstance(xyz, Position):
            xyz = xyz.as_tuple()
        return (xyz[0] * self.pixels_per_m + self.origin[0],
                xyz[2] * self.pixels_per_m * self._north + self.origin[1])

    def position(self, x: float, y: float) -> Position:
        """A ``Position`` at the game point (x, y) (``Position.from_2d(x, y, self)``)."""
        return Position.from_2d(x, y, self)

    def velocity(self, vx: float, vy: float) -> Velocity:
        """A ``Velocity`` from a game velocity in game units a second."""
        s = 1.0 / self.pixels_per_m
        return Velocity(vx * s, 0.0, vy * s * self._north)

    def heading(self, dx: float, dy: float) -> float:
        """The compass heading (radians, 0 up the screen, clockwise) of a move (dx, dy)."""
        return math.atan2(dx, dy * self._north) % math.tau
