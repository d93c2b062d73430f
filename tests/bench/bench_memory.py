"""Memory: loading a sound, and streaming long ones.

``load_peak_over_decoded``: a 20 s 48 kHz stereo sound is loaded into a running
plugin's sound bank (``get``) and first played (one tick), under ``tracemalloc``
(numpy reports its arrays to it); the peak growth over the bytes of its float32
samples. The worst of a 16-bit WAV, an OGG Vorbis file and a 44.1 kHz FLAC the
``modern`` profile converts to 48 kHz while decoding. One copy is 1.0; before
issue 15 the 16-bit WAV took ~3.5 (file bytes, int16 and float copies, the
mixer's copy). Target <= 1.5.

``stream_5min_mb``: a fresh process plays a 5-minute 48 kHz stereo OGG Vorbis
file and a 5-minute 16-bit WAV (57.6 MB) at once, both streamed (longer than
``Settings.stream_threshold_s``), through the offline backend to their end;
the growth of its resident memory (VmRSS, MiB, sampled every 5 s of audio,
libsndfile's buffers included) over the moment before they start. Decoded whole
they would hold 230 MB of float32. Target <= 8.
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
        _five_minutes(folder)
        growth = stream_growth_mib(folder)
    figures = {"load_peak_over_decoded": max(ratios.values())}
    for name, ratio in ratios.items():
        figures[f"load_peak_{name.split('.')[0]}"] = ratio
    figures["stream_5min_mb"] = growth
    return figures



STREAM_CHILD = r"""
import sys, esper
from pathlib import Path
from soundscape import Settings, SoundscapePlugin
from soundscape.audio.channels import ensure_bank

def rss_mib():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024.0
    return 0.0

folder = Path(sys.argv[1])
plugin = SoundscapePlugin(Settings(features=("audio",), backend="offline",
                                   sound_root=folder)).install()
plugin.context.mixer.backend.keep = False  # render and discard (nothing kept)
bank = ensure_bank(plugin.context, "modern")
for _ in range(5):
    esper.process(1 / 60)
base = peak = rss_mib()
for name in ("five.ogg", "five.wav"):
    assert bank.play(bank.acquire(sound=name), name, volume=0.5)
for tick in range(5 * 60 * 60 + 120):
    esper.process(1 / 60)
    if tick % 300 == 0:
        peak = max(peak, rss_mib())
peak = max(peak, rss_mib())
kinds = sorted(type(s).__name__ for s in plugin.context.sounds.sounds())
assert kinds == ["StreamedSound", "StreamedSound"], kinds
ends = [r for r in plugin.context.events.records if r["event"] == "end"]
assert len(ends) == 2 and plugin.context.mixer.frames_rendered > 5 * 60 * 48_000, ends
print(peak - base)
"""


def _five_minutes(folder: Path) -> None:
    """A 5-minute 48 kHz stereo WAV (16-bit) and OGG Vorbis."""
    import soundfile

    for name, fmt, subtype in (("five.wav", "WAV", "PCM_16"), ("five.ogg", "OGG", "VORBIS")):
        with soundfile.SoundFile(str(folder / name), "w", 48_000, 2, subtype, format=fmt) as f:
            for second in range(5 * 60):  # a second at a time (libsndfile's Vorbis
                # encoder overflows its stack on very long writes)
                t = (np.arange(48_000) + second * 48_000) / 48_000
                left = 0.3 * np.sin(2 * np.pi * 220.0 * t) * (1 + 0.3 * np.sin(0.5 * t))
                f.write(np.stack([left, -left], axis=1).astype(np.float32))


def stream_growth_mib(folder: Path) -> float:
    """RSS growth (MiB) of a fresh process while both files play streamed to their end."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", STREAM_CHILD, str(folder)], check=True,
                          capture_output=True, text=True)
    return float(done.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key}: {value:.4g}")
