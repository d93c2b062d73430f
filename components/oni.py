"""Oni sound components (seed 001): placed-ambient records and the listener's sources.

* ``PlacedAmbient``: one record of the 1024-record table ``OSrAmbient_Start``
  0x511730 fills (the speech and the particles' sounds). A placed record's entity
  also has a ``Position`` (the place) and an ``Occluded`` (the walls).
* ``OniPlayer`` and ``OniCamera``: where Oni's listener is (``OSrUpdate``
  0x514f20). In the follow camera with a player, the listener is her ears; with
  any other camera mode (or no player) it is the camera, i.e. the active
  ``Listener`` entity.
"""

from __future__ import annotations

from dataclasses import dataclass

FOLLOW = "follow"
"""The camera mode whose listener is the player's ears."""


@dataclass(slots=True)
class PlacedAmbient:
    """A placed-ambient record (0x4c bytes in the retail table).

    Attributes:
        index: the record's slot in the table (ids are the slots of 0x61fa34).
        ambient: the ambient's name (+0x08).
        sound_id: the sound system's id of its start, -1 while it waits (+0x0c).
        placed: whether it has a place (+0x10); the place is the entity's ``Position``.
        near, far: the distances, Oni sound units, the ambient's own when not given
            (+0x20, +0x24).
        volume: the volume the game asked for (+0x28).
        play_once: the ambient plays once (dropped out of hearing, gone when ended).
        current_volume: the playing ambient's volume, slewed by at most 0.05 a frame.
    """

    index: int
    ambient: str
    sound_id: int = -1
    placed: bool = False
    near: float = 0.0
    far: float = 0.0
    volume: float = 1.0
    play_once: bool = False
    current_volume: float = 0.0


@dataclass(slots=True)
class OniPlayer:
    """The player character whose ears are the listener in the follow camera.

    Give it to the player's entity (with a ``Position``, her location).

    Attributes:
        facing_rad: her facing, a compass heading (character +0x170).
        facing_offset_rad: subtracted from the facing (+0x174); the ears face
            ``(0, 0, 1)`` turned about y by ``facing - offset`` (0x4e3640).
        head_y_m: her head's height (A+0x2480); None when she has no active part:
            then the ears are 15 Oni units above her location (0x4e33e0).
    """

    facing_rad: float = 0.0
    facing_offset_rad: float = 0.0
    head_y_m: float | None = None


@dataclass(slots=True)
class OniCamera:
    """The camera's mode; put it on the camera (the active ``Listener`` entity).

    ``mode == "follow"`` with an ``OniPlayer`` makes the player's ears the
    listener; any other mode hears from the camera's place and view.
    """

    mode: str = FOLLOW
