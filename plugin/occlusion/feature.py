"""Feature ``occlusion``: Oni's walls, the per-record occlusion cache and the flybys.

``install`` sets ``ctx.occlusion`` to an ``OcclusionService`` (its ``flybys`` the
24 flyby records) and returns the wall, occlusion and flyby systems.
"""

from __future__ import annotations

import math

from soundscape.context import Context
from soundscape.errors import DataError
from soundscape.occlusion.service import OcclusionService
from soundscape.system import SoundSystem
from soundscape.systems.flybys import FlybySystem
from soundscape.systems.occlusion import OcclusionSystem
from soundscape.systems.walls import WallSystem


def install(ctx: Context) -> list[SoundSystem]:
    """Create ``ctx.occlusion`` and return its processors.

    The setting ``extra["oni_units_per_m"]`` (default 1) scales world metres to
    Oni units for the hearing test and the counting rules' distances.
    """
    units = ctx.settings.extra.get("oni_units_per_m", 1.0)
    if not isinstance(units, (int, float)) or not math.isfinite(units) or units <= 0:
        raise DataError("Settings", "extra", "oni_units_per_m", f"must be positive, got {units!r}")
    ctx.occlusion = OcclusionService(ctx, float(units))
    return [WallSystem(ctx), OcclusionSystem(ctx), FlybySystem(ctx)]
