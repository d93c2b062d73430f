"""The offline backend: render as fast as the CPU allows, to numpy or a WAV file.

In a running plugin (``Settings.backend = "offline"``) the PUBLISH phase calls
``on_tick``: exactly the frames of the ticks stepped are rendered
(48,000 / 60 = 800 a tick; other rates carry the fraction), and each voice the
frame started begins at its own frame inside them (``Mixer.timeline``: a start
made before the channel phase at the frame's first tick, one chained from an
``on_end`` callback where the sound before it ended), so a scene stepped tick by
tick renders the same bytes every run, and a one-frame sound started in a tick
is in that tick's audio. ``audio()`` is everything rendered so far;
``render_seconds`` renders on without stepping the game.
"""

from __future__ import annotations

from pathlib import Path
from typing import BinaryIO

import numpy as np

from soundscape.audio.mixer import Mixer, Timeline
from soundscape.audio.wav import write_wav
from soundscape.audio.wav_stream import WavStream


class OfflineBackend:
    """Pulls blocks from ``mixer`` on demand and keeps them.

    Keeping costs memory: float32 stereo at 48 kHz is 384 KB a second, about 1.4 GB a
    game hour. Right for a render or a test; an hours-long run streams to a WAV file
    instead (``stream_wav``, or ``Settings.offline_wav_path``) and keeps nothing.

    Args:
        mixer: the mixer to render.
        tick_hz: the game clock's rate (frames per tick = rate / tick_hz).
        keep: keep rendered audio for ``audio()`` (False: render and discard).
    """

    def __init__(self, mixer: Mixer, tick_hz: int = 60, keep: bool = True) -> None:
        self.mixer = mixer
        self.tick_hz = int(tick_hz)
        self.keep = keep
        self._chunks: list[np.ndarray] = []
        self._frames = 0
        self._owed = 0  # frames owed, in units of 1/tick_hz frame (exact integer arithmetic)
        self.stream: WavStream | None = None
        """The WAV file written as blocks render (``stream_wav``), or None."""
        mixer.backend = self

    @property
    def sample_rate_hz(self) -> int:
        return self.mixer.sample_rate_hz

    @property
    def frames(self) -> int:
        """Frames rendered and kept so far."""
        return self._frames

    def on_tick(self, ticks: int) -> np.ndarray:
        """Render the frames of ``ticks`` whole ticks (PUBLISH phase) and return them.

        The ticks are the ones up to the mixer's ``published_tick`` (when one was
        published): their commands start their voices at their own frames.
        """
        mixer = self.mixer
        if mixer.published_tick is not None:
            mixer.timeline = Timeline(mixer.published_tick - ticks + 1, mixer.frames_rendered,
                                      self._owed, self.tick_hz)
        self._owed += ticks * self.mixer.sample_rate_hz
        frames, self._owed = divmod(self._owed, self.tick_hz)
        return self._render(frames)

    def render_seconds(self, seconds: float) -> np.ndarray:
        """Render ``seconds`` more of the voices playing, as fast as possible."""
        if seconds < 0:
            raise ValueError("render_seconds: seconds must be non-negative")
        return self._render(int(round(seconds * self.mixer.sample_rate_hz)))

    def _render(self, frames: int) -> np.ndarray:
        block = self.mixer.render(frames).copy()
        if self.stream is not None and frames:
            self.stream.write(block)
        if self.keep and frames:
            self._chunks.append(block)
            self._frames += frames
        return block

    def audio(self) -> np.ndarray:
        """Every kept frame so far, float32 of shape (frames, 2)."""
        if not self._chunks:
            return np.zeros((0, 2), dtype=np.float32)
        if len(self._chunks) > 1:
            self._chunks = [np.concatenate(self._chunks)]
        return self._chunks[0]

    def write_wav(self, path: str | Path, *, bits: int = 16) -> Path:
        """Write ``audio()`` to ``path`` (16-bit PCM clipped to full scale, or float 32)."""
        audio = self.audio()
        if bits == 32:
            return write_wav(path, audio, self.mixer.sample_rate_hz, is_float=True)
        return write_wav(path, np.clip(audio, -1.0, 1.0), self.mixer.sample_rate_hz, bits=bits)

    def stream_wav(self, target: str | Path | BinaryIO, *, bits: int = 16,
                   keep: bool = False) -> WavStream:
        """From now on write each rendered block to a WAV file (a path, or a writable
        binary file) as it renders, and keep nothing in memory unless ``keep``.

        The header's sizes are patched when the backend closes (the plugin's
        ``uninstall``), if the target can seek. Memory stays flat however long the
        run; ``audio()`` holds only what was kept before (or with ``keep``).
        """
        if self.stream is not None:
            self.stream.close()
        self.stream = WavStream(target, self.mixer.sample_rate_hz, 2, bits)
        self.keep = keep
        return self.stream

    def clear(self) -> None:
        """Forget the kept audio (the mixer's voices play on)."""
        self._chunks.clear()
        self._frames = 0

    def close(self) -> None:
        """Finish the streamed WAV file, if one is open."""
        if self.stream is not None:
            self.stream.close()
