"""``channel_cull.ranks_of``: the ranks a virtual bank logs with ``cull`` and ``restore``,
counted for a few changed voices, sorted for many: the same either way."""

from __future__ import annotations

import numpy as np
import pytest

from soundscape.audio.channel_cull import loudest, ranks_of


@pytest.mark.parametrize("changed_count", [1, 5, 32, 33, 200])
def test_counted_ranks_equal_the_sorted_ones(changed_count):
    rng = np.random.default_rng(changed_count)
    for _ in range(200):
        n = int(rng.integers(changed_count, changed_count + 40))
        neg = rng.choice([0.0, -0.0, -1.0, -0.5, np.nan, -2.0, -0.25], n)
        changed = np.sort(rng.choice(n, changed_count, replace=False))
        sorted_ranks = np.empty(n, dtype=np.int64)
        sorted_ranks[np.lexsort((np.arange(n), neg))] = np.arange(n)
        assert ranks_of(neg, changed) == sorted_ranks[changed].tolist()


@pytest.mark.parametrize("limit", [0, 1, 3, 8, 30])
def test_the_loudest_are_the_first_of_the_sorted_order(limit):
    """``loudest`` (a partition, ties at the edge to the lower indices) against the
    sorted order: the same voices, whether the edge is tied, unique or a NaN (fewer
    numbers than ``limit``: the partition's rule voices none)."""
    rng = np.random.default_rng(limit)
    for _ in range(300):
        n = int(rng.integers(max(limit, 1), limit + 40))
        pool = [0.0, -0.0, -1.0, -0.5, np.nan, -2.0, -0.25] if rng.random() < 0.5 else None
        neg = rng.choice(pool, n) if pool else -rng.random(n)
        order = np.lexsort((np.arange(n), neg))
        want = np.zeros(n, bool)
        if limit and not np.isnan(np.sort(neg)[limit - 1]):
            want[order[:limit]] = True
        assert loudest(neg, limit).tolist() == want.tolist()
