"""soundscape in an arcade 3.3 game: a camp by a river, gems that ring when picked up.

Three things differ from a plain pyglet game:

- ``arcade.Window.ctx`` is arcade's OpenGL context: keep the plugin (or its
  context) under another name (``self.sound`` here), never ``self.ctx``.
- ``esper.process(delta_time)`` is called from ``on_update``. arcade calls
  ``on_update`` every frame; in arcade's headless mode ``pyglet.clock`` never
  ticks, so ``pyglet.clock.schedule_interval(esper.process, ...)`` would never run.
- arcade imports ``pyglet.media`` itself, so pyglet's own driver order applies
  (soundscape's preference is only a default; the game's choice wins).

The game is in pixels, the sound world in metres: one tile of 32 pixels is a metre,
right is east and up is north. Arrows or WASD walk; with ``--headless`` the player
walks a fixed route past the fire to the river, picking up the gems.

    pip install "soundscape[arcade]"
    python examples/arcade_game.py
    python examples/arcade_game.py --headless --seconds 5 --wav camp.wav
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path

if "--headless" in sys.argv[1:]:
    os.environ.setdefault("ARCADE_HEADLESS", "1")  # arcade reads it when it is imported

import arcade  # noqa: E402
import esper  # noqa: E402

from soundscape import Settings, SoundscapePlugin, synth  # noqa: E402
from soundscape.audio.emitters import play_at  # noqa: E402
from soundscape.components import Emitter, Listener, Position  # noqa: E402

WIDTH_PX, HEIGHT_PX = 640, 480
PIXELS_PER_M = 32.0
SPEED_PX_S = 150.0
FPS = 60
FIRE_PX = (200.0, 160.0)
RIVER_X_PX = 560.0
GEMS_PX = [(260.0, 240.0), (400.0, 240.0), (500.0, 320.0)]
ROUTE_PX = [(80.0, 240.0), (500.0, 240.0), (500.0, 400.0)]
GEM_COLOUR = (80, 220, 200)


def to_world(px: float, py: float) -> tuple[float, float, float]:
    """Pixels to soundscape's metres (x east, y up, z north)."""
    return (px / PIXELS_PER_M, 0.0, py / PIXELS_PER_M)


class CampGame(arcade.Window):
    """An arcade window that owns a soundscape plugin."""

    def __init__(self, settings: Settings, autopilot: bool = False,
                 visible: bool = True) -> None:
        super().__init__(WIDTH_PX, HEIGHT_PX, "soundscape + arcade", visible=visible)
        self.sound = SoundscapePlugin(settings).install()  # not self.ctx: arcade's GL context
        bank = self.sound.sounds
        synth.add_to(bank, "fire", synth.noise_bed(2.0, seed=31, low_hz=300.0, high_hz=5_000.0,
                                                   tilt=0.0, peak=0.3))
        synth.add_to(bank, "river", synth.noise_bed(3.0, seed=32, low_hz=100.0,
                                                    high_hz=3_000.0, tilt=1.0))
        synth.add_to(bank, "gem", synth.tone(1_760.0, 0.5, harmonics=(1.0, 0.5, 0.25),
                                             decay_s=0.15))
        self.player_px = list(ROUTE_PX[0])
        self.ears = Position(*to_world(*self.player_px))
        self.listener = Listener(heading_rad=math.pi / 2)
        esper.create_entity(self.ears, self.listener)
        esper.create_entity(Position(*to_world(*FIRE_PX)),
                            Emitter("fire", volume=0.8, min_distance_m=1.5, max_distance_m=20.0))
        for y in range(0, HEIGHT_PX + 1, 160):  # the river: three emitters along its bank
            esper.create_entity(Position(*to_world(RIVER_X_PX, float(y))),
                                Emitter("river", volume=0.6, min_distance_m=2.0,
                                        max_distance_m=30.0))
        self.gems = list(GEMS_PX)
        self.picked: list[tuple[float, float]] = []
        self.autopilot = autopilot
        self.waypoint = 1
        self.held: set[int] = set()

    # -- input -----------------------------------------------------------------------

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        self.held.add(symbol)

    def on_key_release(self, symbol: int, modifiers: int) -> None:
        self.held.discard(symbol)

    def velocity(self) -> tuple[float, float]:
        if self.autopilot:
            if self.waypoint >= len(ROUTE_PX):
                return (0.0, 0.0)
            tx, ty = ROUTE_PX[self.waypoint]
            dx, dy = tx - self.player_px[0], ty - self.player_px[1]
            dist = math.hypot(dx, dy)
            if dist < 2.0:
                self.waypoint += 1
                return self.velocity()
            return (SPEED_PX_S * dx / dist, SPEED_PX_S * dy / dist)
        keys = arcade.key
        right = bool({keys.RIGHT, keys.D} & self.held) - bool({keys.LEFT, keys.A} & self.held)
        up = bool({keys.UP, keys.W} & self.held) - bool({keys.DOWN, keys.S} & self.held)
        return (SPEED_PX_S * right, SPEED_PX_S * up)

    # -- the frame ---------------------------------------------------------------------

    def on_update(self, delta_time: float) -> None:
        vx, vy = self.velocity()
        self.player_px[0] = min(max(self.player_px[0] + vx * delta_time, 0.0), WIDTH_PX)
        self.player_px[1] = min(max(self.player_px[1] + vy * delta_time, 0.0), HEIGHT_PX)
        if vx or vy:
            self.listener.heading_rad = math.atan2(vx, vy) % math.tau
        self.ears.x_m, self.ears.y_m, self.ears.z_m = to_world(*self.player_px)
        for gem in list(self.gems):
            if math.dist(gem, self.player_px) < 20.0:
                self.gems.remove(gem)
                self.picked.append(gem)
                play_at(self.sound.context, "gem", to_world(*gem), volume=0.8)
        esper.process(delta_time)  # soundscape's processors run after the game's own

    def on_draw(self) -> None:
        self.clear(arcade.color.DARK_OLIVE_GREEN)
        arcade.draw_lrbt_rectangle_filled(RIVER_X_PX - 20, WIDTH_PX, 0, HEIGHT_PX,
                                          arcade.color.STEEL_BLUE)
        arcade.draw_circle_filled(*FIRE_PX, 14, arcade.color.ORANGE_RED)
        for gem in self.gems:
            arcade.draw_circle_filled(*gem, 7, GEM_COLOUR)
        arcade.draw_circle_filled(*self.player_px, 9, arcade.color.WHITE)

    def run_headless(self, seconds: float) -> None:
        """Step ``seconds`` of game time at 60 frames a second, drawing every frame."""
        for _ in range(int(round(seconds * FPS))):
            self.dispatch_events()
            # called, not dispatched: outside arcade.run() pyglet queues window events
            self.on_update(1.0 / FPS)
            self.on_draw()
            self.flip()

    def close(self) -> None:
        self.sound.uninstall()
        super().close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--headless", action="store_true",
                        help="no window (ARCADE_HEADLESS): walk the route")
    parser.add_argument("--seconds", type=float, default=None, help="stop after this game time")
    parser.add_argument("--wav", type=Path, default=None, help="render the sound to this file")
    args = parser.parse_args(argv)
    settings = Settings(seed=4, backend="offline" if args.wav else "auto")
    game = CampGame(settings, autopilot=args.headless, visible=not args.headless)
    if args.headless:
        game.run_headless(args.seconds if args.seconds is not None else 6.0)
    else:
        if args.seconds is not None:
            arcade.schedule_once(lambda dt: arcade.exit(), args.seconds)
        arcade.run()
    if args.wav:
        game.sound.mixer.backend.write_wav(args.wav)
    game.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
