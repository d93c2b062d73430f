"""Reverb zones: areas of the floor plan with a room sound (issue 19, ``soundscape.rooms``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class ReverbZone:
    """An area of the floor plan (x east, z north, metres) that reverberates.

    Give it a ``polygon`` (three or more ``(x_m, z_m)`` corners) or a circle
    (``center_m`` and ``radius_m``). The reverb is a ``preset`` (``room``, ``hall``,
    ``cave``, ``forest``, ``underwater``: ``soundscape.audio.reverb.PRESETS``) with any
    of ``decay_s``, ``wet_db``, ``predelay_ms``, ``damping`` overriding it.

    A voice playing inside the zone sends to its reverb; the listener hears the
    reverb of the zone it stands in. Where zones overlap, the higher ``priority``
    wins, then the smaller area (a cave inside a forest).

    Attributes:
        walls: the zone is bounded by walls (``Wall`` components): a point is in it
            only if it is inside the shape and reachable from ``anchor_m`` (default:
            the shape's centre) without crossing a wall, so a sound just outside a
            house's wall is outdoors even where the drawn shape overlaps it. A doorway
            (a gap between walls) joins the inside to the rest of the shape.
        send: linear send level of the voices in it (1: the preset's ``wet_db``).
        enabled: False: the zone is ignored.
    """

    preset: str = "room"
    polygon: tuple[tuple[float, float], ...] | None = None
    center_m: tuple[float, float] | None = None
    radius_m: float = 0.0
    decay_s: float | None = None
    wet_db: float | None = None
    predelay_ms: float | None = None
    damping: float | None = None
    walls: bool = False
    anchor_m: tuple[float, float] | None = None
    priority: int = 0
    send: float = 1.0
    enabled: bool = True
