"""Small helpers the benchmarks share: the median of repeated runs."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_seconds(fn: Callable[[], object], repeats: int = 50, warmup: int = 3) -> float:
    """Median wall time of ``fn()`` over ``repeats`` runs, after ``warmup`` runs."""
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def interleaved_medians(fns: list[Callable[[], object]], repeats: int = 200,
                        warmup: int = 10) -> list[float]:
    """Median wall time of each of ``fns``, run in turn (one of each per round), so
    load on the machine falls on all of them alike."""
    return interleaved_timings([_timed(fn) for fn in fns], repeats, warmup)


def _timed(fn: Callable[[], object]) -> Callable[[], float]:
    """``fn`` made to return the seconds one call of it takes."""
    def run() -> float:
        start = time.perf_counter()
        fn()
        return time.perf_counter() - start
    return run


def interleaved_timings(fns: list[Callable[[], float]], repeats: int = 200,
                        warmup: int = 10) -> list[float]:
    """As ``interleaved_medians`` for functions that time themselves (each returns the
    seconds of its own work that count)."""
    for _ in range(warmup):
        for fn in fns:
            fn()
    samples: list[list[float]] = [[] for _ in fns]
    for _ in range(repeats):
        for fn, times in zip(fns, samples, strict=True):
            times.append(fn())
    return [statistics.median(times) for times in samples]
