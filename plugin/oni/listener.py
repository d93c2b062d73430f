"""Where Oni hears from (``OSrUpdate`` 0x514f20, from ``iComputeDeltaTicks`` 0x4fafb0).

In the follow camera with a player, her ears (0x4e33e0): her location with y her
head's, or 15 units above the location when she has no active part, facing her
way (0x4e3640). Otherwise the camera's place (0x636518) and view (0x636524): the
first active ``Listener`` entity.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import esper

from soundscape.components.oni import FOLLOW, OniCamera, OniPlayer
from soundscape.components.spatial import Listener, Position

EARS_ABOVE_UNITS = 15.0
"""With no active part, the ears are 15 Oni units above her location."""


class Ears(NamedTuple):
    """The listener: a place (world metres) and a compass heading (radians)."""

    xyz: tuple[float, float, float]
    heading_rad: float
    source: str


def _finite(*values: float) -> bool:
    return all(math.isfinite(v) for v in values)


def _player_ears(units_per_m: float) -> Ears | None:
    for _entity, (player, pos) in esper.get_components(OniPlayer, Position):
        y = pos.y_m + EARS_ABOVE_UNITS / units_per_m if player.head_y_m is None \
            else player.head_y_m
        heading = player.facing_rad - player.facing_offset_rad
        if _finite(pos.x_m, y, pos.z_m, heading):
            return Ears((pos.x_m, y, pos.z_m), heading, "player")
    return None


def find_ears(units_per_m: float = 1.0) -> Ears | None:
    """The player's ears in the follow camera, else the active ``Listener``; None if neither."""
    for _entity, (listener, camera, _pos) in esper.get_components(Listener, OniCamera, Position):
        if listener.active and camera.mode == FOLLOW:
            ears = _player_ears(units_per_m)
            if ears is not None:
                return ears
            break
    for _entity, (listener, pos) in esper.get_components(Listener, Position):
        if listener.active and _finite(pos.x_m, pos.y_m, pos.z_m, listener.heading_rad):
            return Ears((pos.x_m, pos.y_m, pos.z_m), listener.heading_rad, "camera")
    return None
