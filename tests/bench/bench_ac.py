"""AC runtime speed: one full rebuild, and one playback tick with 64 armed sounds.

* ``ac_rebuild_ms``: median of one ``CellManager::ChangePosition`` rebuild (9
  landblocks, 576 cells, 8 STB descs of 4 sounds each), sounds already armed.
* ``ac_playback_us_per_tick``: median ``Ambient::UseTime`` tick with 64 armed
  sounds (16 descs of 4); ``ac_playback_mean_us_per_tick`` includes the ticks
  where deadlines fire.
* ``ac_add_landblock_ms``: median of one tick that follows adding one landblock to
  1,600 loaded (40 x 40), rebuild forced: the add, the sync and the rebuild.
* ``ac_load_ms_100`` / ``_400`` / ``_1600``: ``add_landblock`` for that many
  landblocks, then the first tick (sync and rebuild); median of 5 loads each.
  ``ac_load_ratio_1600_over_100`` is the per-landblock cost at 1,600 over that at
  100 (1.0 is linear).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import esper

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import median_seconds  # noqa: E402

from soundscape import Settings, SoundscapePlugin  # noqa: E402
from soundscape.ac.sample import rolling_heights, sample_region, striped_words  # noqa: E402
from soundscape.components import Listener, Position  # noqa: E402


def _world(name: str, n_stb: int) -> tuple[SoundscapePlugin, Listener, Position]:
    esper.switch_world(name)
    plugin = SoundscapePlugin(Settings(seed=5, backend="none", features=("ac",))).install()
    ac = plugin.context.ac
    region = sample_region(n_stb)
    for desc in region["stb"]:
        desc["sounds"][0]["volume"] = 4.0  # keep every share above the 0.03 floor (clamped later)
    ac.load_region(region)
    for bx in range(40, 43):
        for by in range(60, 63):
            ac.add_landblock(bx, by, striped_words(bx, by, n_stb), rolling_heights(bx, by))
    listener, pos = Listener(), Position(41 * 192 + 101.0, 2.0, 61 * 192 + 77.0)
    esper.create_entity(listener, pos)
    esper.process(1 / 60)
    plugin.context.events.keep = 1000
    return plugin, listener, pos


def _close(plugin: SoundscapePlugin, name: str) -> None:
    plugin.uninstall()
    esper.switch_world("default")
    esper.delete_world(name)


def bench_rebuild() -> float:
    plugin, listener, pos = _world("bench-ac-rebuild", 8)
    ac = plugin.context.ac
    if len(ac.ambient.sounds) != 32 or ac.last_rebuild is None or len(ac.last_rebuild.stb) != 576:
        raise RuntimeError("bench_ac: the rebuild world is not 576 cells / 32 sounds")

    def rebuild() -> None:
        ac.force_rebuild()
        ac.update_listener(listener, pos)

    seconds = median_seconds(rebuild, repeats=400, warmup=20)
    _close(plugin, "bench-ac-rebuild")
    return seconds * 1e3


def bench_playback() -> tuple[float, float]:
    plugin, _, _ = _world("bench-ac-playback", 16)
    ctx = plugin.context
    ambient = ctx.ac.ambient
    if len(ambient) != 64:
        raise RuntimeError(f"bench_ac: {len(ambient)} armed sounds, want 64")
    clock = ctx.clock

    def tick() -> None:
        clock.step(1)
        ambient.use_time(clock.now_s)

    median = median_seconds(tick, repeats=6000, warmup=60)
    start, n = time.perf_counter(), 6000
    for _ in range(n):
        tick()
    mean = (time.perf_counter() - start) / n
    if len(ambient) != 64:
        raise RuntimeError("bench_ac: the heap lost sounds while ticking")
    _close(plugin, "bench-ac-playback")
    return median * 1e6, mean * 1e6


def _grid_world(name: str, side: int) -> tuple[SoundscapePlugin, float]:
    """A world with ``side`` x ``side`` landblocks and a listener in the middle; load ms."""
    esper.switch_world(name)
    plugin = SoundscapePlugin(Settings(seed=5, backend="none", features=("ac",))).install()
    ac = plugin.context.ac
    ac.load_region(sample_region(8))
    words = {(bx, by): striped_words(bx, by, 8) for bx in range(side) for by in range(side)}
    heights = rolling_heights(0, 0)
    centre = side // 2
    esper.create_entity(Listener(), Position(centre * 192 + 101.0, 2.0, centre * 192 + 77.0))
    start = time.perf_counter()
    for (bx, by), w in words.items():
        ac.add_landblock(bx, by, w, heights)
    esper.process(1 / 60)
    seconds = time.perf_counter() - start
    if len(ac.landscape.blocks) != side * side or ac.rebuilds != 1:
        raise RuntimeError("bench_ac: the grid world did not load")
    return plugin, seconds * 1e3


def bench_load() -> dict[str, float]:
    figures: dict[str, float] = {}
    for side in (10, 20, 40):
        samples = []
        for _ in range(5):
            plugin, ms = _grid_world("bench-ac-load", side)
            samples.append(ms)
            _close(plugin, "bench-ac-load")
        figures[f"ac_load_ms_{side * side}"] = statistics.median(samples)
    figures["ac_load_ratio_1600_over_100"] = (
        figures["ac_load_ms_1600"] / 1600) / (figures["ac_load_ms_100"] / 100)
    return figures


def bench_add_landblock() -> float:
    """One tick after adding a landblock beside 1,600 (the next tick removes it again)."""
    plugin, _ = _grid_world("bench-ac-add", 40)
    ac = plugin.context.ac
    words, heights = striped_words(41, 20, 8), rolling_heights(41, 20)
    rebuilds = ac.rebuilds
    samples = []
    for i in range(60):
        start = time.perf_counter()
        ac.add_landblock(40 + i % 2, 20, words, heights)
        ac.force_rebuild()
        esper.process(1 / 60)
        samples.append(time.perf_counter() - start)
        ac.remove_landblock(40 + i % 2, 20)
    if ac.rebuilds != rebuilds + 60:
        raise RuntimeError("bench_ac: the add-landblock ticks did not rebuild")
    _close(plugin, "bench-ac-add")
    return statistics.median(samples[5:]) * 1e3


def run() -> dict[str, float]:
    add_ms = bench_add_landblock()
    load = bench_load()
    rebuild_ms = bench_rebuild()
    median_us, mean_us = bench_playback()
    return {
        "ac_rebuild_ms": rebuild_ms,
        "ac_playback_us_per_tick": median_us,
        "ac_playback_mean_us_per_tick": mean_us,
        "ac_add_landblock_ms": add_ms,
        **load,
    }


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key}: {value:.4g}")
