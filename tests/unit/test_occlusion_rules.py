"""OSiCalc_PositionAndVolume's wall-count rules (seed 001, 0x511a00), one test per rule.

Each rule is tested twice: on the pure ``count_walls`` over hand-made hits, and
through walls placed in a real pymunk space with the ray cast from the place
(0, 0, 0) to the listener on the +x axis.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from soundscape.components.occlusion import WALL_DOOR_PANEL, WALL_TWO_SIDED, Wall
from soundscape.laws.oni import occlusion_volume
from soundscape.occlusion.rules import WallHit, count_walls
from soundscape.occlusion.space import WallSpace

DOOR = WALL_DOOR_PANEL
PLACE = (0.0, 0.0, 0.0)
LISTENER = (20.0, 0.0, 0.0)
AWAY = -1.0  # normal toward the place: the panel does not face the listener
TOWARD = 1.0  # normal toward the listener: the panel faces it


def across(x: float, flags: int = 0, object_id: int = -1, facing: float = AWAY) -> Wall:
    """A wall across the x axis at ``x``, its normal along +x (facing) or -x."""
    return Wall(x, -3.0, x, 3.0, flags, object_id, facing, 0.0)


def count_in_space(*walls: Wall) -> int:
    space = WallSpace()
    # Added in reverse so pymunk's own order is not already the ray's order.
    for entity, wall in reversed(list(enumerate(walls))):
        space.set_wall(entity, wall)
    return count_walls(space.hits(PLACE, LISTENER))


def test_hits_are_ordered_from_the_place() -> None:
    space = WallSpace()
    for entity, x in enumerate([9.0, 2.0, 15.0, 5.0, 11.0]):
        space.set_wall(entity, across(x))
    distances = [h.distance for h in space.hits(PLACE, LISTENER)]
    assert distances == pytest.approx([2.0, 5.0, 9.0, 11.0, 15.0])
    back = [h.distance for h in space.hits(LISTENER, PLACE)]
    assert back == pytest.approx([5.0, 9.0, 11.0, 15.0, 18.0])


def test_no_wall_counts_zero_and_volume_one() -> None:
    assert count_walls([]) == 0
    assert count_in_space(Wall(0.0, 5.0, 20.0, 5.0)) == 0  # beside the ray
    assert occlusion_volume(0) == 1.0


def test_one_plain_wall() -> None:
    assert count_walls([WallHit(5.0)]) == 1
    assert count_in_space(across(5.0)) == 1
    assert occlusion_volume(1) == pytest.approx(0.8 - 1 / 12)


def test_two_walls() -> None:
    assert count_walls([WallHit(5.0), WallHit(5.05)]) == 2  # plain walls: no spacing rule
    assert count_in_space(across(5.0), across(12.0)) == 2
    assert occlusion_volume(2) == pytest.approx(0.8 - 4 / 12)


def test_four_walls_capped_at_three() -> None:
    walls = count_in_space(across(3.0), across(6.0), across(9.0), across(12.0))
    assert walls == 4
    assert occlusion_volume(walls) == pytest.approx(0.8 - 9 / 12)
    assert occlusion_volume(walls, 0.3) == 0.3  # max(min occlusion, 0.05)


def test_skipped_flags_never_count() -> None:
    for flag in (0x800, 0x4000, 0x40000, 0x8000000):
        assert count_walls([WallHit(5.0, flag)]) == 0
        assert count_in_space(across(5.0, flag), across(8.0)) == 1


def test_hit_at_the_place_is_ignored() -> None:
    assert count_walls([WallHit(0.0), WallHit(0.09), WallHit(0.1)]) == 1
    # A wall through the place gives pymunk an alpha-0 hit: ignored.
    assert count_in_space(across(0.0)) == 0
    assert count_in_space(across(0.05), across(4.0)) == 1
    assert count_in_space(across(0.11)) == 1


def test_a_solid_door_counts_once_and_its_other_panels_are_ignored() -> None:
    # Door 7: in through a panel facing away (counts), out 4 beyond through one facing the
    # listener (no take-back, it gives id 7): later panels of 7 are ignored, 8's count.
    door = [across(5.0, DOOR, 7), across(9.0, DOOR, 7, TOWARD)]
    assert count_in_space(*door) == 1
    assert count_in_space(*door, across(12.0, DOOR, 7)) == 1
    assert count_in_space(*door, across(12.0, DOOR, 7), across(14.0, DOOR, 8)) == 2
    # a panel of another id counts even when it faces: no rules once inside an object
    assert count_in_space(*door, across(12.0, DOOR, 8, TOWARD)) == 2


def test_the_first_panel_within_two_of_the_place_counts_nothing_and_gives_its_id() -> None:
    # OScOcclusion_SkipFurnitureSourceDist: the sound sits inside the object
    assert count_walls([WallHit(1.9, DOOR)]) == 0
    assert count_walls([WallHit(2.0, DOOR)]) == 1
    assert count_in_space(across(1.5, DOOR, 7), across(6.0, DOOR, 7)) == 0
    assert count_in_space(across(1.5, DOOR, 7), across(6.0, DOOR, 8)) == 1
    assert count_in_space(across(1.5, DOOR), across(6.0, DOOR)) == 1  # no id: counts


def test_panel_facing_the_listener_counts_nothing() -> None:
    assert count_walls([WallHit(5.0, DOOR, facing_dot=1.0)]) == 0
    assert count_in_space(across(5.0, DOOR, facing=TOWARD)) == 0


def test_panel_facing_away_counts() -> None:
    assert count_walls([WallHit(5.0, DOOR, facing_dot=-1.0)]) == 1
    assert count_in_space(across(5.0, DOOR, facing=AWAY)) == 1


def test_two_sided_panel_never_faces() -> None:
    assert count_walls([WallHit(5.0, DOOR | WALL_TWO_SIDED, facing_dot=1.0)]) == 1
    assert count_in_space(across(5.0, DOOR | WALL_TWO_SIDED, facing=TOWARD)) == 1


def test_facing_panel_within_three_takes_the_count_back() -> None:
    # A thin door: in through a panel facing away, out through one facing the listener.
    assert count_in_space(across(5.0, DOOR), across(7.9, DOOR, facing=TOWARD)) == 0
    assert count_walls([WallHit(5.0, DOOR), WallHit(7.9, DOOR, facing_dot=1.0)]) == 0
    # Out 3 or more beyond the counted panel: the count stays.
    assert count_in_space(across(5.0, DOOR), across(8.1, DOOR, facing=TOWARD)) == 1
    # The count is taken back once only.
    hits = [WallHit(5.0, DOOR), WallHit(6.0, DOOR, facing_dot=1.0), WallHit(6.5, DOOR, 0, 1.0)]
    assert count_walls(hits) == 0


def test_spacing_is_eight_after_a_panel_that_faced() -> None:
    thick = [across(5.0, DOOR), across(9.0, DOOR, facing=TOWARD)]  # 4 thick: no take-back
    assert count_in_space(*thick) == 1
    assert count_in_space(*thick, across(16.9, DOOR)) == 1  # 7.9 after a facing panel
    assert count_in_space(*thick, across(17.1, DOOR)) == 2  # 8.1 after it


def test_no_spacing_after_a_panel_that_counted() -> None:
    # "within 2 (the first) or 8 (after one that faced)": no other distance applies
    assert count_in_space(across(5.0, DOOR), across(5.5, DOOR)) == 2
    assert count_walls([WallHit(d, DOOR) for d in (5.0, 5.5, 6.5, 7.2)]) == 4


def test_object_id_is_given_by_a_panel_that_counts_nothing() -> None:
    # The back panel (facing, within 3) takes the count back and gives id 7.
    assert count_in_space(across(5.0, DOOR, 7), across(6.0, DOOR, 7, TOWARD)) == 0
    assert count_in_space(across(5.0, DOOR, 7), across(6.0, DOOR, 7, TOWARD),
                          across(8.0, DOOR, 7), across(12.0, DOOR, 9)) == 1
    # A counted panel gives no id: a later panel of 7 counts too.
    assert count_in_space(across(5.0, DOOR, 7), across(10.0, DOOR, 7)) == 2
    assert count_in_space(across(5.0, DOOR, 7), across(10.0, DOOR, 8)) == 2
    assert count_in_space(across(5.0, DOOR), across(10.0, DOOR)) == 2


def test_a_plain_quad_of_the_objects_id_still_counts() -> None:
    # plain quads are tested before the object id
    assert count_in_space(across(1.5, DOOR, 7), across(6.0, 0, 7)) == 1


def test_quads_after_a_plain_wall_count_one_each() -> None:
    # After a plain quad, door panels count one each, facing or within 2 alike.
    assert count_in_space(across(3.0), across(5.0, DOOR), across(5.5, DOOR, facing=TOWARD)) == 3
    assert count_walls([WallHit(3.0), WallHit(5.0, DOOR), WallHit(5.5, DOOR, facing_dot=1)]) == 3


def test_door_run_then_plain_wall() -> None:
    assert count_in_space(across(5.0, DOOR), across(5.5, DOOR), across(6.0)) == 3
    assert count_in_space(across(1.0, DOOR), across(3.0)) == 1  # the near panel counts nothing


def test_volume_rules() -> None:
    assert occlusion_volume(0, 0.5) == 1.0
    assert occlusion_volume(1, 0.995) == 1.0  # min occlusion above 0.99: 1
    assert occlusion_volume(1, 0.99) == 0.99
    assert occlusion_volume(2, 0.5) == 0.5
    assert occlusion_volume(3) == pytest.approx(0.05)


hit_lists = st.lists(
    st.tuples(
        st.floats(0.0, 50.0),
        st.sampled_from([0, DOOR, DOOR | WALL_TWO_SIDED, 0x800, DOOR | 0x4000]),
        st.sampled_from([-1, 7, 8]),
        st.sampled_from([-1.0, 1.0]),
    ),
    max_size=12,
).map(lambda hits: sorted(WallHit(*h) for h in hits))


@given(hit_lists)
def test_count_is_never_negative_nor_above_the_hits(hits: list[WallHit]) -> None:
    assert 0 <= count_walls(hits) <= len(hits)


@given(st.lists(st.floats(0.0, 50.0), max_size=12).map(sorted))
def test_plain_walls_count_one_each_beyond_a_tenth(distances: list[float]) -> None:
    assert count_walls([WallHit(d) for d in distances]) == sum(1 for d in distances if d >= 0.1)
