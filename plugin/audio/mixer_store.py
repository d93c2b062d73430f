"""The mixer's packed sample store: every sound's frames side by side in one array.

One flat float32 array lets the mixer gather the frames of all voices with a
single ``np.take``. Each sound side (left; right for stereo) is a segment
followed by a few zero guard frames. The Redguard Miles path gets segments of
its own holding the original PCM in signed 16-bit units (exact in float32).
Segments are appended by the game thread; growth swaps in a bigger array and
the audio thread keeps reading the one it took at the start of its block.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from soundscape.audio.sounds import Sound

GUARD_FRAMES = 4
MAX_FRAMES = (1 << 31) - 1
"""The mixer gathers with 32-bit offsets: the store never holds more frames."""


class Segment(NamedTuple):
    """Where a sound's frames are: left and right offsets (equal for mono), length."""

    left: int
    right: int
    frames: int
    stereo: bool


class SampleStore:
    """An append-only flat float32 array of sound segments."""

    def __init__(self, capacity: int = 1 << 20) -> None:
        self.data = np.zeros(max(capacity, 16), dtype=np.float32)
        self.used = 0
        self._segments: dict[tuple[int, bool], tuple[Sound, Segment]] = {}

    def _append(self, values: np.ndarray) -> int:
        n = int(values.shape[0])
        need = self.used + n + GUARD_FRAMES
        if need > MAX_FRAMES:
            raise MemoryError(f"sample store: {need} frames is over {MAX_FRAMES}")
        if need > self.data.shape[0]:
            bigger = np.zeros(max(need, 2 * self.data.shape[0]), dtype=np.float32)
            bigger[: self.used] = self.data[: self.used]
            self.data = bigger  # a reference swap: a block in flight keeps the old array
        offset = self.used
        self.data[offset : offset + n] = values
        self.used = need
        return offset

    def segment(self, sound: Sound, miles: bool = False) -> Segment:
        """The segment of ``sound`` (float samples, or PCM in 16-bit units for ``miles``)."""
        key = (id(sound), miles)
        found = self._segments.get(key)
        if found is not None and found[0] is sound:
            return found[1]
        frames = miles_units(sound) if miles else sound.samples
        left = self._append(frames[:, 0])
        stereo = frames.shape[1] == 2
        right = self._append(frames[:, 1]) if stereo else left
        seg = Segment(left, right, int(frames.shape[0]), stereo)
        self._segments[key] = (sound, seg)
        return seg


def miles_units(sound: Sound) -> np.ndarray:
    """The sound's PCM as float32 values in signed 16-bit units (8-bit: (u - 128) x 256)."""
    if sound.pcm is None:
        return np.round(sound.samples * 32768.0).clip(-32768, 32767).astype(np.float32)
    if sound.pcm.dtype == np.uint8:
        return (sound.pcm.astype(np.float32) - 128.0) * 256.0
    return sound.pcm.astype(np.float32)
