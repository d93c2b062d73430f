"""Oni channel laws (seed 001 "Channels", FORMULAS.md "Oni")."""

from __future__ import annotations

import math

import pytest

from soundscape.laws.oni import (
    buffer_frequency,
    distance_volume,
    far_side_gain,
    pan_centibels,
    to_centibels,
)


@pytest.mark.parametrize(("v", "cb"), [(1.0, 0), (0.5, -1667), (0.25, -2500), (0.06, -3133),
                                       (0.05, -10000), (0.0, -10000), (-1.0, -10000),
                                       (1.2, 667)])
def test_to_centibels_is_round_3333v_minus_3333_above_0_05(v, cb):
    assert to_centibels(v) == cb


def test_to_centibels_nan_is_silence():
    assert to_centibels(math.nan) == -10000


@pytest.mark.parametrize(("d", "v"), [(0.0, 1.0), (10.0, 1.0), (12.5, 0.75), (20.0, 0.0),
                                      (35.0, 0.0)])
def test_distance_volume_is_full_to_near_then_linear_to_far(d, v):
    assert distance_volume(d, 10.0, 20.0) == pytest.approx(v)


def test_distance_volume_with_far_equal_near_is_a_step():
    assert distance_volume(5.0, 5.0, 5.0) == 1.0
    assert distance_volume(5.01, 5.0, 5.0) == 0.0


def test_far_side_gain_is_half_abeam_and_full_ahead_or_behind():
    assert far_side_gain(0.0) == 1.0
    assert far_side_gain(math.pi / 2) == 0.5
    assert far_side_gain(math.pi / 4) == pytest.approx(0.75)
    assert far_side_gain(math.pi) == 1.0


def test_pan_sign_magnitude_and_heading():
    # east of a north-facing listener: the sound is on the right, the left side is cut
    assert pan_centibels(10.0, 0.0, 0.0) == 3333 - round(3333 * 0.5)
    assert pan_centibels(-10.0, 0.0, 0.0) == -(3333 - round(3333 * 0.5))
    # facing east, the same sound is ahead: no pan
    assert pan_centibels(10.0, 0.0, math.pi / 2) == 0
    # 45 degrees to the right: far gain 0.75
    assert pan_centibels(10.0, 10.0, 0.0) == 3333 - round(3333 * 0.75)
    # behind and to the left
    assert pan_centibels(-10.0, -10.0, 0.0) == -(3333 - round(3333 * 0.75))


def test_pan_only_beyond_seven_units_in_the_horizontal_plane():
    # SScNoPanDistanceSquared 49: dx^2 + dz^2 <= 49 gives no pan
    assert pan_centibels(7.0, 0.0, 0.0) == 0
    assert pan_centibels(7.01, 0.0, 0.0) != 0
    assert pan_centibels(5.0, 4.89, 0.0) == 0  # 48.9 <= 49
    assert pan_centibels(5.0, 4.9, 0.0) != 0  # 49.01 > 49
def test_buffer_frequency_is_22050_times_pitch():
    assert buffer_frequency(1.0) == 22050.0
    assert buffer_frequency(2.0) == 44100.0
