"""The player: input state, walking and turning, walls that stop her, indoor cells.

``WalkSystem`` is one of the game's own processors (it runs before soundscape's,
which sit below the plugin's base priority): it moves the player's ``Position``
from the ``Walker`` input each frame, keeps her out of walls, and sets the
``Listener``'s heading, ``outdoors`` flag and AC objcell (an EnvCell id inside a
building, None outdoors so the AC runtime derives the land cell).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import esper

from soundscape.components.spatial import Listener, Position
from soundscape.demo_world.village import WALL_SEGMENT, Village
from soundscape.demo_world.world import WORLD_X_M, WORLD_Z_M, Terrain

EAR_HEIGHT_M = 1.6


@dataclass(slots=True)
class Walker:
    """What the keys ask for this frame, and how fast the player goes.

    Attributes:
        forward: -1 (back), 0 or 1 (forward).
        strafe: -1 (left), 0 or 1 (right).
        turn: -1 (left, counter-clockwise), 0 or 1 (right).
        speed_m_s: walking speed.
        turn_rad_s: turning speed.
        indoors_building: the building she stands in ("" outdoors).
    """

    forward: float = 0.0
    strafe: float = 0.0
    turn: float = 0.0
    speed_m_s: float = 8.0
    turn_rad_s: float = 2.2
    indoors_building: str = ""


def _crosses(ax: float, az: float, bx: float, bz: float, wall: WALL_SEGMENT) -> bool:
    """True when segment a->b crosses the wall segment (proper or touching)."""
    cx, cz, dx, dz = wall

    def side(px: float, pz: float, qx: float, qz: float, rx: float, rz: float) -> float:
        return (qx - px) * (rz - pz) - (qz - pz) * (rx - px)

    d1 = side(cx, cz, dx, dz, ax, az)
    d2 = side(cx, cz, dx, dz, bx, bz)
    d3 = side(ax, az, bx, bz, cx, cz)
    d4 = side(ax, az, bx, bz, dx, dz)
    return (d1 * d2 <= 0.0) and (d3 * d4 <= 0.0) and not (d1 == 0.0 and d2 == 0.0)


def blocked(village: Village, ax: float, az: float, bx: float, bz: float) -> bool:
    """Whether a step from a to b goes through any wall of the village."""
    return any(_crosses(ax, az, bx, bz, wall) for wall in village.walls())


def place_listener(
    listener: Listener, walker: Walker, village: Village, x_m: float, z_m: float
) -> None:
    """Indoors or out: AC hears terrain only outdoors (``CellManager::ChangePosition``)."""
    building = village.building_at(x_m, z_m)
    if building is None:
        listener.outdoors = True
        listener.objcell_id = None
        walker.indoors_building = ""
    else:
        listener.outdoors = False
        listener.objcell_id = building.cell_id
        walker.indoors_building = building.name


class WalkSystem(esper.Processor):
    """Moves the player from her ``Walker`` input (a game processor, priority 10)."""

    def __init__(self, terrain: Terrain, village: Village) -> None:
        super().__init__()
        self.terrain = terrain
        self.village = village
        self._walls = village.walls()

    def process(self, dt: float = 0.0, *args: object, **kwargs: object) -> None:
        dt = float(dt)
        if not math.isfinite(dt) or dt <= 0.0:
            return
        for _entity, (walker, pos, listener) in esper.get_components(Walker, Position, Listener):
            listener.heading_rad = (listener.heading_rad + walker.turn * walker.turn_rad_s * dt) % (
                2 * math.pi
            )
            if walker.forward or walker.strafe:
                self._move(walker, pos, listener, dt)
            place_listener(listener, walker, self.village, pos.x_m, pos.z_m)

    def _move(self, walker: Walker, pos: Position, listener: Listener, dt: float) -> None:
        heading = listener.heading_rad
        # Compass frame: forward is (sin h, cos h) in (x, z); right is (cos h, -sin h).
        fx, fz = math.sin(heading), math.cos(heading)
        rx, rz = math.cos(heading), -math.sin(heading)
        step = walker.speed_m_s * dt
        dx = (walker.forward * fx + walker.strafe * rx) * step
        dz = (walker.forward * fz + walker.strafe * rz) * step
        x0, z0 = pos.x_m, pos.z_m
        for mx, mz in ((dx, dz), (dx, 0.0), (0.0, dz)):
            x1 = min(max(x0 + mx, 0.5), WORLD_X_M - 0.5)
            z1 = min(max(z0 + mz, 0.5), WORLD_Z_M - 0.5)
            if not any(_crosses(x0, z0, x1, z1, wall) for wall in self._walls):
                pos.x_m, pos.z_m = x1, z1
                break
        pos.y_m = self.terrain.height_m(pos.x_m, pos.z_m) + EAR_HEIGHT_M
