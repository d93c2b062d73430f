"""Demo benchmark: the whole plugin's cost per tick on the tour, and the tour's speed.

``demo_tick_ms``: mean wall time of one game step (the game's processors and every
soundscape phase, offline audio rendering included; no drawing), milliseconds.
``tour_speed_x``: tour seconds per wall-clock second for the whole headless tour
(stepping, audio, event log, WAV). Targets: under 1.5 ms and at least 10x.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

TOUR_SECONDS = 120.0


def run() -> dict[str, float]:
    from soundscape.demo_world.tour import run_tour

    with tempfile.TemporaryDirectory(prefix="bench-demo-warm-") as out:
        run_tour(5.0, Path(out), 0, progress=False, png=False)
    with tempfile.TemporaryDirectory(prefix="bench-demo-") as out:
        result = run_tour(TOUR_SECONDS, Path(out), 0, progress=False, png=False)
    return {"demo_tick_ms": result.tick_ms, "tour_speed_x": result.speed_x}


if __name__ == "__main__":
    for name, value in run().items():
        print(f"{name}: {value:.4g}")
