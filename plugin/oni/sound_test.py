"""``soundscape-sound-test``: the seed's ``sound_test`` check for the Oni runtime.

Like the retail check (seed 001, "Check") it builds the databases, resolves
every sound name, then runs a script with music (in, base, out), two
dialogues, an impulse, a fade and a music stop for 900 ticks through the mixer,
and prints the databases' numbers, when the dialogues ended and a hash of the
mix. The databases come from the TOML below, written to OSBD bytes and loaded
back (both loaders run); the sounds are synthesised deterministically.
"""

from __future__ import annotations

import argparse
import hashlib
from dataclasses import dataclass, field

import esper
import numpy as np

from soundscape import cli
from soundscape.audio.backend_offline import OfflineBackend
from soundscape.components.spatial import Listener, Position
from soundscape.oni.data import OniDatabase, Record
from soundscape.oni.osbd import load_osbd, write_osbd
from soundscape.oni.toml import loads_toml
from soundscape.plugin import SoundscapePlugin
from soundscape.settings import Settings

TICKS = 900
RATE_HZ = 22050

SOUND_TEST_TOML = """
[groups.mus_chase_in]
channels = "stereo"
permutations = [{ sound = "mus_chase_in.aif" }]

[groups.mus_chase]
channels = "stereo"
dont_repeat = true
permutations = [
  { sound = "mus_chase_01.aif", weight = 4 },
  { sound = "mus_chase_02.aif", weight = 3 },
  { sound = "mus_chase_03.aif", weight = 3 },
]

[groups.mus_chase_out]
channels = "stereo"
permutations = [{ sound = "mus_chase_out.aif" }]

[groups.c00_01_74shinatama]
permutations = [{ sound = "c00_01_74shinatama.aif" }]

[groups.c00_01_75konoko]
permutations = [{ sound = "c00_01_75konoko.aif" }]

[groups.gun_fire]
volume = 0.9
permutations = [
  { sound = "gun_fire_a.aif", weight = 1, volume = [0.8, 1.0], pitch = [0.95, 1.05] },
  { sound = "gun_fire_b.aif", weight = 1, volume = [0.8, 1.0], pitch = [0.95, 1.05] },
]

[ambients.mus_chase]
priority = 1
in = "mus_chase_in"
base1 = "mus_chase"
out = "mus_chase_out"

[ambients.c00_01_74shinatama]
priority = 3
interrupt_on_stop = true
play_once = true
base1 = "c00_01_74shinatama"

[ambients.c00_01_75konoko]
priority = 3
interrupt_on_stop = true
play_once = true
base1 = "c00_01_75konoko"

[impulses.gun_fire]
group = "gun_fire"
priority = 2
distance = [10.0, 60.0]
alternate_threshold = 2
alternate = "gun_fire_far"

[impulses.gun_fire_far]
group = "gun_fire"
priority = 1
distance = [10.0, 60.0]
"""

SOUND_SPECS: dict[str, tuple[float, float, float]] = {
    # name: (seconds, base frequency Hz, vibrato Hz)
    "mus_chase_in.aif": (1.0, 220.0, 0.0),
    "mus_chase_01.aif": (2.0, 330.0, 3.0),
    "mus_chase_02.aif": (2.0, 392.0, 4.0),
    "mus_chase_03.aif": (2.5, 440.0, 5.0),
    "mus_chase_out.aif": (1.5, 165.0, 0.0),
    "c00_01_74shinatama.aif": (2.2, 600.0, 7.0),
    "c00_01_75konoko.aif": (1.7, 520.0, 6.0),
    "gun_fire_a.aif": (0.25, 90.0, 0.0),
    "gun_fire_b.aif": (0.3, 75.0, 0.0),
}


def synthesise(seconds: float, freq_hz: float, vibrato_hz: float,
               rate_hz: int = RATE_HZ) -> np.ndarray:
    """A deterministic tone with a short attack and release (float32, mono)."""
    n = int(round(seconds * rate_hz))
    t = np.arange(n, dtype=np.float64) / rate_hz
    phase = 2 * np.pi * freq_hz * t + 0.3 * np.sin(2 * np.pi * vibrato_hz * t)
    env = np.minimum(1.0, np.minimum(t / 0.01, (seconds - t) / 0.05)).clip(0.0, 1.0)
    return (0.4 * np.sin(phase) * env).astype(np.float32)


def build_database() -> tuple[OniDatabase, dict[str, int]]:
    """The TOML database written to OSBD bytes and loaded back, and its numbers."""
    text_db = loads_toml(SOUND_TEST_TOML, source="sound_test.toml")
    records: list[Record] = [*text_db.groups.values(), *text_db.ambients.values(),
                             *text_db.impulses.values()]
    instances, raw = write_osbd(records)
    db = load_osbd(instances, raw, source="sound_test.raw")
    return db, {**db.counts(), "instances": len(instances), "raw_bytes": len(raw)}


@dataclass
class SoundTestResult:
    """What the check prints."""

    counts: dict[str, int]
    unresolved: list[str]
    dialog_ends: list[tuple[str, int]]
    event_hash: str
    mix_hash: str | None
    mix_frames: int
    events: list[dict[str, object]] = field(default_factory=list, repr=False)
    audio: np.ndarray | None = field(default=None, repr=False)
    sample_rate_hz: int = 0

    def lines(self) -> list[str]:
        c = self.counts
        return [
            f"groups {c['groups']} ambients {c['ambients']} impulses {c['impulses']} "
            f"(instances {c['instances']}, raw {c['raw_bytes']} bytes)",
            f"unresolved sounds: {len(self.unresolved)}",
            *(f"dialog {name} ended at tick {tick}" for name, tick in self.dialog_ends),
            f"events {self.event_hash}",
            f"mix {self.mix_hash or 'n/a'} ({self.mix_frames} frames)",
        ]


def _script(oni: object, tick: int) -> None:
    scripts = oni.scripts  # type: ignore[attr-defined]
    if tick == 0:
        scripts.sound_music_start("mus_chase", 0.8)
    elif tick == 30:
        scripts.sound_dialog_play("c00_01_74shinatama")
    elif tick == 60:
        scripts.sound_dialog_play_block("c00_01_75konoko")
    elif tick == 300:
        scripts.sound_impulse_play("gun_fire")
    elif tick == 420:
        scripts.sound_music_volume("mus_chase", 0.4, 2.0)
    elif tick == 600:
        scripts.sound_music_stop("mus_chase")


def run_sound_test(seed: int = 1, backend: str = "offline") -> SoundTestResult:
    """Run the 900-tick script in a fresh esper world and return what it measured."""
    previous = esper.current_world
    world = f"soundscape-sound-test-{seed}"
    esper.switch_world(world)
    plugin = SoundscapePlugin(Settings(seed=seed, backend=backend, features=("audio", "oni")))
    try:
        plugin.install()
        ctx = plugin.context
        for name, spec in SOUND_SPECS.items():
            ctx.sounds.add(name, synthesise(*spec), RATE_HZ)
        db, counts = build_database()
        ctx.oni.db.merge(db)
        ctx.oni.db.resolve()
        unresolved = sorted(n for n in ctx.oni.db.sound_names() if n not in ctx.sounds)
        esper.create_entity(Listener(heading_rad=0.0), Position(0.0, 0.0, 0.0))
        for tick in range(TICKS):
            _script(ctx.oni, tick)
            esper.process(1.0 / 60.0)
        events = [r for r in ctx.events.records if r["source"] == "oni"]
        digest = hashlib.sha256()
        for r in events:
            gain = r.get("gain")
            gain_text = f"{gain:.6f}" if isinstance(gain, float) else str(gain)
            digest.update(f"{r['tick']}|{r['event']}|{r['sound']}|{gain_text}|{r['channel']}\n"
                          .encode())
        mix_hash, frames, audio = None, 0, None
        output = ctx.mixer.backend if ctx.has("mixer") else None
        if isinstance(output, OfflineBackend):
            audio = np.asarray(output.audio(), dtype=np.float32)
            frames = int(audio.shape[0])
            pcm = np.round(np.clip(audio, -1.0, 1.0) * 32767.0).astype("<i2")
            mix_hash = hashlib.sha256(pcm.tobytes()).hexdigest()[:16]
        return SoundTestResult(counts, unresolved, list(ctx.oni.scripts.dialog_ends),
                               digest.hexdigest()[:16], mix_hash, frames, events, audio,
                               ctx.settings.sample_rate_hz)
    finally:
        plugin.uninstall()
        esper.switch_world(previous if previous != world else "default")
        esper.delete_world(world)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line: ``soundscape-sound-test [SEED]``, ``--help``, ``--version``."""
    parser = argparse.ArgumentParser(
        prog="soundscape-sound-test",
        description="Run Oni's sound_test check (seed 001): build the sound databases, "
                    "resolve every sound, play a 900-tick script of music, dialogue and an "
                    "impulse through the mixer, and print the counts, the dialogue end "
                    "ticks and a hash of the mix.")
    parser.add_argument("seed", nargs="?", type=cli.seed, default=1,
                        help="random seed of the run, a whole number 0 or more (default 1)")
    cli.add_version(parser)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Print the check's numbers; 0 when it ran, 2 for a bad command line (argparse)."""
    args = parse_args(argv)
    for line in run_sound_test(args.seed).lines():
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
