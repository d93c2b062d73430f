"""Permutation draws (``SSiGroup_SelectPermutation`` 0x480040, ``SSrPermutation_Play`` 0x47f8d0)."""

from __future__ import annotations

import pytest

from soundscape.oni.data import DEFAULT_LAST, Group, GroupFlags, Permutation
from soundscape.oni.groups import MAX_DRAWS, draw_group, pick, select_permutation
from soundscape.rng import OniRandom


def group(weights, dont_repeat=False, last=DEFAULT_LAST):
    perms = [Permutation(f"s{i}", w) for i, w in enumerate(weights)]
    flags = GroupFlags.DONT_REPEAT if dont_repeat else GroupFlags.NONE
    return Group("g", perms, flags=flags, last=last)


def test_draw_is_draw_times_total_shifted_then_first_running_sum_reaching_it():
    g = group([2, 5, 1])
    rng, twin = OniRandom(1234), OniRandom(1234)
    for _ in range(200):
        r = (twin.draw() * 8) >> 16
        expected = 0 if r <= 2 else 1 if r <= 7 else 2
        assert select_permutation(g, rng) == expected
    assert rng.state == twin.state


def test_running_sum_reaching_r_favours_the_first_permutation():
    # weights 1 and 3: r in 0..3, r = 0 and r = 1 both pick the first: half the draws
    g = group([1, 3])
    rng = OniRandom(99)
    picks = [select_permutation(g, rng) for _ in range(4000)]
    assert picks.count(0) / len(picks) == pytest.approx(0.5, abs=0.03)
    assert [pick(g, r) for r in range(4)] == [0, 0, 1, 1]


def test_equal_weights_of_one_always_pick_the_first():
    # r = (draw x 2) >> 16 is 0 or 1 and the first running sum (1) reaches both
    g = group([1, 1])
    rng = OniRandom(8)
    assert {select_permutation(g, rng) for _ in range(500)} == {0}


def test_zero_weight_first_permutation_is_picked_by_r_zero():
    g = group([0, 4])
    assert pick(g, 0) == 0 and pick(g, 1) == 1


def test_draw_stores_the_last_permutation():
    g = group([1, 1, 1])
    index = select_permutation(g, OniRandom(5))
    assert g.last == index


def test_empty_group_draws_nothing():
    rng = OniRandom(3)
    assert select_permutation(Group("empty"), rng) is None
    assert rng.state == 3


def test_dont_repeat_without_a_repeat_draws_once():
    g = group([1, 1], dont_repeat=True, last=1)  # [1, 1] always picks 0 (r 0 or 1)
    rng, twin = OniRandom(7), OniRandom(7)
    assert select_permutation(g, rng) == 0
    twin.draw()
    assert rng.state == twin.state


def test_a_new_group_has_last_0_so_its_first_pick_of_0_is_a_repeat():
    # SSrGroup_New and the pre-version-6 loader set flag_data = 0
    g = Group("g", [Permutation("a", 1), Permutation("b", 1)], flags=GroupFlags.DONT_REPEAT)
    assert g.last == DEFAULT_LAST == 0
    rng = OniRandom(7)
    assert select_permutation(g, rng) == 0
    assert rng.state == _after(7, MAX_DRAWS)


def test_a_repeat_makes_all_ten_draws_and_keeps_the_tenth_repeat_or_not():
    """The flag that ends the retries is never set back (seed: "all 10 draws")."""
    seen_repeat_kept = seen_other_kept = seen_went_on = False
    for seed in (k * 2654435761 % 2**32 for k in range(300)):
        g = group([1, 2], dont_repeat=True, last=0)
        twin = OniRandom(seed)
        draws = [pick(g, (twin.draw() * 3) >> 16) for _ in range(MAX_DRAWS)]
        rng = OniRandom(seed)
        got = select_permutation(g, rng)
        if draws[0] != 0:
            assert got == draws[0]
            assert rng.state == _after(seed, 1)
            continue
        assert rng.state == _after(seed, MAX_DRAWS)  # all ten made
        assert got == draws[-1]  # the tenth kept
        seen_repeat_kept |= got == 0
        seen_other_kept |= got == 1
        seen_went_on |= draws[1] == 1  # a non-repeat second draw did not stop the retries
    assert seen_repeat_kept and seen_other_kept and seen_went_on


def _after(seed: int, n: int) -> int:
    r = OniRandom(seed)
    for _ in range(n):
        r.draw()
    return r.state


def test_a_single_permutation_group_makes_no_draw_even_when_dont_repeat():
    # BFW_SoundSystem2.c: ``if (num_permutations == 1) return &permutation_array[0];``
    g = group([3], dont_repeat=True, last=0)
    rng = OniRandom(11)
    assert select_permutation(g, rng) == 0
    assert select_permutation(g, rng) == 0
    assert rng.state == OniRandom(11).state
    assert g.last == 0


def test_without_the_flag_repeats_are_allowed():
    g = group([1, 1], dont_repeat=False, last=0)
    rng = OniRandom(2)
    twin = OniRandom(2)
    expected = pick(g, (twin.draw() * 2) >> 16)
    assert select_permutation(g, rng) == expected
    assert rng.state == _after(2, 1)


def test_the_permutation_volume_is_held_to_0_2():
    loud = Group("g", [Permutation("a", 1, 3.0, 3.0)], volume=0.5)
    negative = Group("g", [Permutation("b", 1, -1.0, -1.0)], volume=0.5)
    assert draw_group(loud, OniRandom(1), OniRandom(2)).volume == 1.0  # 2 x 0.5
    assert draw_group(negative, OniRandom(1), OniRandom(2)).volume == 0.0


def test_volume_then_pitch_from_uurrandom_times_the_group():
    g = Group("g", [Permutation("a", 1, 0.5, 0.7, 0.9, 1.1)], volume=0.5, pitch=2.0)
    local, rand, twin = OniRandom(1), OniRandom(2), OniRandom(2)
    d = draw_group(g, local, rand)
    assert d is not None and d.sound == "a" and d.index == 0
    assert d.volume == pytest.approx(twin.uniform(0.5, 0.7) * 0.5)
    assert d.pitch == pytest.approx(twin.uniform(0.9, 1.1) * 2.0)
    assert local.state == _after(1, 0)  # one permutation: no draw
