"""Collecting the offline mix during the tour and writing it as a WAV."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np


class AudioRecorder:
    """Pulls each tick's rendered frames from the plugin's offline mixer."""

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx
        self.blocks: list[np.ndarray] = []
        self.sample_rate_hz = int(ctx.settings.sample_rate_hz)

    def pull(self) -> None:
        """Take what the mixer rendered this tick (nothing without a mixer)."""

    def finish(self) -> np.ndarray | None:
        if not self.blocks:
            return None
        return np.concatenate(self.blocks, axis=0)

    def write(self, path: Path, audio: np.ndarray) -> None:
        from soundscape.wav import write_wav

        write_wav(path, audio, self.sample_rate_hz)
