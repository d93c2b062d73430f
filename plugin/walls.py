"""Which ``Wall`` components changed: one rule for every feature that reads walls.

A wall added, removed or replaced (``esper.add_component``) shows by itself: esper
hands out a new cached ``get_component(Wall)`` list, and the walls whose entity or
component object differ are the changed ones. A wall edited in place (a door slid,
a wall fell) cannot be seen that way without comparing every wall every tick, so
the game marks it: ``ctx.walls.moved(entity)`` (``ctx.occlusion.wall_moved`` says
the same). Each feature that mirrors walls (the occlusion's pymunk space, the rooms'
flood fill) holds its own ``WallReader`` and asks it for the changes; while nothing
changed, nothing is compared, so the cost does not grow with the number of walls.
"""

from __future__ import annotations

import weakref
from operator import is_, itemgetter

from soundscape.components.occlusion import Wall

__all__ = ["WallEdits", "WallReader"]

_first = itemgetter(0)
_second = itemgetter(1)


class WallReader:
    """One feature's view of the walls: what changed since it last looked."""

    __slots__ = ("__weakref__", "_list", "components", "marked")

    def __init__(self) -> None:
        self._list: object = None
        self.components: dict[int, Wall] = {}
        """Entity -> the ``Wall`` component as last read (compared by identity)."""
        self.marked: set[int] = set()
        """Entities marked as edited in place since the last ``changes``."""

    def changes(self, walls: list[tuple[int, Wall]]) -> tuple[list[tuple[int, Wall]], list[int]]:
        """``(changed, gone)`` since the last call: the walls added, replaced or
        marked (entity order for the marked ones), and the entities whose wall is gone.

        ``walls`` is esper's cached ``get_component(Wall)`` list: while it is the
        same list and nothing is marked, nothing is looked at. A new list (any
        entity or component created or deleted anywhere) is compared in one C pass
        of entity and component identity.
        """
        changed: list[tuple[int, Wall]] = []
        gone: list[int] = []
        known = self.components
        if walls is not self._list:
            self._list = walls
            if not (len(walls) == len(known) and all(map(
                    is_, map(_second, walls), map(known.get, map(_first, walls))))):
                changed = [(e, w) for e, w in walls if known.get(e) is not w]
                gone = sorted(known.keys() - dict(walls).keys())
                for entity in gone:
                    del known[entity]
                for entity, wall in changed:
                    known[entity] = wall
                self.marked.difference_update(gone)
                self.marked.difference_update(e for e, _ in changed)
        if self.marked:
            changed += [(e, known[e]) for e in sorted(self.marked) if e in known]
            self.marked.clear()
        return changed, gone


class WallEdits:
    """The walls edited in place, told to every reader (``ctx.walls``)."""

    def __init__(self) -> None:
        self._readers: weakref.WeakSet[WallReader] = weakref.WeakSet()

    def reader(self) -> WallReader:
        """A new reader that hears of every ``moved`` from now on (dropped with its owner)."""
        reader = WallReader()
        self._readers.add(reader)
        return reader

    def moved(self, entity: int) -> None:
        """Say that ``entity``'s ``Wall`` was edited in place: every reader mirrors it
        at its next look."""
        for reader in self._readers:
            reader.marked.add(entity)
