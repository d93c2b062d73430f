"""A WAV file written as audio is rendered: the offline backend's ``stream_wav``.

The header is written first with the sizes unknown (zero) and patched when the stream
closes, when the target can seek; a pipe or a discarding sink gets the header as it
was. Samples are 16-bit PCM clipped to full scale (``encode_wav``'s rounding) or
32-bit float.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import BinaryIO

import numpy as np

from soundscape.audio.wav import WAVE_FORMAT_IEEE_FLOAT, WAVE_FORMAT_PCM

MAX_DATA_BYTES = 0xFFFFFFFF - 36
"""A RIFF size is 32 bits: past this the header's sizes stay at their maximum."""


class WavStream:
    """Append float frames (shape (frames, channels)) to a WAV file or binary stream.

    Args:
        target: a path (created, parents too) or a writable binary file (not closed here).
        sample_rate_hz: the file's rate.
        channels: 1 or 2.
        bits: 16 (PCM) or 32 (float).
    """

    def __init__(self, target: str | Path | BinaryIO, sample_rate_hz: int, channels: int = 2,
                 bits: int = 16) -> None:
        if bits not in (16, 32):
            raise ValueError(f"WavStream: bits {bits} not supported (16 or float 32)")
        self.channels, self.bits, self.sample_rate_hz = channels, bits, int(sample_rate_hz)
        if isinstance(target, (str, Path)):
            path = Path(target)
            path.parent.mkdir(parents=True, exist_ok=True)
            self._file: BinaryIO = path.open("wb")
            self._owned = True
        else:
            self._file, self._owned = target, False
        self.data_bytes = 0
        self._file.write(self._header(0))

    def _header(self, data_bytes: int) -> bytes:
        size = min(data_bytes, MAX_DATA_BYTES)
        align = self.channels * self.bits // 8
        tag = WAVE_FORMAT_IEEE_FLOAT if self.bits == 32 else WAVE_FORMAT_PCM
        fmt = struct.pack("<HHIIHH", tag, self.channels, self.sample_rate_hz,
                          self.sample_rate_hz * align, align, self.bits)
        return (b"RIFF" + struct.pack("<I", 36 + size) + b"WAVE" + b"fmt "
                + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", size))

    @property
    def frames(self) -> int:
        return self.data_bytes // (self.channels * self.bits // 8)

    def write(self, block: np.ndarray) -> None:
        """Append ``block`` (float32 in -1..1; 16-bit output is clipped and rounded)."""
        if self.bits == 32:
            raw = np.asarray(block, dtype="<f4").tobytes()
        else:
            scaled = np.clip(np.round(np.asarray(block, dtype=np.float32) * 32768.0),
                             -32768, 32767)
            raw = scaled.astype("<i2").tobytes()
        self._file.write(raw)
        self.data_bytes += len(raw)

    def close(self) -> None:
        """Patch the sizes (when the target can seek) and close a file opened here."""
        file = self._file
        if file.closed:
            return
        if self.data_bytes & 1:
            file.write(b"\0")
        seekable = getattr(file, "seekable", lambda: False)()
        if seekable:
            end = file.tell()
            file.seek(0)
            file.write(self._header(self.data_bytes))
            file.seek(end)
        file.flush()
        if self._owned:
            file.close()
