"""The Redguard side of the village: the player's torch, the rope swing, village effects."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from soundscape.demo_world.game import DemoGame


class RedguardVillage:
    """Drives the Redguard runtime from the game each frame."""

    def __init__(self, game: DemoGame) -> None:
        self.game = game
        self.ctx = game.ctx
        self.torch_lit = False

    def step(self, dt: float) -> None:
        """One frame of the rope swing and the village effects."""
