"""The real-time output through pyglet's OpenAL driver, captured by OpenAL Soft's wave writer.

``rt_latency_ms``: median frames from a ``play_at`` call (the device clock read on
the game thread just before it, ``ALC_SOFT_device_clock``) to the sound's onset in
the capture, idle game thread at 60 fps, one 80 ms tone every 11 frames for 8 s.
It is the whole path: the tick that publishes, the audio thread's next pull, the
queued audio, OpenAL's mix (a wave writer has no hardware buffer after that).

``rt_dropouts_per_min``: gaps of digital silence of 1 ms or more in a looping noise
bed, with 14 ms of pure-Python game work every 60 fps frame, over 30 s (the first
second left out: the capture starts with the device, before the bed plays).
``rt_underruns`` is how many ``mixer``/``underrun`` events that run logged (its
first second included) and ``rt_buffer_ms`` the queued length it ended with.

Skipped (no figures) when libopenal is missing.
"""

from __future__ import annotations

import ctypes.util
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rt_capture  # noqa: E402

LATENCY_SCENE = '''
import esper
from soundscape import synth
from soundscape.audio.emitters import play_at
from soundscape.components import Listener, Position

def start(ctx, rt):
    esper.create_entity(Position(0.0, 0.0, 0.0), Listener(heading_rad=0.0))
    synth.add_to(ctx.sounds, "beep", synth.tone(1000, 0.08, rate_hz=48000, fade_s=0.0), 48000)
    rt.result["calls"] = []

def frame(ctx, rt, n):
    if n % 11 == 5 and n > 30:
        rt.result["calls"].append(rt.clock_frames())
        play_at(ctx, "beep", (0.0, 0.0, 0.5))
'''

DROPOUT_SCENE = '''
from soundscape import synth

def prepare():
    return synth.noise_bed(2.0, seed=3, rate_hz=48000)

def start(ctx, rt):
    ctx.sounds.add("bed", rt.prepared, 48000)
    bank = ctx.channels["modern"]
    bank.play(bank.acquire(), "bed", volume=0.8, loop=True)
    rt.result["start"] = rt.clock_frames()

def finish(ctx, rt):
    rt.result["stop"] = rt.clock_frames()
    rt.result["length"] = rt.backend.output.length_frames
'''

RATE = rt_capture.RATE
DROPOUT_S = 30.0


def latency_ms(tmp: Path) -> float:
    cap = rt_capture.capture(tmp, LATENCY_SCENE, seconds=8.0)
    found = [n for n in rt_capture.latencies_frames(cap.samples, cap.result["calls"]) if n >= 0]
    if len(found) < len(cap.result["calls"]) // 2:
        raise RuntimeError(f"bench_realtime: only {len(found)} onsets found")
    return statistics.median(found) * 1000.0 / RATE


def dropouts(tmp: Path) -> dict[str, float]:
    cap = rt_capture.capture(tmp, DROPOUT_SCENE, seconds=DROPOUT_S, busy_ms=14.0)
    r = cap.result
    start, stop = r["start"] + RATE, r["stop"]
    gaps = rt_capture.gaps(cap.samples, start, min(stop, cap.samples.shape[0]))
    minutes = (stop - start) / RATE / 60.0
    underruns = [e for e in r["events"] if e["event"] == "underrun"]
    return {"rt_dropouts_per_min": len(gaps) / minutes,
            "rt_underruns": float(len(underruns)),
            "rt_buffer_ms": r["length"] * 1000.0 / RATE}


def run() -> dict[str, float]:
    if ctypes.util.find_library("openal") is None:
        print("bench_realtime: libopenal missing, skipped", flush=True)
        return {}
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        figures = {"rt_latency_ms": latency_ms(Path(a))}
        figures.update(dropouts(Path(b)))
    return figures


if __name__ == "__main__":
    for name, value in run().items():
        print(f"{name}: {value:.4g}")
