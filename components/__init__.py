"""soundscape's esper components: plain slotted dataclasses, units in their names."""

from __future__ import annotations

from soundscape.components.emitter import Emitter
from soundscape.components.occlusion import Flyby, Occluded, Wall
from soundscape.components.oni import OniCamera, OniPlayer, PlacedAmbient
from soundscape.components.redguard import (
    RgAnimation,
    RgAttachment,
    RgCombat,
    RgLink,
    RgObject,
    RgRope,
)
from soundscape.components.rooms import ReverbZone
from soundscape.components.spatial import Listener, Position, Velocity

__all__ = ["Emitter", "Flyby", "Listener", "Occluded", "OniCamera", "OniPlayer", "PlacedAmbient",
           "Position", "ReverbZone", "RgAnimation", "RgAttachment", "RgCombat", "RgLink",
           "RgObject", "RgRope", "Velocity", "Wall"]
