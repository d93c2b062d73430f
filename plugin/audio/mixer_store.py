"""The packed sample store: every sound's frames side by side in one float32 array.

One flat float32 array lets the mixer gather the frames of all voices with a
single ``np.take``. It is also where a ``SoundBank`` keeps its sounds: a
``Sound``'s ``samples`` are a view of its block here, so each sound's samples
exist once, shared by the bank and the mixer (``Mixer.store`` is the bank's).

A block holds each side of a sound (left; right for stereo) followed by a few
zero guard frames. The Redguard Miles path reads the same float samples (8- and
16-bit PCM is stored exactly as ``s / 32768``) and scales them back to 16-bit
units when it fills its rows.

Space is reused: ``release`` hands a block back, and once the audio side has
moved past every block that could still read it (``attach_reader``: the
mixer's rendered-frame count, ``SETTLE_BLOCKS`` blocks after the release was
published) it joins a free list (first fit; neighbours merge; free space at
the end shrinks ``used``). Replacing a sound over and over keeps the store at
about its size. Growth swaps in a bigger array (1.5 x) and the audio thread
keeps reading the one it took at the start of its block.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

if TYPE_CHECKING:
    from soundscape.audio.sounds import Sound

GUARD_FRAMES = 4
MAX_FRAMES = (1 << 31) - 1
"""The mixer gathers with 32-bit offsets: the store never holds more frames."""
SETTLE_BLOCKS = 3
"""Whole blocks the audio side renders after a release is published before its space is
reused: one drains the stop, one is a ``modern`` fade-out, one to spare."""


class Segment(NamedTuple):
    """Where a sound's frames are: left and right offsets (equal for mono), length."""

    left: int
    right: int
    frames: int
    stereo: bool

    @property
    def block(self) -> tuple[int, int]:
        """(offset, length) of the whole block: each side and its guard frames."""
        side = self.frames + GUARD_FRAMES
        return self.left, side * (2 if self.stereo else 1)


class SampleStore:
    """A flat float32 array of sound blocks with a free list (see the module docstring).

    Args:
        capacity: initial size in floats (grows as needed).
    """

    def __init__(self, capacity: int = 1 << 16) -> None:
        self.data = np.zeros(max(capacity, 16), dtype=np.float32)
        self.used = 0
        self._free: list[tuple[int, int]] = []  # (offset, length), sorted, below used
        self._unsent: list[tuple[int, int]] = []  # released, stop not yet published
        self._retired: list[tuple[int, int, int]] = []  # (offset, length, reader frame)
        self._reader: Callable[[], int] | None = None
        self._settle_frames = 0
        self._copies: dict[int, tuple[Sound, Segment]] = {}
        self.lock = threading.Lock()
        """Held while samples are written and while the array grows (copy and swap), so
        a streamed voice's feeder thread never writes into an array being replaced."""

    def attach_reader(self, frames_rendered: Callable[[], int], block_frames: int) -> None:
        """The audio side that reads the store: ``frames_rendered()`` counts the frames it
        has rendered (``Mixer.frames_rendered``), in blocks of at most ``block_frames``.
        Without a reader a release is reusable as soon as it is published."""
        self._reader = frames_rendered
        self._settle_frames = SETTLE_BLOCKS * int(block_frames)

    # -- allocation (game thread) -------------------------------------------------

    def allocate(self, frames: int, channels: int) -> Segment:
        """A zeroed block for ``frames`` frames of ``channels`` (1 or 2) sides."""
        side = int(frames) + GUARD_FRAMES
        length = side * channels
        self._recycle()
        offset = self._take_free(length)
        if offset is None:
            offset = self._append(length)
        else:
            self.data[offset : offset + length] = 0.0
        return Segment(offset, offset + side if channels == 2 else offset, int(frames),
                       channels == 2)

    def _take_free(self, length: int) -> int | None:
        for i, (offset, size) in enumerate(self._free):
            if size >= length:
                if size == length:
                    del self._free[i]
                else:
                    self._free[i] = (offset + length, size - length)
                return offset
        return None

    def _append(self, length: int) -> int:
        need = self.used + length
        if need > MAX_FRAMES:
            raise MemoryError(f"sample store: {need} frames is over {MAX_FRAMES}")
        if need > self.data.shape[0]:
            grown = min(max(need, self.data.shape[0] * 3 // 2), MAX_FRAMES)
            bigger = np.zeros(grown, dtype=np.float32)
            with self.lock:
                bigger[: self.used] = self.data[: self.used]
                self.data = bigger  # a reference swap: a block in flight keeps the old array
        offset = self.used
        self.used = need
        return offset

    def write(self, seg: Segment, start: int, frames: np.ndarray) -> None:
        """Write (n, channels) float32 ``frames`` into ``seg`` from frame ``start``."""
        n = int(frames.shape[0])
        with self.lock:
            data = self.data
            data[seg.left + start : seg.left + start + n] = frames[:, 0]
            if seg.stereo:
                data[seg.right + start : seg.right + start + n] = frames[:, 1]

    def view(self, seg: Segment) -> np.ndarray:
        """The segment's frames as a read-only (frames, channels) view of the store."""
        data = self.data
        if seg.stereo:
            step = data.strides[0]
            frames = np.lib.stride_tricks.as_strided(
                data[seg.left :], shape=(seg.frames, 2),
                strides=(step, (seg.right - seg.left) * step), writeable=False)
            return frames
        frames = data[seg.left : seg.left + seg.frames].reshape(-1, 1)
        frames.flags.writeable = False
        return frames

    # -- release --------------------------------------------------------------------

    def release(self, seg: Segment) -> None:
        """Hand ``seg``'s block back (game thread). Reused once the stop of every voice
        that read it has been published (``published``) and the audio side has
        started ``SETTLE_BLOCKS`` blocks since."""
        self._unsent.append(seg.block)

    def discard(self, seg: Segment) -> None:
        """Free a block no reader has seen (a load that failed half way)."""
        self._free.append(seg.block)
        self._coalesce()

    def published(self) -> None:
        """The game thread has sent the audio side this tick's commands (phase PUBLISH):
        releases since the last are stamped, and settled ones join the free list."""
        if self._unsent:
            stamp = self._reader() if self._reader is not None else 0
            self._retired.extend((offset, length, stamp) for offset, length in self._unsent)
            self._unsent.clear()
        self._recycle()

    def _recycle(self) -> None:
        if not self._retired:
            return
        now = self._reader() if self._reader is not None else None
        keep: list[tuple[int, int, int]] = []
        for offset, length, stamp in self._retired:
            if now is None or now >= stamp + self._settle_frames:
                self._free.append((offset, length))
            else:
                keep.append((offset, length, stamp))
        self._retired = keep
        self._coalesce()

    def _coalesce(self) -> None:
        merged: list[tuple[int, int]] = []
        for offset, length in sorted(self._free):
            if merged and merged[-1][0] + merged[-1][1] == offset:
                merged[-1] = (merged[-1][0], merged[-1][1] + length)
            else:
                merged.append((offset, length))
        if merged and merged[-1][0] + merged[-1][1] == self.used:
            self.used = merged.pop()[0]
        self._free = merged

    @property
    def free_frames(self) -> int:
        """Floats in the free list (not counting the space past ``used``)."""
        return sum(length for _offset, length in self._free)

    # -- the mixer's view -------------------------------------------------------------

    def segment(self, sound: Sound, miles: bool = False) -> Segment:
        """Where ``sound``'s frames are in this store (``miles`` is accepted for the
        mixer's old call; the Miles path reads the same float samples).

        A sound of this store is its own block; a sound from another store (a
        standalone ``SoundBank``) is copied in once.
        """
        if sound.store is self:
            return sound.segment
        found = self._copies.get(id(sound))
        if found is not None and found[0] is sound:
            return found[1]
        seg = self.allocate(sound.frames, sound.channels)
        self.write(seg, 0, sound.samples)
        self._copies[id(sound)] = (sound, seg)
        return seg


def miles_units(sound: Sound) -> np.ndarray:
    """The sound's samples as float32 values in signed 16-bit units (``x 32768``, exact for
    8/16-bit PCM; other sounds rounded)."""
    scaled = sound.samples * np.float32(32768.0)
    if sound.bits:
        return scaled.astype(np.float32)
    return np.round(scaled).clip(-32768, 32767).astype(np.float32)
