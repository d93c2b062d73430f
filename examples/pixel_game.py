"""A 2D pixel game with soundscape: pixels on the screen, metres in the sound world.

The game thinks in window pixels (pyglet's: x right, y up). soundscape thinks in
metres (x east, y up, z north). ``soundscape.coords.Map2D`` joins them: a
32-pixel tile is one metre, screen right is east and screen up is north:

    SCREEN = Map2D(pixels_per_m=32)               # y up, origin bottom left
    Position.from_2d(px, py, SCREEN)              # (px / 32, 0, py / 32) metres
    SCREEN.heading(dx_px, dy_px)                  # 0 up the screen, clockwise

A waterfall roars in the top right corner, a campfire crackles bottom left, coins
chime where they lie when picked up, and footsteps tick under the player. Arrows
or WASD walk; with ``--headless`` the player walks east along the middle row and
picks up the three coins.

    python examples/pixel_game.py
    python examples/pixel_game.py --headless --seconds 5 --wav pixels.wav
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any

import esper
import numpy as np
import pyglet

from soundscape import Settings, SoundscapePlugin, synth
from soundscape.audio.emitters import play_at
from soundscape.components import Emitter, Listener, Position
from soundscape.coords import Map2D

PIXELS_PER_M = 32.0
SCREEN = Map2D(pixels_per_m=PIXELS_PER_M)
"""pyglet's window: y up, the origin at the bottom left."""
WIDTH_PX, HEIGHT_PX = 640, 360
SPEED_PX_S = 140.0
STEP_S = 0.35
PICK_UP_PX = 16.0
FPS = 60
WATERFALL_PX = (600.0, 320.0)
CAMPFIRE_PX = (48.0, 48.0)
COINS_PX = [(160.0, 180.0), (320.0, 180.0), (480.0, 180.0)]
COIN_COLOUR = (250, 210, 60)


def to_world(px: float, py: float) -> tuple[float, float, float]:
    """Window pixels to soundscape's metres (screen up is north; ``SCREEN.to_world``).

    >>> to_world(64.0, 96.0)
    (2.0, 0.0, 3.0)
    """
    return SCREEN.to_world(px, py)


def heading_of(dx_px: float, dy_px: float) -> float:
    """The compass heading of a move on the screen (0 up, clockwise, radians)."""
    return SCREEN.heading(dx_px, dy_px)


def make_sounds(bank: Any) -> None:
    """The game's sounds, synthesised (a real game loads WAVs: ``Settings.sound_root``)."""
    synth.add_to(bank, "waterfall", synth.noise_bed(3.0, seed=21, low_hz=200.0,
                                                    high_hz=6_000.0, tilt=0.5))
    crackle = np.zeros(int(2.0 * synth.DEFAULT_RATE_HZ), dtype=np.float32)
    for i, at_s in enumerate((0.1, 0.35, 0.5, 0.9, 1.2, 1.3, 1.7)):
        pop = synth.click(seed=40 + i, duration_s=0.02)
        start = int(at_s * synth.DEFAULT_RATE_HZ)
        crackle[start:start + pop.shape[0]] += pop
    synth.add_to(bank, "campfire", crackle)
    synth.add_to(bank, "coin", synth.tone(1_320.0, 0.4, harmonics=(1.0, 0.0, 0.3),
                                          decay_s=0.12))
    synth.add_to(bank, "step", synth.click(seed=7, duration_s=0.04, peak=0.5))


class PixelGame:
    """The game: a player, coins, two places that sound, and the window."""

    def __init__(self, settings: Settings, headless: bool) -> None:
        from pyglet import shapes
        from pyglet.window import Window, key

        self.window = Window(WIDTH_PX, HEIGHT_PX, "soundscape: pixel game", visible=not headless)
        self.keys = None if headless else key.KeyStateHandler()
        if self.keys is not None:
            self.window.push_handlers(self.keys)
        self.plugin = SoundscapePlugin(settings).install()
        make_sounds(self.plugin.sounds)
        self.player_px = [48.0, 180.0]
        self.listener = Listener(heading_rad=math.pi / 2)
        self.ears = Position.from_2d(*self.player_px, SCREEN)
        esper.create_entity(self.ears, self.listener)
        esper.create_entity(Position.from_2d(*WATERFALL_PX, SCREEN),
                            Emitter("waterfall", volume=0.9, min_distance_m=2.0,
                                    max_distance_m=25.0))
        esper.create_entity(Position.from_2d(*CAMPFIRE_PX, SCREEN),
                            Emitter("campfire", volume=0.7, max_distance_m=12.0))
        self.coins = list(COINS_PX)
        self.picked: list[tuple[float, float]] = []
        self.step_clock_s = 0.0
        self.batch = pyglet.graphics.Batch()
        self.shapes = {
            "water": shapes.Rectangle(WATERFALL_PX[0] - 24, WATERFALL_PX[1] - 24, 48, 48,
                                      color=(70, 130, 230), batch=self.batch),
            "fire": shapes.Triangle(CAMPFIRE_PX[0] - 12, CAMPFIRE_PX[1] - 10, CAMPFIRE_PX[0] + 12,
                                    CAMPFIRE_PX[1] - 10, CAMPFIRE_PX[0], CAMPFIRE_PX[1] + 14,
                                    color=(230, 90, 30), batch=self.batch),
            "player": shapes.Rectangle(0, 0, 16, 16, color=(230, 230, 230), batch=self.batch),
        }
        self.coin_shapes = [shapes.Circle(x, y, 6, color=COIN_COLOUR, batch=self.batch)
                            for x, y in self.coins]
        self.window.push_handlers(on_draw=self.draw)

    def move(self) -> tuple[float, float]:
        """This frame's wish to move, in pixels a second: the keys, or east in the demo."""
        if self.keys is None:
            return (SPEED_PX_S, 0.0) if self.player_px[0] < WIDTH_PX - 48 else (0.0, 0.0)
        from pyglet.window import key

        held = self.keys
        dx = int(held[key.RIGHT] or held[key.D]) - int(held[key.LEFT] or held[key.A])
        dy = int(held[key.UP] or held[key.W]) - int(held[key.DOWN] or held[key.S])
        return (dx * SPEED_PX_S, dy * SPEED_PX_S)

    def update(self, dt: float) -> None:
        """Game logic in pixels, then the listener in metres, then soundscape."""
        vx, vy = self.move()
        if vx or vy:
            self.player_px[0] = min(max(self.player_px[0] + vx * dt, 0.0), WIDTH_PX)
            self.player_px[1] = min(max(self.player_px[1] + vy * dt, 0.0), HEIGHT_PX)
            self.listener.heading_rad = heading_of(vx, vy)
            self.step_clock_s += dt
            if self.step_clock_s >= STEP_S:
                self.step_clock_s -= STEP_S
                play_at(self.plugin.context, "step", to_world(*self.player_px), volume=0.4)
        self.ears.set_2d(*self.player_px, SCREEN)
        for coin in list(self.coins):
            if math.dist(coin, self.player_px) <= PICK_UP_PX:
                self.coins.remove(coin)
                self.picked.append(coin)
                play_at(self.plugin.context, "coin", to_world(*coin), volume=0.8)
        esper.process(dt)

    def draw(self) -> None:
        self.window.clear()
        self.shapes["player"].position = (self.player_px[0] - 8, self.player_px[1] - 8)
        for shape, place in zip(self.coin_shapes, COINS_PX, strict=True):
            shape.visible = place in self.coins
        self.batch.draw()

    def run_headless(self, seconds: float) -> None:
        """Step ``seconds`` of game time at 60 frames a second, drawing every frame."""
        for _ in range(int(round(seconds * FPS))):
            self.window.dispatch_events()
            self.update(1.0 / FPS)
            self.draw()  # called, not dispatched: outside pyglet.app.run events are queued
            self.window.flip()

    def close(self) -> None:
        self.plugin.uninstall()
        self.window.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--headless", action="store_true", help="no window: draw through EGL")
    parser.add_argument("--seconds", type=float, default=None, help="stop after this game time")
    parser.add_argument("--wav", type=Path, default=None, help="render the sound to this file")
    args = parser.parse_args(argv)
    if args.headless:
        pyglet.options["headless"] = True  # before pyglet.window is imported
    game = PixelGame(Settings(seed=2, backend="offline" if args.wav else "auto"), args.headless)
    if args.headless:
        game.run_headless(args.seconds if args.seconds is not None else 5.0)
    else:
        pyglet.clock.schedule_interval(game.update, 1 / FPS)
        if args.seconds is not None:
            pyglet.clock.schedule_once(lambda dt: pyglet.app.exit(), args.seconds)
        pyglet.app.run()
    if args.wav:
        game.plugin.mixer.backend.write_wav(args.wav)
    game.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
