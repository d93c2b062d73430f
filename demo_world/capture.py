"""Headless capture: draw one frame through EGL and save the colour buffer as a PNG.

Call only with ``pyglet.options["headless"] = True`` set before pyglet's window
and GL modules were first imported (``soundscape.demo_world.__main__`` and the
tests' conftest do it).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from soundscape.demo_world.game import DemoGame
    from soundscape.overlay.shapes import View

CAPTURE_SIZE = (1280, 720)
CAPTURE_PX_PER_M = 1.25


def capture_png(
    game: DemoGame,
    path: Path,
    *,
    size: tuple[int, int] = CAPTURE_SIZE,
    px_per_m: float = CAPTURE_PX_PER_M,
    status: str = "",
) -> tuple[View, np.ndarray]:
    """Render the game's current frame with the overlay on into ``path``.

    Returns the view and the frame as an RGBA array (rows bottom-up, as GL has them).
    """
    import pyglet

    from soundscape.demo_world.render import Renderer

    width, height = size
    window = pyglet.window.Window(width, height, visible=False)
    try:
        window.switch_to()
        renderer = Renderer(game, window)
        view = renderer.draw(width, height, px_per_m, status)
        frame = save_color_buffer(path)
    finally:
        window.close()
    return view, frame


def save_color_buffer(path: Path) -> np.ndarray:
    """Save the current GL context's colour buffer as a PNG at ``path`` (its folder
    made); returns it as an RGBA array (rows bottom-up, as GL has them)."""
    import pyglet

    buffer = pyglet.image.get_buffer_manager().get_color_buffer().get_image_data()
    pixels = np.frombuffer(buffer.get_data("RGBA", buffer.width * 4), dtype=np.uint8)
    frame = pixels.reshape(buffer.height, buffer.width, 4).copy()
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer.save(str(path))
    return frame
