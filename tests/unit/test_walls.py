"""``soundscape.walls``: which walls changed, one rule for occlusion and rooms."""

from __future__ import annotations

import gc

from soundscape.components import Wall
from soundscape.walls import WallEdits, WallReader


def test_the_same_list_with_nothing_marked_is_no_change():
    reader = WallReader()
    a, b = Wall(0, 0, 1, 0), Wall(0, 1, 1, 1)
    walls = [(1, a), (2, b)]
    assert reader.changes(walls) == ([(1, a), (2, b)], [])
    assert reader.changes(walls) == ([], [])
    assert reader.changes(list(walls)) == ([], [])  # a new list, the same walls


def test_replaced_removed_and_marked_walls_are_the_changes():
    reader = WallReader()
    a, b, c = Wall(0, 0, 1, 0), Wall(0, 1, 1, 1), Wall(0, 2, 1, 2)
    reader.changes([(1, a), (2, b), (3, c)])
    d = Wall(5, 5, 6, 6)
    reader.marked.add(3)
    assert reader.changes([(1, d), (3, c)]) == ([(1, d), (3, c)], [2])
    reader.marked.update({1, 9})  # 9 has no wall: nothing to mirror
    walls = [(1, d), (3, c)]
    assert reader.changes(walls) == ([(1, d)], [])
    assert reader.marked == set()


def test_a_mark_reaches_every_live_reader_and_a_dropped_one_is_forgotten():
    edits = WallEdits()
    first, second = edits.reader(), edits.reader()
    edits.moved(7)
    assert first.marked == second.marked == {7}
    del second
    gc.collect()
    assert len(edits._readers) == 1
