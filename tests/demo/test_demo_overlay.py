"""soundscape.overlay: what it reads from the runtimes and what it draws (EGL, headless)."""

from __future__ import annotations

import math

import numpy as np
import pyglet
import pytest

from soundscape.demo_world.game import DemoGame
from soundscape.overlay.probe import (
    BearingView,
    CellView,
    ChannelView,
    FlybyView,
    ListenerView,
    RayView,
    Snapshot,
    channel_pan11,
    channel_volume01,
    probe,
)
from soundscape.overlay.style import (
    BEARING_COLOUR,
    LISTENER_COLOUR,
    RAY_BLOCKED,
    RAY_CLEAR,
    TRIGGER_COLOUR,
    VOLUME_COLOUR,
    terrain_colour,
)

W, H = 640, 480


@pytest.fixture
def window():
    win = pyglet.window.Window(W, H, visible=False)
    win.switch_to()
    yield win
    win.close()


def _frame() -> np.ndarray:
    buffer = pyglet.image.get_buffer_manager().get_color_buffer().get_image_data()
    data = np.frombuffer(buffer.get_data("RGBA", buffer.width * 4), dtype=np.uint8)
    return data.reshape(buffer.height, buffer.width, 4)[:, :, :3].astype(int)


def _has(frame, x, y, colour, radius=2, tolerance=12):
    patch = frame[int(y) - radius: int(y) + radius + 1, int(x) - radius: int(x) + radius + 1]
    return bool((np.abs(patch - np.array(colour)) <= tolerance).all(axis=2).any())


def _draw(window, snapshot, view):
    from soundscape.overlay import Overlay

    overlay = Overlay(None)
    pyglet.gl.glClearColor(0, 0, 0, 1)
    pyglet.gl.glClear(pyglet.gl.GL_COLOR_BUFFER_BIT)
    overlay.update(view, snapshot)
    overlay.draw(window)
    return overlay, _frame()


def test_each_element_is_drawn_in_its_colour(window):
    from soundscape.overlay import View

    view = View(100.0, 100.0, 2.0, W, H)
    snapshot = Snapshot(
        listener=ListenerView(100.0, 100.0, 0.0, True),
        cells=[CellView(0.0, 0.0, 24.0, 17, 1.0), CellView(24.0, 0.0, 24.0, 12, 0.0)],
        bearings=[BearingView("ac_bird", math.pi / 2, 20.0, 40.0, 0.5)],
        walls=[(60.0, 140.0, 80.0, 140.0)],
        rays=[RayView(100.0, 150.0, 100.0, 100.0, 2, 0.47),
              RayView(60.0, 100.0, 100.0, 100.0, 0, 1.0)],
        flybys=[FlybyView([(130.0, 60.0 + i) for i in range(40)], [(130.0, 70.0)])],
        channels=[ChannelView("oni", 0, "waterfall", 1, 1.0, 0.0, True)],
    )
    _overlay, frame = _draw(window, snapshot, view)
    assert _has(frame, *view.to_screen(100.0, 100.0), LISTENER_COLOUR, radius=0)
    # A full-weight water cell in its palette colour; a weight-0 desert cell dimmed.
    water = frame[int(view.to_screen(12.0, 12.0)[1]), int(view.to_screen(12.0, 12.0)[0])]
    desert = frame[int(view.to_screen(36.0, 12.0)[1]), int(view.to_screen(36.0, 12.0)[0])]
    # (Mesa's blending moves a channel by a few units: compare with a tolerance.)
    assert np.abs(water - np.array(terrain_colour(17))).max() <= 12
    assert np.abs(desert - np.array([int(c * 0.4) for c in terrain_colour(12)])).max() <= 12
    assert _has(frame, *view.to_screen(100.0, 130.0), RAY_BLOCKED)
    assert _has(frame, *view.to_screen(80.0, 100.0), RAY_CLEAR)
    assert _has(frame, *view.to_screen(130.0, 70.0), TRIGGER_COLOUR)
    # The bearing points east: its line and its outer shell at 40 m.
    assert _has(frame, *view.to_screen(130.0, 100.0), BEARING_COLOUR)
    assert _has(frame, *view.to_screen(140.0, 100.0), BEARING_COLOUR)
    assert not _has(frame, *view.to_screen(100.0, 60.0), BEARING_COLOUR)
    # The panel's volume bar for the one playing channel, in the panel's top rows.
    panel = frame[H - 60:, W - 300:].astype(int)
    assert (np.abs(panel - np.array(VOLUME_COLOUR)) <= 12).all(axis=2).any()
    assert not (np.abs(frame[:, : W - 300] - np.array(VOLUME_COLOUR)) <= 12).all(axis=2).any()


@pytest.mark.parametrize(("heading", "dx_px", "dy_px"), [
    (0.0, 0, 15), (math.pi / 2, 15, 0), (math.pi, 0, -15), (-math.pi / 2, -15, 0)])
def test_the_listeners_heading_line_points_her_way(window, heading, dx_px, dy_px):
    """Issue 7 overlay: the listener and her heading (compass: 0 north, pi/2 east)."""
    from soundscape.overlay import View

    view = View(100.0, 100.0, 2.0, W, H)
    snapshot = Snapshot(listener=ListenerView(100.0, 100.0, heading, True))
    _overlay, frame = _draw(window, snapshot, view)
    x, y = view.to_screen(100.0, 100.0)
    white = (255, 255, 255)
    assert _has(frame, x + dx_px, y + dy_px, white, radius=1)
    assert not _has(frame, x - dx_px, y - dy_px, white, radius=1)  # not behind her
    assert not _has(frame, x + dy_px, y + dx_px, white, radius=1)  # nor to a side


def test_hidden_overlay_draws_nothing(window):
    from soundscape.overlay import Overlay, View

    overlay = Overlay(None)
    overlay.update(View(0.0, 0.0, 1.0, W, H),
                   Snapshot(listener=ListenerView(0.0, 0.0, 0.0, True)))
    overlay.visible = False
    pyglet.gl.glClearColor(0, 0, 0, 1)
    pyglet.gl.glClear(pyglet.gl.GL_COLOR_BUFFER_BIT)
    overlay.draw(window)
    assert _frame().max() == 0


def test_probe_reads_every_runtime_from_the_context(world):
    game = DemoGame(0, backend="none", start=(384.0, 430.0), heading_rad=0.0)
    try:
        for _ in range(40):
            game.step()
        snap = probe(game.ctx)
    finally:
        game.close()
    assert snap.listener is not None and (snap.listener.x_m, snap.listener.z_m) == (384.0, 430.0)
    assert len(snap.cells) == 576  # the 3 x 3 landblocks around her
    assert max(c.weight for c in snap.cells) == 1.0
    assert {c.terrain for c in snap.cells} >= {1, 17}
    assert snap.bearings and all(b.max_m >= b.min_m for b in snap.bearings)
    assert len(snap.walls) == 11
    waterfall = [r for r in snap.rays if (r.ax_m, r.az_m) == (384.0, 462.0)]
    assert waterfall and waterfall[0].walls == 1
    banks = {c.bank for c in snap.channels}
    assert {"ac", "oni", "redguard"} <= banks
    assert any(c.playing and c.sound == "oni_waterfall_in" for c in snap.channels)


def test_indoors_there_are_no_land_cells(world):
    game = DemoGame(0, backend="none", start=(356.0, 410.0))
    try:
        game.step()
        assert probe(game.ctx).cells == []
    finally:
        game.close()


@pytest.mark.parametrize(
    ("profile", "volume", "pan", "bar", "side"),
    [("ac", -50.0, 15.0, 0.0, 1.0), ("ac", 0.0, -7.5, 1.0, -0.5), ("oni", 0.5, 3333.0, 0.5, 1.0),
     ("redguard", 127.0, 1.0, 1.0, -1.0), ("modern", 2.0, math.nan, 1.0, 0.0),
     ("ac", math.nan, math.inf, 0.0, 1.0), ("oni", math.inf, -math.inf, 1.0, -1.0)],
)
def test_channel_bars_from_profile_units(profile, volume, pan, bar, side):
    assert channel_volume01(profile, volume) == pytest.approx(bar)
    assert channel_pan11(profile, pan) == pytest.approx(side)


def test_probe_shows_a_bolts_path_trigger_and_ray(world):
    game = DemoGame(0, backend="none", start=(300.0, 384.0), heading_rad=0.0)
    try:
        for _ in range(300):
            game.step()
            if game.ctx.events.where(source="flyby", event="flyby"):
                break
        snap = probe(game.ctx)
    finally:
        game.close()
    trigger = game.ctx.events.where(source="flyby", event="flyby")[0]["pos"]
    assert any((trigger[0], trigger[2]) in f.triggers for f in snap.flybys)
    assert any(len(f.path) > 10 for f in snap.flybys)
    assert any((r.ax_m, r.az_m) == (trigger[0], trigger[2]) and r.walls == 0 for r in snap.rays)


def test_camera_moves_and_zoom_relays_the_cells(window):
    from soundscape.overlay import Overlay, View

    snapshot = Snapshot(listener=ListenerView(20.0, 10.0, 0.0, True),
                        cells=[CellView(0.0, 0.0, 24.0, 17, 1.0)])
    overlay = Overlay(None, show_panel=False)
    for view in (View(0.0, 0.0, 2.0, W, H), View(30.0, -20.0, 2.0, W, H),
                 View(30.0, -20.0, 4.0, W, H)):
        pyglet.gl.glClearColor(0, 0, 0, 1)
        pyglet.gl.glClear(pyglet.gl.GL_COLOR_BUFFER_BIT)
        overlay.update(view, snapshot)
        overlay.draw(window)
        frame = _frame()
        inside = view.to_screen(23.0, 23.0)  # the cell's far corner, scale-dependent
        outside = view.to_screen(25.0, 25.0)
        assert np.abs(frame[int(inside[1]), int(inside[0])] - terrain_colour(17)).max() <= 12
        assert frame[int(outside[1]), int(outside[0])].max() == 0
        assert _has(frame, *view.to_screen(20.0, 10.0), LISTENER_COLOUR, radius=0)


def test_draw_needs_its_window_when_several_are_open(window):
    from soundscape.overlay import Overlay, View

    overlay = Overlay(None)
    overlay.update(View(0.0, 0.0, 1.0, W, H), Snapshot())
    other = pyglet.window.Window(32, 32, visible=False)
    try:
        window.switch_to()
        with pytest.raises(ValueError, match="pass the window"):
            overlay.draw()
        overlay.draw(window)
    finally:
        other.close()


def test_panel_lists_playing_channels_and_counts_the_idle_ones():
    from soundscape.overlay import SOUND_CHARS, Overlay

    snap = Snapshot(channels=[
        ChannelView("oni", 0, "oni_mus_village_a_long_name", 3, 1.0, 0.0, True),
        ChannelView("oni", 1, None, 1, 0.0, 0.0, False),
        ChannelView("oni", 2, None, 1, 0.0, 0.0, False),
        ChannelView("redguard", 0, None, 1, 0.0, 0.0, False),
    ])
    lines = Overlay._panel_rows(None, snap)  # type: ignore[arg-type]
    texts = [text for text, _row in lines]
    assert texts[0].startswith("bank")
    assert texts[1].endswith("oni_mus_village_a_long_name"[:SOUND_CHARS])
    assert lines[1][1] is snap.channels[0]
    assert texts[2:] == ["oni      2 idle", "redguard 1 idle"]


def test_a_blocked_rays_wall_count_sits_on_a_dark_tag(window):
    from soundscape.overlay import Overlay, View

    view = View(0.0, 0.0, 4.0, W, H)
    overlay = Overlay(None)
    pyglet.gl.glClearColor(0.5, 0.5, 0.5, 1)  # grey, so the dark tag shows against it
    pyglet.gl.glClear(pyglet.gl.GL_COLOR_BUFFER_BIT)
    overlay.update(view, Snapshot(rays=[RayView(-40.0, 0.0, 40.0, 0.0, 3, 0.2)]))
    overlay.draw(window)
    frame = _frame()
    assert overlay._marks.items[0].text == "3 walls"
    # Just above the ray's middle: the tag's dark pixels and the label's red ones.
    x, y = view.to_screen(0.0, 0.0)
    patch = frame[int(y) + 4:int(y) + 20, int(x) + 4:int(x) + 60]
    assert (np.abs(patch - np.array(RAY_BLOCKED)) <= 40).all(axis=2).any()
    assert (patch.max(axis=2) <= 40).sum() > 100
