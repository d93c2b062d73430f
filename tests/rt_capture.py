"""The real-time capture harness: pyglet's OpenAL driver into OpenAL Soft's wave writer.

``capture(tmp_path, scene, **options)`` runs ``scene`` (Python source) in a child
process whose ``ALSOFT_CONF`` points OpenAL Soft at its ``wave`` backend (the
test process itself forces pyglet's silent driver, and libopenal reads its
config once). The child runs the scene's ``prepare()`` if it has one (before any
audio plays: slow set-up such as synthesising sounds; ``rt.prepared`` is its
result), installs a plugin with the pyglet backend, runs the scene's
``start(ctx, rt)``, steps a game loop for ``seconds`` at ``fps`` with
``busy_ms`` of pure-Python work a frame (holding the GIL as a game's update
would), calls the scene's ``frame(ctx, rt, n)`` before each ``esper.process``,
uninstalls (closing the device finalises the WAV) and prints what the scene put
in ``rt.result`` as JSON.

``rt.clock_frames()`` reads the device clock (``ALC_SOFT_device_clock``) in
frames: OpenAL Soft's wave writer mixes ``period_size`` frames at a time in
real time and counts them, so a sound queued after the call cannot start
earlier than that frame of the capture. ``latency = onset - clock_frames()``
is the whole path (game thread, command, audio pull, queued buffer, OpenAL's
mix) except the hardware's own buffer, which a wave writer does not have.

Used by ``tests/system/test_audio_realtime.py`` and ``tests/bench/bench_realtime.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from soundscape.audio.wav import read_wav

RATE = 48_000
PERIOD_FRAMES = 240
"""The wave writer's mixing period (5 ms): the resolution of ``clock_frames``."""

CHILD = textwrap.dedent('''
    import json, sys, time
    import pyglet
    pyglet.options["headless"] = True
    pyglet.options["shadow_window"] = False
    import esper
    from soundscape import Settings, SoundscapePlugin
    from soundscape.audio import openal_device

    options = json.loads(sys.argv[2])
    scene = {}
    exec(sys.argv[1], scene)
    prepared = scene["prepare"]() if "prepare" in scene else None

    class Rt:
        result = {}
        def __init__(self, backend):
            self.backend = backend
            self.prepared = prepared
        def clock_frames(self):
            import pyglet.media
            ns = openal_device.device_clock_ns(pyglet.media.get_audio_driver())
            return None if ns is None else ns * options["rate"] // 1_000_000_000

    settings = Settings(backend="pyglet", features=("audio",), sample_rate_hz=options["rate"])
    plugin = SoundscapePlugin(settings).install()
    ctx = plugin.context
    rt = Rt(ctx.mixer.backend)
    rt.result["driver"] = rt.backend.driver_name
    scene["start"](ctx, rt)
    frame_s = 1.0 / options["fps"]
    busy_s = options["busy_ms"] / 1000.0
    frames = int(round(options["seconds"] * options["fps"]))
    due = time.perf_counter()
    for n in range(frames):
        if "frame" in scene:
            scene["frame"](ctx, rt, n)
        esper.process(frame_s)
        start = time.perf_counter()
        while time.perf_counter() - start < busy_s:
            pass
        due += frame_s
        time.sleep(max(0.0, due - time.perf_counter()))
    if "finish" in scene:
        scene["finish"](ctx, rt)
    rt.result["events"] = [dict(r) for r in ctx.events.where(source="mixer")]
    plugin.uninstall()
    print("RESULT " + json.dumps(rt.result, default=str), flush=True)
''')


@dataclass
class Capture:
    """The wave writer's output and the scene's result."""

    samples: np.ndarray
    result: dict[str, Any]
    stderr: str


def alsoft_conf(capture: Path, rate: int = RATE, period_frames: int = PERIOD_FRAMES) -> str:
    """An OpenAL Soft config that writes the mix to ``capture`` (float32 stereo)."""
    return ("[general]\ndrivers = wave\n"
            f"frequency = {rate}\nchannels = stereo\nsample-type = float32\n"
            f"period_size = {period_frames}\nperiods = 2\n"
            f"[wave]\nfile = {capture}\n")


def capture(tmp_path: Path, scene: str, *, seconds: float = 2.0, fps: int = 60,
            busy_ms: float = 0.0, rate: int = RATE, timeout_s: float = 180.0) -> Capture:
    """Run ``scene`` through pyglet's OpenAL driver; the capture and the scene's result."""
    wav = tmp_path / "capture.wav"
    conf = tmp_path / "alsoft.conf"
    conf.write_text(alsoft_conf(wav, rate))
    env = dict(os.environ, ALSOFT_CONF=str(conf))
    env.pop("ALSOFT_DRIVERS", None)
    options = {"seconds": seconds, "fps": fps, "busy_ms": busy_ms, "rate": rate}
    done = subprocess.run([sys.executable, "-c", CHILD, textwrap.dedent(scene),
                           json.dumps(options)], env=env, cwd=tmp_path, capture_output=True,
                          text=True, timeout=timeout_s)
    if done.returncode != 0:
        raise RuntimeError(f"capture child failed ({done.returncode}):\n{done.stderr}")
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("RESULT ")]
    if not lines:
        raise RuntimeError(f"capture child printed no result:\n{done.stdout}\n{done.stderr}")
    result = json.loads(lines[-1][len("RESULT "):])
    return Capture(read_wav(wav).samples, result, done.stderr)


def onsets(samples: np.ndarray, threshold: float = 0.05, min_gap_frames: int = 960) -> list[int]:
    """Frames where the capture rises above ``threshold`` after ``min_gap_frames`` of quiet.

    >>> x = np.zeros((10_000, 2), np.float32); x[3_000:3_100] = 0.5; x[8_000:8_050] = 0.5
    >>> onsets(x)
    [3000, 8000]
    """
    loud = np.flatnonzero(np.abs(samples).max(axis=1) > threshold)
    if loud.size == 0:
        return []
    starts = [int(loud[0])]
    starts += [int(b) for a, b in zip(loud[:-1], loud[1:], strict=True) if b - a > min_gap_frames]
    return starts


def segments(samples: np.ndarray, threshold: float = 1e-3,
             quiet_frames: int = 480) -> list[tuple[int, int]]:
    """``(start, stop)`` of each stretch of sound, stretches apart by ``quiet_frames`` or more.

    >>> x = np.zeros((10_000, 2), np.float32); x[1_000:1_500] = 0.3; x[5_000:5_100] = 0.3
    >>> segments(x)
    [(1000, 1500), (5000, 5100)]
    """
    loud = np.flatnonzero(np.abs(samples).max(axis=1) > threshold)
    if loud.size == 0:
        return []
    breaks = np.flatnonzero(np.diff(loud) > quiet_frames)
    starts = np.concatenate(([loud[0]], loud[breaks + 1]))
    stops = np.concatenate((loud[breaks], [loud[-1]])) + 1
    return [(int(a), int(b)) for a, b in zip(starts, stops, strict=True)]


def latencies_frames(samples: np.ndarray, calls: list[int], threshold: float = 0.05) -> list[int]:
    """For each call's device-clock frame, the frames until the next onset at or after it.

    A call whose sound never starts before the next call gives -1.
    """
    found = onsets(samples, threshold)
    out = []
    for i, at in enumerate(calls):
        stop = calls[i + 1] if i + 1 < len(calls) else samples.shape[0]
        after = [o for o in found if at <= o < stop]
        out.append(after[0] - at if after else -1)
    return out


def gaps(samples: np.ndarray, start: int, stop: int, min_frames: int = 48) -> list[tuple[int, int]]:
    """Runs of exact digital silence of at least ``min_frames`` in ``[start, stop)``:
    an output that ran dry (OpenAL stops a source whose queue is empty).

    >>> x = np.ones((1_000, 2), np.float32); x[100:300] = 0.0
    >>> gaps(x, 0, 1_000)
    [(100, 200)]
    """
    quiet = (samples[start:stop] == 0.0).all(axis=1).astype(np.int8)
    edges = np.diff(np.concatenate(([0], quiet, [0])))
    begins, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    return [(start + int(b), int(e - b)) for b, e in zip(begins, ends, strict=True)
            if e - b >= min_frames]
