"""The overlay's colours: one per element, so a test can find each by its pixels.

Terrain colours follow AC's terrain type numbers (``TerrainType.TerrainColor`` is
not in the region TOML); a game may pass its own palette to ``Overlay``.

>>> terrain_colour(1), terrain_colour(99)
((96, 168, 72), (128, 128, 128))
"""

from __future__ import annotations

LISTENER_COLOUR = (255, 0, 255)
"""The listener's dot (magenta: no terrain uses it)."""
RAY_CLEAR = (0, 230, 0)
RAY_BLOCKED = (235, 20, 20)
WALL_COLOUR = (200, 200, 200)
FLYBY_COLOUR = (255, 150, 0)
TRIGGER_COLOUR = (255, 255, 0)
BEARING_COLOUR = (0, 220, 255)
VOLUME_COLOUR = (60, 200, 90)
METER_COLOUR = (230, 170, 40)
"""A bus meter's bar (amber, apart from the channels' green volume bars)."""
PAN_COLOUR = (90, 140, 255)
PAN_TRACK_COLOUR = (80, 80, 96)
"""The pan bar's track and centre mark, under the pan tick."""
PANEL_BACK = (20, 20, 30, 200)
TAG_BACK = (10, 10, 14, 210)
"""The dark tag under a blocked ray's wall count."""

TERRAIN_COLOURS: dict[int, tuple[int, int, int]] = {
    1: (96, 168, 72),    # Grassland
    3: (30, 100, 40),    # LushGrass: the demo's forest floor
    10: (214, 196, 130), # SandYellow: lake shore
    12: (200, 140, 70),  # SandRockStrewn: desert
    15: (235, 240, 250), # Snow
    17: (40, 90, 200),   # WaterStandingFresh
}
UNKNOWN_TERRAIN = (128, 128, 128)


def terrain_colour(terrain: int) -> tuple[int, int, int]:
    """The palette colour of an AC terrain type (grey for one it does not know)."""
    return TERRAIN_COLOURS.get(terrain, UNKNOWN_TERRAIN)
