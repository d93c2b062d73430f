"""Oni's walls, the per-record occlusion cache and the flybys (seed 001).

Names are imported on first use (``soundscape._lazy``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from soundscape import _lazy

if TYPE_CHECKING:
    from soundscape.occlusion.feature import install
    from soundscape.occlusion.service import OcclusionService

_EXPORTS = {
    "install": "soundscape.occlusion.feature",
    "OcclusionService": "soundscape.occlusion.service",
}

__all__ = [
    "OcclusionService",
    "install",
]


def __getattr__(name: str) -> object:
    return _lazy.load(__name__, _EXPORTS, name)
