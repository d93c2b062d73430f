"""soundscape.laws.oni's occlusion and flyby geometry, with the seed's numbers."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from soundscape.laws.oni import flyby_point, in_hearing, occlusion_volume


@pytest.mark.parametrize(
    ("walls", "min_occ", "volume"),
    [
        (0, 0.0, 1.0),
        (1, 0.0, 0.8 - 1 / 12),
        (2, 0.0, 0.8 - 4 / 12),
        (3, 0.0, 0.8 - 9 / 12),
        (7, 0.0, 0.8 - 9 / 12),
        (1, 0.75, 0.75),
        (3, 0.5, 0.5),
        (2, 0.991, 1.0),
        (0, 0.991, 1.0),
    ],
)
def test_occlusion_volume(walls: int, min_occ: float, volume: float) -> None:
    assert occlusion_volume(walls, min_occ) == pytest.approx(volume)


def test_nan_min_occlusion_leaves_the_formula() -> None:
    assert occlusion_volume(1, math.nan) == pytest.approx(0.8 - 1 / 12)


def test_in_hearing_is_three_times_far() -> None:
    # Out of hearing when max^2 < |d|^2 / 9.
    assert in_hearing(900.0, 10.0)
    assert not in_hearing(900.0001, 10.0)
    assert not in_hearing(1.0, 0.0)
    assert in_hearing(0.0, 0.0)


def test_flyby_point_on_the_move() -> None:
    # The seed's formula: (d1 p_before - d0 p_now) / (d1 - d0).
    point = flyby_point((-3.0, 1.0, 4.0), (5.0, 1.0, 4.0), (0.0, 0.0, 0.0))
    assert point == pytest.approx((0.0, 1.0, 4.0))


def test_flyby_point_none_when_not_passing() -> None:
    listener = (0.0, 0.0, 0.0)
    assert flyby_point((-9.0, 0.0, 2.0), (-1.0, 0.0, 2.0), listener) is None  # stops before
    assert flyby_point((1.0, 0.0, 2.0), (9.0, 0.0, 2.0), listener) is None  # moves away
    assert flyby_point((2.0, 0.0, 2.0), (2.0, 0.0, 2.0), listener) is None  # no move
    # Ending exactly at the nearest point: d1 = 0, no product below 0.
    assert flyby_point((-9.0, 0.0, 2.0), (0.0, 0.0, 2.0), listener) is None


def test_flyby_point_middle_for_a_tiny_move() -> None:
    # |d1 - d0| = |m|^2 <= 1e-6: the middle of the move.
    point = flyby_point((-1e-4, 0.0, 1.0), (3e-4, 0.0, 1.0), (0.0, 0.0, 0.0))
    assert point == pytest.approx((1e-4, 0.0, 1.0))


finite = st.floats(-100.0, 100.0, allow_nan=False)


@given(st.tuples(finite, finite, finite), st.tuples(finite, finite, finite),
       st.tuples(finite, finite, finite))
def test_flyby_point_is_the_nearest_point_of_the_move(a, b, listener) -> None:
    point = flyby_point(a, b, listener)
    if point is None:
        return
    m = [b[i] - a[i] for i in range(3)]
    if sum(v * v for v in m) <= 1e-6:
        return
    # It lies on the move and the listener sees it square to the move.
    t = sum((point[i] - a[i]) * m[i] for i in range(3)) / sum(v * v for v in m)
    assert -1e-9 <= t <= 1 + 1e-9
    off = sum((point[i] - listener[i]) * m[i] for i in range(3))
    assert math.isclose(off, 0.0, abs_tol=1e-6 * (1 + sum(v * v for v in m)) * 100)
