"""WallSpace and the WALLS system: pymunk mirrors the Wall components; bad walls are skipped."""

from __future__ import annotations

import math

import esper
import pytest

from soundscape import Settings, SoundscapePlugin
from soundscape.components.occlusion import Wall
from soundscape.errors import InputError
from soundscape.occlusion.rules import count_walls
from soundscape.occlusion.space import WallSpace

PLACE = (0.0, 1.0, 0.0)
LISTENER = (10.0, 1.0, 0.0)


def n_hits(space: WallSpace) -> int:
    return len(space.hits(PLACE, LISTENER))


def test_add_move_remove() -> None:
    space = WallSpace()
    assert space.set_wall(1, Wall(5.0, -1.0, 5.0, 1.0))
    assert not space.set_wall(1, Wall(5.0, -1.0, 5.0, 1.0))  # unchanged
    assert n_hits(space) == 1
    # Moved off the ray: the static index must follow (reindex_static).
    assert space.set_wall(1, Wall(5.0, 4.0, 5.0, 6.0))
    assert n_hits(space) == 0
    space.set_wall(1, Wall(7.0, -1.0, 7.0, 1.0))
    assert [h.distance for h in space.hits(PLACE, LISTENER)] == pytest.approx([7.0])
    assert space.remove_wall(1)
    assert not space.remove_wall(1)
    assert n_hits(space) == 0 and len(space) == 0


def test_distances_are_along_the_3d_ray_in_oni_units() -> None:
    space = WallSpace(units_per_m=2.0)
    space.set_wall(1, Wall(3.0, -1.0, 3.0, 1.0))
    # 4 m east and 3 m up: the wall at x=3 lies 3/4 of the way, 3.75 m, 7.5 units.
    (hit,) = space.hits((0.0, 0.0, 0.0), (4.0, 3.0, 0.0))
    assert hit.distance == pytest.approx(7.5)


def test_vertical_ray_meets_no_wall() -> None:
    space = WallSpace()
    space.set_wall(1, Wall(-1.0, 0.0, 1.0, 0.0))
    assert space.hits((0.0, 0.0, 0.0), (0.0, 5.0, 0.0)) == []


def test_default_normal_is_the_right_hand_side() -> None:
    space = WallSpace()
    space.set_wall(1, Wall(5.0, -1.0, 5.0, 1.0))  # a->b runs north: right is east (+x)
    (hit,) = space.hits(PLACE, LISTENER)
    assert hit.facing_dot > 0
    space.set_wall(1, Wall(5.0, 1.0, 5.0, -1.0))  # runs south: faces west
    (hit,) = space.hits(PLACE, LISTENER)
    assert hit.facing_dot < 0


@pytest.mark.parametrize(
    "wall",
    [
        Wall(math.nan, 0.0, 1.0, 1.0),
        Wall(0.0, 0.0, math.inf, 1.0),
        Wall(2.0, 2.0, 2.0, 2.0),
        Wall(0.0, 0.0, 1.0, 1.0, normal_x=math.nan),
    ],
)
def test_bad_wall_is_refused_and_its_old_segment_goes(wall: Wall) -> None:
    space = WallSpace()
    space.set_wall(1, Wall(5.0, -1.0, 5.0, 1.0))
    with pytest.raises(InputError, match="Wall"):
        space.set_wall(1, wall)
    assert n_hits(space) == 0
    assert space.sync([(1, wall)]) == []  # already known bad: reported once
    assert space.sync([(1, Wall(5.0, -1.0, 5.0, 1.0))]) == []
    assert n_hits(space) == 1


def test_bad_units_refused() -> None:
    with pytest.raises(InputError):
        WallSpace(units_per_m=0.0)


def make_plugin() -> SoundscapePlugin:
    return SoundscapePlugin(Settings(seed=1, backend="none", features=("occlusion",))).install()


def test_wall_system_follows_component_changes() -> None:
    plugin = make_plugin()
    service = plugin.context.occlusion
    a = esper.create_entity(Wall(5.0, -1.0, 5.0, 1.0))
    b = esper.create_entity(Wall(6.0, -1.0, 6.0, 1.0))
    esper.process(1 / 60)
    assert count_walls(service.walls.hits(PLACE, LISTENER)) == 2
    esper.component_for_entity(a, Wall).az_m = 3.0  # moved off the ray in place
    esper.component_for_entity(a, Wall).bz_m = 5.0
    esper.process(1 / 60)
    assert count_walls(service.walls.hits(PLACE, LISTENER)) == 2  # not marked: kept
    service.wall_moved(a)
    esper.process(1 / 60)
    assert count_walls(service.walls.hits(PLACE, LISTENER)) == 1
    esper.remove_component(b, Wall)
    esper.process(1 / 60)
    assert count_walls(service.walls.hits(PLACE, LISTENER)) == 0
    esper.add_component(b, Wall(8.0, -1.0, 8.0, 1.0))
    esper.process(1 / 60)
    assert count_walls(service.walls.hits(PLACE, LISTENER)) == 1
    plugin.uninstall()


def test_wall_system_logs_bad_walls_once_and_goes_on() -> None:
    plugin = make_plugin()
    events = plugin.context.events
    service = plugin.context.occlusion
    bad = esper.create_entity(Wall(math.nan, 0.0, 1.0, 1.0))
    flat = esper.create_entity(Wall(3.0, 3.0, 3.0, 3.0))
    esper.create_entity(Wall(5.0, -1.0, 5.0, 1.0))
    for _ in range(3):
        esper.process(1 / 60)
    rejected = events.where(source="occlusion", event="wall_rejected")
    assert sorted(r["entity"] for r in rejected) == sorted([bad, flat])
    assert any("zero-length" in r["error"] for r in rejected)
    assert len(service.walls) == 1
    plugin.uninstall()


def test_wall_system_reindexes_a_wall_moved_onto_the_ray() -> None:
    # A component edited in place onto the ray: ``sync`` must ``reindex_static`` or
    # pymunk's static index still holds the old box and the ray misses the wall.
    plugin = make_plugin()
    service = plugin.context.occlusion
    wall = esper.create_entity(Wall(5.0, 10.0, 5.0, 12.0))
    esper.process(1 / 60)
    assert count_walls(service.walls.hits(PLACE, LISTENER)) == 0
    moved = esper.component_for_entity(wall, Wall)
    moved.az_m, moved.bz_m = -1.0, 1.0
    service.wall_moved(wall)
    esper.process(1 / 60)
    assert [h.distance for h in service.walls.hits(PLACE, LISTENER)] == pytest.approx([5.0])
    plugin.uninstall()


def test_follow_mirrors_only_the_walls_that_changed() -> None:
    space = WallSpace()
    walls = [(e, Wall(float(e), -1.0, float(e), 1.0)) for e in range(1, 6)]
    mirrored: list[int] = []
    real = space._mirror

    def counting(changed: list[tuple[int, Wall]]) -> list[tuple[int, str]]:
        mirrored.extend(e for e, _ in changed)
        return real(changed)

    space._mirror = counting  # type: ignore[method-assign]
    assert space.follow(walls) == [] and mirrored == [1, 2, 3, 4, 5]
    mirrored.clear()
    assert space.follow(walls) == [] and mirrored == []  # the same list: nothing looked at
    same = list(walls)  # a new list, the same components (another entity came or went)
    assert space.follow(same) == [] and mirrored == []
    walls[1][1].az_m = 5.0  # edited in place, not marked: kept
    assert space.follow(same) == [] and mirrored == [] and n_hits(space) == 5
    space.mark_moved(2)
    assert space.follow(same) == [] and mirrored == [2] and n_hits(space) == 4
    mirrored.clear()
    bad = Wall(math.nan, 0.0, 1.0, 1.0)
    fewer = [walls[0], (3, bad), walls[3]]  # 2 and 5 gone, 3 replaced by a bad wall
    refused = space.follow(fewer)
    assert [e for e, _ in refused] == [3] and mirrored == [3]
    assert len(space) == 2 and n_hits(space) == 2
