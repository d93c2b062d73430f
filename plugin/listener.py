"""The ears every runtime hears from: one rule for which listener, one for finiteness.

Several ``Listener`` entities may exist. Every runtime hears from the **first
active** one (esper's order of ``get_components(Listener, Position)``); a later
one never stands in for it. Its pose is **usable** when its position and heading
are all finite. When it is not (or there is no active listener), there are no
ears this tick, and each runtime does what it does without a camera sample: AC
logs ``bad_listener`` and keeps its cell, Redguard keeps its last good sample
(``skip``), Oni keeps its last ears marked ``"none"``, the occlusion feature
counts nothing, emitters are silent and the overlay draws no listener.

    >>> import esper
    >>> from soundscape.components import Listener, Position
    >>> esper.switch_world("listener-doctest")
    >>> _ = esper.create_entity(Listener(active=False), Position(9.0, 9.0, 9.0))
    >>> ears = esper.create_entity(Listener(heading_rad=1.5), Position(1.0, 2.0, 3.0))
    >>> found = usable()
    >>> found.entity == ears, found.xyz, found.heading_rad
    (True, (1.0, 2.0, 3.0), 1.5)
    >>> esper.component_for_entity(ears, Listener).heading_rad = float("nan")
    >>> usable() is None, first_active().entity == ears
    (True, True)
    >>> esper.switch_world("default"); esper.delete_world("listener-doctest")
"""

from __future__ import annotations

import math
from typing import NamedTuple

import esper

from soundscape.components.spatial import Listener, Position


class ActiveListener(NamedTuple):
    """The first active listener entity and its components."""

    entity: int
    listener: Listener
    position: Position

    @property
    def xyz(self) -> tuple[float, float, float]:
        """Where it is, world metres."""
        return self.position.as_tuple()

    @property
    def heading_rad(self) -> float:
        """Its compass heading (0 north, clockwise)."""
        return self.listener.heading_rad

    @property
    def finite(self) -> bool:
        """True when ``is_finite(listener, position)``."""
        return is_finite(self.listener, self.position)


def is_finite(listener: Listener, position: Position) -> bool:
    """The one finiteness rule: the position and the heading are all finite."""
    return position.is_finite() and math.isfinite(listener.heading_rad)


def first_active() -> ActiveListener | None:
    """The first active ``Listener`` with a ``Position``, finite or not; None if none."""
    for entity, (listener, position) in esper.get_components(Listener, Position):
        if listener.active:
            return ActiveListener(entity, listener, position)
    return None


def usable() -> ActiveListener | None:
    """The first active listener when its pose is finite; otherwise None (no ears)."""
    found = first_active()
    return found if found is not None and found.finite else None


__all__ = ["ActiveListener", "first_active", "is_finite", "usable"]
