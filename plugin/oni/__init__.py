"""The Oni sound system (seed 001): groups, ambients, impulses, scripts, placed ambients.

Names are imported on first use (``soundscape._lazy``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from soundscape import _lazy

if TYPE_CHECKING:
    from soundscape.oni.config import OniConfig
    from soundscape.oni.feature import CHANNELS, STEREO_CHANNELS, install
    from soundscape.oni.sound import OniSound

_EXPORTS = {
    "install": "soundscape.oni.feature",
    "CHANNELS": "soundscape.oni.feature",
    "STEREO_CHANNELS": "soundscape.oni.feature",
    "OniSound": "soundscape.oni.sound",
    "OniConfig": "soundscape.oni.config",
}

__all__ = [
    "CHANNELS",
    "OniConfig",
    "OniSound",
    "STEREO_CHANNELS",
    "install",
]


def __getattr__(name: str) -> object:
    return _lazy.load(__name__, _EXPORTS, name)
