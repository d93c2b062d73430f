"""soundscape's esper components: plain slotted dataclasses, units in their names."""

from __future__ import annotations

from soundscape.components.occlusion import Flyby, Occluded, Wall
from soundscape.components.spatial import Listener, Position

__all__ = ["Flyby", "Listener", "Occluded", "Position", "Wall"]
