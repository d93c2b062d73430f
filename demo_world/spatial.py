"""The demo's generic emitters (issue 17): a lute behind the house walls, a cart with doppler.

* A lute plays in the back corner of the house, ``Emitter(occlusion=True)``:
  from the plaza it is heard through the south wall (its ``transmission_db`` and
  the low-pass: muffled); from the door, through the gap, it is clear.
* A cart rattles up and down the west road at ``CART_SPEED_M_S``; its pitch rises
  as it comes and falls as it goes (doppler from its ``Velocity``), and the player
  meets it on the tour's first stretch.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import esper
import numpy as np

from soundscape import synth
from soundscape.components import Emitter, Position, Velocity

if TYPE_CHECKING:
    from soundscape.demo_world.game import DemoGame

RATE_HZ = 22_050
LUTE_AT_M = (346.0, 416.0)
"""The house's back-left corner: the plaza hears it through the south wall."""
CART_ROAD_Z_M = 378.0
CART_FROM_X_M, CART_TO_X_M = 180.0, 470.0
CART_SPEED_M_S = 15.0
_SAMPLES: dict[str, np.ndarray] = {}


def lute() -> np.ndarray:
    """A plucked four-note figure, 2.4 s, loopable."""
    out = np.zeros(int(2.4 * RATE_HZ), dtype=np.float32)
    for i, freq in enumerate((392.0, 494.0, 587.0, 494.0)):
        note = synth.tone(freq, 0.6, rate_hz=RATE_HZ, harmonics=(1.0, 0.5, 0.35, 0.2, 0.1),
                          decay_s=0.25, peak=0.45)
        start = int(i * 0.6 * RATE_HZ)
        out[start:start + note.shape[0]] += note
    return out


def cart() -> np.ndarray:
    """Wheels on a dirt road: a low rumble, a clack each turn and an axle's squeak, 2 s."""
    frames = 2 * RATE_HZ
    rumble = synth.noise_bed(2.0, seed=61, rate_hz=RATE_HZ, low_hz=50.0, high_hz=500.0, peak=0.25)
    out = rumble[:frames].copy()
    for i in range(8):  # a wheel turn every 0.25 s
        clack = synth.click(seed=62 + i, duration_s=0.03, rate_hz=RATE_HZ, peak=0.5)
        start = int(i * 0.25 * RATE_HZ)
        out[start:start + clack.shape[0]] += clack
    t = np.arange(frames) / RATE_HZ
    squeak = 0.12 * np.sin(2 * np.pi * 880.0 * t) * (0.6 + 0.4 * np.sin(2 * np.pi * 2.0 * t))
    return (out + squeak).astype(np.float32)


def _samples(name: str) -> np.ndarray:
    samples = _SAMPLES.get(name)
    if samples is None:
        samples = _SAMPLES[name] = lute() if name == "lute" else cart()
        samples.setflags(write=False)
    return samples


class SpatialShow:
    """The lute and the cart of one ``DemoGame`` (made only with the audio feature)."""

    def __init__(self, game: DemoGame) -> None:
        ctx = game.ctx
        for name in ("lute", "cart"):
            synth.add_to(ctx.sounds, name, _samples(name), RATE_HZ)
        x, z = LUTE_AT_M
        self.lute = esper.create_entity(
            Position(x, game.terrain.height_m(x, z) + 1.0, z),
            Emitter("lute", volume=0.9, min_distance_m=3.0, occlusion=True))
        self.cart_position = Position(CART_FROM_X_M, 0.0, CART_ROAD_Z_M)
        self.cart_velocity = Velocity(CART_SPEED_M_S, 0.0, 0.0)
        self.terrain = game.terrain
        self._place_cart()
        self.cart = esper.create_entity(
            self.cart_position, self.cart_velocity,
            Emitter("cart", volume=0.8, min_distance_m=4.0, max_distance_m=60.0))

    def _place_cart(self) -> None:
        pos = self.cart_position
        pos.y_m = self.terrain.height_m(pos.x_m, pos.z_m) + 0.8

    def step(self, dt: float) -> None:
        """Drive the cart along the road, turning at either end."""
        pos, v = self.cart_position, self.cart_velocity
        pos.x_m += v.x_mps * dt
        if pos.x_m >= CART_TO_X_M or pos.x_m <= CART_FROM_X_M:
            pos.x_m = min(max(pos.x_m, CART_FROM_X_M), CART_TO_X_M)
            v.x_mps = -v.x_mps
        self._place_cart()
