"""The wall-count rules of Oni's ``OSiCalc_PositionAndVolume`` (0x511a00), as pure functions.

The rays themselves come from pymunk (``soundscape.occlusion.space``); this module
only takes an ordered list of hits, from the sound's place toward the listener,
and counts the walls the way the seed says, so the rules can be tested without a
space. The cache rule that spreads the rays over 12 ticks lives here too.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from soundscape.components.occlusion import WALL_DOOR_PANEL, WALL_SKIPPED_FLAGS, WALL_TWO_SIDED

NEAR_PLACE_SQ = 0.01
"""Before the first counted wall, hits within 0.1 of the place are ignored (0x529e3c)."""

DOOR_GAP_FIRST = 2.0
"""The first door panel within 2 of the place does not count (0x529818)."""

DOOR_GAP_AFTER_FACING = 8.0
"""A door panel within 8 of the panel before it, when that one faced, does not count
(0x52a740)."""

DOOR_TAKE_BACK_SQ = 9.0
"""A facing panel within 3 (9 squared, 0x52a5b0) of the counted panel just before it
takes that count back."""

CACHE_TICKS = 12
"""Records recount their walls once every 12 ticks, staggered by their index mod 12."""


class WallHit(NamedTuple):
    """One wall a ray met, as the counting rules see it.

    Attributes:
        distance: from the sound's place along the ray, Oni units.
        flags: the quad's flags (``WALL_DOOR_PANEL``, ``WALL_TWO_SIDED``...).
        object_id: the quad's object (AGQG +0x34), -1 for none.
        facing_dot: the quad normal's dot with the direction to the listener;
            positive means the panel "faces" the listener (unless two-sided).
    """

    distance: float
    flags: int = 0
    object_id: int = -1
    facing_dot: float = -1.0


class OcclusionResult(NamedTuple):
    """What ``OSiCalc_PositionAndVolume`` gives a sound: its volume, walls and hearing."""

    volume: float
    walls: int
    in_hearing: bool


def count_walls(hits: Iterable[WallHit] | Iterable[tuple[float, int, int, float]]) -> int:
    """Count the walls between a sound and the listener (``OSiCalc_PositionAndVolume`` 0x511a00).

    ``hits`` must be ordered from the place toward the listener. The seed's rules,
    read as Bungie's ``OSiIsOccluded`` (``Oni_Sound2.c``) runs them:

    * quads with any of the flags 0x8044800 are skipped (the ray never sees them);
    * while the count is 0, hits within 0.1 of the place are ignored;
    * a quad without the door flag 0x1000000 counts one, and once one has, every
      later quad counts one (the door run is over);
    * a door panel before that: if a panel already gave its object id, a panel of
      that id is ignored and one of another id counts one. Otherwise the panel
      "faces" the listener when it is not two-sided (0x200) and its normal has a
      positive dot with the direction to the listener; it is within reach when it
      lies within 2 of the place (the first panel) or within 8 of the panel before
      it when that one faced, and no other distance applies. A facing panel right
      after a counted one, within 3 of it, takes that count back. A panel that
      faces or is within reach counts nothing and gives its object id (not -1);
      any other panel counts one.

    >>> count_walls([WallHit(1.0), WallHit(4.0)])
    2
    >>> door = WALL_DOOR_PANEL
    >>> count_walls([WallHit(5.0, door, facing_dot=-1.0), WallHit(5.2, door, facing_dot=1.0)])
    0
    >>> count_walls([WallHit(0.05), WallHit(3.0)]), count_walls([WallHit(1.5, door)])
    (1, 0)
    """
    count = 0
    door_run = True  # ``possibly_inside_furniture``: no plain quad has counted yet
    inside_id = -1  # ``inside_object_tag``
    last = 0.0  # the last point: the place itself before the first panel
    last_is_place = True
    last_faced = False
    last_counted = False  # ``lastpoint_was_collision``
    for distance, flags, object_id, facing_dot in hits:
        if flags & WALL_SKIPPED_FLAGS:
            continue
        if count == 0 and distance * distance < NEAR_PLACE_SQ:
            continue
        if not door_run or not flags & WALL_DOOR_PANEL:
            count += 1
            door_run = False
            continue
        if inside_id != -1:
            if object_id != inside_id:
                count += 1
            continue
        gap = DOOR_GAP_FIRST if last_is_place else DOOR_GAP_AFTER_FACING if last_faced else 0.0
        near = (distance - last) ** 2 < gap * gap
        faces = not flags & WALL_TWO_SIDED and facing_dot > 0.0
        if last_counted and faces and (distance - last) ** 2 < DOOR_TAKE_BACK_SQ:
            count -= 1
        last, last_is_place, last_faced, last_counted = distance, False, faces, False
        if faces or near:
            if object_id != -1:
                inside_id = object_id
            continue
        count += 1
        last_counted = True
    return count


def cache_due(tick: int, cache_tick: int, cache_index: int) -> bool:
    """True when a record must count its walls again (``OSiCalc_PositionAndVolume``).

    The cached volume holds while the game tick is under the record's time
    rounded down to 12, plus 12, plus its index mod 12. A record never counted
    has time -1, so it counts at the first tick at or after its index mod 12.

    >>> [t for t in range(40) if cache_due(t, 13, 5)]  # counted at 13: next at 29
    [29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39]
    >>> cache_due(0, -1, 0), cache_due(4, -1, 5), cache_due(5, -1, 5)
    (True, False, True)
    """
    return tick >= next_due(cache_tick, cache_index)


def next_due(cache_tick: int, cache_index: int) -> int:
    """The first tick at which ``cache_due`` holds for a record counted at ``cache_tick``.

    >>> next_due(13, 5), next_due(-1, 5)
    (29, 5)
    """
    return (cache_tick // CACHE_TICKS) * CACHE_TICKS + CACHE_TICKS + cache_index % CACHE_TICKS
