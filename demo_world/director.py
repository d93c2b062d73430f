"""The village director: the game logic that starts and stops sounds as the player moves.

A game processor (it runs before soundscape's phases each frame): the archer's
bolts, the music zone (start on entering the village, stop on leaving: in,
loop, out), the villager's lines when the player is near, the torch, the rope
swing and the Redguard village effects.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import esper

from soundscape.demo_world.bolts import Archer

if TYPE_CHECKING:
    from soundscape.demo_world.game import DemoGame


class Director(esper.Processor):
    """Runs the village's sound logic once per whole plugin tick."""

    def __init__(self, game: DemoGame) -> None:
        super().__init__()
        self.game = game
        self.ctx = game.ctx
        village = game.village
        self.archer = Archer(self.ctx, village.spot("tower").as_xz(),
                             village.spot("bolt_target").as_xz())
        self.in_village = False
        self.torch_lit = False

    def process(self, dt: float = 0.0, *args: object, **kwargs: object) -> None:
        dt = float(dt)
        if not math.isfinite(dt) or dt <= 0.0:
            return
        # The director runs before soundscape's clock steps: act on this frame's dt.
        self.archer.step(1, dt)
