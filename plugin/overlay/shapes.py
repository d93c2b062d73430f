"""Cheap pyglet shapes for a per-frame overlay: reused pools, change-only updates, a camera.

Every pyglet shape setter rebuilds the shape's vertices, so the overlay only
assigns values that changed (``assign``) and reuses hidden shapes instead of
making new ones (``Pool``). Shapes are laid out in world-anchored pixels
(metres times the scale); following the listener is then one change of the
window's view matrix (``translated``), not a relayout.

Import after the pyglet options are set (``pyglet.shapes`` opens the GL layer).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pyglet
from pyglet.math import Mat4, Vec3


@dataclass(frozen=True, slots=True)
class View:
    """Which part of the floor plan the window shows: centre (metres), scale, size.

    >>> view = View(100.0, 50.0, 2.0, 800, 600)
    >>> view.to_screen(110.0, 50.0)
    (420.0, 300.0)
    >>> view.anchored(110.0, 50.0), view.origin_px
    ((220.0, 100.0), (200.0, 200.0))
    """

    centre_x_m: float
    centre_z_m: float
    px_per_m: float
    width_px: int
    height_px: int

    def to_screen(self, x_m: float, z_m: float) -> tuple[float, float]:
        """World (x east, z north) to window pixels (north up)."""
        ox, oy = self.origin_px
        return (ox + x_m * self.px_per_m, oy + z_m * self.px_per_m)

    def anchored(self, x_m: float, z_m: float) -> tuple[float, float]:
        """World to world-anchored pixels (what the shapes hold): no camera offset."""
        return (x_m * self.px_per_m, z_m * self.px_per_m)

    @property
    def origin_px(self) -> tuple[float, float]:
        """Where the world origin lands in the window (the camera translation)."""
        return (self.width_px / 2 - self.centre_x_m * self.px_per_m,
                self.height_px / 2 - self.centre_z_m * self.px_per_m)


def assign(shape: Any, **values: Any) -> None:
    """Set only the attributes whose value changed (each set rebuilds vertices)."""
    for name, value in values.items():
        if getattr(shape, name) != value:
            setattr(shape, name, value)


class Pool:
    """Shapes of one kind, reused frame to frame; the unused ones are hidden."""

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make
        self.items: list[Any] = []
        self.used = 0

    def begin(self) -> None:
        self.used = 0

    def take(self) -> Any:
        """The next shape (made on first need), visible."""
        if self.used == len(self.items):
            self.items.append(self.make())
        item = self.items[self.used]
        self.used += 1
        if not item.visible:
            item.visible = True
        return item

    def end(self) -> None:
        """Hide the shapes this frame did not take."""
        for item in self.items[self.used:]:
            if item.visible:
                item.visible = False


def find_window(window: Any = None) -> Any:
    """``window``, or the only open pyglet window.

    Raises:
        ValueError: no window given and not exactly one open.
    """
    if window is not None:
        return window
    windows = list(pyglet.app.windows)
    if len(windows) != 1:
        raise ValueError(f"overlay: pass the window to draw in ({len(windows)} are open)")
    return windows[0]


@contextmanager
def translated(window: Any, offset_px: tuple[float, float]) -> Iterator[None]:
    """Draw world-anchored shapes through the camera: the window's view moved by
    ``offset_px`` for the block, then restored."""
    previous = window.view
    window.view = previous @ Mat4.from_translation(Vec3(offset_px[0], offset_px[1], 0.0))
    try:
        yield
    finally:
        window.view = previous
