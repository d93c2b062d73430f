"""Feature `oni`: installs its runtime service on the context and returns its systems."""

from __future__ import annotations

from soundscape.context import Context
from soundscape.system import SoundSystem


def install(ctx: Context) -> list[SoundSystem]:
    """Create the feature's service on ``ctx`` and return its processors."""
    return []
