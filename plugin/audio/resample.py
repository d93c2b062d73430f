"""Sample-rate conversion once, at load, for the ``modern`` profile (python-soxr).

The mixer's linear interpolation is cheap but leaves images: a 1 / 5 / 9 kHz
sine taken from 22,050 to 48,000 Hz carries spurious tones at -53 / -21 / -7 dB.
The ``modern`` profile therefore converts a sound to the output rate once, with
soxr's high-quality resampler (``QUALITY``, spurious tones below -100 dB), and
interpolates linearly only for pitch changes. Retail profiles keep their
documented paths (Oni's 22,050 x pitch buffers, the Redguard Miles path).

Conversion runs a piece at a time through ``soxr.ResampleStream`` into the
output array, so its peak memory is the converted sound plus a few pieces. The
output has ``converted_frames`` frames (soxr's own count: the input length
times the ratio, rounded).

python-soxr is a dependency; without it ``available()`` is False and sounds
keep their own rate (the mixer interpolates, as before).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

QUALITY = "HQ"
"""soxr's 'high quality' recipe: 20-bit precision, a passband to 91% of Nyquist."""

CHUNK_FRAMES = 1 << 16
"""Input frames converted per step."""


def available() -> bool:
    """True when python-soxr can be imported."""
    try:
        import soxr  # noqa: F401
    except ImportError:
        return False
    return True


def converted_frames(frames: int, from_hz: int, to_hz: int) -> int:
    """Frames a whole conversion yields: ``frames x to / from``, rounded half up.

    >>> converted_frames(100_000, 22_050, 48_000), converted_frames(12_345, 48_000, 44_100)
    (217687, 11342)
    """
    return (2 * frames * to_hz + from_hz) // (2 * from_hz)


def convert_stream(read: Callable[[np.ndarray], int], frames: int, channels: int,
                   from_hz: int, to_hz: int, write: Callable[[int, np.ndarray], None]) -> int:
    """Convert ``frames`` frames that ``read(buffer)`` supplies a piece at a time.

    ``read`` fills the front of a float32 (CHUNK_FRAMES, channels) buffer and
    returns how many frames it wrote (0 at the end). The output goes to
    ``write(start, piece)`` a piece at a time; returns the frames written
    (``converted_frames``).
    """
    import soxr

    total = converted_frames(frames, from_hz, to_hz)
    stream = soxr.ResampleStream(from_hz, to_hz, channels, dtype="float32", quality=QUALITY)
    buffer = np.empty((min(CHUNK_FRAMES, max(frames, 1)), channels), dtype=np.float32)
    done = taken = 0
    while True:
        n = min(read(buffer) if taken < frames else 0, frames - taken)
        taken += n
        last = n == 0 or taken >= frames
        piece = stream.resample_chunk(buffer[:n], last=last)
        keep = min(piece.shape[0], total - done)
        if keep > 0:
            write(done, piece[:keep])
            done += keep
        if last:
            return done


def convert(samples: np.ndarray, from_hz: int, to_hz: int) -> np.ndarray:
    """``samples`` (float32 (frames, channels)) at ``to_hz``, converted a piece at a time.

    >>> x = np.zeros((441, 1), np.float32)
    >>> convert(x, 44_100, 48_000).shape
    (480, 1)
    """
    frames, channels = int(samples.shape[0]), int(samples.shape[1])
    out = np.zeros((max(converted_frames(frames, from_hz, to_hz), 1), channels), np.float32)
    position = 0

    def read(buffer: np.ndarray) -> int:
        nonlocal position
        piece = samples[position : position + buffer.shape[0]]
        buffer[: piece.shape[0]] = piece
        position += piece.shape[0]
        return int(piece.shape[0])

    def write(start: int, piece: np.ndarray) -> None:
        out[start : start + piece.shape[0]] = piece

    convert_stream(read, frames, channels, from_hz, to_hz, write)
    return out
