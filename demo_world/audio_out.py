"""The tour's audio: what the offline backend rendered, tick by tick, written as a WAV."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from soundscape.audio.backend_offline import OfflineBackend
from soundscape.context import Context


class AudioRecorder:
    """Reads the mix the plugin's offline backend kept (the PUBLISH phase renders it)."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.sample_rate_hz = int(ctx.settings.sample_rate_hz)

    @property
    def backend(self) -> OfflineBackend | None:
        """The offline backend that kept the mix (None with another backend or none)."""
        output = self.ctx.mixer.backend if self.ctx.has("mixer") else None
        return output if isinstance(output, OfflineBackend) else None

    def finish(self) -> np.ndarray | None:
        """Every rendered frame (float32, (frames, 2)), or None with no offline backend."""
        backend = self.backend
        return None if backend is None else backend.audio()

    def write(self, path: Path, audio: np.ndarray) -> None:
        """16-bit PCM WAV at the mixer's rate (clipped to full scale)."""
        from soundscape.audio.wav import write_wav

        write_wav(path, np.clip(audio, -1.0, 1.0), self.sample_rate_hz, bits=16)
