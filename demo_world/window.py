"""The demo in a pyglet window: walk, turn, zoom, listen.

Keys: W/S or up/down walk, A/D or left/right step sideways, Q/E or the mouse
turn, the wheel zooms, F1 toggles the overlay, M mutes, + and - move the AC
ambient slider, T lights or snuffs the torch, H switches speakers and headphones,
P pauses the world's sound (UI clicks still play), Esc quits.
"""

from __future__ import annotations

import math

import pyglet
from pyglet.window import key, mouse

from soundscape.audio.backend_pyglet import PygletBackend
from soundscape.demo_world.game import DemoGame
from soundscape.demo_world.render import Renderer

ZOOM_RANGE = (0.3, 8.0)
MOUSE_TURN_RAD_PER_PX = 0.006
SLIDER_STEP = 0.1
CAPTION = "soundscape demo: Asheron's Call land, Oni village, Redguard torch"
HELP = ("WASD/arrows walk, Q/E or mouse turn, wheel zoom, F1 overlay, M mute, +/- ambient, "
        "T torch, H headphones, P pause, Esc quit")


def sound_status(game: DemoGame) -> str:
    """Which audio driver plays the mix ("no sound device" when pyglet fell back to silent)."""
    output = game.ctx.mixer.backend if game.ctx.has("mixer") else None
    driver = output.driver_name if isinstance(output, PygletBackend) else None
    if driver is None:  # the offline or "none" backend: no device at all
        return f"sound: {game.ctx.settings.backend} backend (no device)"
    return "no sound device: silent" if driver == "silent" else f"sound: {driver}"


class DemoWindow(pyglet.window.Window):
    """One window, one game; the game steps with the frame's real ``dt``."""

    def __init__(self, game: DemoGame, width: int = 1280, height: int = 800) -> None:
        super().__init__(width, height, caption=CAPTION, resizable=True)
        self.game = game
        self.keys = key.KeyStateHandler()
        self.push_handlers(self.keys)
        self.renderer = Renderer(game, self)
        self.px_per_m = 1.5
        self.muted = False
        self.message = f"{sound_status(game)}  |  {HELP}"
        pyglet.clock.schedule_interval(self.tick, 1 / 60)

    # -- input --------------------------------------------------------------------------

    def _input(self) -> None:
        k, walker = self.keys, self.game.walker
        walker.forward = float(k[key.W] or k[key.UP]) - float(k[key.S] or k[key.DOWN])
        walker.strafe = float(k[key.D] or k[key.RIGHT]) - float(k[key.A] or k[key.LEFT])
        walker.turn = float(k[key.E]) - float(k[key.Q])

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        ctx = self.game.ctx
        if symbol == key.ESCAPE:
            self.on_close()
            return True
        if symbol == key.F1:
            overlay = self.renderer.overlay
            overlay.visible = not overlay.visible
            self.message = "overlay on (F1 hides it)" if overlay.visible else \
                "overlay off (F1 shows it)"
        elif symbol == key.M:
            self.muted = not self.muted
            if ctx.has("mixer"):
                ctx.mixer.master_gain = 0.0 if self.muted else 1.0
            self.message = "muted" if self.muted else "sound on"
        elif symbol in (key.PLUS, key.EQUAL, key.NUM_ADD, key.MINUS, key.NUM_SUBTRACT):
            self._slider(1 if symbol in (key.PLUS, key.EQUAL, key.NUM_ADD) else -1)
        elif symbol == key.T:
            self.message = self.game.toggle_torch()
        elif symbol == key.P:
            self.message = self.game.toggle_pause()
        elif symbol == key.H:
            if ctx.has("rooms"):
                output = ctx.rooms.toggle_output()
                self.message = f"{output} (H switches)"
            else:
                self.message = "no rooms feature: no headphone output"
        return None

    def _slider(self, direction: int) -> None:
        ac = self.game.ctx.ac
        if ac is None:
            self.message = "no AC runtime: no ambient slider"
            return
        ac.ambient_volume = min(max(ac.ambient_volume + direction * SLIDER_STEP, 0.0), 1.0)
        self.message = f"ambient slider {ac.ambient_volume:.1f} (AC applies it twice)"

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        listener = self.game.listener
        listener.heading_rad = (listener.heading_rad + dx * MOUSE_TURN_RAD_PER_PX) % (2 * math.pi)

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int,
                      modifiers: int) -> None:
        if buttons & mouse.LEFT:
            self.on_mouse_motion(x, y, dx, dy)

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        self.px_per_m = min(max(self.px_per_m * (1.15 ** scroll_y), ZOOM_RANGE[0]), ZOOM_RANGE[1])
        self.message = f"zoom {self.px_per_m:.2f} px/m ({self.px_per_m * 24:.0f} px a land cell)"

    # -- frame --------------------------------------------------------------------------

    def tick(self, dt: float) -> None:
        self.game.activate()
        self._input()
        self.game.step(min(dt, 0.25))

    def on_draw(self) -> None:
        self.game.activate()
        pos = self.game.position
        terrain = self.game.terrain.terrain_name(pos.x_m, pos.z_m) or "-"
        inside = self.game.walker.indoors_building
        status = (f"({pos.x_m:.0f}, {pos.z_m:.0f}) {terrain}{' in the ' + inside if inside else ''}"
                  f"  t={self.game.now_s:.1f}s  |  {self.message}")
        # The default projection is in window units (not framebuffer pixels on HiDPI).
        self.renderer.draw(self.width, self.height, self.px_per_m, status)

    def on_close(self) -> None:
        """Stop stepping the game, then close (Esc or the window manager's close button)."""
        pyglet.clock.unschedule(self.tick)
        super().on_close()


def run_window(seed: int = 0) -> None:
    """Open the window and run pyglet's event loop until it closes."""
    game = DemoGame(seed, backend="pyglet")
    try:
        DemoWindow(game)
        pyglet.app.run()
    finally:
        game.close()
