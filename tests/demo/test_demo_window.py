"""The demo window's controls, driven headless (EGL) with synthetic key and mouse events."""

from __future__ import annotations

import numpy as np
import pyglet
import pytest
from pyglet.window import key

from soundscape.demo_world.game import DemoGame
from soundscape.demo_world.scene import MARKERS, PLAYER_COLOUR
from soundscape.demo_world.window import DemoWindow, sound_status
from soundscape.overlay.style import LISTENER_COLOUR


@pytest.fixture
def demo(world):
    game = DemoGame(0, backend="offline", start=(384.0, 384.0), heading_rad=0.0)
    window = DemoWindow(game, 800, 600)
    yield window, game
    window.close()
    game.close()


def test_walk_turn_and_zoom(demo):
    window, game = demo
    window.keys.on_key_press(key.W, 0)
    for _ in range(30):
        window.tick(1 / 60)
    assert game.position.z_m == pytest.approx(384.0 + 4.0)  # 8 m/s north for 0.5 s
    window.keys.on_key_release(key.W, 0)
    window.keys.on_key_press(key.E, 0)
    window.tick(0.25)
    window.tick(0.25)
    assert game.listener.heading_rad == pytest.approx(1.1)
    window.keys.on_key_release(key.E, 0)
    window.on_mouse_motion(0, 0, 100, 0)
    assert game.listener.heading_rad == pytest.approx(1.1 + 0.6)
    zoom = window.px_per_m
    window.on_mouse_scroll(0, 0, 0.0, 2.0)
    assert window.px_per_m == pytest.approx(zoom * 1.15 ** 2)
    window.on_mouse_scroll(0, 0, 0.0, -100.0)
    assert window.px_per_m == 0.3
    # A long stall is capped: the game never jumps more than a quarter second.
    tick = game.ctx.clock.tick
    window.tick(5.0)
    assert game.ctx.clock.tick - tick == 15


@pytest.mark.parametrize(("symbol", "dx_m", "dz_m"), [
    (key.UP, 0.0, 4.0), (key.S, 0.0, -4.0), (key.DOWN, 0.0, -4.0),
    (key.D, 4.0, 0.0), (key.RIGHT, 4.0, 0.0), (key.A, -4.0, 0.0), (key.LEFT, -4.0, 0.0),
])
def test_every_walk_key_moves_the_player(demo, symbol, dx_m, dz_m):
    """Issue 7 window controls: WASD or arrows walk (heading north: +z forward, +x right)."""
    window, game = demo
    x, z = game.position.x_m, game.position.z_m
    window.keys.on_key_press(symbol, 0)
    for _ in range(30):
        window.tick(1 / 60)
    window.keys.on_key_release(symbol, 0)
    assert game.position.x_m - x == pytest.approx(dx_m)
    assert game.position.z_m - z == pytest.approx(dz_m)
    assert game.listener.heading_rad == pytest.approx(0.0)


def test_q_turns_left(demo):
    window, game = demo
    window.keys.on_key_press(key.Q, 0)
    window.tick(0.25)
    window.tick(0.25)
    assert game.listener.heading_rad % (2 * np.pi) == pytest.approx(2 * np.pi - 1.1)


def test_overlay_mute_slider_and_torch_keys(demo):
    window, game = demo
    ctx = game.ctx
    assert window.renderer.overlay.visible
    window.on_key_press(key.F1, 0)
    assert not window.renderer.overlay.visible
    for _ in range(20):
        window.tick(1 / 60)
    assert np.abs(ctx.mixer.backend.audio()[-800:]).max() > 0.0
    window.on_key_press(key.M, 0)
    assert ctx.mixer.master_gain == 0.0
    for _ in range(5):
        window.tick(1 / 60)
    assert np.abs(ctx.mixer.backend.audio()[-800 * 4:]).max() == 0.0
    window.on_key_press(key.M, 0)
    assert ctx.mixer.master_gain == 1.0
    before = ctx.ac.ambient_volume
    window.on_key_press(key.MINUS, 0)
    assert ctx.ac.ambient_volume == pytest.approx(before - 0.1)
    window.on_key_press(key.PLUS, 0)
    window.on_key_press(key.PLUS, 0)
    assert ctx.ac.ambient_volume == 1.0  # held to 0..1
    window.on_key_press(key.T, 0)
    assert window.message == "torch lit"
    for _ in range(5):  # the next Redguard frame: a whole 21/256 s nominal tick
        window.tick(1 / 60)
    starts = ctx.events.where(source="redguard", event="rg_start", caller="torch")
    assert starts and starts[0]["effect"] == 25
    window.on_key_press(key.T, 0)
    assert window.message == "torch out"


def test_draw_shows_the_listener_and_escape_closes(demo):
    window, game = demo
    window.tick(1 / 60)
    window.switch_to()
    window.on_draw()
    buffer = pyglet.image.get_buffer_manager().get_color_buffer().get_image_data()
    frame = np.frombuffer(buffer.get_data("RGBA", buffer.width * 4), dtype=np.uint8)
    frame = frame.reshape(buffer.height, buffer.width, 4)
    centre = frame[buffer.height // 2, buffer.width // 2, :3].astype(int)
    assert np.abs(centre - np.array(LISTENER_COLOUR)).max() <= 12
    # With the overlay off the player is still drawn (white dot and heading line).
    window.on_key_press(key.F1, 0)
    assert window.message == "overlay off (F1 shows it)"
    window.on_draw()
    frame = _frame()
    centre = frame[frame.shape[0] // 2, frame.shape[1] // 2, :3].astype(int)
    assert np.abs(centre - np.array(PLAYER_COLOUR)).max() <= 12
    nose = frame[frame.shape[0] // 2 + 12, frame.shape[1] // 2, :3].astype(int)  # heading north
    assert np.abs(nose - np.array(PLAYER_COLOUR)).max() <= 12
    window.on_key_press(key.ESCAPE, 0)
    assert window.has_exit
    tick = game.ctx.clock.tick
    pyglet.clock.tick()  # the game no longer steps once the window closed
    assert game.ctx.clock.tick == tick


def _frame() -> np.ndarray:
    buffer = pyglet.image.get_buffer_manager().get_color_buffer().get_image_data()
    frame = np.frombuffer(buffer.get_data("RGBA", buffer.width * 4), dtype=np.uint8)
    return frame.reshape(buffer.height, buffer.width, 4)


def test_status_line_says_what_changed(demo):
    window, game = demo
    assert window.caption.startswith("soundscape demo")
    assert window.message.startswith("sound: offline backend (no device)  |  ")
    assert "Esc quit" in window.message
    window.on_mouse_scroll(0, 0, 0.0, 1.0)
    assert window.message == f"zoom {1.5 * 1.15:.2f} px/m ({1.5 * 1.15 * 24:.0f} px a land cell)"
    window.on_key_press(key.F1, 0)
    window.on_key_press(key.F1, 0)
    assert window.message == "overlay on (F1 hides it)"
    window.on_key_press(key.M, 0)
    assert window.message == "muted"


def test_the_window_game_plays_through_pyglet(world):
    # The window's backend: a real pyglet player (the silent driver under the tests).
    game = DemoGame(0, backend="pyglet")
    try:
        for _ in range(30):
            game.step(1 / 60)
        assert game.ctx.mixer is not None
        assert game.ctx.events.where(source="ac", event="play")
        assert game.ctx.clock.tick == 30
        # Under the tests pyglet has only its silent driver: the status line says so.
        assert sound_status(game) == "no sound device: silent"
    finally:
        game.close()


def test_status_line_sits_on_a_dark_strip(demo):
    window, game = demo
    window.tick(1 / 60)
    window.switch_to()
    window.on_draw()
    frame = _frame()[:, :, :3].astype(int)
    strip, ground = frame[12, 2], frame[60, 2]  # rows bottom-up: the strip, then the land
    assert ground.max() > 30  # the (dimmed) land above the strip
    assert strip.max() < ground.max() / 2


def test_sound_objects_are_named_on_the_map(demo):
    window, game = demo
    assert [label.text for label in window.renderer.scene._names] == list(MARKERS)
    window.tick(1 / 60)
    window.switch_to()
    window.on_draw()
    frame = _frame()[:, :, :3].astype(int)
    # The villager stands at (440, 376): her name starts 9 px right of her star.
    x, y = 400 + (440 - 384) * window.px_per_m, 300 + (376 - 384) * window.px_per_m
    text = frame[int(y) - 6:int(y) + 7, int(x) + 9:int(x) + 60]
    assert (text.min(axis=2) > 180).sum() > 15
    beside = frame[int(y) - 6:int(y) + 7, int(x) - 60:int(x) - 9]
    assert (beside.min(axis=2) > 180).sum() == 0
