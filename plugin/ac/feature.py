"""Feature ``ac``: the Asheron's Call terrain-ambient runtime (seed 000).

``install(ctx)`` puts an ``AcRuntime`` on ``ctx.ac`` and returns the two systems:
``CellRebuildSystem`` (``CellManager::ChangePosition``) and
``AmbientPlaybackSystem`` (``Ambient::UseTime``).
"""

from __future__ import annotations

from soundscape.ac.runtime import AcRuntime
from soundscape.context import Context
from soundscape.system import SoundSystem
from soundscape.systems.ambient_playback import AmbientPlaybackSystem
from soundscape.systems.cell_rebuild import CellRebuildSystem


def install(ctx: Context) -> list[SoundSystem]:
    """Create ``ctx.ac`` and return the CELL_REBUILD and AMBIENT_PLAYBACK systems."""
    ctx.ac = AcRuntime(ctx)
    return [CellRebuildSystem(ctx), AmbientPlaybackSystem(ctx)]
