"""soundscape.coords (issue 17): a 2D game's pixels as soundscape's metres."""

from __future__ import annotations

import math

import pytest

from soundscape.components import Position
from soundscape.coords import Map2D
from soundscape.errors import InputError


def test_y_up_screen_right_is_east_up_is_north():
    screen = Map2D(pixels_per_m=32)
    assert screen.to_world(320, 32) == (10.0, 0.0, 1.0)
    assert Position.from_2d(320, 32, screen) == Position(10.0, 0.0, 1.0)
    assert screen.heading(0, 1) == 0.0 and screen.heading(1, 0) == pytest.approx(math.pi / 2)


def test_y_down_with_an_origin_and_a_height():
    tiles = Map2D(pixels_per_m=16, origin=(100, 50), y_down=True, height_m=1.5)
    assert tiles.to_world(116, 34) == (1.0, 1.5, 1.0)  # right and *up* the screen: north
    assert tiles.to_world(100, 66) == (0.0, 1.5, -1.0)  # down the screen: south
    assert tiles.heading(0, 1) == pytest.approx(math.pi)  # moving down the screen: south
    assert tiles.velocity(32, -16) == tiles.velocity(32.0, -16.0)
    v = tiles.velocity(32, -16)
    assert (v.x_mps, v.y_mps, v.z_mps) == (2.0, 0.0, 1.0)


@pytest.mark.parametrize("mapping", [Map2D(32), Map2D(7.5, (3, -9), True), Map2D(1, (0, 0), False)])
def test_round_trip(mapping):
    for x, y in ((0.0, 0.0), (640.0, 360.0), (-12.5, 3.25)):
        back = mapping.to_2d(Position.from_2d(x, y, mapping))
        assert back == pytest.approx((x, y))


def test_moving_a_position_in_place():
    screen = Map2D(pixels_per_m=10, y_down=True)
    pos = Position()
    pos.set_2d(20, 30, screen)
    assert pos.as_tuple() == (2.0, 0.0, -3.0)


def test_bad_mappings_are_refused():
    with pytest.raises(InputError, match="pixels_per_m"):
        Map2D(pixels_per_m=0)
    with pytest.raises(InputError, match="origin"):
        Map2D(origin=(float("nan"), 0))
