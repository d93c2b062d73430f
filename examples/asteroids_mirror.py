"""An asteroids-style game without esper: its objects are mirrored into esper for sound.

Like pyglet's own asteroids example, the game keeps its objects in plain Python
lists and moves them itself. ``SoundBridge`` is the whole integration: every frame
it gives each object that makes a sound an esper entity (created the first time,
its ``Position`` updated after, deleted when the object goes), makes the ship the
``Listener``, and then runs ``esper.process``. Metres are pixels / 20, screen up is
north.

Rocks rumble (``Emitter``), shots and explosions are one-shots (``play_at``), and
the saucer's bullets whistle past the ship (``Flyby``, Oni's flyby records). The
screen wraps around: a bullet leaving the bottom comes back at the top. That jump
is not a flight, so the bridge calls ``flybys.teleport`` for it; without it the
jump's straight line across the screen would pass the ship and play a false flyby.

    python examples/asteroids_mirror.py              # the ship turns and fires by itself
    python examples/asteroids_mirror.py --headless --seconds 8 --wav asteroids.wav
"""

from __future__ import annotations

import argparse
import math
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import esper
import pyglet

from soundscape import Settings, SoundscapePlugin, synth
from soundscape.audio.emitters import play_at
from soundscape.components import Emitter, Flyby, Listener, Position

WIDTH_PX, HEIGHT_PX = 800, 600
PIXELS_PER_M = 20.0
FPS = 60
COLOURS = {"ship": (240, 240, 240), "rock": (150, 120, 90), "shot": (120, 255, 120),
           "bullet": (255, 90, 90), "saucer": (200, 90, 220)}
SOUNDS_TOML = """
[groups.whistle]
permutations = [{ sound = "whistle" }]
[impulses.bullet_flyby]
group = "whistle"
distance = [1.0, 8.0]
"""


@dataclass(eq=False)
class Thing:
    """One game object, in pixels (``eq=False``: each is its own dictionary key)."""

    kind: str  # "ship", "rock", "shot" (the ship's), "bullet" (the saucer's), "saucer"
    x: float
    y: float
    vx: float = 0.0
    vy: float = 0.0
    radius: float = 4.0
    life_s: float = math.inf
    wrapped: bool = field(default=False, repr=False)

    def step(self, dt: float) -> None:
        """Move and wrap around the screen; ``wrapped`` says whether it jumped."""
        x, y = self.x + self.vx * dt, self.y + self.vy * dt
        self.x, self.y = x % WIDTH_PX, y % HEIGHT_PX
        self.wrapped = (self.x, self.y) != (x, y)
        self.life_s -= dt


def to_world(thing: Thing) -> tuple[float, float, float]:
    return (thing.x / PIXELS_PER_M, 0.0, thing.y / PIXELS_PER_M)


class SoundBridge:
    """Mirrors the game's objects into esper each frame, then runs the plugin."""

    def __init__(self, plugin: SoundscapePlugin, teleport: bool = True) -> None:
        self.plugin = plugin
        self.teleport = teleport
        self.entities: dict[Thing, int] = {}
        self.wraps: list[tuple[int, int]] = []
        """(tick, entity) of every flyby projectile's jump across the screen."""

    def components(self, thing: Thing) -> list[object]:
        if thing.kind == "ship":
            return [Listener(heading_rad=0.0)]
        if thing.kind == "rock":
            return [Emitter("rumble", volume=0.5, min_distance_m=3.0, max_distance_m=40.0)]
        if thing.kind == "bullet":
            return [Flyby("bullet_flyby")]
        return []

    def sync(self, things: list[Thing], ship_heading_rad: float, dt: float) -> None:
        flybys = self.plugin.occlusion.flybys
        alive = set(things)
        for thing, entity in list(self.entities.items()):
            if thing not in alive:  # gone from the game: gone from esper
                if thing.kind == "bullet":
                    flybys.projectile_dies(entity)  # its last move, then the record frees
                esper.delete_entity(entity, immediate=True)
                del self.entities[thing]
        for thing in things:
            entity = self.entities.get(thing)
            if entity is None:
                parts = self.components(thing)
                if not parts:
                    continue
                entity = self.entities[thing] = esper.create_entity(Position(*to_world(thing)),
                                                                    *parts)
                continue
            pos = esper.component_for_entity(entity, Position)
            pos.x_m, pos.y_m, pos.z_m = to_world(thing)
            if thing.kind == "bullet" and thing.wrapped:
                self.wraps.append((self.plugin.clock.tick + 1, entity))
                if self.teleport:
                    flybys.teleport(entity)
            if thing.kind == "ship":
                esper.component_for_entity(entity, Listener).heading_rad = ship_heading_rad
        esper.process(dt)


class Asteroids:
    """The game: plain objects in a list, moved, shot and drawn with no esper in sight."""

    def __init__(self, settings: Settings, headless: bool, teleport: bool = True) -> None:
        from pyglet.window import Window

        self.window = Window(WIDTH_PX, HEIGHT_PX, "soundscape: asteroids", visible=not headless)
        self.rng = random.Random(settings.seed)
        self.plugin = SoundscapePlugin(settings).install()
        self.make_sounds()
        self.bridge = SoundBridge(self.plugin, teleport)
        self.ship = Thing("ship", WIDTH_PX / 2, HEIGHT_PX / 2, radius=12)
        self.heading_rad = 0.0
        self.saucer = Thing("saucer", 0.0, HEIGHT_PX - 40, vx=90.0, radius=14)
        self.things = [self.ship, self.saucer] + [
            Thing("rock", self.rng.uniform(0, WIDTH_PX), self.rng.uniform(0, HEIGHT_PX),
                  self.rng.uniform(-40, 40), self.rng.uniform(-40, 40), radius=24)
            for _ in range(4)]
        self.reload_s = {"ship": 0.0, "saucer": 0.3}
        self.booms = 0
        self.batch = pyglet.graphics.Batch()
        self.drawn: dict[Thing, Any] = {}
        self.window.push_handlers(on_draw=self.draw)

    def make_sounds(self) -> None:
        bank = self.plugin.sounds
        synth.add_to(bank, "rumble", synth.noise_bed(2.0, seed=5, low_hz=30.0, high_hz=200.0))
        synth.add_to(bank, "laser", synth.chirp(1_800.0, 300.0, 0.15))
        synth.add_to(bank, "boom", synth.swoosh(9, duration_s=0.5, f0_hz=60.0, f1_hz=900.0))
        synth.add_to(bank, "whistle", synth.swoosh(3, duration_s=0.3, f0_hz=900.0,
                                                   f1_hz=5_000.0))
        self.plugin.oni.loads_toml(SOUNDS_TOML)

    def fire(self, owner: Thing, kind: str, heading_rad: float, speed_px_s: float) -> None:
        self.things.append(Thing(kind, owner.x, owner.y, speed_px_s * math.sin(heading_rad),
                                 speed_px_s * math.cos(heading_rad), life_s=2.5))

    def update(self, dt: float) -> None:
        self.heading_rad = (self.heading_rad + 0.9 * dt) % math.tau  # the ship turns, fires
        for thing in self.things:
            thing.step(dt)
        for who in self.reload_s:
            self.reload_s[who] -= dt
        if self.reload_s["ship"] <= 0.0:
            self.reload_s["ship"] = 0.5
            self.fire(self.ship, "shot", self.heading_rad, 400.0)
            play_at(self.plugin.context, "laser", to_world(self.ship), volume=0.5)
        if self.reload_s["saucer"] <= 0.0:  # aimed to pass 2-3 m beside the ship
            self.reload_s["saucer"] = 0.7
            miss_px = self.rng.choice((-1, 1)) * self.rng.uniform(40.0, 60.0)
            aim = math.atan2(self.ship.x + miss_px - self.saucer.x, self.ship.y - self.saucer.y)
            self.fire(self.saucer, "bullet", aim, 300.0)
        self.collide()
        self.things = [t for t in self.things if t.life_s > 0.0]
        self.bridge.sync(self.things, self.heading_rad, dt)

    def collide(self) -> None:
        shots = [t for t in self.things if t.kind == "shot"]
        for rock in [t for t in self.things if t.kind == "rock"]:
            for shot in shots:
                if shot.life_s > 0 and math.hypot(rock.x - shot.x, rock.y - shot.y) < rock.radius:
                    rock.life_s = shot.life_s = 0.0
                    self.booms += 1
                    play_at(self.plugin.context, "boom", to_world(rock), volume=0.9)
                    break

    def draw(self) -> None:
        """One circle a thing, made when it appears and deleted when it goes."""
        from pyglet import shapes

        self.window.clear()
        alive = set(self.things)
        for thing in [t for t in self.drawn if t not in alive]:
            self.drawn.pop(thing).delete()
        for thing in self.things:
            shape = self.drawn.get(thing)
            if shape is None:
                shape = self.drawn[thing] = shapes.Circle(
                    thing.x, thing.y, thing.radius, color=COLOURS[thing.kind], batch=self.batch)
            shape.position = (thing.x, thing.y)
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
    game = Asteroids(Settings(seed=3, backend="offline" if args.wav else "auto"), args.headless)
    if args.headless:
        game.run_headless(args.seconds if args.seconds is not None else 8.0)
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
