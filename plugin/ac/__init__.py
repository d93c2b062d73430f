"""The Asheron's Call terrain-ambient runtime (seed 000): ``install`` and ``AcRuntime``.

Names are imported on first use (``soundscape._lazy``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from soundscape import _lazy

if TYPE_CHECKING:
    from soundscape.ac.config import AcConfig
    from soundscape.ac.feature import install
    from soundscape.ac.runtime import AcRuntime

_EXPORTS = {
    "install": "soundscape.ac.feature",
    "AcRuntime": "soundscape.ac.runtime",
    "AcConfig": "soundscape.ac.config",
}

__all__ = [
    "AcConfig",
    "AcRuntime",
    "install",
]


def __getattr__(name: str) -> object:
    return _lazy.load(__name__, _EXPORTS, name)
