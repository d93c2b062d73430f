"""Mixer speed: 32 voices (half resampled) in 1024-frame blocks.

``mixer_realtime_factor_32``: seconds of audio rendered per second of CPU.
``mixer_block_us``: microseconds for one 1024-frame block.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import median_seconds  # noqa: E402

from soundscape import synth  # noqa: E402
from soundscape.audio.commands import VoiceParams  # noqa: E402
from soundscape.audio.mixer import Mixer  # noqa: E402
from soundscape.audio.sounds import SoundBank  # noqa: E402

BLOCK = 1024
RATE = 48_000


def scene(voices: int = 32) -> Mixer:
    """A mixer with ``voices`` looping voices; every other one resampled (22,050 Hz, pitch)."""
    bank = SoundBank()
    mixer = Mixer(RATE, BLOCK)
    for i in range(voices):
        resampled = i % 2 == 1
        rate = 22_050 if resampled else RATE
        samples = synth.noise_bed(2.0 + 0.1 * i, seed=i, rate_hz=rate)
        if i % 4 == 3:
            samples = synth.stereo(samples, samples[::-1].copy())
        sound = bank.add(f"s{i}", samples, rate)
        step = rate * (1.0 + 0.01 * i) / RATE if resampled else 1.0
        mixer.start(i + 1, sound, VoiceParams(0.5, 0.25, step, loop=True, ramp=i % 3 == 0))
    mixer.render(BLOCK)
    return mixer


def run() -> dict[str, float]:
    mixer = scene(32)
    block_s = median_seconds(lambda: mixer.render(BLOCK), repeats=300, warmup=20)
    return {
        "mixer_realtime_factor_32": (BLOCK / RATE) / block_s,
        "mixer_block_us": block_s * 1e6,
    }


if __name__ == "__main__":
    for name, value in run().items():
        print(f"{name}: {value:.4g}")
