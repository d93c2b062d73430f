"""The demo's one sound file: a streamed OGG Vorbis loop made at start-up.

Every other demo sound is synthesised into the sound bank; the well by the plaza
plays ``well.ogg`` instead, so the demo exercises the decoder layer (libsndfile
through ``soundfile``), a streamed voice (``SoundBank.stream``: its own ring,
decoded a piece at a time) and the ``modern`` profile's conversion (the file is
44.1 kHz; the output 48 kHz). The file is written once per machine into a cache
folder (``asset_folder``) from a fixed recipe: nothing binary is committed.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np

from soundscape import synth

WELL = "well.ogg"
WELL_RATE_HZ = 44_100
WELL_SECONDS = 40.0
RECIPE_VERSION = 1


def asset_folder() -> Path:
    """Where the demo's files are cached (``$SOUNDSCAPE_DEMO_ASSETS`` or the temp dir)."""
    folder = os.environ.get("SOUNDSCAPE_DEMO_ASSETS")
    if folder:
        return Path(folder)
    return Path(tempfile.gettempdir()) / f"soundscape-demo-assets-v{RECIPE_VERSION}"


def well_samples() -> np.ndarray:
    """Water in a stone well: a low stereo bed with a drip now and then (40 s, loops)."""
    rate = WELL_RATE_HZ
    left = synth.noise_bed(WELL_SECONDS, 401, low_hz=80, high_hz=1400, tilt=1.2, peak=0.35,
                           rate_hz=rate)
    right = synth.noise_bed(WELL_SECONDS, 402, low_hz=80, high_hz=1400, tilt=1.2, peak=0.35,
                            rate_hz=rate)
    drip = synth.tone(1500, 0.12, harmonics=(1.0, 0.3), decay_s=0.04, peak=0.4, rate_hz=rate)
    for k in range(int(WELL_SECONDS / 2.3)):
        at = int((0.7 + 2.3 * k) * rate)
        side = left if k % 2 else right
        side[at : at + drip.shape[0]] += drip[: side.shape[0] - at]
    return synth.stereo(left, right)


def ensure_assets(folder: Path | None = None) -> Path | None:
    """Write ``well.ogg`` into ``folder`` unless it is there; the folder, or None when
    ``soundfile`` cannot write OGG Vorbis here (the demo then has no well)."""
    folder = asset_folder() if folder is None else Path(folder)
    target = folder / WELL
    if target.is_file():
        return folder
    try:
        import soundfile
    except (ImportError, OSError):
        return None
    folder.mkdir(parents=True, exist_ok=True)
    partial = folder / f".{WELL}.{os.getpid()}.part"
    samples = well_samples()
    with soundfile.SoundFile(str(partial), "w", WELL_RATE_HZ, 2, "VORBIS", format="OGG") as f:
        for start in range(0, samples.shape[0], WELL_RATE_HZ):  # a second at a time
            f.write(samples[start : start + WELL_RATE_HZ])
    partial.replace(target)  # atomic: a concurrent demo sees the whole file or none
    return folder
