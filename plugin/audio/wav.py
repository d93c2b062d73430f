"""A small RIFF/WAVE decoder: PCM 8/16/24/32-bit, IEEE float and WAVE_FORMAT_EXTENSIBLE.

The stdlib ``wave`` module and pyglet's wave codec refuse IEEE float and
extensible files, so soundscape reads the chunks itself. Every problem is a
``DataError`` naming the file, the chunk (record) and the field.

>>> import io
>>> pcm = encode_wav(np.array([[0.0], [0.5]], dtype=np.float32), 22050, bits=16)
>>> w = decode_wav(pcm, "two.wav")
>>> w.sample_rate_hz, w.samples.shape, w.bits, w.pcm.dtype.name
(22050, (2, 1), 16, 'int16')
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from soundscape.datafile import MAX_FILE_BYTES, read_file
from soundscape.errors import DataError

WAVE_FORMAT_PCM = 0x0001
WAVE_FORMAT_IEEE_FLOAT = 0x0003
WAVE_FORMAT_EXTENSIBLE = 0xFFFE
MAX_CHANNELS = 2
"""soundscape's voices are mono or stereo (Oni's two channel kinds)."""


@dataclass(frozen=True, slots=True)
class DecodedWav:
    """What a WAV file holds.

    Attributes:
        samples: float32 frames, shape (frames, channels), in -1..1.
        sample_rate_hz: the file's rate (any rate is accepted).
        bits: bits per sample of the stored data.
        is_float: the data was IEEE float.
        pcm: the original integer samples (int16 for 16-bit, uint8 for 8-bit),
            shape (frames, channels), kept for the Redguard Miles path; None otherwise.
    """

    samples: np.ndarray
    sample_rate_hz: int
    bits: int
    is_float: bool
    pcm: np.ndarray | None


F32_MAX = float(np.finfo(np.float32).max)


def read_wav(path: str | Path, max_bytes: int | None = MAX_FILE_BYTES) -> DecodedWav:
    """Decode the WAV file at ``path`` (see ``decode_wav``).

    The file must be a regular file of at most ``max_bytes`` (``datafile.read_file``).
    """
    path = Path(path)
    return decode_wav(read_file(path, max_bytes), str(path))


def _chunks(data: bytes, source: str) -> dict[bytes, tuple[int, int]]:
    """Chunk id -> (offset of its body, size), the first of each id."""
    if len(data) == 0:
        raise DataError(source, "RIFF", None, "file is empty (zero length)")
    if len(data) < 12:
        raise DataError(source, "RIFF", "header", f"file is {len(data)} bytes, shorter than 12")
    riff, riff_size, wave = struct.unpack_from("<4sI4s", data, 0)
    if riff != b"RIFF" or wave != b"WAVE":
        raise DataError(source, "RIFF", "id", f"not a RIFF/WAVE file (starts {riff!r}, {wave!r})")
    if riff_size + 8 > len(data) + 1:  # one pad byte of slack, as many writers leave it off
        raise DataError(source, "RIFF", "size",
                        f"header says {riff_size + 8} bytes, file has {len(data)} (truncated)")
    chunks: dict[bytes, tuple[int, int]] = {}
    offset = 12
    while offset + 8 <= len(data):
        cid, size = struct.unpack_from("<4sI", data, offset)
        body = offset + 8
        if body + size > len(data):
            name = cid.decode("latin-1")
            raise DataError(source, name, "size",
                            f"chunk says {size} bytes, only {len(data) - body} remain (truncated)")
        chunks.setdefault(cid, (body, size))
        offset = body + size + (size & 1)
    return chunks


def _format(data: bytes, body: int, size: int, source: str) -> tuple[int, int, int, int, bool]:
    """(format tag, channels, rate, bits, is_float) from the ``fmt `` chunk."""
    if size < 16:
        raise DataError(source, "fmt ", "size", f"{size} bytes, need at least 16")
    tag, channels, rate, _byte_rate, align, bits = struct.unpack_from("<HHIIHH", data, body)
    if tag == WAVE_FORMAT_EXTENSIBLE:
        if size < 40:
            raise DataError(source, "fmt ", "cbSize",
                            f"extensible format needs 40 bytes, has {size}")
        tag = struct.unpack_from("<H", data, body + 24)[0]  # first two bytes of SubFormat
    if tag not in (WAVE_FORMAT_PCM, WAVE_FORMAT_IEEE_FLOAT):
        raise DataError(source, "fmt ", "wFormatTag", f"format 0x{tag:04x} is not PCM or float")
    is_float = tag == WAVE_FORMAT_IEEE_FLOAT
    if not 1 <= channels <= MAX_CHANNELS:
        raise DataError(source, "fmt ", "nChannels", f"{channels} channels; only 1 or 2")
    if rate <= 0:
        raise DataError(source, "fmt ", "nSamplesPerSec", "sample rate must be positive")
    allowed = (32, 64) if is_float else (8, 16, 24, 32)
    if bits not in allowed:
        raise DataError(source, "fmt ", "wBitsPerSample", f"{bits} bits not supported ({allowed})")
    if align != channels * bits // 8:
        raise DataError(source, "fmt ", "nBlockAlign",
                        f"{align}, expected {channels * bits // 8} for {channels}x{bits} bits")
    return tag, channels, rate, bits, is_float


def _layout(data: bytes, source: str) -> tuple[int, int, int, bool, int, int]:
    """(channels, rate, bits, is_float, offset of the samples, whole frames) of a WAV:
    its ``fmt `` chunk checked and its ``data`` chunk found (``decode_wav`` and the
    streaming ``WavDecoder`` share it)."""
    chunks = _chunks(data, source)
    if b"fmt " not in chunks:
        raise DataError(source, "fmt ", None, "no fmt chunk")
    if b"data" not in chunks:
        raise DataError(source, "data", None, "no data chunk")
    _tag, channels, rate, bits, is_float = _format(data, *chunks[b"fmt "], source)
    body, size = chunks[b"data"]
    frames = size // (channels * bits // 8)
    if frames == 0:
        raise DataError(source, "data", "size", f"{size} bytes hold no whole frame")
    return channels, rate, bits, is_float, body, frames


def _to_float(raw: bytes, channels: int, bits: int, is_float: bool):
    """(float32 frames, original integer frames or None)."""
    if is_float:
        dtype = "<f4" if bits == 32 else "<f8"
        floats = np.frombuffer(raw, dtype=dtype).reshape(-1, channels)
        # clip before the cast: a float64 beyond float32's range would overflow (a warning)
        floats = np.clip(np.nan_to_num(floats, nan=0.0, posinf=1.0, neginf=-1.0),
                         -F32_MAX, F32_MAX)
        return floats.astype(np.float32), None
    if bits == 8:
        pcm8 = np.frombuffer(raw, dtype=np.uint8).reshape(-1, channels)
        return ((pcm8.astype(np.float32) - 128.0) / 128.0), pcm8.copy()
    if bits == 16:
        pcm16 = np.frombuffer(raw, dtype="<i2").reshape(-1, channels).astype(np.int16)
        return pcm16.astype(np.float32) / 32768.0, pcm16
    if bits == 24:
        b = np.frombuffer(raw, dtype=np.uint8).reshape(-1, 3).astype(np.int32)
        value = b[:, 0] | (b[:, 1] << 8) | (b[:, 2] << 16)
        value = np.where(value >= 1 << 23, value - (1 << 24), value)
        return (value.astype(np.float32) / float(1 << 23)).reshape(-1, channels), None
    pcm32 = np.frombuffer(raw, dtype="<i4").reshape(-1, channels)
    return (pcm32.astype(np.float64) / 2147483648.0).astype(np.float32), None


def decode_wav(data: bytes, source: str = "<bytes>") -> DecodedWav:
    """Decode a whole WAV file held in ``data``; ``source`` names it in errors.

    Raises:
        DataError: empty, not RIFF/WAVE, a chunk larger than the file, a missing
            or malformed ``fmt `` or ``data`` chunk, or no whole frame of audio.
    """
    channels, rate, bits, is_float, body, frames = _layout(data, source)
    raw = data[body : body + frames * (channels * bits // 8)]
    samples, pcm = _to_float(raw, channels, bits, is_float)
    return DecodedWav(np.ascontiguousarray(samples, dtype=np.float32), int(rate), bits,
                      is_float, pcm)


def encode_wav(samples: np.ndarray, sample_rate_hz: int, *, bits: int = 16,
               is_float: bool = False, extensible: bool = False) -> bytes:
    """Encode float frames (-1..1, shape (frames,) or (frames, channels)) as a WAV file.

    ``bits`` 8 or 16 for PCM (clipped, rounded), 32 for float; ``extensible``
    writes WAVE_FORMAT_EXTENSIBLE with the matching SubFormat GUID.
    """
    array = np.asarray(samples, dtype=np.float32)
    if array.ndim == 1:
        array = array[:, None]
    channels = array.shape[1]
    if is_float:
        raw = array.astype("<f4").tobytes()
        bits, tag = 32, WAVE_FORMAT_IEEE_FLOAT
    elif bits == 8:
        raw = np.clip(np.round(array * 128.0 + 128.0), 0, 255).astype(np.uint8).tobytes()
        tag = WAVE_FORMAT_PCM
    elif bits == 16:
        raw = np.clip(np.round(array * 32768.0), -32768, 32767).astype("<i2").tobytes()
        tag = WAVE_FORMAT_PCM
    else:
        raise ValueError(f"encode_wav: bits {bits} not supported (8, 16 or float 32)")
    align = channels * bits // 8
    fmt = struct.pack("<HHIIHH", WAVE_FORMAT_EXTENSIBLE if extensible else tag, channels,
                      sample_rate_hz, sample_rate_hz * align, align, bits)
    if extensible:
        guid_tail = b"\x00\x00\x00\x00\x10\x00\x80\x00\x00\xaa\x00\x38\x9b\x71"
        fmt += struct.pack("<HHI", 22, bits, 3 if channels == 2 else 4)
        fmt += struct.pack("<H", tag) + guid_tail
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt
    body += b"data" + struct.pack("<I", len(raw)) + raw + (b"\x00" if len(raw) & 1 else b"")
    return b"RIFF" + struct.pack("<I", len(body)) + body


def write_wav(path: str | Path, samples: np.ndarray, sample_rate_hz: int, *,
              bits: int = 16, is_float: bool = False) -> Path:
    """Write ``samples`` to ``path`` (see ``encode_wav``) and return the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(encode_wav(samples, sample_rate_hz, bits=bits, is_float=is_float))
    return path
