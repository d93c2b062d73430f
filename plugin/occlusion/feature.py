"""Feature ``occlusion``: Oni's walls, the per-record occlusion cache and the flybys.

``install`` sets ``ctx.occlusion`` to an ``OcclusionService`` (its ``flybys`` the
24 flyby records) and returns the wall, occlusion and flyby systems.
"""

from __future__ import annotations

from soundscape.context import Context
from soundscape.occlusion.service import OcclusionService
from soundscape.oni.config import OniConfig
from soundscape.system import SoundSystem
from soundscape.systems.flybys import FlybySystem
from soundscape.systems.occlusion import OcclusionSystem
from soundscape.systems.walls import WallSystem


def install(ctx: Context) -> list[SoundSystem]:
    """Create ``ctx.occlusion`` and return its processors.

    The setting ``extra["oni_units_per_m"]`` (default 1) scales world metres to
    Oni units for the hearing test and the counting rules' distances; it is read
    as the Oni runtime reads it (``soundscape.oni.config.OniConfig``).
    """
    ctx.occlusion = OcclusionService(ctx, OniConfig.from_settings(ctx.settings.extra).units_per_m)
    return [WallSystem(ctx), OcclusionSystem(ctx), FlybySystem(ctx)]
