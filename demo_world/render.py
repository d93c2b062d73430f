"""Drawing one frame of the demo: the scene, the overlay and a status line.

The window and the headless capture share it. Import after the pyglet options
are set (``pyglet.options["headless"]`` for EGL).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pyglet

from soundscape.demo_world.scene import BACKGROUND, Scene
from soundscape.overlay.draw import Overlay
from soundscape.overlay.shapes import View

STATUS_BACK = (0, 0, 0, 170)
STATUS_STRIP_PX = 26

if TYPE_CHECKING:
    from soundscape.demo_world.game import DemoGame


class Renderer:
    """The scene under the overlay, the camera centred on the player."""

    def __init__(self, game: DemoGame, window: object, *, overlay_visible: bool = True) -> None:
        self.game = game
        self.window = window
        self.scene = Scene(game)
        self.overlay = Overlay(game.ctx)
        self.overlay.visible = overlay_visible
        self.status = pyglet.text.Label("", x=8, y=8, font_size=10, color=(255, 255, 255, 255))
        # A dark strip under the status line: white text stays legible over snow and sand.
        self.status_back = pyglet.shapes.Rectangle(0, 0, 1, STATUS_STRIP_PX,
                                                   color=STATUS_BACK)

    def view(self, width_px: int, height_px: int, px_per_m: float) -> View:
        pos = self.game.position
        return View(pos.x_m, pos.z_m, px_per_m, width_px, height_px)

    def draw(self, width_px: int, height_px: int, px_per_m: float, status: str = "") -> View:
        """Clear and draw everything for the current game state; returns the view used."""
        view = self.view(width_px, height_px, px_per_m)
        pyglet.gl.glClearColor(BACKGROUND[0] / 255, BACKGROUND[1] / 255, BACKGROUND[2] / 255, 1.0)
        pyglet.gl.glClear(pyglet.gl.GL_COLOR_BUFFER_BIT)
        self.scene.update(view)
        self.scene.draw_ground(self.window)
        if self.overlay.visible:
            self.overlay.update(view)
        self.overlay.draw_cells(self.window)
        self.scene.draw_objects(self.window)
        self.overlay.draw_marks(self.window)
        if status:
            self.status.text = status
            self.status_back.width = min(self.status.content_width + 16, width_px)
            self.status_back.draw()
            self.status.draw()
        return view
