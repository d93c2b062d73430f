"""Memory: peak allocation while a sound loads, over its decoded float32 size.

``load_peak_over_decoded``: a 20 s 48 kHz stereo sound is loaded into a running
plugin's sound bank (``get``) and first played (one tick), under ``tracemalloc``
(numpy reports its arrays to it); the peak growth over the bytes of its float32
samples. The worst of a 16-bit WAV, an OGG Vorbis file and a 44.1 kHz FLAC the
``modern`` profile converts to 48 kHz while decoding. One copy is 1.0; before
issue 15 the 16-bit WAV took ~3.5 (file bytes, int16 and float copies, the
mixer's copy). Target <= 1.5.
"""

from __future__ import annotations

import gc
import tempfile
import tracemalloc
from pathlib import Path

import esper
import numpy as np

from soundscape import Settings, SoundscapePlugin
from soundscape.audio.channels import ensure_bank
from soundscape.audio.wav import write_wav

SECONDS = 20


def _stereo(rate_hz: int) -> np.ndarray:
    t = np.arange(SECONDS * rate_hz) / rate_hz
    left = 0.3 * np.sin(2 * np.pi * 220.0 * t) + 0.05 * np.sin(2 * np.pi * 3_100.0 * t)
    return np.stack([left, -left], axis=1).astype(np.float32)


def _files(folder: Path) -> list[str]:
    import soundfile

    write_wav(folder / "pcm16.wav", _stereo(48_000), 48_000, bits=16)
    soundfile.write(str(folder / "vorbis.ogg"), _stereo(48_000), 48_000, format="OGG",
                    subtype="VORBIS")
    soundfile.write(str(folder / "cd.flac"), _stereo(44_100), 44_100, format="FLAC",
                    subtype="PCM_16")
    return ["pcm16.wav", "vorbis.ogg", "cd.flac"]


def load_peak(folder: Path, name: str) -> float:
    """Peak bytes allocated while ``name`` loads and first plays, over its float32 bytes."""
    plugin = SoundscapePlugin(Settings(features=("audio",), backend="offline",
                                       sound_root=folder)).install()
    try:
        bank = ensure_bank(plugin.context, "modern")
        esper.process(1 / 60)
        gc.collect()
        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        bank.play(bank.acquire(sound=name), name, volume=1.0)
        esper.process(1 / 60)
        peak = tracemalloc.get_traced_memory()[1] - base
        tracemalloc.stop()
        sound = plugin.context.sounds.get(name)
        return peak / (sound.frames * sound.channels * 4)
    finally:
        plugin.uninstall()


def run() -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        ratios = {name: load_peak(folder, name) for name in _files(folder)}
    figures = {"load_peak_over_decoded": max(ratios.values())}
    for name, ratio in ratios.items():
        figures[f"load_peak_{name.split('.')[0]}"] = ratio
    return figures


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key}: {value:.4g}")
