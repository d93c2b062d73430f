"""``channel_cull.ranks_of``: the ranks a virtual bank logs with ``cull`` and ``restore``,
counted for a few changed voices, sorted for many: the same either way."""

from __future__ import annotations

import numpy as np
import pytest

from soundscape.audio.channel_cull import loudest, loudest_of, rank_of, rank_of_loud, ranks_of


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


@pytest.mark.parametrize("limit", [0, 1, 3, 8, 30])
def test_loudness_ranked_as_it_is_equals_the_negated_ranking(limit):
    """With no NaN loudness the cull ranks the loudness itself (``loudest_of``,
    ``rank_of_loud``): the same voices and ranks as ``loudest``/``rank_of`` of it
    negated, ties (signed zeros, infinities, equal gains) included."""
    rng = np.random.default_rng(100 + limit)
    for _ in range(300):
        n = int(rng.integers(limit + 1, limit + 40))
        pool = [0.0, -0.0, 1.0, 0.5, 2.0, 0.25, np.inf, -np.inf, 1e-300]
        loud = rng.choice(pool, n) if rng.random() < 0.5 else rng.random(n)
        assert loudest_of(loud, limit).tolist() == loudest(-loud, limit).tolist()
        assert [rank_of_loud(loud, i) for i in range(n)] == [rank_of(-loud, i) for i in range(n)]


def bank_with_odd_gains(monkeypatch, columns: bool) -> list[dict]:
    """A virtual bank of 40 voices (8 real) whose game writes gains straight into some
    channels (NaN, inf, -0.0, equal values) between steps; their inputs hold still, so
    the law leaves the written gains standing. Returns the event records."""
    from soundscape import Context, Settings
    from soundscape.audio import channels as channels_module
    from soundscape.audio.channels import ensure_bank
    from soundscape.audio.sounds import SoundBank

    monkeypatch.setattr(channels_module, "COLUMN_PROFILES", ("modern",) if columns else ())
    ctx = Context.create(Settings(backend="none"))
    ctx.sounds = SoundBank()
    ctx.sounds.add("tone", np.zeros(48_000, dtype=np.float32), 48_000)
    bank = ensure_bank(ctx, "v", count=0, policy="virtual", profile="modern", real_voices=8)
    rng = np.random.default_rng(7)
    for i in range(40):
        bank.play(bank.acquire(), "tone", volume=0.02 * (i + 1), pan=rng.uniform(-1, 1),
                  loop=True)
    odd = [float("nan"), float("inf"), -0.0, 0.5, 0.5, 2.0, float("nan")]
    for tick in range(30):
        channel = bank.channels[int(rng.integers(40))]
        if tick % 3 == 0:
            setattr(channel, "gain_left" if tick % 2 else "gain_right", odd[tick % len(odd)])
        if tick % 5 == 0:  # a moved voice: its law runs again, its written gains go
            bank.channels[int(rng.integers(40))].pan = rng.uniform(-1, 1)
        bank.step(1, ctx.sounds)
    return [dict(r) for r in ctx.events]


def test_a_bank_of_columns_ranks_written_odd_gains_as_the_reference(monkeypatch):
    """Gains written by a game (NaN: Python's max keeps the left one; inf; signed zeros;
    equal values) take the columns' cull off its NaN-free ranking where needed: the same
    culls, restores and ranks as one channel at a time."""
    columns = bank_with_odd_gains(monkeypatch, columns=True)
    plain = bank_with_odd_gains(monkeypatch, columns=False)
    assert len([r for r in columns if r["event"] in ("cull", "restore")]) > 10
    assert columns == plain
    assert [list(r) for r in columns] == [list(r) for r in plain]
