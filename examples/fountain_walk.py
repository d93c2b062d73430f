"""The README's game with a window: walk around a fountain on the starter meadow.

A pyglet window seen from above (x east to the right, z north up, 8 pixels a
metre). The listener is the player: arrows or WASD walk forward/back and turn.
The fountain pans and fades as you walk; the meadow's wind, birds and crickets
come from the terrain under you (``plugin.ac.load_starter()``).

    python examples/fountain_walk.py                       # a window
    python examples/fountain_walk.py --headless --seconds 5 --wav fountain.wav

``--headless`` draws through EGL with no window and walks a fixed circle;
``--seconds`` stops after that much game time; ``--wav`` renders the sound into a
file (the offline backend) instead of playing it.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any

import esper
import pyglet

from soundscape import Settings, SoundscapePlugin, synth
from soundscape.components import Emitter, Listener, Position

PIXELS_PER_M = 8.0
WALK_M_S = 3.0
TURN_RAD_S = 2.0
FOUNTAIN = (6.0, 0.0, 4.0)
CIRCLE_M = 3.0
FPS = 60


class Walk(esper.Processor):
    """The game's own processor: moves the listener from the keys, or round the fountain."""

    def __init__(self, player: int, keys: Any) -> None:
        super().__init__()
        self.player = player
        self.keys = keys  # pyglet's KeyStateHandler, or None to walk the circle
        self.t_s = 0.0

    def process(self, dt: float) -> None:
        pos = esper.component_for_entity(self.player, Position)
        ears = esper.component_for_entity(self.player, Listener)
        self.t_s += dt
        if self.keys is None:  # headless: anticlockwise round the fountain, 3 m out
            angle = 0.5 * self.t_s
            pos.x_m = FOUNTAIN[0] + CIRCLE_M * math.cos(angle)
            pos.z_m = FOUNTAIN[2] + CIRCLE_M * math.sin(angle)
            ears.heading_rad = -angle % math.tau  # facing along the walk: fountain on the left
            return
        from pyglet.window import key

        held = self.keys
        turn = int(held[key.RIGHT] or held[key.D]) - int(held[key.LEFT] or held[key.A])
        walk = int(held[key.UP] or held[key.W]) - int(held[key.DOWN] or held[key.S])
        ears.heading_rad = (ears.heading_rad + TURN_RAD_S * turn * dt) % math.tau
        pos.x_m += WALK_M_S * walk * dt * math.sin(ears.heading_rad)
        pos.z_m += WALK_M_S * walk * dt * math.cos(ears.heading_rad)


class FountainWalk:
    """The README's plugin, fountain and meadow, a walking listener and a window."""

    def __init__(self, settings: Settings, headless: bool) -> None:
        from pyglet.window import Window, key

        self.window = Window(640, 480, "soundscape: fountain walk", visible=not headless)
        self.keys = None if headless else key.KeyStateHandler()
        if self.keys is not None:
            self.window.push_handlers(self.keys)
        self.plugin = SoundscapePlugin(settings).install()
        synth.add_to(self.plugin.sounds, "fountain", synth.noise_bed(2.0, seed=3))
        self.player = esper.create_entity(Position(0.0, 0.0, 0.0), Listener(heading_rad=0.0))
        esper.create_entity(Position(*FOUNTAIN), Emitter("fountain", max_distance_m=40.0))
        self.plugin.ac.load_starter()
        esper.add_processor(Walk(self.player, self.keys), priority=10)
        self.batch = pyglet.graphics.Batch()
        from pyglet import shapes

        self.ring = shapes.Arc(0, 0, 40.0 * PIXELS_PER_M, color=(60, 90, 140), batch=self.batch)
        self.fountain = shapes.Circle(0, 0, 10, color=(80, 160, 255), batch=self.batch)
        self.me = shapes.Circle(320, 240, 6, color=(240, 220, 120), batch=self.batch)
        self.nose = shapes.Line(320, 240, 320, 256, thickness=2, color=(240, 220, 120),
                                batch=self.batch)
        self.window.push_handlers(on_draw=self.draw)

    def pixels(self, x_m: float, z_m: float) -> tuple[float, float]:
        """World metres to window pixels: the player at the centre, north up."""
        pos = esper.component_for_entity(self.player, Position)
        return (320 + (x_m - pos.x_m) * PIXELS_PER_M, 240 + (z_m - pos.z_m) * PIXELS_PER_M)

    def draw(self) -> None:
        self.window.clear()
        heading = esper.component_for_entity(self.player, Listener).heading_rad
        self.ring.position = self.fountain.position = self.pixels(FOUNTAIN[0], FOUNTAIN[2])
        self.nose.x2 = 320 + 16 * math.sin(heading)
        self.nose.y2 = 240 + 16 * math.cos(heading)
        self.batch.draw()

    def update(self, dt: float) -> None:
        esper.process(dt)

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


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--headless", action="store_true", help="no window: draw through EGL")
    parser.add_argument("--seconds", type=float, default=None, help="stop after this game time")
    parser.add_argument("--wav", type=Path, default=None, help="render the sound to this file")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.headless:
        pyglet.options["headless"] = True  # before pyglet.window is imported
    settings = Settings(seed=1, backend="offline" if args.wav else "auto")
    game = FountainWalk(settings, headless=args.headless)
    if args.headless:
        game.run_headless(args.seconds if args.seconds is not None else 10.0)
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
