"""A debug overlay any pyglet game can draw over its own scene.

``Overlay(ctx)`` reads the plugin's runtimes through ``soundscape.overlay.probe``
and draws, with ``pyglet.shapes`` in batches: the AC land cells coloured by
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
    overlay.draw(window)

The world layers are laid out in world-anchored pixels and drawn through the
window's view matrix, so a moving camera costs no relayout; the cells are laid
out again only when the AC runtime rebuilt or the scale changed.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import pyglet
from pyglet import shapes

from soundscape.overlay.probe import BusView, ChannelView, Snapshot, probe
from soundscape.overlay.shapes import Pool, View, assign, find_window, translated
from soundscape.overlay.style import (
    BEARING_COLOUR,
    FLYBY_COLOUR,
    LISTENER_COLOUR,
    METER_COLOUR,
    PAN_COLOUR,
    PAN_TRACK_COLOUR,
    PANEL_BACK,
    RAY_BLOCKED,
    RAY_CLEAR,
    TAG_BACK,
    TRIGGER_COLOUR,
    VOLUME_COLOUR,
    WALL_COLOUR,
    terrain_colour,
)

if TYPE_CHECKING:
    from soundscape.context import Context

__all__ = ["Overlay", "View"]

PANEL_WIDTH_PX = 300
BUS_HEADER = "bus            gain  state"
ROW_PX = 13
SOUND_CHARS = 18
"""A sound name longer than this is cut so it never runs into the volume bar."""
VOLUME_X_PX = 190
VOLUME_W_PX = 56
PAN_X_PX = 272
"""Panel columns (pixels from the panel's left edge): the volume bar, the pan tick's centre."""
RGB = tuple[int, int, int]
PANEL_FONTS = ["DejaVu Sans Mono", "Noto Sans Mono", "Liberation Mono", "Courier New",
               "monospace"]


class Overlay:
    """Draws a plugin context's sound state; ``visible`` toggles it (F1 in the demo).

    Args:
        ctx: the plugin's ``Context`` (``plugin.context``).
        terrain_colours: terrain type -> RGB, overriding the built-in palette.
        show_panel: draw the channel panel on the right.
    """

    def __init__(self, ctx: Context, *, terrain_colours: dict[int, RGB] | None = None,
                 show_panel: bool = True) -> None:
        self.ctx = ctx
        self.visible = True
        self.show_panel = show_panel
        self.terrain_colours = dict(terrain_colours or {})
        self.snapshot = Snapshot()
        self.view: View | None = None
        self.cell_batch = pyglet.graphics.Batch()
        self.batch = pyglet.graphics.Batch()
        self.panel_batch = pyglet.graphics.Batch()
        g = [pyglet.graphics.Group(order=i) for i in range(5)]
        cb, b, pb = self.cell_batch, self.batch, self.panel_batch
        self._cells = Pool(lambda: shapes.Rectangle(0, 0, 1, 1, batch=cb))
        self._walls = Pool(lambda: shapes.Line(0, 0, 1, 1, thickness=3, batch=b, group=g[0]))
        self._lines = Pool(lambda: shapes.Line(0, 0, 1, 1, thickness=2, batch=b, group=g[1]))
        self._arcs = Pool(lambda: shapes.Arc(0, 0, 1, angle=22.5, thickness=2, batch=b,
                                             group=g[1]))
        self._dots = Pool(lambda: shapes.Circle(0, 0, 1, batch=b, group=g[2]))
        # The listener's dot stays on top: a wall-count tag near it never hides it.
        top = pyglet.graphics.Group(order=5)
        self._top = Pool(lambda: shapes.Circle(0, 0, 1, batch=b, group=top))
        # Wall counts: bold text on a dark tag, so a label over a line or a wall stays legible.
        self._tags = Pool(lambda: shapes.Rectangle(0, 0, 1, 1, color=TAG_BACK, batch=b,
                                                   group=g[3]))
        self._marks = Pool(lambda: pyglet.text.Label("", font_size=10, weight="bold", batch=b,
                                                     group=g[4]))
        self._back = shapes.Rectangle(0, 0, 1, 1, color=PANEL_BACK, batch=pb, group=g[0])
        self._bars = Pool(lambda: shapes.Rectangle(0, 0, 1, 1, batch=pb, group=g[1]))
        # A monospaced face keeps the panel's columns under their header.
        self._rows = Pool(lambda: pyglet.text.Label("", font_name=PANEL_FONTS, font_size=7,
                                                    batch=pb, group=g[2]))
        self._cells_key: object = None
        self._walls_key: object = None
        self._frame_pools = (self._lines, self._arcs, self._dots, self._tags, self._marks,
                             self._top)

    # -- frame --------------------------------------------------------------------------

    def update(self, view: View, snapshot: Snapshot | None = None) -> Snapshot:
        """Read the runtimes (or use ``snapshot``) and lay the shapes out for ``view``."""
        snap = snapshot if snapshot is not None else probe(self.ctx, self.snapshot)
        rescaled = self.view is None or self.view.px_per_m != view.px_per_m
        self.snapshot, self.view = snap, view
        cells_key = (snap.cells_key if snap.cells_key is not None else
                     tuple((c.x_m, c.z_m, c.terrain, c.weight) for c in snap.cells))
        if rescaled or cells_key != self._cells_key:
            self._cells_key = cells_key
            self._lay_cells(view, snap)
        walls_key = tuple(snap.walls)
        if rescaled or walls_key != self._walls_key:
            self._walls_key = walls_key
            self._lay_walls(view, snap)
        for pool in self._frame_pools:
            pool.begin()
        self._lay_rays(view, snap)
        self._lay_flybys(view, snap)
        self._lay_bearings(view, snap)
        self._lay_listener(view, snap)
        for pool in self._frame_pools:
            pool.end()
        self._lay_panel(view, snap)
        return snap

    def draw(self, window: Any = None) -> None:
        """Draw everything (nothing when hidden): the cells, then the marks and the panel.

        ``window`` is the one to draw in (default: the only open window).
        """
        self.draw_cells(window)
        self.draw_marks(window)

    def draw_cells(self, window: Any = None) -> None:
        """Only the land cells (a game may draw its own sprites between the two layers)."""
        if self.visible and self.view is not None:
            with translated(find_window(window), self.view.origin_px):
                self.cell_batch.draw()

    def draw_marks(self, window: Any = None) -> None:
        """Walls, rays, flybys, bearings, the listener, then the channel panel."""
        if self.visible and self.view is not None:
            with translated(find_window(window), self.view.origin_px):
                self.batch.draw()
            if self.show_panel:
                self.panel_batch.draw()

    # -- world layers (world-anchored pixels) ------------------------------------------

    def _colour(self, terrain: int) -> RGB:
        return self.terrain_colours.get(terrain) or terrain_colour(terrain)

    def _lay_cells(self, view: View, snap: Snapshot) -> None:
        self._cells.begin()
        for cell in snap.cells:
            r, g, b = self._colour(cell.terrain)
            shade = 0.4 + 0.6 * math.sqrt(min(max(cell.weight, 0.0), 1.0))
            size = max(cell.size_m * view.px_per_m - 1.0, 1.0)
            assign(self._cells.take(), position=view.anchored(cell.x_m, cell.z_m),
                   width=size, height=size,
                   color=(int(r * shade), int(g * shade), int(b * shade), 255))
        self._cells.end()

    def _lay_walls(self, view: View, snap: Snapshot) -> None:
        self._walls.begin()
        for ax, az, bx, bz in snap.walls:
            self._line(self._walls, view.anchored(ax, az), view.anchored(bx, bz), WALL_COLOUR, 3.0)
        self._walls.end()

    def _line(self, pool: Pool, a: tuple[float, float], b: tuple[float, float], colour: RGB,
              thickness: float = 2.0) -> None:
        assign(pool.take(), position=a, x2=b[0], y2=b[1], thickness=thickness,
               color=(*colour, 255))

    def _dot(self, at: tuple[float, float], radius: float, colour: RGB) -> None:
        assign(self._dots.take(), position=at, radius=radius, color=(*colour, 255))

    def _lay_rays(self, view: View, snap: Snapshot) -> None:
        for ray in snap.rays:
            a, b = view.anchored(ray.ax_m, ray.az_m), view.anchored(ray.bx_m, ray.bz_m)
            colour = RAY_BLOCKED if ray.walls else RAY_CLEAR
            self._line(self._lines, a, b, colour)
            self._dot(a, 4.0, colour)
            if ray.walls:
                text = f"{ray.walls} wall{'s' if ray.walls > 1 else ''}"
                x, y = (a[0] + b[0]) / 2 + 6, (a[1] + b[1]) / 2 + 6
                assign(self._tags.take(), position=(x - 2, y - 3), width=7.5 * len(text) + 4,
                       height=16)
                assign(self._marks.take(), text=text, x=x, y=y, color=(*colour, 255))

    def _lay_flybys(self, view: View, snap: Snapshot) -> None:
        for flyby in snap.flybys:
            points = [view.anchored(x, z) for x, z in flyby.path[::4]]
            for a, b in zip(points, points[1:], strict=False):
                self._line(self._lines, a, b, FLYBY_COLOUR, 1.5)
            for x, z in flyby.triggers:
                self._dot(view.anchored(x, z), 4.0, TRIGGER_COLOUR)

    def _lay_bearings(self, view: View, snap: Snapshot) -> None:
        if snap.listener is None:
            return
        centre = view.anchored(snap.listener.x_m, snap.listener.z_m)
        for bearing in snap.bearings:
            h = bearing.heading_rad
            ring = not math.isfinite(h)  # IN_VIEWER_BLOCK: no bearing, a full shell
            if not ring:
                far = bearing.max_m * view.px_per_m
                tip = (centre[0] + math.sin(h) * far, centre[1] + math.cos(h) * far)
                self._line(self._lines, centre, tip, BEARING_COLOUR, 1.0)
            # The shell: the +-11.25 degree cone between the min and max distance.
            start = 0.0 if ring else 90.0 - math.degrees(h) - 11.25
            for radius_m in (bearing.min_m, bearing.max_m):
                assign(self._arcs.take(), position=centre,
                       radius=max(radius_m * view.px_per_m, 1.0), start_angle=start,
                       angle=360.0 if ring else 22.5, color=(*BEARING_COLOUR, 255))

    def _lay_listener(self, view: View, snap: Snapshot) -> None:
        if snap.listener is None:
            return
        at = view.anchored(snap.listener.x_m, snap.listener.z_m)
        h = snap.listener.heading_rad
        nose = (at[0] + math.sin(h) * 22.0, at[1] + math.cos(h) * 22.0)
        self._line(self._lines, at, nose, (255, 255, 255), 3.0)
        assign(self._top.take(), position=at, radius=7.0, color=(*LISTENER_COLOUR, 255))

    # -- the channel panel (window pixels) ----------------------------------------------

    def _panel_rows(self, snap: Snapshot) -> list[tuple[str, ChannelView | BusView | None]]:
        """The panel's lines: a header, each playing channel, one ``n idle`` line a bank,
        then a meter line per bus (indented by its depth; P paused, M muted)."""
        lines: list[tuple[str, ChannelView | BusView | None]] = [("bank     ch pri sound", None)]
        idle: dict[str, int] = {}
        for row in snap.channels:
            if row.playing:
                sound = (row.sound or "-")[:SOUND_CHARS]
                lines.append((f"{row.bank[:8]:<8}{row.index:>3} p{row.priority:<2} {sound}", row))
            else:
                idle[row.bank] = idle.get(row.bank, 0) + 1
        lines.extend((f"{bank[:8]:<8} {count} idle", None) for bank, count in idle.items())
        if snap.buses:
            lines.append((BUS_HEADER, None))
        for bus in snap.buses:
            state = ("P" if bus.paused else "") + ("M" if bus.muted else "") + (
                f" {bus.duck_db:.0f}dB" if bus.duck_db < -0.05 else "")
            name = ("  " * bus.depth + bus.name)[:14]
            lines.append((f"{name:<14} {bus.gain:4.2f}  {state}", bus))
        return lines

    def _lay_panel(self, view: View, snap: Snapshot) -> None:
        self._bars.begin()
        self._rows.begin()
        lines = self._panel_rows(snap) if self.show_panel and snap.channels else []
        left = view.width_px - PANEL_WIDTH_PX
        height = min(len(lines) * ROW_PX + 6, view.height_px)
        assign(self._back, position=(left, view.height_px - height), width=PANEL_WIDTH_PX,
               height=height, visible=bool(lines))
        y = view.height_px - ROW_PX
        for index, (text, row) in enumerate(lines):
            if y < 0:
                break
            header = index == 0
            bus_header = row is None and text.startswith(BUS_HEADER)
            grey = (230, 230, 230, 255) if row is not None or header or bus_header \
                else (120, 120, 120, 255)
            assign(self._rows.take(), text=text, x=left + 4, y=y + 3, color=grey)
            if bus_header:
                assign(self._rows.take(), text="meter", x=left + VOLUME_X_PX, y=y + 3,
                       color=grey)
            if header:
                assign(self._rows.take(), text="volume", x=left + VOLUME_X_PX, y=y + 3,
                       color=grey)
                assign(self._rows.take(), text="pan", x=left + PAN_X_PX - 8, y=y + 3,
                       color=grey)
            if isinstance(row, BusView):
                assign(self._bars.take(), position=(left + VOLUME_X_PX, y + 3),
                       width=max(VOLUME_W_PX * row.level01, 1.0), height=ROW_PX - 5,
                       color=(*METER_COLOUR, 255))
            elif row is not None:
                assign(self._bars.take(), position=(left + VOLUME_X_PX, y + 3),
                       width=max(VOLUME_W_PX * row.volume01, 1.0), height=ROW_PX - 5,
                       color=(*VOLUME_COLOUR, 255))
                # A faint centre mark, so a pan tick reads as left or right of it.
                assign(self._bars.take(), position=(left + PAN_X_PX - 18, y + 7), width=39,
                       height=1, color=(*PAN_TRACK_COLOUR, 255))
                assign(self._bars.take(), position=(left + PAN_X_PX + 1, y + 3), width=1,
                       height=ROW_PX - 5, color=(*PAN_TRACK_COLOUR, 255))
                assign(self._bars.take(), position=(left + PAN_X_PX + 18 * row.pan11, y + 3),
                       width=3, height=ROW_PX - 5, color=(*PAN_COLOUR, 255))
            y -= ROW_PX
        self._bars.end()
        self._rows.end()
