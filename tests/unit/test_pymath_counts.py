"""``pymath.count_nonzero`` (the C function behind ``np.count_nonzero``) and the mask
tests built on it, ``all_set``/``any_set``, against numpy's own answers."""

from __future__ import annotations

import numpy as np
import pytest

from soundscape.audio.pymath import all_set, any_set, count_nonzero

ARRAYS = [
    np.zeros(0), np.zeros(0, bool), np.array([True, False, True]), np.ones(1000, bool),
    np.array([0.0, -0.0, float("nan"), 1e-300, float("inf")]), np.arange(-3, 4),
    np.array([[0, 1], [2, 0]]), np.arange(10.0)[::3], np.zeros((3, 0)),
    np.random.default_rng(5).random(1000) > 0.5,
]


@pytest.mark.parametrize("values", ARRAYS, ids=range(len(ARRAYS)))
def test_counts_and_mask_tests_are_numpys(values):
    assert count_nonzero(values) == np.count_nonzero(values)
    assert type(count_nonzero(values)) is type(np.count_nonzero(values))
    assert all_set(values) == bool(values.all())
    assert any_set(values) == bool(values.any())
