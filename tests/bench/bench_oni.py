"""Oni sound-object speed: the PLACED_AMBIENTS and SOUND_OBJECTS phases of one tick.

Figures:
    oni_tick_us: one tick of both Oni phases with 16 ambients running (base
        loops, details every 0.1-0.3 s, positioned and panning, the listener
        walking) and 200 placed records, 50 of them in hearing (they wait for a
        slot and retry each tick, as retail's do) (target < 300).
    oni_tick_channels_us: the same plus the ``oni`` bank's CHANNELS advance
        (loop ends, gapless replays through ``on_end``).
    oni_details_played: details the whole run played (a sanity figure).

Six ambients loop a stereo base, six a mono base, four play details only, so
the details find the free channels the retail rule gives them.
"""

from __future__ import annotations

import math
import statistics
import sys
import time
from pathlib import Path

import esper
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import median_seconds  # noqa: E402

from soundscape.audio.sounds import SoundBank  # noqa: E402
from soundscape.components.spatial import Listener, Position  # noqa: E402
from soundscape.context import Context  # noqa: E402
from soundscape.oni import feature as oni  # noqa: E402
from soundscape.settings import Settings  # noqa: E402
from soundscape.systems.channels import ChannelSystem  # noqa: E402

TOML = """
[groups.base]
channels = "stereo"
dont_repeat = true
permutations = [{ sound = "loop_a", weight = 2 }, { sound = "loop_b", weight = 3 },
                { sound = "loop_c", weight = 3 }]
[groups.base_mono]
permutations = [{ sound = "loop_a", volume = [0.7, 1.0], pitch = [0.9, 1.1] }]
[groups.det]
permutations = [{ sound = "chirp", weight = 1, volume = [0.5, 1.0] },
                { sound = "tick", weight = 2, pitch = [0.8, 1.2] }]
[ambients.room]
can_pan = true
base1 = "base_mono"
detail = "det"
detail_range = 6.0
detail_interval_s = [0.1, 0.3]
distance = [5.0, 40.0]
threshold = 1000
[ambients.wide]
can_pan = true
base1 = "base"
detail = "det"
detail_range = 6.0
detail_interval_s = [0.1, 0.3]
distance = [5.0, 40.0]
threshold = 1000
[ambients.sparse]
detail = "det"
detail_range = 10.0
detail_interval_s = [0.2, 0.5]
distance = [5.0, 40.0]
threshold = 1000
[ambients.hum]
base1 = "base_mono"
distance = [3.0, 10.0]
threshold = 1000
"""
SOUNDS = {"loop_a": 0.7, "loop_b": 1.1, "loop_c": 0.9, "chirp": 0.15, "tick": 0.05}


def build() -> tuple[Context, list, ChannelSystem, int]:
    esper.switch_world("bench-oni")
    ctx = Context.create(Settings(seed=5, backend="none", features=("oni",)), world="bench-oni")
    ctx.sounds = SoundBank()
    for name, seconds in SOUNDS.items():
        ctx.sounds.add(name, np.zeros(int(seconds * 22050), np.float32), 22050)
    systems = sorted(oni.install(ctx), key=lambda s: s.phase)
    channels = ChannelSystem(ctx)
    ctx.oni.loads_toml(TOML)
    listener = esper.create_entity(Listener(), Position(0.0, 1.7, 0.0))
    for i in range(16):
        angle = i * 2 * math.pi / 16
        place = (20.0 * math.cos(angle), 0.0, 20.0 * math.sin(angle))
        name = "wide" if i < 6 else "room" if i < 12 else "sparse"
        if ctx.oni.ambient_start(name, position=place, volume=0.8) is None:
            raise RuntimeError("bench: an ambient did not start")
    for i in range(200):
        # 50 within 3 x 10 m of the listener's walk, 150 far away
        r = 12.0 if i < 50 else 400.0 + i
        angle = i * 0.7
        ctx.oni.placed.start("hum", (r * math.cos(angle), 0.0, r * math.sin(angle)), volume=0.7)
    return ctx, systems, channels, listener


def run() -> dict[str, float]:
    ctx, systems, channels, listener = build()
    pos = esper.component_for_entity(listener, Position)
    state = {"t": 0}

    def oni_tick() -> None:
        state["t"] += 1
        pos.x_m = 3.0 * math.sin(state["t"] * 0.01)
        ctx.clock.step(1)
        for system in systems:
            system.process()

    def with_channels() -> None:
        oni_tick()
        channels.process()

    # warm the run into steady state (loops turning over, details flowing)
    for _ in range(300):
        with_channels()
    in_hearing = sum(1 for i in ctx.oni.placed.live
                     if ctx.oni.placed.occluded[i] is not None
                     and ctx.oni.placed.occluded[i].in_hearing)
    running = len(ctx.oni.ambients.active())
    if running != 16 or in_hearing != 50:
        raise RuntimeError(f"bench: {running} ambients running, {in_hearing} records in hearing")
    samples = []
    for _ in range(3000):
        start = time.perf_counter()
        oni_tick()
        samples.append(time.perf_counter() - start)
        channels.process()
    tick_s = statistics.median(samples)
    both_s = median_seconds(with_channels, repeats=2000, warmup=50)
    details = len(ctx.events.where(source="oni", event="detail"))
    if details == 0:
        raise RuntimeError("bench: no detail played")
    esper.switch_world("default")
    esper.delete_world("bench-oni")
    return {
        "oni_tick_us": tick_s * 1e6,
        "oni_tick_channels_us": both_s * 1e6,
        "oni_details_played": float(details),
    }


if __name__ == "__main__":
    for name, value in run().items():
        print(f"{name}: {value:.4g}")
