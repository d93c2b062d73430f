"""Rooms and ears: the reverb and the head model against the 32-voice mixer block.

``reverb_over_mixer``: one active zone's reverb (``ReverbBus.render``: the ``room``
preset's 8-line FDN at full weight, a 1024-frame send) over one 1024-frame block of
``bench_mixer``'s 32-voice stereo mix (target <= 0.25).
``binaural_over_stereo_32``: that block with headphone output (its 24 mono voices
through the head, the 8 stereo ones on their side gains; ``RoomMix`` attached) over
the same block to speakers (target <= 1.5).
Both are timed interleaved (one call of each in turn, 400 pairs), medians.
"""

from __future__ import annotations

import math
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
from bench_mixer import BLOCK, RATE, scene  # noqa: E402

from soundscape.audio.commands import VoiceParams  # noqa: E402
from soundscape.audio.reverb import PRESETS  # noqa: E402
from soundscape.audio.reverb_bus import ReverbBus  # noqa: E402
from soundscape.audio.room_mix import RoomMix  # noqa: E402


def interleaved(a: Callable[[], object], b: Callable[[], object], pairs: int = 400,
                warmup: int = 20) -> float:
    """median(b) / median(a), calling a then b in turn."""
    for _ in range(warmup):
        a()
        b()
    ta: list[float] = []
    tb: list[float] = []
    for _ in range(pairs):
        start = time.perf_counter()
        a()
        mid = time.perf_counter()
        b()
        ta.append(mid - start)
        tb.append(time.perf_counter() - mid)
    return statistics.median(tb) / statistics.median(ta)


def headphone_scene() -> object:
    """``bench_mixer.scene`` with every mono voice sent through the head instead."""
    mixer, _voices = scene(32)
    mixer.rooms = RoomMix(RATE, BLOCK)
    for voice in list(mixer._live.values()):
        if voice.seg.stereo:
            continue
        azimuth = math.radians(-170.0 + 11.0 * voice.key)
        gain = math.sqrt((0.5 ** 2 + 0.25 ** 2) / 2.0)
        mixer.set(voice.key, VoiceParams(0.0, 0.0, voice.spec.step, loop=True,
                                         ramp=voice.spec.ramp, ear=(azimuth, gain)))
    mixer.render(BLOCK)
    return mixer


def run() -> dict[str, float]:
    stereo, _voices = scene(32)
    bus = ReverbBus(RATE)
    bus.configure(1, PRESETS["room"])
    bus.listen(1)
    send = {1: np.random.default_rng(1).standard_normal(BLOCK).astype(np.float32)}
    out = np.zeros((2, BLOCK), np.float32)
    for _ in range(40):  # the crossfade in is over: the zone is at full weight
        bus.render(send, out)
    reverb = interleaved(lambda: stereo.render(BLOCK), lambda: bus.render(send, out))
    heads = headphone_scene()
    binaural = interleaved(lambda: stereo.render(BLOCK), lambda: heads.render(BLOCK))
    return {"reverb_over_mixer": reverb, "binaural_over_stereo_32": binaural}


if __name__ == "__main__":
    for name, value in run().items():
        print(f"{name}: {value:.4g}")
