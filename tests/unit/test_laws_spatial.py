"""The spatial laws of generic emitters (issue 17): OpenAL's distance models and cone,
the doppler shift, the walls' cutoff; each against numbers worked by hand."""

from __future__ import annotations

import math

import pytest

from soundscape.components.emitter import ROLLOFFS, Emitter
from soundscape.errors import InputError
from soundscape.laws import spatial
from soundscape.laws.spatial import (
    DistanceModel,
    cone_gain,
    distance_gain,
    doppler_pitch,
    facing_angle,
    wall_cutoff_hz,
)


def test_the_component_and_the_law_name_the_same_models():
    assert ROLLOFFS == spatial.ROLLOFFS


@pytest.mark.parametrize(("rolloff", "factor", "d", "gain"), [
    ("inverse", 1.0, 10.0, 2.0 / 10.0),  # ref / (ref + f (d - ref))
    ("inverse", 2.0, 10.0, 2.0 / (2.0 + 2.0 * 8.0)),
    ("inverse", 1.0, 80.0, 2.0 / 40.0),  # held at max
    ("linear", 1.0, 21.0, 1.0 - 19.0 / 38.0),
    ("linear", 2.0, 30.0, 0.0),  # 1 - 2 x 28/38 < 0: 0
    ("linear", 1.0, 1.0, 1.0),
    ("exponential", 1.0, 8.0, 0.25),  # (d / ref) ^ -f
    ("exponential", 2.0, 8.0, 1.0 / 16.0),
    ("exponential", 1.0, 400.0, 2.0 / 40.0),
    ("none", 1.0, 1000.0, 1.0),
])
def test_openal_clamped_models(rolloff, factor, d, gain):
    assert distance_gain(d, DistanceModel(rolloff, 2.0, 40.0, factor)) == pytest.approx(gain)


def test_a_custom_curve_joins_its_points_and_holds_its_ends():
    model = DistanceModel("custom", curve=((2.0, 1.0), (10.0, 0.6), (20.0, 0.0)))
    assert [distance_gain(d, model) for d in (0.0, 6.0, 15.0, 99.0)] == pytest.approx(
        [1.0, 0.8, 0.3, 0.0])


def test_rolloff_factor_zero_never_falls():
    for rolloff in ("inverse", "linear", "exponential"):
        assert distance_gain(35.0, DistanceModel(rolloff, 2.0, 40.0, 0.0)) == 1.0


def test_emitter_refuses_bad_spatial_settings():
    with pytest.raises(InputError, match="rolloff 'cubic'"):
        Emitter("x", rolloff="cubic")
    with pytest.raises(InputError, match="needs a curve"):
        Emitter("x", rolloff="custom")
    with pytest.raises(InputError, match="rising distances"):
        Emitter("x", rolloff="custom", curve=[(5.0, 1.0), (1.0, 0.0)])
    with pytest.raises(InputError, match="rolloff_factor"):
        Emitter("x", rolloff_factor=float("nan"))
    with pytest.raises(InputError, match="cone_inner_deg"):
        Emitter("x", cone_inner_deg=200, cone_outer_deg=100)
    with pytest.raises(InputError, match="cone_outer_gain"):
        Emitter("x", cone_outer_gain=2.0)
    assert Emitter("x", rolloff="custom", curve=[[0, 1], [3, 0]]).curve == ((0.0, 1.0), (3.0, 0.0))


def test_cone_openal():
    # inner 90, outer 270: full within 45 degrees, 0.25 beyond 135, linear between
    assert cone_gain(math.radians(45), 90, 270, 0.25) == 1.0
    assert cone_gain(math.radians(90), 90, 270, 0.25) == pytest.approx(1 - 0.75 * 0.5)
    assert cone_gain(math.radians(170), 90, 270, 0.25) == 0.25
    assert cone_gain(math.pi, 360, 360, 0.0) == 1.0
    # facing north (0), the listener due south of the emitter is behind it
    assert facing_angle(0.0, 0.0, 0.0, -3.0) == pytest.approx(math.pi)
    assert facing_angle(math.pi / 2, 3.0, 0.0, 0.0) == pytest.approx(0.0)


def test_doppler_formula():
    c = 343.0
    src, still = (0.0, 0.0, -10.0), (0.0, 0.0, 0.0)
    # source toward the listener at 30 m/s: c / (c - 30)
    assert doppler_pitch(src, (0, 0, 30), still, still, c, 1.0) == pytest.approx(c / (c - 30))
    # away: c / (c + 30)
    assert doppler_pitch(src, (0, 0, -30), still, still, c, 1.0) == pytest.approx(c / (c + 30))
    # listener moving away from the source (along source -> listener): (c - 20) / c
    assert doppler_pitch(src, still, still, (0, 0, 20), c, 1.0) == pytest.approx((c - 20) / c)
    # only the part along the line counts: a source moving across it is unshifted
    assert doppler_pitch(src, (30, 0, 0), still, still, c, 1.0) == pytest.approx(1.0)
    # the doppler factor scales both velocities
    assert doppler_pitch(src, (0, 0, 30), still, still, c, 2.0) == pytest.approx(c / (c - 60))
    assert doppler_pitch(src, (0, 0, 30), still, still, c, 0.0) == 1.0
    # at and past the speed of sound: held to the clamps, never inf or negative
    assert doppler_pitch(src, (0, 0, 400), still, still, c, 1.0) == spatial.DOPPLER_MAX_PITCH
    assert doppler_pitch(src, still, still, (0, 0, 400), c, 1.0) == spatial.DOPPLER_MIN_PITCH
    assert doppler_pitch(src, (0, 0, math.nan), still, still, c, 1.0) == 1.0


def test_wall_cutoff_falls_with_every_wall():
    cutoffs = [wall_cutoff_hz(n) for n in range(6)]
    assert cutoffs[0] == 0.0  # no wall: no filter
    assert all(a > b for a, b in zip(cutoffs[1:4], cutoffs[2:5], strict=True))
    assert cutoffs[5] == spatial.MIN_CUTOFF_HZ
