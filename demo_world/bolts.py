"""The archer tower: bolts that fly across the road, each with an Oni flyby impulse.

A bolt is an entity with a ``Position`` and a ``Flyby``; the occlusion feature's
flyby records step it every tick and play its impulse where it passes the
listener. Before a bolt is deleted the game calls
``ctx.occlusion.flybys.projectile_dies`` (the retail deletion callback), as the
``Flyby`` component asks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import esper

from soundscape.components.occlusion import Flyby
from soundscape.components.spatial import Position

if TYPE_CHECKING:
    from soundscape.context import Context

BOLT_IMPULSE = "bolt_flyby"
BOLT_SPEED_M_S = 45.0
BOLT_INTERVAL_TICKS = 75
"""A bolt every 1.25 s."""
BOLT_FAR = 15.0
"""The impulse's far distance (Oni units); heard within three times that."""
BOLT_HEIGHT_M = 3.0


@dataclass(slots=True)
class Bolt:
    """A flying bolt: its velocity (m/s) and how long it has left to fly."""

    vx_m_s: float
    vz_m_s: float
    remaining_s: float


class Archer:
    """Looses a bolt every ``BOLT_INTERVAL_TICKS`` from the tower toward its target.

    ``step`` runs inside the game's director each tick (game time, not wall time).
    """

    def __init__(self, ctx: Context, tower_xz: tuple[float, float], target_xz: tuple[float, float],
                 first_tick: int = 30) -> None:
        self.ctx = ctx
        self.tower = tower_xz
        self.target = target_xz
        self.next_tick = first_tick
        self.fired = 0
        self.rng = ctx.rng.msvc("demo.archer")

    def step(self, dt_s: float) -> None:
        """Loose a bolt when due, then move every bolt by this frame's ``dt_s``."""
        if self.ctx.clock.tick >= self.next_tick:
            self.next_tick = self.ctx.clock.tick + BOLT_INTERVAL_TICKS
            self._loose()
        self._fly(dt_s)

    def _loose(self) -> None:
        # A little aim jitter (+-4 m at the target), from the demo's own MSVC stream.
        jitter = (self.rng.unit() - 0.5) * 8.0
        tx, tz = self.target[0] + jitter, self.target[1]
        dx, dz = tx - self.tower[0], tz - self.tower[1]
        length = math.hypot(dx, dz)
        bolt = Bolt(dx / length * BOLT_SPEED_M_S, dz / length * BOLT_SPEED_M_S,
                    length / BOLT_SPEED_M_S)
        esper.create_entity(
            Position(self.tower[0], BOLT_HEIGHT_M, self.tower[1]),
            Flyby(impulse=BOLT_IMPULSE, far=BOLT_FAR),
            bolt,
        )
        self.fired += 1

    def _fly(self, dt_s: float) -> None:
        flybys = self.ctx.occlusion.flybys if self.ctx.has("occlusion") else None
        for entity, (pos, bolt) in esper.get_components(Position, Bolt):
            pos.x_m += bolt.vx_m_s * dt_s
            pos.z_m += bolt.vz_m_s * dt_s
            bolt.remaining_s -= dt_s
            if bolt.remaining_s <= 0.0:
                if flybys is not None:
                    flybys.projectile_dies(entity, pos.as_tuple())
                esper.delete_entity(entity)
