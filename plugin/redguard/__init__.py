"""Redguard positional sound (seed 002): the runtime, its effects, tasks and dialogue.

Names are imported on first use (``soundscape._lazy``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from soundscape import _lazy

if TYPE_CHECKING:
    from soundscape.redguard.config import RgConfig
    from soundscape.redguard.feature import install
    from soundscape.redguard.runtime import RedguardRuntime

_EXPORTS = {
    "install": "soundscape.redguard.feature",
    "RedguardRuntime": "soundscape.redguard.runtime",
    "RgConfig": "soundscape.redguard.config",
}

__all__ = [
    "RedguardRuntime",
    "RgConfig",
    "install",
]


def __getattr__(name: str) -> object:
    return _lazy.load(__name__, _EXPORTS, name)
