"""The game thread's cost of moving positional sounds, against pyglet's own (issue 18).

``positional_over_pyglet_256``: 256 sounds move every frame. The plugin's cost is
the game thread's: writing 256 ``Position`` components and one plugin tick
(``esper.process``: emitters, channels, the command stream to the mixer) with the
offline render of that tick taken out (it is the audio thread's work in a game).
pyglet's is what a pyglet user pays for the same move: ``Player.position`` set on
256 playing, looping mono ``Player``s, each an OpenAL source of pyglet's real
OpenAL driver, whose output goes to OpenAL Soft's wave writer (``ALSOFT_CONF``,
as ``tests/rt_capture.py``). Both run in one child process (libopenal reads its
config once), one frame of each in turn (``timing.interleaved_timings``), and the
figure is the ratio of their medians; ``positional_256_ms`` and
``pyglet_position_256_ms`` are the medians themselves (milliseconds a frame).

Skipped (no figures) when libopenal is missing.
"""

from __future__ import annotations

import ctypes.util
import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import rt_capture  # noqa: E402

COUNT = 256
FRAMES = 120
"""Distinct frames of motion, played round (every source moves every frame)."""

CHILD = textwrap.dedent('''
    import math, sys, time
    import pyglet
    pyglet.options["headless"] = True
    pyglet.options["shadow_window"] = False
    pyglet.options["audio"] = ("openal",)
    import esper
    import numpy as np
    import pyglet.media
    from pyglet.media import synthesis

    sys.path.insert(0, sys.argv[1])
    from timing import interleaved_timings
    from soundscape import Settings, SoundscapePlugin, synth
    from soundscape.components import Emitter, Listener, Position

    count, frames = int(sys.argv[2]), int(sys.argv[3])
    driver = pyglet.media.get_audio_driver()
    if "OpenAL" not in type(driver).__name__:
        raise SystemExit(f"not pyglet's OpenAL driver: {type(driver).__name__}")

    rng = np.random.default_rng(18)
    radius, angle = rng.uniform(3.0, 40.0, count), rng.uniform(0.0, math.tau, count)
    motion = [[(float(r * math.cos(a + 0.02 * k)), 1.0, float(r * math.sin(a + 0.02 * k)))
               for r, a in zip(radius, angle)] for k in range(frames)]

    tone = pyglet.media.StaticSource(synthesis.Sine(1.0, frequency=220, sample_rate=48000))
    players = []
    for xyz in motion[0]:
        player = pyglet.media.Player()
        player.queue(tone)
        player.loop = True
        player.position = xyz
        player.play()
        players.append(player)

    esper.switch_world("bench-positional")
    plugin = SoundscapePlugin(Settings(seed=3, backend="offline", features=("audio",))).install()
    synth.add_to(plugin.context.sounds, "hum", synth.tone(220, 1.0, rate_hz=48000), 48000)
    esper.create_entity(Listener(), Position(0.0, 1.7, 0.0))
    places = [Position(*xyz) for xyz in motion[0]]
    for place in places:
        esper.create_entity(place, Emitter("hum", volume=0.5))
    backend = plugin.context.mixer.backend
    render_tick = backend.on_tick
    rendered = [0.0]

    def timed_render(ticks):
        start = time.perf_counter()
        render_tick(ticks)
        rendered[0] += time.perf_counter() - start

    backend.on_tick = timed_render
    turn = {"plugin": 0, "pyglet": 0}

    def move_emitters():
        turn["plugin"] += 1
        frame = motion[turn["plugin"] % frames]
        rendered[0] = 0.0
        start = time.perf_counter()
        for place, (x, y, z) in zip(places, frame):
            place.x_m, place.y_m, place.z_m = x, y, z
        esper.process(1 / 60)
        return time.perf_counter() - start - rendered[0]

    def move_players():
        turn["pyglet"] += 1
        frame = motion[turn["pyglet"] % frames]
        start = time.perf_counter()
        for player, xyz in zip(players, frame):
            player.position = xyz
        return time.perf_counter() - start

    ours, theirs = interleaved_timings([move_emitters, move_players], repeats=600, warmup=30)
    playing = sum(1 for player in players if player.playing)
    for player in players:
        player.delete()
    plugin.uninstall()
    print("RESULT", ours, theirs, playing, flush=True)
''')


def measure(count: int = COUNT) -> tuple[float, float]:
    """(plugin, pyglet) median seconds a frame of moving ``count`` sounds."""
    with tempfile.TemporaryDirectory() as folder:
        conf = Path(folder) / "alsoft.conf"
        conf.write_text(rt_capture.alsoft_conf(Path(folder) / "capture.wav")
                        .replace("[general]\n", "[general]\nsources = 1024\n"))
        env = dict(os.environ, ALSOFT_CONF=str(conf))
        env.pop("ALSOFT_DRIVERS", None)
        done = subprocess.run([sys.executable, "-c", CHILD, str(HERE), str(count), str(FRAMES)],
                              env=env, cwd=folder, capture_output=True, text=True, timeout=600)
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("RESULT ")]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"bench_positional child failed ({done.returncode}):\n{done.stderr}")
    ours, theirs, playing = lines[-1].split()[1:]
    if int(playing) != count:
        raise RuntimeError(f"only {playing} of {count} pyglet players were playing")
    return float(ours), float(theirs)


def run() -> dict[str, float]:
    if ctypes.util.find_library("openal") is None:
        print("bench_positional: libopenal missing: skipped", file=sys.stderr)
        return {}
    ours, theirs = measure()
    return {"positional_over_pyglet_256": ours / theirs,
            "positional_256_ms": ours * 1e3, "pyglet_position_256_ms": theirs * 1e3}


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
