"""Occlusion and flyby speed: pymunk rays with the counting rules, the OCCLUSION tick, flybys.

Figures:
    occlusion_rays_per_ms: rays of 5-150 m through 200 walls, hits ordered and
        counted by OSiCalc_PositionAndVolume's rules (target >= 200).
    occlusion_tick_us: one OCCLUSION phase (walls mirrored, hearing of 1,000
        placed records, the due twelfth recounted and logged) (target < 1,000).
    occlusion_tick_nolog_us: the same with ``log_recomputes`` off (no ``occlusion``
        events): what the event log costs.
    flyby_tick_us: one FLYBYS phase with 24 records in flight (target < 100).
    walls_5k_over_200: the OCCLUSION phase (walls synced, 1,000 records heard) with
        5,000 walls over the same with 200: the same records and listener in the
        middle 200 m tile, the 5,000 walls that tile's 200 repeated over 5 x 5 tiles
        (constant density); ticks timed interleaved, ratio of the medians (target
        <= 1.2). ``walls_200_phase_us`` / ``walls_5k_phase_us`` are the medians.
"""

from __future__ import annotations

import math
import random
import statistics
import sys
import time
from pathlib import Path

import esper

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import median_seconds  # noqa: E402

from soundscape import Settings, SoundscapePlugin  # noqa: E402
from soundscape.components.occlusion import WALL_DOOR_PANEL, Flyby, Occluded, Wall  # noqa: E402
from soundscape.components.spatial import Listener, Position  # noqa: E402
from soundscape.systems.flybys import FlybySystem  # noqa: E402

SIZE_M = 200.0


def _walls(rng: random.Random, n: int = 200) -> list[Wall]:
    walls = []
    for i in range(n):
        x, z = rng.uniform(0.0, SIZE_M), rng.uniform(0.0, SIZE_M)
        angle, length = rng.uniform(0.0, math.pi), rng.uniform(2.0, 12.0)
        flags = WALL_DOOR_PANEL if i % 5 == 0 else 0
        walls.append(Wall(x, z, x + length * math.cos(angle), z + length * math.sin(angle), flags))
    return walls


def _rays(rng: random.Random, n: int) -> list[tuple[tuple[float, float, float], ...]]:
    rays = []
    for _ in range(n):
        x, z = rng.uniform(0.0, SIZE_M), rng.uniform(0.0, SIZE_M)
        length, angle = rng.uniform(5.0, 150.0), rng.uniform(0.0, 2.0 * math.pi)
        end = (x + length * math.cos(angle), 1.7, z + length * math.sin(angle))
        rays.append(((x, 1.0, z), end))
    return rays


def _plugin(name: str) -> SoundscapePlugin:
    esper.switch_world(name)
    return SoundscapePlugin(Settings(seed=1, backend="none", features=("occlusion",))).install()


def _done(plugin: SoundscapePlugin, name: str) -> None:
    plugin.uninstall()
    esper.switch_world("default")
    esper.delete_world(name)


def bench_rays() -> float:
    plugin = _plugin("bench-occlusion-rays")
    rng = random.Random(5)
    for wall in _walls(rng):
        esper.create_entity(wall)
    esper.process(1 / 60)
    service = plugin.context.occlusion
    rays = _rays(rng, 2000)

    def cast() -> None:
        for place, listener in rays:
            service.count(place, listener)

    seconds = median_seconds(cast, repeats=25, warmup=5)
    _done(plugin, "bench-occlusion-rays")
    return len(rays) / (seconds * 1000.0)


def bench_occlusion_tick(log: bool = True) -> float:
    plugin = _plugin("bench-occlusion-tick")
    plugin.context.occlusion.log_recomputes = log
    rng = random.Random(6)
    for wall in _walls(rng):
        esper.create_entity(wall)
    esper.create_entity(Listener(), Position(SIZE_M / 2, 1.7, SIZE_M / 2))
    for i in range(1000):
        x, z = rng.uniform(0.0, SIZE_M), rng.uniform(0.0, SIZE_M)
        esper.create_entity(Position(x, 1.0, z), Occluded(far=60.0, cache_index=i))
    for _ in range(24):
        esper.process(1 / 60)
    seconds = median_seconds(lambda: esper.process(1 / 60), repeats=240, warmup=12)
    _done(plugin, "bench-occlusion-tick")
    return seconds * 1e6


def bench_flyby_tick() -> float:
    plugin = _plugin("bench-flyby-tick")
    rng = random.Random(7)
    for wall in _walls(rng):
        esper.create_entity(wall)
    esper.create_entity(Listener(), Position(SIZE_M / 2, 1.7, SIZE_M / 2))
    shots = []
    for _ in range(24):
        pos = Position(rng.uniform(0.0, SIZE_M), 1.5, rng.uniform(0.0, SIZE_M))
        esper.create_entity(Flyby("mb_flyby", far=40.0), pos)
        shots.append((pos, rng.uniform(-3.0, 3.0), rng.uniform(-3.0, 3.0)))
    esper.process(1 / 60)
    system = next(i.processor for i in plugin.installed if isinstance(i.processor, FlybySystem))
    clock = plugin.context.clock

    def tick() -> None:
        for pos, vx, vz in shots:  # the game moves its projectiles (not timed separately)
            pos.x_m = (pos.x_m + vx) % SIZE_M
            pos.z_m = (pos.z_m + vz) % SIZE_M
        clock.step(1)
        system.process()

    # Time the game's moves alone and take them off.
    def moves() -> None:
        for pos, vx, vz in shots:
            pos.x_m = (pos.x_m + vx) % SIZE_M
            pos.z_m = (pos.z_m + vz) % SIZE_M

    total = median_seconds(tick, repeats=600, warmup=20)
    game = median_seconds(moves, repeats=600, warmup=20)
    _done(plugin, "bench-flyby-tick")
    return max(total - game, 0.0) * 1e6


def _walls_world(name: str, tiles: int) -> SoundscapePlugin:
    """The occlusion world of ``walls_5k_over_200``: ``tiles`` x ``tiles`` copies of 200 walls."""
    plugin = _plugin(name)
    tile = _walls(random.Random(8))
    half = tiles // 2
    for tx in range(-half, half + 1):
        for tz in range(-half, half + 1):
            for w in tile:
                esper.create_entity(Wall(w.ax_m + tx * SIZE_M, w.az_m + tz * SIZE_M,
                                         w.bx_m + tx * SIZE_M, w.bz_m + tz * SIZE_M, w.flags))
    esper.create_entity(Listener(), Position(SIZE_M / 2, 1.7, SIZE_M / 2))
    rng = random.Random(9)
    for i in range(1000):
        x, z = rng.uniform(0.0, SIZE_M), rng.uniform(0.0, SIZE_M)
        esper.create_entity(Position(x, 1.0, z), Occluded(far=60.0, cache_index=i))
    for _ in range(24):
        esper.process(1 / 60)
    return plugin


def bench_walls_scaling() -> dict[str, float]:
    worlds = {"bench-walls-200": _walls_world("bench-walls-200", 1),
              "bench-walls-5k": _walls_world("bench-walls-5k", 5)}
    if len(worlds["bench-walls-5k"].context.occlusion.walls) != 5000:
        raise RuntimeError("bench_occlusion: the 5k world has not 5,000 walls")
    samples: dict[str, list[float]] = {name: [] for name in worlds}
    for i in range(1200):
        for name, plugin in worlds.items():
            esper.switch_world(name)
            ctx = plugin.context
            ctx.clock.step(1)
            start = time.perf_counter()
            ctx.occlusion.sync_walls()
            ctx.occlusion.update_records()
            if i >= 24:
                samples[name].append(time.perf_counter() - start)
    counts = [sum(o.walls for _, o in (esper.switch_world(n), esper.get_component(Occluded))[1])
              for n in worlds]
    if counts[0] != counts[1]:
        raise RuntimeError(f"bench_occlusion: the two worlds count {counts} walls")
    for name, plugin in worlds.items():
        esper.switch_world(name)
        _done(plugin, name)
    small = statistics.median(samples["bench-walls-200"])
    large = statistics.median(samples["bench-walls-5k"])
    return {"walls_5k_over_200": large / small,
            "walls_200_phase_us": small * 1e6, "walls_5k_phase_us": large * 1e6}


def run() -> dict[str, float]:
    return {
        **bench_walls_scaling(),
        "occlusion_rays_per_ms": bench_rays(),
        "occlusion_tick_us": bench_occlusion_tick(),
        "occlusion_tick_nolog_us": bench_occlusion_tick(log=False),
        "flyby_tick_us": bench_flyby_tick(),
    }


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key}: {value:.4g}")
