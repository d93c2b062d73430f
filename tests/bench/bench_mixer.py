"""Mixer speed: 32 voices (half resampled, a quarter stereo) in 1024-frame blocks.

``mixer_realtime_factor_32``: seconds of audio rendered per second of CPU, the
scene unchanged (no commands). ``mixer_block_us``: microseconds for one block.

``mixer_live_over_static``: the same scene as a game drives it: before every
block a ``set`` of new gains for each of the 32 voices (retail ones jump, modern
ones ramp across the block), and before every fourth block one voice cut and
started again (a ``stop`` and a ``start`` of the same sound: a retriggered
one-shot, 12 a second), over the unchanged scene's speed. The audio thread's
time is measured (``render``: the commands applied, the block mixed; the game
thread's ``send``, which packs new sounds and takes the batch apart,
``mixer_batch``, is not), in runs of four blocks (so each sample has one
restart), interleaved with four unchanged blocks, median. Target >= 0.8.

``mixer_over_numpy_floor``: the unchanged scene against a plain batched numpy mix
of the same voices (each row's positions from its cursor, one gather for each end
of the lerp, the lerp, one einsum with the side gains; a stereo voice is two rows;
no loop wrap inside a block), timed interleaved, median: the floor's time over the
mixer's. Target >= 0.9.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
from timing import interleaved_medians, interleaved_timings, median_seconds  # noqa: E402

from soundscape import synth  # noqa: E402
from soundscape.audio import commands as cmd  # noqa: E402
from soundscape.audio.commands import Command, VoiceParams  # noqa: E402
from soundscape.audio.mixer import Mixer  # noqa: E402
from soundscape.audio.sounds import Sound, SoundBank  # noqa: E402

BLOCK = 1024
RATE = 48_000
REPEATS = 300
WARMUP = 30
RESTART_EVERY = 4

Voice = tuple[int, Sound, VoiceParams]


def scene(voices: int = 32) -> tuple[Mixer, list[Voice]]:
    """A mixer with ``voices`` looping voices; every other one resampled (22,050 Hz,
    pitch), every fourth stereo, every third ``modern`` (ramped)."""
    bank = SoundBank()
    mixer = Mixer(RATE, BLOCK)
    started: list[Voice] = []
    for i in range(voices):
        resampled = i % 2 == 1
        rate = 22_050 if resampled else RATE
        samples = synth.noise_bed(2.0 + 0.1 * i, seed=i, rate_hz=rate)
        if i % 4 == 3:
            samples = synth.stereo(samples, samples[::-1].copy())
        sound = bank.add(f"s{i}", samples, rate)
        step = rate * (1.0 + 0.01 * i) / RATE if resampled else 1.0
        params = VoiceParams(0.5, 0.25, step, loop=True, ramp=i % 3 == 0)
        mixer.start(i + 1, sound, params)
        started.append((i + 1, sound, params))
    mixer.render(BLOCK)
    return mixer, started


def live_batches(voices: list[Voice], count: int) -> list[list[Command]]:
    """``count`` blocks' commands: new gains for every voice, one voice restarted in
    every ``RESTART_EVERY``."""
    table = list(voices)
    next_id = max(v[0] for v in voices) + 1
    batches = []
    for k in range(count):
        batch = []
        for i, (voice, _sound, params) in enumerate(table):
            g = 0.2 + 0.6 * ((k + i) % 8) / 8
            batch.append(cmd.set_params(voice, params._replace(gain_left=g, gain_right=1 - g)))
        if k % RESTART_EVERY == 0:
            j = (k // RESTART_EVERY) % len(table)
            old, sound, params = table[j]
            batch += [cmd.stop(old), cmd.start(next_id, sound, params)]
            table[j] = (next_id, sound, params)
            next_id += 1
        batches.append(batch)
    return batches


class NumpyFloor:
    """A plain batched mix of the mixer's voices: gather + lerp + one einsum."""

    def __init__(self, mixer: Mixer) -> None:
        self.data = mixer.store.data
        base, step, length, left, right = [], [], [], [], []
        for voice in mixer._live.values():
            seg, spec = voice.seg, voice.spec
            sides = [(seg.left, spec.gain_left, 0.0), (seg.right, 0.0, spec.gain_right)] \
                if seg.stereo else [(seg.left, spec.gain_left, spec.gain_right)]
            for offset, gl, gr in sides:
                base.append(offset)
                step.append(spec.step)
                length.append(seg.frames)
                left.append(gl)
                right.append(gr)
        self.base = np.array(base, dtype=np.intp)[:, None]
        self.step = np.array(step)
        self.length = np.array(length, dtype=np.float64)
        self.gains = np.array([left, right], dtype=np.float32)
        self.stepar = (self.step[:, None] * np.arange(BLOCK)[None, :]).astype(np.float32)
        self.cursor = np.zeros(len(base))
        self.out = np.zeros((2, BLOCK), dtype=np.float32)

    def block(self) -> np.ndarray:
        pos = self.stepar + self.cursor[:, None].astype(np.float32)
        whole = np.floor(pos)
        frac = pos - whole
        idx = whole.astype(np.intp) + self.base
        x0 = np.take(self.data, idx)
        x1 = np.take(self.data, idx + 1)
        rows = x0 + frac * (x1 - x0)
        np.einsum("ki,ij->kj", self.gains, rows, out=self.out)
        self.cursor = (self.cursor + self.step * BLOCK) % self.length
        return self.out


def run() -> dict[str, float]:
    static, voices = scene(32)
    block_s = median_seconds(lambda: static.render(BLOCK), repeats=300, warmup=20)
    live, voices = scene(32)
    batches = iter(live_batches(voices, RESTART_EVERY * (REPEATS + WARMUP)))

    def live_run() -> float:
        """The audio thread's time for one run (the game thread's ``send`` untimed)."""
        spent = 0.0
        for _ in range(RESTART_EVERY):
            live.send(next(batches))
            start = time.perf_counter()
            live.render(BLOCK)
            spent += time.perf_counter() - start
        return spent

    def static_run() -> float:
        start = time.perf_counter()
        for _ in range(RESTART_EVERY):
            static.render(BLOCK)
        return time.perf_counter() - start

    static_s, live_s = interleaved_timings([static_run, live_run], repeats=REPEATS,
                                           warmup=WARMUP)
    floor = NumpyFloor(static)
    mixer_s, floor_s = interleaved_medians(
        [lambda: static.render(BLOCK), floor.block], repeats=REPEATS, warmup=WARMUP)
    return {
        "mixer_realtime_factor_32": (BLOCK / RATE) / block_s,
        "mixer_block_us": block_s * 1e6,
        "mixer_live_over_static": static_s / live_s,
        "mixer_over_numpy_floor": floor_s / mixer_s,
    }


if __name__ == "__main__":
    for name, value in run().items():
        print(f"{name}: {value:.4g}")
