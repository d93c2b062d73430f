"""Where Oni hears from (``OSrUpdate`` 0x514f20, from ``iComputeDeltaTicks`` 0x4fafb0).

In the follow camera with a player, her ears (0x4e33e0): her location with y her
head's, or 15 units above the location when she has no active part, facing her
way (0x4e3640). Otherwise the camera's place (0x636518) and view (0x636524): the
first active ``Listener`` entity (``soundscape.listener``).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import esper

from soundscape.components.oni import FOLLOW, OniCamera, OniPlayer
from soundscape.components.spatial import Position
from soundscape.listener import first_active

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
    """The player's ears when the camera (the first active ``Listener``, ``soundscape.listener``)
    follows her, else the camera when it is finite; None if neither."""
    camera = first_active()
    if camera is None:
        return None
    mode = esper.try_component(camera.entity, OniCamera)
    if mode is not None and mode.mode == FOLLOW:
        ears = _player_ears(units_per_m)
        if ears is not None:
            return ears
    if not camera.finite:
        return None
    return Ears(camera.xyz, camera.heading_rad, "camera")
