"""Redguard tick cost: 16 busy channels, 32 ambient tasks, 8 dialogue records.

``rg_tick_us`` is the median time of one nominal tick of the Redguard processors
(maintenance, tasks, torch, dialogue, RTX cache); target under 200 us. The runtime
works on whole nominal ticks of ``Settings.redguard_tick_s`` (21/256 s, seed 002), so a
measured tick steps the plugin's clock by ``PLUGIN_TICKS`` (5) 60 Hz ticks: one nominal
tick (two in about one step of 60), the same work a game's frames do over ~82 ms.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import esper
import numpy as np
import pyglet

pyglet.options["headless"] = True
pyglet.options["audio"] = ("silent",)
sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import median_seconds  # noqa: E402

from soundscape import Settings, SoundscapePlugin  # noqa: E402
from soundscape.components.redguard import RgObject  # noqa: E402
from soundscape.components.spatial import Listener, Position  # noqa: E402

PLUGIN_TICKS = 5
"""60 Hz ticks a measured tick steps: one nominal Redguard tick (21/256 s = 4.92)."""


def build():
    esper.switch_world("bench-redguard")
    settings = Settings(seed=3, backend="none", features=("audio", "redguard"))
    plugin = SoundscapePlugin(settings).install()
    ctx = plugin.context
    ctx.events.keep = 10_000
    rt = ctx.redguard
    listener = esper.create_entity(Listener(heading_rad=0.3), Position(0.0, 1.0, 0.0))
    for index in range(8):
        rt.effects.add(index, np.zeros(22050, dtype=np.int16) + index, 22050, loop_flag=0xFF)
    rt.player = esper.create_entity(Position(1.0, 0.0, 1.0), RgObject())
    rt.engine.set_torch(True)
    for i in range(32):
        angle = i * 2 * math.pi / 32
        src = esper.create_entity(
            Position(40.0 * math.sin(angle), 0.0, 40.0 * math.cos(angle)), RgObject())
        rt.script.AmbientSound(src, i % 8, -5, 0)
    for i in range(8):
        rt.rtx_store.add(f"b{i:03d}", f"bench line number {i}")
        speaker = esper.create_entity(Position(float(i), 0.0, 3.0), RgObject())
        entry = rt.rtx.lookup(f"b{i:03d}")
        rt.dialogue.create(speaker, rt.rtx.entries[entry])
    systems = [item.processor for item in plugin.installed
               if getattr(item.processor, "source", "") == "redguard"]
    ctx.clock.step(PLUGIN_TICKS)  # the first nominal tick: every task and line runs
    for system in systems:
        system.process()
    return plugin, ctx, rt, systems, listener


def run() -> dict[str, float]:
    plugin, ctx, rt, systems, listener = build()
    busy = sum(c.playing for c in rt.bank.channels)
    if busy != 16 or len(rt.tasks.tasks) != 32 or sum(r.active for r in rt.dialogue.records) != 8:
        raise RuntimeError("bench_redguard: scene not as specified")
    position = esper.component_for_entity(listener, Position)
    rt.accumulator = -(10**9)  # keep the periodic reset out of the measurement

    def tick() -> None:
        position.x_m += 0.01
        ctx.clock.step(PLUGIN_TICKS)
        for system in systems:
            system.process()

    seconds = median_seconds(tick, repeats=2000, warmup=50)
    plugin.uninstall()
    esper.switch_world("default")
    esper.delete_world("bench-redguard")
    return {"rg_tick_us": seconds * 1e6}


if __name__ == "__main__":
    print(run())
