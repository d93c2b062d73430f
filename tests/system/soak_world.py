"""A long session of chaos for the soak test and ``make soak`` (issue 13).

Every feature runs on default settings but the output: the offline backend renders
every tick and streams it to a discarding WAV sink (``OfflineBackend.stream_wav``), so
the mixer works as in a game without the test keeping hours of audio. A seeded driver
plays a game at 30 frames a second: the listener walks, teleports and is swapped for a
new entity; emitters and one-shots are created and deleted by the thousand; walls go
up and down; projectiles fly past; Oni music, dialogue, impulses and placed ambients
start and stop; a Redguard NPC plays effects and speaks RTX lines; the AC region is
reloaded. Memory is measured with ``tracemalloc`` from the end of a warm-up.

Run by hand (``make soak``)::

    python tests/system/soak_world.py --game-minutes 120
"""

from __future__ import annotations

import argparse
import io
import itertools
import math
import random
import sys
import time
import tracemalloc
from dataclasses import dataclass

import esper
import numpy as np

from soundscape import Settings, SoundscapePlugin, synth
from soundscape.ac.sample import sample_region, striped_words
from soundscape.audio.emitters import play_at
from soundscape.components import Emitter, Listener, Position
from soundscape.components.occlusion import Flyby, Wall
from soundscape.components.oni import OniCamera, OniPlayer
from soundscape.components.redguard import RgObject
from soundscape.oni.sound_test import SOUND_SPECS, SOUND_TEST_TOML, synthesise

FPS = 10
"""Frames a game second: each ``esper.process`` steps six 60 Hz ticks."""

ONI_EXTRA = """
[groups.cave_hum]
permutations = [{ sound = "gun_fire_a.aif" }]
[ambients.cave]
base1 = "cave_hum"
distance = [5.0, 20.0]
[ambients.line_a]
base1 = "c00_01_74shinatama"
"""

SOUNDS = ["fountain", "hum", "click", "ac_0_Ambient1", "nope", "bad\0name"]
"""What emitters ask for: real sounds, a missing one and one that cannot be a file."""

_worlds = itertools.count()


class NullSink(io.RawIOBase):
    """A binary file that keeps nothing (the WAV stream's bytes are only counted)."""

    def __init__(self) -> None:
        self.written = 0

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:  # type: ignore[override]
        self.written += len(data)
        return len(data)


@dataclass
class SoakResult:
    """What a run measured: traced bytes (since the warm-up) at each game minute."""

    game_minutes: float
    traced: list[tuple[float, int]]
    """(game minute, bytes traced and still allocated), every sample since tracing began."""
    settle_minutes: float
    """Tracing counts what replaces the untraced: a bounded log of 10,000 records looks
    like growth until every record in it was made after tracing began. Samples of the
    first ``settle_minutes`` of tracing are not measured."""
    peak_bytes: int
    wall_s: float
    frames: int

    @property
    def samples(self) -> list[tuple[float, int]]:
        """The measured samples: from ``settle_minutes`` after tracing began."""
        start = self.traced[0][0] + self.settle_minutes
        return [(m, b) for m, b in self.traced if m >= start - 1e-9]

    @property
    def growth_bytes(self) -> int:
        return self.samples[-1][1] - self.samples[0][1]

    @property
    def measured_minutes(self) -> float:
        return self.samples[-1][0] - self.samples[0][0]

    @property
    def mb_per_game_hour(self) -> float:
        """The least-squares slope of the samples, in MB a game hour (a block of mixer
        scratch that is larger one minute and smaller the next does not count)."""
        xs = np.array([m for m, _ in self.samples], dtype=np.float64)
        ys = np.array([b for _, b in self.samples], dtype=np.float64)
        if len(xs) < 2:
            return 0.0
        slope_per_minute = float(np.polyfit(xs, ys, 1)[0])
        return slope_per_minute * 60.0 / 1e6


class SoakWorld:
    """The plugin with every feature, a little data for each runtime and the chaos driver."""

    def __init__(self, seed: int = 13, settings: Settings | None = None) -> None:
        self.name = f"soak-{next(_worlds)}"
        self.previous = esper.current_world
        esper.switch_world(self.name)
        settings = settings or Settings(seed=seed, backend="offline")
        self.plugin = SoundscapePlugin(settings).install()
        ctx = self.ctx = self.plugin.context
        self.sink = NullSink()
        backend = self.plugin.mixer.backend
        backend.stream_wav(self.sink)
        synth.add_to(ctx.sounds, "fountain", synth.noise_bed(1.0, seed=3), 22050)
        synth.add_to(ctx.sounds, "hum", synth.tone(220.0, 0.7), 22050)
        synth.add_to(ctx.sounds, "click", synth.click(seed=5), 22050)
        for i in range(2):
            for j in range(4):
                synth.add_to(ctx.sounds, f"ac_{i}_Ambient{j + 1}", synth.tone(200.0 + 50 * j, 0.3))
        for name, spec in SOUND_SPECS.items():
            ctx.sounds.add(name, synthesise(*spec), 22050)
        ctx.oni.loads_toml(SOUND_TEST_TOML + ONI_EXTRA)
        self.region = sample_region(2)
        ctx.ac.load_region(self.region)
        for bx in range(3):
            for by in range(3):
                ctx.ac.add_landblock(bx, by, striped_words(bx, by, 2))
        rt = self.rt = ctx.redguard
        rt.effects.add(3, (synth.tone(300.0, 0.5) * 8000).astype(np.int16), 22050)
        rt.effects.add(4, (synth.tone(500.0, 0.5) * 8000).astype(np.int16), 22050, loop_flag=255)
        rt.rtx_store.add("l001", "Greetings, Cyrus.",
                         (synth.tone(400.0, 0.4) * 8000).astype(np.int16))
        rt.rtx_store.add("l002", "A text-only line.")
        self.rng = random.Random(seed)
        self.home = (100.0, 0.0, 100.0)
        self.listener = self._new_listener(self.home)
        self.oni_player = esper.create_entity(OniPlayer(head_y_m=1.7), Position(*self.home))
        rt.player = esper.create_entity(Position(*self.home), RgObject())
        self.npc = esper.create_entity(Position(102.0, 0.0, 102.0), RgObject())
        self.emitters: list[int] = []
        self.walls: list[int] = []
        self.flybys: list[int] = []
        self.placed: list[int] = []
        self.frame = 0
        self.created = {"emitters": 0, "one_shots": 0, "walls": 0, "flybys": 0,
                        "listeners": 1, "region_reloads": 0, "dialogues": 0, "rg_lines": 0}

    def _new_listener(self, place: tuple[float, float, float]) -> int:
        return esper.create_entity(Listener(heading_rad=0.0), Position(*place),
                                   OniCamera(mode="follow"))

    def close(self) -> None:
        self.plugin.uninstall()
        esper.switch_world(self.previous)
        esper.delete_world(self.name)

    # -- the chaos, one frame ---------------------------------------------------------

    def step(self) -> None:
        """One game frame of chaos, then ``esper.process``."""
        rng, f = self.rng, self.frame
        t = f / FPS
        pos = esper.component_for_entity(self.listener, Position)
        pos.x_m = self.home[0] + 40.0 * math.sin(t / 17.0)
        pos.z_m = self.home[2] + 40.0 * math.cos(t / 23.0)
        esper.component_for_entity(self.listener, Listener).heading_rad = t / 5.0
        if f % (FPS * 20) == FPS * 20 - 1:  # teleport
            self.home = (rng.uniform(20.0, 500.0), 0.0, rng.uniform(20.0, 500.0))
        if f % (FPS * 45) == FPS * 45 - 1:  # a new listener entity
            esper.delete_entity(self.listener, immediate=True)
            self.listener = self._new_listener(self.home)
            self.created["listeners"] += 1
        self._emitters(rng, pos)
        self._walls_and_flybys(rng, pos)
        self._oni(rng, f, pos)
        self._redguard(rng, f)
        if f % (FPS * 120) == FPS * 120 - 1:  # the region reloaded: a new AC world
            self.ctx.ac.load_region(self.region)
            self.created["region_reloads"] += 1
        esper.process(1 / FPS)
        self.frame += 1

    def _emitters(self, rng: random.Random, pos: Position) -> None:
        for _ in range(rng.random() < 4 / FPS):  # four a second: 2,400 in ten minutes
            place = (pos.x_m + rng.uniform(-30, 30), 0.0, pos.z_m + rng.uniform(-30, 30))
            sound = rng.choice(SOUNDS[:4]) if rng.random() < 0.97 else "nope"
            emitter = Emitter(sound, loop=rng.random() < 0.5, max_distance_m=40.0)
            if rng.random() < 0.01:
                emitter.sound = SOUNDS[5]  # renamed to a name no file can have: bad_sound
            self.emitters.append(esper.create_entity(Position(*place), emitter))
            self.created["emitters"] += 1
        while len(self.emitters) > 16 or (self.emitters and rng.random() < 1 / FPS):
            esper.delete_entity(self.emitters.pop(rng.randrange(len(self.emitters))))
        for _ in range(rng.random() < 3 / FPS):  # three a second
            place = (pos.x_m + rng.uniform(-20, 20), 0.0, pos.z_m + rng.uniform(-20, 20))
            play_at(self.ctx, rng.choice(SOUNDS[:3]), place, 0.5)
            self.created["one_shots"] += 1

    def _walls_and_flybys(self, rng: random.Random, pos: Position) -> None:
        if rng.random() < 1 / FPS:
            x, z = pos.x_m + rng.uniform(-15, 15), pos.z_m + rng.uniform(-15, 15)
            self.walls.append(esper.create_entity(Wall(x, z, x + rng.uniform(1, 6), z + 1.0)))
            self.created["walls"] += 1
        while len(self.walls) > 20:
            esper.delete_entity(self.walls.pop(0))
        if rng.random() < 1 / FPS:
            start = (pos.x_m - 30.0, 1.0, pos.z_m + rng.uniform(-3, 3))
            self.flybys.append(esper.create_entity(Flyby(impulse="gun_fire"), Position(*start)))
            self.created["flybys"] += 1
        for entity in list(self.flybys):
            fpos = esper.component_for_entity(entity, Position)
            fpos.x_m += 6.0
            if fpos.x_m > pos.x_m + 30.0:
                self.flybys.remove(entity)
                esper.delete_entity(entity)

    def _oni(self, rng: random.Random, f: int, pos: Position) -> None:
        oni = self.ctx.oni
        if f % (FPS * 30) == 0:
            oni.scripts.sound_music_start("mus_chase", 0.8)
        elif f % (FPS * 30) == FPS * 20:
            oni.scripts.sound_music_stop("mus_chase")
        if f % (FPS * 7) == 3:
            oni.scripts.sound_dialog_play(rng.choice(["line_a", "cave"]))
            self.created["dialogues"] += 1
        if rng.random() < 1 / FPS:
            oni.play_impulse("gun_fire", (pos.x_m + 5.0, 1.0, pos.z_m), 1.0)
        if rng.random() < 0.4 / FPS:
            index = oni.placed.start("cave", (pos.x_m + rng.uniform(-10, 10), 0.0, pos.z_m))
            if index is not None:
                self.placed.append(index)
        if self.placed and rng.random() < 0.4 / FPS:
            oni.placed.stop(self.placed.pop(0))

    def _redguard(self, rng: random.Random, f: int) -> None:
        script = self.rt.script
        if rng.random() < 0.6 / FPS:
            script.Sound(self.npc, rng.choice([3, 4]))
        if rng.random() < 0.2 / FPS:
            script.EndSound(self.npc, 4)
        if f % (FPS * 5) == 1:
            # voiced or unknown: a text-only line with speech on never expires (retail;
            # test_rg_dialogue), so it would hold its record for good by design
            script.RTX(self.npc, rng.choice(["l001", "l001", "nope"]))
            self.created["rg_lines"] += 1

    # -- the run and the checks ---------------------------------------------------------

    def run(self, game_minutes: float, warmup_minutes: float = 1.0,
            sample_s: float = 30.0, settle_minutes: float = 0.5,
            progress: bool = False) -> SoakResult:
        """Play ``game_minutes``; from ``warmup_minutes`` on, ``tracemalloc`` traces and
        the memory still allocated is sampled every ``sample_s`` game seconds; growth
        is measured from ``settle_minutes`` after tracing began (``SoakResult``)."""
        warm = int(warmup_minutes * 60 * FPS)
        total = int(game_minutes * 60 * FPS)
        every = max(1, int(sample_s * FPS))
        start = time.perf_counter()
        for _ in range(warm):
            self.step()
        tracemalloc.start()
        try:
            samples = [(warm / FPS / 60, tracemalloc.get_traced_memory()[0])]
            for frame in range(warm, total):
                self.step()
                if (frame + 1 - warm) % every == 0 or frame + 1 == total:
                    samples.append(((frame + 1) / FPS / 60, tracemalloc.get_traced_memory()[0]))
                    if progress and (frame + 1) % (FPS * 600) == 0:
                        print(f"  game minute {samples[-1][0]:g}: "
                              f"{samples[-1][1] / 1e6:.3f} MB traced", flush=True)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        return SoakResult(game_minutes, samples, settle_minutes, peak,
                          time.perf_counter() - start, total)

    def quiesce(self) -> None:
        """Delete every chaos entity, stop the scripts and let the sound die out."""
        for entity in self.emitters + self.walls + self.flybys:
            esper.delete_entity(entity)
        self.emitters, self.walls, self.flybys = [], [], []
        oni = self.ctx.oni
        oni.scripts.sound_music_stop("mus_chase")
        for index in self.placed:
            oni.placed.halt(index)
        self.placed = []
        self.rt.script.StopAllSounds(self.npc)
        for _ in range(FPS * 30):
            esper.process(1 / FPS)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game-minutes", type=float, default=120.0)
    parser.add_argument("--warmup-minutes", type=float, default=5.0)
    parser.add_argument("--settle-minutes", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args(argv)
    world = SoakWorld(args.seed)
    try:
        result = world.run(args.game_minutes, args.warmup_minutes,
                           settle_minutes=args.settle_minutes, progress=True)
        created = dict(world.created)
    finally:
        world.close()
    print(f"soak: {result.game_minutes:g} game minutes in {result.wall_s:.1f} s wall, "
          f"{result.frames} frames; created {created}")
    print(f"soak_growth_mb = {result.growth_bytes / 1e6:.3f} over "
          f"{result.measured_minutes:g} traced game minutes "
          f"(peak {result.peak_bytes / 1e6:.2f} MB; samples every 30 s)")
    print(f"soak_mb_per_game_hour = {result.mb_per_game_hour:.3f} (target <= 1)")
    return 0 if result.mb_per_game_hour <= 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
