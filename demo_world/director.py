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

MUSIC = "mus_village"
VILLAGER_LINES = ("villager_01", "villager_02", "villager_03")
VILLAGER_NEAR_M = 12.0
LINE_PAUSE_S = 0.4


class Director(esper.Processor):
    """Runs the village's sound logic each frame, from game time."""

    def __init__(self, game: DemoGame) -> None:
        super().__init__()
        self.game = game
        self.ctx = game.ctx
        village = game.village
        self.archer = Archer(self.ctx, village.spot("tower").as_xz(),
                             village.spot("bolt_target").as_xz())
        self.villager = village.spot("villager").as_xz()
        self.in_village = False
        self.next_line = 0
        self.line_ready_s = 0.0
        self.redguard = game.population.redguard
        self.spatial = game.population.spatial

    def process(self, dt: float = 0.0, *args: object, **kwargs: object) -> None:
        dt = float(dt)
        if not math.isfinite(dt) or dt <= 0.0:
            return
        # The director runs before soundscape's clock steps: act on this frame's dt.
        self.archer.step(dt)
        if self.spatial is not None:
            self.spatial.step(dt)
        pos = self.game.position
        if self.ctx.has("oni"):
            self._music(pos.x_m, pos.z_m)
            self._villager(pos.x_m, pos.z_m)
        if self.redguard is not None:
            self.redguard.step(dt)

    def _music(self, x: float, z: float) -> None:
        """Entering the village starts the music (in, then loop); leaving stops it (out)."""
        inside = self.game.village.in_music_zone(x, z)
        if inside == self.in_village:
            return
        self.in_village = inside
        scripts = self.ctx.oni.scripts
        if inside:
            scripts.sound_music_start(MUSIC)
        else:
            scripts.sound_music_stop(MUSIC)

    def _villager(self, x: float, z: float) -> None:
        """Near the villager, his lines play one after another (one dialogue at a time)."""
        if math.hypot(x - self.villager[0], z - self.villager[1]) > VILLAGER_NEAR_M:
            return
        scripts = self.ctx.oni.scripts
        now = self.ctx.clock.now_s
        if scripts.dialog_playing():
            self.line_ready_s = now + LINE_PAUSE_S
            return
        if now < self.line_ready_s:
            return
        line = VILLAGER_LINES[self.next_line % len(VILLAGER_LINES)]
        if scripts.sound_dialog_play(line):
            self.next_line += 1
        self.line_ready_s = now + LINE_PAUSE_S
