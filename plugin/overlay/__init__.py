"""The debug overlay any pyglet game can draw (docs/overlay.md).

Import ``Overlay`` only after the game has chosen its pyglet options:
``pyglet.shapes`` opens the GL layer.

Names are imported on first use (``soundscape._lazy``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from soundscape import _lazy

if TYPE_CHECKING:
    from soundscape.overlay.draw import SOUND_CHARS, Overlay
    from soundscape.overlay.shapes import View

_EXPORTS = {
    "Overlay": "soundscape.overlay.draw",
    "View": "soundscape.overlay.shapes",
    "SOUND_CHARS": "soundscape.overlay.draw",
}

__all__ = [
    "Overlay",
    "SOUND_CHARS",
    "View",
]


def __getattr__(name: str) -> object:
    return _lazy.load(__name__, _EXPORTS, name)
