"""The demo's own top-down drawing under the overlay: terrain, buildings, sound objects.

The whole world's land cells are drawn dimmed (the overlay draws the listener's
3 x 3 landblocks bright, shaded by ambient weight), the buildings as dark
floors, and a marker at each sound object. Import after the pyglet options are set.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pyglet
from pyglet import shapes

from soundscape.overlay.shapes import View, translated
from soundscape.overlay.style import terrain_colour

if TYPE_CHECKING:
    from soundscape.demo_world.game import DemoGame

DIM = 0.45
BACKGROUND = (12, 12, 16)
PLAYER_COLOUR = (255, 255, 255)
NAME_COLOUR = (235, 235, 225, 230)
PLAYER_RADIUS_PX = 6.0
NOSE_PX = 18.0
"""The player's heading line (compass heading: 0 points up the screen, north)."""
MARKERS: dict[str, tuple[int, int, int]] = {
    "waterfall": (120, 200, 255),
    "forge": (255, 110, 30),
    "tower": (140, 90, 50),
    "villager": (250, 220, 120),
    "rope": (170, 130, 90),
    "bell": (230, 200, 60),
    "mill": (180, 180, 150),
}


class Scene:
    """Shapes for the static world in world-anchored pixels; the camera moves the view
    matrix, so they are laid out again only when the scale changes."""

    def __init__(self, game: DemoGame) -> None:
        self.game = game
        self.batch = pyglet.graphics.Batch()
        self.objects = pyglet.graphics.Batch()
        terrain = game.terrain
        self._cells: list[tuple[shapes.Rectangle, float, float]] = []
        for ix in range(terrain.cells_x):
            for iz in range(terrain.cells_z):
                r, g, b = terrain_colour(int(terrain.types[ix, iz]))
                rect = shapes.Rectangle(0, 0, 1, 1, color=(int(r * DIM), int(g * DIM),
                                        int(b * DIM)), batch=self.batch)
                self._cells.append((rect, ix * 24.0, iz * 24.0))
        self._floors = [
            (shapes.Rectangle(0, 0, 1, 1, color=(60, 50, 45), batch=self.batch), b)
            for b in game.village.buildings
        ]
        self._markers = [
            (shapes.Star(0, 0, 7, 3, 5, color=colour, batch=self.objects),
             game.village.spot(name).as_xz())
            for name, colour in MARKERS.items()
        ]
        # Each marker named beside it, so a player knows what she walks up to.
        self._names = [
            pyglet.text.Label(name, font_size=8, color=NAME_COLOUR, anchor_y="center",
                              batch=self.objects)
            for name in MARKERS
        ]
        # The player, drawn with or without the overlay (its magenta dot covers this one).
        self._player = shapes.Circle(0, 0, PLAYER_RADIUS_PX, color=PLAYER_COLOUR,
                                     batch=self.objects)
        self._nose = shapes.Line(0, 0, 1, 1, thickness=3, color=PLAYER_COLOUR,
                                 batch=self.objects)
        self._view: View | None = None

    def update(self, view: View) -> None:
        """Remember the camera; lay the shapes out again only when the scale changed."""
        previous, self._view = self._view, view
        self._place_player(view)
        if previous is not None and previous.px_per_m == view.px_per_m:
            return
        size = 24.0 * view.px_per_m
        for rect, x, z in self._cells:
            rect.position = view.anchored(x, z)
            rect.width = rect.height = size
        for floor, b in self._floors:
            floor.position = view.anchored(b.x0_m, b.z0_m)
            floor.width = (b.x1_m - b.x0_m) * view.px_per_m
            floor.height = (b.z1_m - b.z0_m) * view.px_per_m
        for (star, (x, z)), label in zip(self._markers, self._names, strict=True):
            star.position = view.anchored(x, z)
            label.x, label.y = star.position[0] + 9, star.position[1]

    def _place_player(self, view: View) -> None:
        pos, heading = self.game.position, self.game.listener.heading_rad
        x, y = view.anchored(pos.x_m, pos.z_m)
        self._player.position = (x, y)
        self._nose.position = (x, y)
        self._nose.x2 = x + math.sin(heading) * NOSE_PX
        self._nose.y2 = y + math.cos(heading) * NOSE_PX

    def draw_ground(self, window: object) -> None:
        """Terrain and building floors (under the overlay)."""
        if self._view is not None:
            with translated(window, self._view.origin_px):
                self.batch.draw()

    def draw_objects(self, window: object) -> None:
        """The sound objects' markers (over the overlay's cells)."""
        if self._view is not None:
            with translated(window, self._view.origin_px):
                self.objects.draw()
