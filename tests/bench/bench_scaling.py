"""Per-tick cost against the amount of work, and ``bench_scaling.png`` (issue 18).

Figures (medians, milliseconds a tick):
    scale_emitters_ms_N: the whole plugin (offline mixing included), N generic
        ``Emitter``s around a moving listener (N = 10, 100, 1,000, 10,000);
        ``emitters_1k_tick_ms`` and ``emitters_10k_tick_ms`` are N = 1,000 and 10,000.
    scale_voices_ms_N: the whole plugin, a virtual bank with 32 real voices and N
        playing (N = 125 ... 2,000); ``virtual_2k_tick_ms`` is N = 2,000.
    virtual_render_us_125 / _2000, virtual_render_2k_over_125: the offline render of
        one tick's frames in those scenes (125 and 2,000 playing), interleaved; and
        virtual_render_in_tick_2k_over_125, the same timed inside the ticks.
    scale_walls_ms_N: the OCCLUSION phase, 1,000 records, N walls at constant density.
    scale_landblocks_ms_N: one tick right after a landblock is added to N loaded.

``docs/img/bench_scaling.png`` (shown in the README) draws the four curves log-log with the
60 Hz frame budget (16.7 ms) marked, through pyglet headless (EGL) like the tour's
pictures.
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
import pyglet

pyglet.options["headless"] = True

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_ac  # noqa: E402
import bench_occlusion  # noqa: E402

from soundscape import Settings, SoundscapePlugin, synth  # noqa: E402
from soundscape.audio.channels import ensure_bank  # noqa: E402
from soundscape.components import Emitter, Listener, Position  # noqa: E402

OUT = Path(__file__).resolve().parent.parent.parent / "docs" / "img" / "bench_scaling.png"
BUDGET_MS = 1000.0 / 60.0


def _audio_world(name: str) -> tuple[SoundscapePlugin, Position]:
    esper.switch_world(name)
    plugin = SoundscapePlugin(Settings(seed=3, backend="offline", features=("audio",))).install()
    t = np.arange(48_000) / 48_000
    synth.add_to(plugin.context.sounds, "hum",
                 (0.05 * np.sin(2 * np.pi * 220.0 * t)).astype(np.float32), 48_000)
    listener = Position(0.0, 1.7, 0.0)
    esper.create_entity(Listener(), listener)
    return plugin, listener


def _ticks(name: str, plugin: SoundscapePlugin, listener: Position, n: int) -> float:
    samples = []
    for i in range(n):
        listener.x_m = 10.0 * math.sin(i / 30.0)  # the listener walks
        start = time.perf_counter()
        esper.process(1 / 60)
        samples.append(time.perf_counter() - start)
    plugin.uninstall()
    esper.switch_world("default")
    esper.delete_world(name)
    return statistics.median(samples[n // 5:]) * 1e3


def emitters_ms(count: int) -> float:
    plugin, listener = _audio_world("bench-scale-emitters")
    rng = random.Random(4)
    for _ in range(count):
        r, a = rng.uniform(3.0, 60.0), rng.uniform(0.0, math.tau)
        esper.create_entity(Position(r * math.cos(a), 1.0, r * math.sin(a)),
                            Emitter("hum", volume=0.5))
    return _ticks("bench-scale-emitters", plugin, listener, 40 if count > 1000 else 80)


def voices_ms(count: int) -> float:
    plugin, listener, _ = _voices_world("bench-scale-voices", count)
    return _ticks("bench-scale-voices", plugin, listener, 80)


def _voices_world(name: str, count: int) -> tuple[SoundscapePlugin, Position, list[float]]:
    """A virtual bank of 32 real voices with ``count`` playing; the offline render's
    time of each tick is appended to the returned list."""
    plugin, listener = _audio_world(name)
    bank = ensure_bank(plugin.context, "virtual", count=0, policy="virtual", profile="modern",
                       real_voices=32)
    rng = random.Random(5)
    for _ in range(count):
        bank.play(bank.acquire(), "hum", volume=rng.uniform(0.05, 1.0),
                  pan=rng.uniform(-1.0, 1.0), loop=True)
    mixer = plugin.context.mixer
    render, times = mixer.render, []

    def timed(frames: int) -> np.ndarray:
        start = time.perf_counter()
        out = render(frames)
        times.append(time.perf_counter() - start)
        return out

    mixer.render = timed  # type: ignore[method-assign]
    return plugin, listener, times


def virtual_render_us(rounds: int = 30, blocks: int = 10) -> dict[str, float]:
    """The offline render of one tick's 800 frames with 125 and 2,000 playing voices on
    a bank of 32 real voices (each scene stepped 60 ticks first), ``blocks`` renders of
    one scene then of the other, ``rounds`` times: medians in microseconds and their
    ratio (culled voices never reach the audio side, so ~1). Inside a tick the render
    also pays for the game side's cache footprint: ``virtual_render_in_tick_2k_over_125``
    is the same ratio timed in ``esper.process`` ticks, interleaved."""
    worlds = {n: _voices_world(f"bench-scale-render-{n}", n) for n in (125, 2000)}
    for i in range(60 + rounds * blocks):
        for n, (_plugin, listener, _times) in worlds.items():
            esper.switch_world(f"bench-scale-render-{n}")
            listener.x_m = 10.0 * math.sin(i / 30.0)
            esper.process(1 / 60)
    in_tick = {n: statistics.median(times[60:]) for n, (_p, _l, times) in worlds.items()}
    alone: dict[int, list[float]] = {125: [], 2000: []}
    for _ in range(rounds):
        for n, (plugin, _l, times) in worlds.items():
            render = plugin.context.mixer.render
            times.clear()
            for _ in range(blocks):
                render(800)
            alone[n].extend(times)
    medians = {n: statistics.median(v) * 1e6 for n, v in alone.items()}
    for n, (plugin, _l, _t) in worlds.items():
        esper.switch_world(f"bench-scale-render-{n}")
        plugin.uninstall()
        esper.switch_world("default")
        esper.delete_world(f"bench-scale-render-{n}")
    return {"virtual_render_us_125": medians[125], "virtual_render_us_2000": medians[2000],
            "virtual_render_2k_over_125": medians[2000] / medians[125],
            "virtual_render_in_tick_2k_over_125": in_tick[2000] / in_tick[125]}


def walls_ms(tiles: int) -> float:
    plugin = bench_occlusion._walls_world("bench-scale-walls", tiles)
    ctx = plugin.context
    samples = []
    for _ in range(240):
        ctx.clock.step(1)
        start = time.perf_counter()
        ctx.occlusion.sync_walls()
        ctx.occlusion.update_records()
        samples.append(time.perf_counter() - start)
    bench_occlusion._done(plugin, "bench-scale-walls")
    return statistics.median(samples) * 1e3


def landblocks_ms(side: int) -> float:
    plugin, _ = bench_ac._grid_world("bench-scale-ac", side)
    ac = plugin.context.ac
    words, heights = bench_ac.striped_words(side, 0, 8), bench_ac.rolling_heights(side, 0)
    samples = []
    for i in range(40):
        start = time.perf_counter()
        ac.add_landblock(side + i % 2, 0, words, heights)
        ac.force_rebuild()
        esper.process(1 / 60)
        samples.append(time.perf_counter() - start)
        ac.remove_landblock(side + i % 2, 0)
    bench_ac._close(plugin, "bench-scale-ac")
    return statistics.median(samples[5:]) * 1e3


CURVES = {  # name: (colour, [(count, figure name)])
    "emitters": ((255, 150, 60), [(n, f"scale_emitters_ms_{n}") for n in (10, 100, 1000, 10000)]),
    "voices (32 real)": ((80, 200, 255),
                         [(n, f"scale_voices_ms_{n}") for n in (125, 250, 500, 1000, 2000)]),
    "walls": ((120, 220, 120), [(200 * t * t, f"scale_walls_ms_{200 * t * t}") for t in (1, 3, 5)]),
    "landblocks": ((220, 120, 220),
                   [(s * s, f"scale_landblocks_ms_{s * s}") for s in (10, 20, 40)]),
}


def draw(figures: dict[str, float], path: Path) -> None:
    """The curves log-log (count 10..10,000 against 0.01..1,000 ms) with the 60 Hz budget."""
    from pyglet import shapes

    width, height, left, bottom, right, top = 900, 560, 80, 60, 180, 40
    plot_w, plot_h = width - left - right, height - bottom - top

    def x_of(count: float) -> float:
        return left + plot_w * (math.log10(count) - 1.0) / 3.0

    def y_of(ms: float) -> float:
        return bottom + plot_h * (math.log10(min(max(ms, 0.01), 1000.0)) + 2.0) / 5.0

    text = (230, 230, 230, 255)
    window = pyglet.window.Window(width, height, visible=False)
    try:
        window.switch_to()
        pyglet.gl.glClearColor(18 / 255, 18 / 255, 24 / 255, 1.0)
        window.clear()
        batch, keep = pyglet.graphics.Batch(), []
        for count in (10, 100, 1000, 10000):
            x = x_of(count)
            keep.append(shapes.Line(x, bottom, x, bottom + plot_h, color=(70, 70, 80),
                                    batch=batch))
            keep.append(pyglet.text.Label(f"{count:,}", x=x, y=bottom - 18, anchor_x="center",
                                          font_size=9, color=text, batch=batch))
        for ms in (0.01, 0.1, 1.0, 10.0, 100.0, 1000.0):
            y = y_of(ms)
            keep.append(shapes.Line(left, y, left + plot_w, y, color=(70, 70, 80), batch=batch))
            keep.append(pyglet.text.Label(f"{ms:g} ms", x=left - 6, y=y, anchor_x="right",
                                          anchor_y="center", font_size=9, color=text,
                                          batch=batch))
        y = y_of(BUDGET_MS)
        keep.append(shapes.Line(left, y, left + plot_w, y, thickness=2.0, color=(230, 60, 60),
                                batch=batch))
        keep.append(pyglet.text.Label("60 Hz frame (16.7 ms)", x=left + 6, y=y + 4,
                                      font_size=9, color=(230, 90, 90, 255), batch=batch))
        for row, (name, (colour, points)) in enumerate(CURVES.items()):
            xy = [(x_of(n), y_of(figures[key])) for n, key in points if key in figures]
            for a, b in zip(xy, xy[1:], strict=False):
                keep.append(shapes.Line(*a, *b, thickness=2.0, color=colour, batch=batch))
            for x, y in xy:
                keep.append(shapes.Circle(x, y, 4.0, color=colour, batch=batch))
            ly = bottom + plot_h - 20 * row
            keep.append(shapes.Line(left + plot_w + 14, ly, left + plot_w + 34, ly,
                                    thickness=2.0, color=colour, batch=batch))
            keep.append(pyglet.text.Label(name, x=left + plot_w + 40, y=ly, anchor_y="center",
                                          font_size=9, color=text, batch=batch))
        keep.append(pyglet.text.Label("per-tick cost against count (log-log; make bench)",
                                      x=left, y=height - 24, font_size=11, color=text,
                                      batch=batch))
        batch.draw()
        buffer = pyglet.image.get_buffer_manager().get_color_buffer().get_image_data()
        buffer.save(str(path))
    finally:
        window.close()


def run() -> dict[str, float]:
    figures: dict[str, float] = {}
    for n in (10, 100, 1000, 10000):
        figures[f"scale_emitters_ms_{n}"] = emitters_ms(n)
    figures["emitters_1k_tick_ms"] = figures["scale_emitters_ms_1000"]
    figures["emitters_10k_tick_ms"] = figures["scale_emitters_ms_10000"]
    for n in (125, 250, 500, 1000, 2000):
        figures[f"scale_voices_ms_{n}"] = voices_ms(n)
    figures["virtual_2k_tick_ms"] = figures["scale_voices_ms_2000"]
    figures.update(virtual_render_us())
    for tiles in (1, 3, 5):
        figures[f"scale_walls_ms_{200 * tiles * tiles}"] = walls_ms(tiles)
    for side in (10, 20, 40):
        figures[f"scale_landblocks_ms_{side * side}"] = landblocks_ms(side)
    draw(figures, OUT)
    return figures


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key}: {value:.4g}")
