"""Generic emitters with walls and doppler (issue 17): the whole plugin, 256 moving emitters.

Figures:
    spatial_tick_us_256: one whole-plugin tick (every phase, the offline mixer
        rendering its 800 frames) with 256 emitters circling the listener at
        5-30 m/s, each ``occlusion=True`` among 40 walls and with doppler, and a
        cone on every fourth.
    plain_tick_us_256: the same emitters and moves without occlusion, doppler or
        cones.
    spatial_over_plain_256: the median of the per-pair ratios, the two worlds'
        ticks interleaved (spatial, plain, spatial, ...) in the same run (target <= 2).
"""

from __future__ import annotations

import math
import random
import statistics
import sys
import time
from pathlib import Path

import esper
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from soundscape import Settings, SoundscapePlugin, synth  # noqa: E402
from soundscape.components import Emitter, Listener, Position, Wall  # noqa: E402

EMITTERS = 256
WARMUP_TICKS = 30
PAIRS = 240


class World:
    """One esper world with the plugin, the walls, the listener and 256 moving emitters."""

    def __init__(self, name: str, spatial: bool) -> None:
        self.name = name
        esper.switch_world(name)
        self.plugin = SoundscapePlugin(Settings(seed=3, backend="offline",
                                                features=("audio", "occlusion"))).install()
        t = np.arange(48_000) / 48_000
        synth.add_to(self.plugin.context.sounds, "hum",
                     (0.1 * np.sin(2 * np.pi * 220.0 * t)).astype(np.float32), 48_000)
        rng = random.Random(11)
        for _ in range(40):  # rooms of a town: walls 4-10 m long within 40 m
            x, z = rng.uniform(-40.0, 40.0), rng.uniform(-40.0, 40.0)
            angle, length = rng.uniform(0.0, math.pi), rng.uniform(4.0, 10.0)
            esper.create_entity(Wall(x, z, x + length * math.cos(angle),
                                     z + length * math.sin(angle)))
        esper.create_entity(Listener(), Position(0.0, 1.7, 0.0))
        self.movers: list[tuple[Position, float, float, float]] = []
        for i in range(EMITTERS):
            radius, speed = rng.uniform(5.0, 40.0), rng.uniform(5.0, 30.0)
            phase = rng.uniform(0.0, math.tau)
            pos = Position(radius * math.cos(phase), 1.0, radius * math.sin(phase))
            extra = {}
            if spatial and i % 4 == 0:
                extra = dict(cone_inner_deg=90.0, cone_outer_deg=240.0, cone_outer_gain=0.3)
            esper.create_entity(pos, Emitter("hum", volume=0.5, occlusion=spatial,
                                             doppler=spatial, heading_rad=phase, **extra))
            self.movers.append((pos, radius, phase, speed / radius))
        self.tick = 0
        for _ in range(WARMUP_TICKS):
            self.step()

    def step(self) -> None:
        """The game moves its emitters (rad/s around the listener), then the plugin ticks."""
        esper.switch_world(self.name)
        self.tick += 1
        at = self.tick / 60.0
        for pos, radius, phase, omega in self.movers:
            pos.x_m = radius * math.cos(phase + omega * at)
            pos.z_m = radius * math.sin(phase + omega * at)
        esper.process(1 / 60)

    def close(self) -> None:
        esper.switch_world(self.name)
        self.plugin.uninstall()
        esper.switch_world("default")
        esper.delete_world(self.name)


def timed(world: World) -> float:
    start = time.perf_counter()
    world.step()
    return time.perf_counter() - start


def run() -> dict[str, float]:
    spatial, plain = World("bench-spatial", True), World("bench-plain", False)
    try:
        s_times, p_times, ratios = [], [], []
        for _ in range(PAIRS):
            s = timed(spatial)
            p = timed(plain)
            s_times.append(s)
            p_times.append(p)
            ratios.append(s / p)
    finally:
        spatial.close()
        plain.close()
    return {
        "spatial_tick_us_256": statistics.median(s_times) * 1e6,
        "plain_tick_us_256": statistics.median(p_times) * 1e6,
        "spatial_over_plain_256": statistics.median(ratios),
    }


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key}: {value:.4g}")
