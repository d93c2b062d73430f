"""The Redguard side of the village: the player's torch, the rope swing, village effects.

Everything goes through ``ctx.redguard`` the Redguard way, on its own 16-channel
``redguard`` bank: effects are MAIN.SFX-style indexed effects with integer PCM
(synthesised 16-bit), the torch is the engine's effect-25 loop on the player,
the rope plays its MPRP effects when its swing velocity changes sign, and the
village effects are SOUP calls: a bell (``Sound``, positional) every 15 s, hens
(``Sound``) at random times, and the mill as an ``AmbientSound`` task that is
called again when the player comes back in range (the task ends for good when
she leaves it, as the seed says).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import esper
import numpy as np

from soundscape.components.redguard import RgObject, RgRope
from soundscape.components.spatial import Position
from soundscape.demo_world.sounds import RATE_HZ, RG_SOUNDS, VILLAGE_GAIN

if TYPE_CHECKING:
    from soundscape.demo_world.game import DemoGame

TORCH_EFFECT = 25
ROPE_EFFECTS = (62, 62, 63)
ROPE_MAX_SWING = 40
"""The rope's maximum swing speed m: q = trunc(m / 4) = 10."""
ROPE_PERIOD_S = 3.2
BELL_EFFECT, HEN_EFFECT, MILL_EFFECT = 10, 11, 12
BELL_EVERY_TICKS = 900
BELL_FIRST_TICK = 450
EFFECTS: dict[int, tuple[str, int]] = {
    TORCH_EFFECT: ("rg_torch", 100),
    62: ("rg_rope_creak", 90),
    63: ("rg_rope_groan", 100),
    BELL_EFFECT: ("rg_bell", 110),
    HEN_EFFECT: ("rg_chicken", 80),
    MILL_EFFECT: ("rg_mill", 90),
}
"""Effect index -> (recipe, header base volume)."""


def load_effects(runtime: object) -> None:
    """Synthesise the demo's effects as 16-bit PCM into the runtime's effect bank."""
    bank = runtime.effects  # type: ignore[attr-defined]
    for index, (recipe, base_volume) in EFFECTS.items():
        samples = RG_SOUNDS[recipe]() * VILLAGE_GAIN
        pcm = np.clip(np.round(samples * 32767.0), -32768, 32767).astype(np.int16)
        bank.add(index, pcm, RATE_HZ, base_volume=base_volume, loop_flag=0, source="demo effects")


class RedguardVillage:
    """Drives the Redguard runtime from the game each frame."""

    def __init__(self, game: DemoGame) -> None:
        self.game = game
        self.ctx = game.ctx
        self.rt = game.ctx.redguard
        village = game.village
        self.torch_lit = False
        self.rt.player = game.player
        load_effects(self.rt)
        self.rope = esper.create_entity(
            Position(*self._place("rope", 2.5)), RgObject(),
            RgRope(effects=ROPE_EFFECTS, max_swing_speed=ROPE_MAX_SWING),
        )
        self.bell = esper.create_entity(Position(*self._place("bell", 4.0)), RgObject())
        self.mill = esper.create_entity(Position(*self._place("mill", 3.0)), RgObject())
        self.hens = [
            esper.create_entity(Position(x, game.terrain.height_m(x, z), z), RgObject())
            for x, z in ((396.0, 366.0), (372.0, 372.0), (404.0, 380.0))
        ]
        self.mill_task: object = None
        self.mill_xz = village.spot("mill").as_xz()
        self.next_hen_tick = 120
        self.next_bell_tick = BELL_FIRST_TICK
        self.rng = self.ctx.rng.msvc("demo.redguard")

    def _place(self, spot: str, height_m: float) -> tuple[float, float, float]:
        x, z = self.game.village.spot(spot).as_xz()
        return (x, self.game.terrain.height_m(x, z) + height_m, z)

    def toggle_torch(self) -> bool:
        """Light or snuff the torch (``EngineSounds.set_torch``); True when it burns."""
        self.torch_lit = not self.torch_lit
        self.rt.engine.set_torch(self.torch_lit)
        self.ctx.events.emit("demo", "torch", lit=self.torch_lit)
        return self.torch_lit

    def set_torch(self, lit: bool) -> None:
        if lit != self.torch_lit:
            self.toggle_torch()

    def step(self, dt: float) -> None:
        """One frame of the rope swing and the village effects (game time)."""
        tick = self.ctx.clock.tick
        self._swing(tick)
        script = self.rt.script
        # Deadlines, not ``tick % n``: a window frame may step the clock by 0 or 2+ ticks,
        # which would ring the bell twice on one tick or skip it.
        if tick >= self.next_bell_tick:
            script.Sound(self.bell, BELL_EFFECT)
            self.next_bell_tick = tick + BELL_EVERY_TICKS
        if tick >= self.next_hen_tick:
            hen = self.hens[self.rng.rand() % len(self.hens)]
            script.Sound(hen, HEN_EFFECT, rate_offset=(self.rng.rand() % 9 - 4) * 256)
            self.next_hen_tick = tick + 90 + self.rng.rand() % 240
        self._mill()

    def _swing(self, tick: int) -> None:
        """The rope swings with a slowly changing amplitude (speed 14..40, q = 10)."""
        t = tick / self.ctx.clock.tick_hz
        amplitude = 14.0 + 26.0 * (0.5 + 0.5 * math.sin(2 * math.pi * t / 17.0))
        phase = 2 * math.pi * t / ROPE_PERIOD_S
        velocity = int(round(amplitude * math.sin(phase)))
        if velocity == 0:
            # Pass through zero in one step: the engine plays on a sign change *and* on
            # zero staying zero, so a velocity resting at 0 would play every tick.
            velocity = 1 if math.cos(phase) > 0 else -1
        self.rt.engine.rope_update(self.rope, velocity, int(amplitude))

    def _mill(self) -> None:
        """Call ``AmbientSound`` again when the player is near and the last task ended."""
        task = self.mill_task
        if task is not None and not getattr(task, "done", True):
            return
        pos = self.game.position
        if math.hypot(pos.x_m - self.mill_xz[0], pos.z_m - self.mill_xz[1]) < 60.0:
            self.mill_task = self.rt.script.AmbientSound(self.mill, MILL_EFFECT)
