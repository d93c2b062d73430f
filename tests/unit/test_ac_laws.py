"""soundscape.laws.ac against the seed's numbers (seed 000 sections 2-7, FORMULAS.md "AC")."""

from __future__ import annotations

import math

import numpy as np
import pytest

from soundscape.laws.ac import (
    MIN_VOLUME,
    Direction,
    attenuation_db,
    bearing_deg,
    calc_dir,
    calc_weight,
    db_to_gain,
    decode_terrain_word,
    direction_heading,
    f32,
    get_attenuation,
    get_block_offset,
    get_offset,
    outdoor_cell_id,
    pan,
    roll_dice,
    x87_int,
)
from soundscape.rng import MsvcRand

D = Direction


# -- CalcWeight ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("x", "expected"),
    [
        (0.0, 1.0),
        (19.99, 1.0),
        (20.0, 1.0),  # d^2 == 400 takes 400/d^2 == 1
        (20.5, f32(400.0 / f32(20.5 * 20.5))),
        (40.0, 0.25),
        (80.0, 0.0625),
        (120.0, f32(400.0 / 14400.0)),  # the cull edge is kept: 0.0278
        (120.01, 0.0),
        (500.0, 0.0),
    ],
)
def test_calc_weight_edges(x: float, expected: float) -> None:
    assert calc_weight(x, 0.0) == expected
    assert calc_weight(0.0, -x) == expected


def test_calc_weight_edge_values_match_the_seed() -> None:
    assert round(calc_weight(120.0, 0.0), 4) == 0.0278
    assert calc_weight(20.0, 0.0) == 1.0
    assert calc_weight(19.999, 0.0) == 1.0
    assert calc_weight(20.001, 0.0) < 1.0


def test_calc_weight_counts_height() -> None:
    # FORMULAS.md: weight and cull use the 3D offset.
    assert calc_weight(0.0, 0.0, 25.0) == f32(400.0 / 625.0)
    assert calc_weight(100.0, 0.0) == f32(0.04)
    assert calc_weight(100.0, 0.0, 70.0) == 0.0  # 14900 m^2 > 14400
    assert calc_weight(15.0, 0.0, 13.0) == 1.0  # 394 < 400


# -- CalcDir -------------------------------------------------------------------------


def test_in_viewer_threshold_is_14_142_m() -> None:
    assert calc_dir(14.142, 0.0) == D.IN_VIEWER_BLOCK  # 199.996 < 200
    assert calc_dir(14.143, 0.0) == D.EAST_OF_VIEWER  # 200.02
    assert calc_dir(0.0, -14.142) == D.IN_VIEWER_BLOCK
    assert calc_dir(10.0, 10.0) == D.NORTHEAST_OF_VIEWER  # exactly 200 is not below 200
    assert calc_dir(10.0, 9.9999) == D.IN_VIEWER_BLOCK


def test_in_viewer_threshold_is_not_20_m() -> None:
    assert calc_dir(0.0, 15.0) == D.NORTH_OF_VIEWER
    assert calc_dir(-19.9, 0.0) == D.WEST_OF_VIEWER


@pytest.mark.parametrize(
    ("x", "y", "expected"),
    [
        (0.0, 50.0, D.NORTH_OF_VIEWER),
        (0.0, -50.0, D.SOUTH_OF_VIEWER),
        (50.0, 0.0, D.EAST_OF_VIEWER),
        (-50.0, 0.0, D.WEST_OF_VIEWER),
        (50.0, 50.0, D.NORTHEAST_OF_VIEWER),
        (50.0, -50.0, D.SOUTHEAST_OF_VIEWER),
        (-50.0, 50.0, D.NORTHWEST_OF_VIEWER),
        (-50.0, -50.0, D.SOUTHWEST_OF_VIEWER),
        # The 2:1 ratio gate: exactly 2 is still diagonal, above 2 is cardinal.
        (20.0, 40.0, D.NORTHEAST_OF_VIEWER),
        (20.0, 40.01, D.NORTH_OF_VIEWER),
        (40.0, -20.0, D.SOUTHEAST_OF_VIEWER),
        (40.01, -20.0, D.EAST_OF_VIEWER),
        (-20.0, -40.01, D.SOUTH_OF_VIEWER),
        (-40.01, 20.0, D.WEST_OF_VIEWER),
        (-40.0, 20.0, D.NORTHWEST_OF_VIEWER),
        (-20.0, -40.0, D.SOUTHWEST_OF_VIEWER),
        # The F_EPSILON degenerate axes.
        (0.0001, 30.0, D.NORTH_OF_VIEWER),
        (30.0, -0.0001, D.EAST_OF_VIEWER),
        (-30.0, 0.0001, D.WEST_OF_VIEWER),
    ],
)
def test_calc_dir_wedges(x: float, y: float, expected: Direction) -> None:
    assert calc_dir(x, y) == expected


def test_cardinal_wedges_are_about_53_degrees() -> None:
    counts = {d: 0 for d in Direction}
    for deg10 in range(3600):
        a = math.radians(deg10 / 10.0)
        counts[calc_dir(60.0 * math.sin(a), 60.0 * math.cos(a))] += 1
    # atan(2) - atan(1/2) = 36.87 degrees per diagonal; 53.13 per cardinal.
    assert counts[D.NORTH_OF_VIEWER] == pytest.approx(531, abs=2)
    assert counts[D.NORTHEAST_OF_VIEWER] == pytest.approx(369, abs=2)
    assert counts[D.IN_VIEWER_BLOCK] == 0


def test_direction_values_are_retail() -> None:
    assert [int(d) for d in Direction] == list(range(9))
    assert Direction.SOUTHEAST_OF_VIEWER == 8


# -- LandDefs::heading ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("direction", "value"),
    [
        (D.IN_VIEWER_BLOCK, 0.0),
        (D.NORTH_OF_VIEWER, 0.0),
        (D.SOUTH_OF_VIEWER, 3.14159274),
        (D.EAST_OF_VIEWER, 1.57079637),
        (D.WEST_OF_VIEWER, 4.71238899),
        (D.NORTHWEST_OF_VIEWER, 5.49778700),
        (D.SOUTHWEST_OF_VIEWER, 3.92699075),
        (D.NORTHEAST_OF_VIEWER, 0.78539819),
        (D.SOUTHEAST_OF_VIEWER, 2.35619450),
    ],
)
def test_direction_heading_table(direction: Direction, value: float) -> None:
    assert direction_heading(direction) == pytest.approx(value, abs=1e-7)
    assert direction_heading(direction) == f32(direction_heading(direction))


def test_direction_heading_out_of_range_is_zero() -> None:
    assert direction_heading(9) == 0.0
    assert direction_heading(-1) == 0.0


# -- GetAttenuation and the volume chain ---------------------------------------------------


@pytest.mark.parametrize(
    ("distance", "volume", "db"),
    [
        (0.0, 1.0, 0),
        (0.0, 0.5, -6),
        (4.99, 1.0, 0),  # inside the knee: no falloff
        (5.0, 1.0, 0),  # the knee itself: 25/25
        (5.01, 1.0, 0),  # just past: 25/25.1 is -0.017 dB, which ceils to 0
        (5.7, 1.0, -2),  # 25/32.49: -2.28 dB
        (10.0, 1.0, -12),  # 0.25
        (50.0, 1.0, -40),  # 0.01
        (70.0, 1.0, -45),  # 0.0051 -> -45.8
        (94.0, 1.0, -50),  # -50.97 ceils to -50: kept
        (0.0, 0.03, -30),  # the 0.03 floor in dB
        (0.0, 2.0, 0),  # clamped to 1.0
        (10.0, 4.0, 0),  # 25 * 4 / 100 = 1.0
        (0.0, 0.1, -19),  # float32 0.1 is 0.100000001: 20 log10 = -19.9999999 ceils to -19
    ],
)
def test_attenuation_db_across_the_knee(distance: float, volume: float, db: int) -> None:
    assert attenuation_db(distance, volume) == db


def test_attenuation_rejects_below_minus_50_db() -> None:
    assert attenuation_db(94.0, 1.0) == -50
    assert attenuation_db(95.0, 1.0) is None  # -51.15 -> -51 < VOL_MIN
    assert attenuation_db(0.0, 0.0) is None  # v <= 0
    assert attenuation_db(0.0, 0.00316) == -50
    assert attenuation_db(0.0, 0.0028) is None


def test_ambient_slider_is_squared() -> None:
    # Once in PlayAmbientSound[FromCenter], once more inside GetAttenuation.
    assert attenuation_db(0.0, 1.0, 0.5) == -12  # 0.25, not 0.5 (-6)
    assert get_attenuation(0.0, 0.5, 1.0) == -6
    assert get_attenuation(0.0, 0.5, 0.5) == -12
    assert attenuation_db(10.0, 1.0, 0.5) == -24  # 0.25 * 0.25 = 0.0625
    assert attenuation_db(0.0, 1.0, 0.0) is None
    # float32 0.1 * 0.1 = 0.0100000003: -39.9999997 ceils to -39
    assert attenuation_db(0.0, 1.0, 0.1) == -39


def test_attenuation_clamps_before_the_second_slider() -> None:
    # 25 * 4 / 25 = 4 -> clamped to 1.0, then x0.5 once more (the first x0.5 is in the 4)
    assert get_attenuation(5.0, 4.0, 0.5) == -6


@pytest.mark.parametrize("volume", [1.0, 0.5, 0.3, 0.07, f32(0.1), 0.0031])
def test_exactly_5_m_takes_the_far_path_with_the_same_value(volume: float) -> None:
    # fcomp 5.0; test ah,5; jp .far: only dist < 5 is near. At 5.0, 25 v / 25 == v.
    assert get_attenuation(5.0, volume) == get_attenuation(4.999, volume)
    assert get_attenuation(5.0, volume) == get_attenuation(0.0, volume)


def test_nan_distance_takes_the_far_path_and_is_rejected() -> None:
    assert get_attenuation(math.nan, 1.0) is None
    assert attenuation_db(math.nan, 0.5) is None
    assert get_attenuation(math.inf, 1.0) is None  # 25 / inf^2 = 0: v <= 0


def test_infinite_slider_is_the_integer_indefinite_and_rejected() -> None:
    assert get_attenuation(0.0, 1.0, math.inf) is None


def test_x87_int_truncates_and_gives_the_indefinite() -> None:
    assert (x87_int(4.99), x87_int(-4.99), x87_int(5.0)) == (4, -4, 5)
    assert x87_int(math.nan) == x87_int(-math.inf) == x87_int(3e9) == -(2**31)


def test_pan_with_non_finite_inputs_does_not_raise() -> None:
    assert pan(90.0, 0.0, math.nan) == 0  # int(NaN) is the indefinite, below 5
    assert pan(90.0, 0.0, math.inf) == 0
    assert pan(math.nan, 0.0, 20.0) == 0  # the 64-bit _ftol indefinite: low dword 0


def test_db_to_gain() -> None:
    assert db_to_gain(0) == 1.0
    assert db_to_gain(-20) == pytest.approx(0.1)
    assert db_to_gain(-50) == pytest.approx(10 ** (-2.5))


# -- pan --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bearing", "heading", "distance", "expected"),
    [
        # PlaySoundInternal's 0.017453292 is just under pi/180: abeam is 14, not 15
        (90.0, 0.0, 20.0, 14),
        (270.0, 0.0, 20.0, -14),
        (0.0, 0.0, 20.0, 0),
        (180.0, 0.0, 20.0, 0),
        (30.0, 0.0, 20.0, 7),  # trunc(7.5)
        (330.0, 0.0, 20.0, -7),  # trunc toward zero
        (90.0, 90.0, 20.0, 0),
        (0.0, 90.0, 20.0, -14),
        (91.0, 0.0, 20.0, 14),  # 14.997...
        (90.0, 0.0, 4.99, 0),  # int(distance) < 5: no pan
        (90.0, 0.0, 5.0, 14),
    ],
)
def test_pan(bearing: float, heading: float, distance: float, expected: int) -> None:
    assert pan(bearing, heading, distance) == expected


def test_bearing_deg_compass() -> None:
    assert bearing_deg(0.0, 1.0) == 0.0
    assert bearing_deg(1.0, 1.0) == pytest.approx(45.0)
    assert bearing_deg(-1.0, 0.0) == 270.0


# -- RollDice -----------------------------------------------------------------------------------


def test_roll_dice_equal_bounds_draw_nothing() -> None:
    rng = MsvcRand(5)
    assert roll_dice(2.5, 2.5, rng) == 2.5
    assert rng.state == 5


def test_roll_dice_formula_and_swap() -> None:
    a, b = MsvcRand(9), MsvcRand(9)
    expected = 2.0 + (6.0 - 2.0) * b.unit()
    assert roll_dice(2.0, 6.0, a) == expected
    assert roll_dice(6.0, 2.0, a) == 2.0 + 4.0 * b.unit()  # swapped, same draw order


def test_roll_dice_range() -> None:
    rng = MsvcRand(1)
    values = [roll_dice(0.0, 8.0, rng) for _ in range(20000)]
    assert min(values) >= 0.0 and max(values) < 8.0
    assert int(math.floor(max(values))) == 7


# -- offsets, ids, terrain words ---------------------------------------------------------------


def test_block_offset_and_get_offset() -> None:
    assert get_block_offset(0x0A0A0011, 0x0A0A0040) == (0.0, 0.0, 0.0)
    assert get_block_offset(0x0A0A0001, 0x090B0001) == (-192.0, 192.0, 0.0)
    off = get_offset(0x0A0A0001, (10.0, 180.0, 2.0), 0x0A0B0001, (24.0, 0.0, 7.0))
    assert off == (14.0, 12.0, 5.0)


def test_outdoor_cell_ids_and_terrain_words() -> None:
    assert outdoor_cell_id(0xA9, 0xB4, 0, 0) == 0xA9B40001
    assert outdoor_cell_id(0xA9, 0xB4, 1, 0) == 0xA9B40009
    assert outdoor_cell_id(0xA9, 0xB4, 0, 1) == 0xA9B40002
    assert decode_terrain_word(0xFFFF) == (31, 31)
    assert decode_terrain_word((7 << 11) | (2 << 2) | 3) == (2, 7)


def test_min_volume_is_the_float_constant() -> None:
    assert float(np.float32(0.03)) == MIN_VOLUME
    assert MIN_VOLUME < 0.03


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("calc_weight", ["x", "y", "z=0.0"]),
        ("calc_dir", ["x", "y"]),
        ("direction_heading", ["d"]),
        ("attenuation_db", ["distance_m", "volume", "ambient_volume=1.0"]),
        ("pan", ["bearing_deg", "listener_heading_deg", "distance_m"]),
        ("roll_dice", ["lo", "hi", "rng"]),
    ],
)
def test_public_signatures_are_the_issue_s(name: str, params: list[str]) -> None:
    """Issue 2 lists these signatures for ``soundscape.laws.ac``; games call them by name."""
    import inspect

    from soundscape.laws import ac as law

    signature = inspect.signature(getattr(law, name))
    shown = [
        p.name if p.default is inspect.Parameter.empty else f"{p.name}={p.default!r}"
        for p in signature.parameters.values()
    ]
    assert shown == params


def test_calc_dir_returns_the_direction_enum() -> None:
    from soundscape.laws import ac as law

    assert law.calc_dir(0.0, 30.0) is Direction.NORTH_OF_VIEWER
    assert isinstance(law.calc_dir(30.0, 30.0), Direction)
    assert law.attenuation_db(100.0, 0.001) is None  # rejected: None, not a sentinel dB
