"""A debug overlay any pyglet game can draw over its own scene.

``Overlay(ctx)`` reads the plugin's runtimes through ``soundscape.overlay_probe``
and draws, with ``pyglet.shapes`` in one batch: the AC land cells coloured by
terrain and shaded by ambient weight, the listener and her heading, the
intermittent ambients' compass bearings and distance shells, the walls, the
occlusion rays (green clear, red blocked, with their wall counts), the flyby
paths and trigger points, and a channel panel (each channel's sound,
priority, volume and pan as bars).

Import this module only after the game has chosen its pyglet options
(``pyglet.options["headless"]``): ``pyglet.shapes`` opens the GL layer.

Typical use in a game's ``on_draw``::

    overlay = Overlay(plugin.context)
    overlay.update(View(px, pz, 2.0, window.width, window.height))
    overlay.draw()
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pyglet
from pyglet import shapes

from soundscape.overlay_probe import Snapshot, probe
from soundscape.overlay_style import (
    BEARING_COLOUR,
    FLYBY_COLOUR,
    LISTENER_COLOUR,
    PAN_COLOUR,
    PANEL_BACK,
    RAY_BLOCKED,
    RAY_CLEAR,
    TRIGGER_COLOUR,
    VOLUME_COLOUR,
    WALL_COLOUR,
    terrain_colour,
)

PANEL_WIDTH_PX = 300
ROW_PX = 13


@dataclass(frozen=True, slots=True)
class View:
    """Which part of the floor plan the window shows: centre (metres), scale, size.

    >>> View(100.0, 50.0, 2.0, 800, 600).to_screen(110.0, 50.0)
    (420.0, 300.0)
    """

    centre_x_m: float
    centre_z_m: float
    px_per_m: float
    width_px: int
    height_px: int

    def to_screen(self, x_m: float, z_m: float) -> tuple[float, float]:
        """World (x east, z north) to window pixels (north up)."""
        return (
            self.width_px / 2 + (x_m - self.centre_x_m) * self.px_per_m,
            self.height_px / 2 + (z_m - self.centre_z_m) * self.px_per_m,
        )


class _Pool:
    """Shapes of one kind, reused frame to frame; the unused ones are hidden."""

    def __init__(self, make: Any) -> None:
        self.make = make
        self.items: list[Any] = []
        self.used = 0

    def begin(self) -> None:
        self.used = 0

    def take(self) -> Any:
        if self.used == len(self.items):
            self.items.append(self.make())
        item = self.items[self.used]
        self.used += 1
        item.visible = True
        return item

    def end(self) -> None:
        for item in self.items[self.used:]:
            item.visible = False


class Overlay:
    """Draws a plugin context's sound state; ``visible`` toggles it (F1 in the demo).

    Args:
        ctx: the plugin's ``Context`` (``plugin.context``).
        terrain_colours: terrain type -> RGB, overriding the built-in palette.
        show_panel: draw the channel panel on the right.
    """

    def __init__(
        self,
        ctx: Any,
        *,
        terrain_colours: dict[int, tuple[int, int, int]] | None = None,
        show_panel: bool = True,
    ) -> None:
        self.ctx = ctx
        self.visible = True
        self.show_panel = show_panel
        self.terrain_colours = dict(terrain_colours or {})
        self.cell_batch = pyglet.graphics.Batch()
        self.batch = pyglet.graphics.Batch()
        self.snapshot = Snapshot()
        groups = [pyglet.graphics.Group(order=i) for i in range(6)]
        b, cb = self.batch, self.cell_batch
        self._cells = _Pool(lambda: shapes.Rectangle(0, 0, 1, 1, batch=cb, group=groups[0]))
        self._lines = _Pool(lambda: shapes.Line(0, 0, 1, 1, thickness=2, batch=b, group=groups[1]))
        self._arcs = _Pool(lambda: shapes.Arc(0, 0, 1, angle=22.5, thickness=2, batch=b,
                                              group=groups[1]))
        self._dots = _Pool(lambda: shapes.Circle(0, 0, 1, batch=b, group=groups[2]))
        self._panel = _Pool(lambda: shapes.Rectangle(0, 0, 1, 1, batch=b, group=groups[3]))
        self._bars = _Pool(lambda: shapes.Rectangle(0, 0, 1, 1, batch=b, group=groups[4]))
        self._labels = _Pool(lambda: pyglet.text.Label("", font_size=8, batch=b, group=groups[5]))
        self._pools = (self._cells, self._lines, self._arcs, self._dots, self._panel, self._bars,
                       self._labels)

    # -- frame --------------------------------------------------------------------------

    def update(self, view: View, snapshot: Snapshot | None = None) -> Snapshot:
        """Read the runtimes (or use ``snapshot``) and lay the shapes out for ``view``."""
        snap = snapshot if snapshot is not None else probe(self.ctx)
        self.snapshot = snap
        for pool in self._pools:
            pool.begin()
        self._draw_cells(view, snap)
        self._draw_walls_and_rays(view, snap)
        self._draw_flybys(view, snap)
        self._draw_bearings(view, snap)
        self._draw_listener(view, snap)
        if self.show_panel:
            self._draw_panel(view, snap)
        for pool in self._pools:
            pool.end()
        return snap

    def draw(self) -> None:
        """Draw everything (nothing when hidden): the cells, then the marks over them."""
        self.draw_cells()
        self.draw_marks()

    def draw_cells(self) -> None:
        """Only the land cells (a game may draw its own sprites between the two layers)."""
        if self.visible:
            self.cell_batch.draw()

    def draw_marks(self) -> None:
        """Everything but the cells: walls, rays, flybys, bearings, listener, panel."""
        if self.visible:
            self.batch.draw()

    # -- layers -------------------------------------------------------------------------

    def _colour(self, terrain: int) -> tuple[int, int, int]:
        return self.terrain_colours.get(terrain) or terrain_colour(terrain)

    def _draw_cells(self, view: View, snap: Snapshot) -> None:
        size = 0.0
        for cell in snap.cells:
            x, y = view.to_screen(cell.x_m, cell.z_m)
            size = cell.size_m * view.px_per_m
            r, g, b = self._colour(cell.terrain)
            shade = 0.4 + 0.6 * math.sqrt(min(max(cell.weight, 0.0), 1.0))
            rect = self._cells.take()
            rect.position = (x, y)
            rect.width = rect.height = max(size - 1.0, 1.0)
            rect.color = (int(r * shade), int(g * shade), int(b * shade), 255)

    def _line(self, a: tuple[float, float], b: tuple[float, float],
              colour: tuple[int, int, int], thickness: float = 2.0) -> None:
        line = self._lines.take()
        line.position = (a[0], a[1])
        line.x2, line.y2 = b
        line.thickness = thickness
        line.color = (*colour, 255)

    def _dot(self, at: tuple[float, float], radius: float, colour: tuple[int, int, int]) -> None:
        dot = self._dots.take()
        dot.position = at
        dot.radius = radius
        dot.color = (*colour, 255)

    def _label(self, text: str, x: float, y: float, colour: tuple[int, int, int] = (255, 255, 255),
               ) -> None:
        label = self._labels.take()
        if label.text != text:
            label.text = text
        label.x, label.y = x, y
        label.color = (*colour, 255)

    def _draw_walls_and_rays(self, view: View, snap: Snapshot) -> None:
        for ax, az, bx, bz in snap.walls:
            self._line(view.to_screen(ax, az), view.to_screen(bx, bz), WALL_COLOUR, 3.0)
        for ray in snap.rays:
            a, b = view.to_screen(ray.ax_m, ray.az_m), view.to_screen(ray.bx_m, ray.bz_m)
            colour = RAY_BLOCKED if ray.walls else RAY_CLEAR
            self._line(a, b, colour, 2.0)
            self._dot(a, 4.0, colour)
            if ray.walls:
                self._label(str(ray.walls), (a[0] + b[0]) / 2 + 4, (a[1] + b[1]) / 2 + 4, colour)

    def _draw_flybys(self, view: View, snap: Snapshot) -> None:
        for flyby in snap.flybys:
            points = [view.to_screen(x, z) for x, z in flyby.path[::4]]
            for a, b in zip(points, points[1:], strict=False):
                self._line(a, b, FLYBY_COLOUR, 1.5)
            for x, z in flyby.triggers:
                self._dot(view.to_screen(x, z), 4.0, TRIGGER_COLOUR)

    def _draw_bearings(self, view: View, snap: Snapshot) -> None:
        if snap.listener is None:
            return
        centre = view.to_screen(snap.listener.x_m, snap.listener.z_m)
        for bearing in snap.bearings:
            h = bearing.heading_rad
            ring = not math.isfinite(h)  # IN_VIEWER_BLOCK: no bearing, a full shell
            if not ring:
                far = bearing.max_m * view.px_per_m
                tip = (centre[0] + math.sin(h) * far, centre[1] + math.cos(h) * far)
                self._line(centre, tip, BEARING_COLOUR, 1.0)
            # The shell: the +-11.25 degree cone between the min and max distance.
            screen_deg = 0.0 if ring else 90.0 - math.degrees(h) - 11.25
            for radius_m in (bearing.min_m, bearing.max_m):
                arc = self._arcs.take()
                arc.position = centre
                arc.radius = max(radius_m * view.px_per_m, 1.0)
                arc.start_angle = screen_deg
                arc.angle = 360.0 if ring else 22.5
                arc.color = (*BEARING_COLOUR, 255)

    def _draw_listener(self, view: View, snap: Snapshot) -> None:
        if snap.listener is None:
            return
        at = view.to_screen(snap.listener.x_m, snap.listener.z_m)
        h = snap.listener.heading_rad
        nose = (at[0] + math.sin(h) * 16.0, at[1] + math.cos(h) * 16.0)
        self._line(at, nose, (255, 255, 255), 2.0)
        self._dot(at, 7.0, LISTENER_COLOUR)

    def _draw_panel(self, view: View, snap: Snapshot) -> None:
        rows = [c for c in snap.channels]
        if not rows:
            return
        left = view.width_px - PANEL_WIDTH_PX
        height = min(len(rows) * ROW_PX + 6, view.height_px)
        back = self._panel.take()
        back.position = (left, view.height_px - height)
        back.width, back.height = PANEL_WIDTH_PX, height
        back.color = PANEL_BACK
        y = view.height_px - ROW_PX
        for row in rows:
            if y < 0:
                break
            text = f"{row.bank[:8]:<8}{row.index:>3} p{row.priority} {row.sound or '-'}"
            self._label(text[:30], left + 4, y + 3, (230, 230, 230) if row.playing else (120,) * 3)
            bar = self._bars.take()
            bar.position = (left + 170, y + 3)
            bar.width, bar.height = max(70.0 * row.volume01, 1.0), ROW_PX - 5
            bar.color = (*VOLUME_COLOUR, 255)
            if not row.playing:
                y -= ROW_PX
                continue
            pan = self._bars.take()
            pan.position = (left + 250 + 20 * row.pan11 + 20, y + 3)
            pan.width, pan.height = 3, ROW_PX - 5
            pan.color = (*PAN_COLOUR, 255)
            y -= ROW_PX
