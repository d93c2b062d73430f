"""Decoders: open a sound file, learn its shape, read float32 frames a piece at a time.

A ``Decoder`` is what the sound bank and the streamed voices read through:
``sample_rate_hz``, ``channels`` and ``frames`` once the file is open, then
``read(frames, out)`` into a caller's float32 array and ``seek(frame)``.
Decoding into the caller's array lets a whole sound be decoded straight into
its final home (peak memory about one copy), and a streamed voice decode a
second at a time.

* ``WavDecoder``: soundscape's own RIFF/WAVE reader (``soundscape.audio.wav``):
  8/16/24/32-bit PCM, IEEE float, WAVE_FORMAT_EXTENSIBLE, with the same
  ``DataError`` for every malformed header. The header is read through a memory
  map and the samples a piece at a time (``os.pread``), so a long file is never
  read whole and a streamed one does not grow the process. 8- and 16-bit files
  also give their integer samples (``read_pcm``) for the Redguard Miles path.
* ``SoundfileDecoder``: everything else through ``soundfile`` (libsndfile):
  OGG Vorbis, Opus, FLAC, MP3, AIFF/AIFC, W64 and the other formats libsndfile
  reads. A file libsndfile cannot open or decode is a ``DataError`` naming it.

``open_decoder(path)`` picks by the file's first bytes (a RIFF/WAVE header goes
to ``WavDecoder``, so a ``.wav`` that is really an OGG still opens), and a
name without a suffix is tried with ``SUFFIXES`` in order (``find_file``).

>>> import tempfile, pathlib
>>> from soundscape.audio.wav import write_wav
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> path = write_wav(folder / "beep.wav", np.zeros(100, dtype=np.float32), 22050)
>>> with open_decoder(find_file(folder / "beep")) as d:
...     d.sample_rate_hz, d.channels, d.frames, d.bits
(22050, 1, 100, 16)
"""

from __future__ import annotations

import mmap
import os
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from soundscape.audio.wav import MAX_CHANNELS, _layout, _to_float
from soundscape.errors import DataError

SUFFIXES = (".wav", ".ogg", ".opus", ".flac", ".aif", ".aiff", ".aifc", ".w64", ".mp3")
"""The suffixes a bare name is tried with, in this order: the first file that
exists wins (``door`` finds ``door.wav`` before ``door.ogg``). Lossless and
uncompressed first; MP3 last (its decoder pads the start with silence)."""

CHUNK_FRAMES = 1 << 16
"""Frames decoded per step when a whole file is read (``decode_all``)."""


@runtime_checkable
class Decoder(Protocol):
    """An open sound file read as float32 frames (see the module docstring).

    Attributes:
        source: the file's path (named in every error).
        sample_rate_hz: frames per second.
        channels: 1 or 2.
        frames: total frames in the file.
        bits: 8 or 16 when the file is integer PCM whose samples are kept exact
            for the Redguard Miles path (``read_pcm``), else 0.
    """

    source: str
    sample_rate_hz: int
    channels: int
    frames: int
    bits: int

    def read(self, frames: int, out: np.ndarray) -> int:
        """Decode up to ``frames`` frames from the current position into ``out[:n]``
        (float32, shape (>= n, channels)); returns n (0 at the end) and moves on."""
        ...

    def seek(self, frame: int) -> None:
        """Move the read position to ``frame`` (0..frames)."""
        ...

    def close(self) -> None:
        """Release the file."""
        ...


class _Closing:
    """Context-manager support shared by the decoders."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class WavDecoder(_Closing):
    """soundscape's RIFF/WAVE decoder over a memory-mapped file (``soundscape.audio.wav``).

    Raises:
        DataError: the file cannot be read, or its header is malformed (the
            exact errors of ``decode_wav``: file, chunk and field named).
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.source = str(self.path)
        self._file: Any = None
        self._map: Any = b""
        try:
            self._file = open(self.path, "rb")  # noqa: SIM115 - closed by close()
            size = self.path.stat().st_size
            if size:
                self._map = mmap.mmap(self._file.fileno(), 0, access=mmap.ACCESS_READ)
        except OSError as error:
            self.close()
            raise DataError(self.source, None, None, f"cannot read: {error.strerror}") from error
        try:
            self._parse()
        except DataError:
            self.close()
            raise
        if isinstance(self._map, mmap.mmap):  # the header is read: the samples come by pread
            self._map.close()
        self._map = b""

    def _parse(self) -> None:
        data, source = self._map, self.source
        channels, rate, bits, is_float, body, frames = _layout(data, source)
        self._frame_bytes = channels * bits // 8
        self._body, self._bits, self._is_float = body, bits, is_float
        self.sample_rate_hz, self.channels, self.frames = int(rate), int(channels), int(frames)
        self.bits = bits if bits in (8, 16) and not is_float else 0
        self.stored_bits = bits
        self.is_float = is_float
        self.position = 0

    def _raw(self, frames: int) -> tuple[bytes, int]:
        n = max(0, min(int(frames), self.frames - self.position))
        start = self._body + self.position * self._frame_bytes
        try:
            raw = os.pread(self._file.fileno(), n * self._frame_bytes, start) if n else b""
        except OSError as error:
            raise DataError(self.source, "data", None, f"cannot read: {error.strerror}") from error
        n = len(raw) // self._frame_bytes  # a file cut short since it was opened
        self.position += n
        return raw[: n * self._frame_bytes], n

    def read(self, frames: int, out: np.ndarray) -> int:
        raw, n = self._raw(frames)
        if n:
            samples, _pcm = _to_float(raw, self.channels, self._bits, self._is_float)
            out[:n] = samples
        return n

    def read_pcm(self, frames: int) -> np.ndarray:
        """The next ``frames`` integer frames (uint8 for 8-bit, int16 for 16-bit files)."""
        if not self.bits:
            raise DataError(self.source, "fmt ", "wBitsPerSample",
                            f"{self.stored_bits}-bit {'float' if self.is_float else 'PCM'} "
                            "has no 8/16-bit integer samples")
        raw, _n = self._raw(frames)
        dtype = np.uint8 if self.bits == 8 else np.dtype("<i2")
        return np.frombuffer(raw, dtype=dtype).reshape(-1, self.channels).astype(
            np.uint8 if self.bits == 8 else np.int16)

    def seek(self, frame: int) -> None:
        self.position = min(max(int(frame), 0), self.frames)

    def close(self) -> None:
        if isinstance(self._map, mmap.mmap):
            self._map.close()
        self._map = b""
        if self._file is not None:
            self._file.close()
            self._file = None


class SoundfileDecoder(_Closing):
    """Any format libsndfile reads (OGG Vorbis, Opus, FLAC, MP3, AIFF, W64...).

    Raises:
        DataError: ``soundfile`` is not installed, libsndfile cannot open the file,
            or it has more than two channels; a decode failure in ``read`` too.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.source = str(self.path)
        try:
            import soundfile
        except (ImportError, OSError) as error:  # OSError: the wheel's libsndfile will not load
            raise DataError(self.source, None, None,
                            f"cannot decode {self.path.suffix or 'this'} files: "
                            f"soundfile (libsndfile) is not available ({error})") from None
        self._errors = (soundfile.SoundFileError, RuntimeError)
        try:
            self._file = soundfile.SoundFile(self.source)
        except self._errors as error:
            raise DataError(self.source, None, None, f"cannot decode: {_message(error)}") from None
        except OSError as error:
            raise DataError(self.source, None, None, f"cannot read: {error.strerror}") from error
        self.format = f"{self._file.format}/{self._file.subtype}"
        self.sample_rate_hz = int(self._file.samplerate)
        self.channels = int(self._file.channels)
        self.frames = int(self._file.frames)
        self.bits = 0
        self.position = 0
        if not 1 <= self.channels <= MAX_CHANNELS:
            self.close()
            raise DataError(self.source, self.format, "channels",
                            f"{self.channels} channels; only 1 or 2")
        if self.frames <= 0 or self.sample_rate_hz <= 0:
            self.close()
            raise DataError(self.source, self.format, "frames", "holds no audio")

    def read(self, frames: int, out: np.ndarray) -> int:
        n = max(0, min(int(frames), self.frames - self.position))
        if not n:
            return 0
        try:
            got = int(self._file.read(n, dtype="float32", always_2d=True, out=out[:n]).shape[0])
        except self._errors as error:
            raise DataError(self.source, self.format, "data",
                            f"cannot decode at frame {self.position}: {_message(error)}") from None
        if got == 0:  # nothing left although the header promised more: decode_all zero-fills
            return 0
        if got < n:  # a truncated stream: the header promised more than the data holds
            out[got:n] = 0.0
        if not np.all(np.isfinite(out[:got])):
            raise DataError(self.source, self.format, "data",
                            f"non-finite samples near frame {self.position}")
        self.position += n
        return n

    def seek(self, frame: int) -> None:
        frame = min(max(int(frame), 0), self.frames)
        if frame == self.position:
            return
        try:
            self._file.seek(frame)
        except self._errors as error:
            raise DataError(self.source, self.format, "seek",
                            f"cannot seek to frame {frame}: {_message(error)}") from None
        self.position = frame

    def close(self) -> None:
        file = getattr(self, "_file", None)
        if file is not None and not file.closed:
            file.close()


def _message(error: BaseException) -> str:
    text = str(error)
    prefix = "Error opening "
    if text.startswith(prefix) and ": " in text:  # drop soundfile's repetition of the path
        text = text.split(": ", 1)[1]
    return text


OTHER_MAGIC = (b"OggS", b"fLaC", b"FORM", b"riff", b"ID3", b"\xff\xfb", b"\xff\xf3")
"""First bytes of formats libsndfile reads (OGG, FLAC, AIFF, W64, MP3): a ``.wav``
starting with one of these is decoded as what it is."""


def is_riff_wave(path: Path) -> bool:
    """True for a RIFF/WAVE header, and for any ``.wav`` that is not plainly another
    format (so a broken WAV gets ``WavDecoder``'s exact header errors)."""
    try:
        with open(path, "rb") as file:
            head = file.read(12)
    except OSError:
        return path.suffix.lower() == ".wav"
    if head[:4] == b"RIFF" and head[8:12] == b"WAVE":
        return True
    return path.suffix.lower() == ".wav" and not head.startswith(OTHER_MAGIC)


def open_decoder(path: str | Path) -> WavDecoder | SoundfileDecoder:
    """Open ``path`` with the decoder its first bytes call for.

    A RIFF/WAVE file (and any ``.wav`` that is not plainly another format) goes to
    ``WavDecoder`` with its exact header errors; everything else to ``soundfile``.
    """
    path = Path(path)
    if is_riff_wave(path):
        return WavDecoder(path)
    return SoundfileDecoder(path)


def find_file(stem: Path) -> Path | None:
    """``stem`` itself when it has a suffix, else the first of ``stem`` + ``SUFFIXES``
    that is a file (None when none is)."""
    if stem.suffix:
        return stem if stem.is_file() else None
    for suffix in SUFFIXES:
        candidate = stem.with_name(stem.name + suffix)
        if candidate.is_file():
            return candidate
    return None


def decode_all(decoder: Decoder, out: np.ndarray | None = None) -> np.ndarray:
    """Every frame of ``decoder`` as float32 (frames, channels), decoded in place.

    ``out`` (optional) is the array to fill; it is allocated once otherwise, so
    the peak is one copy of the sound plus one ``CHUNK_FRAMES`` step.
    """
    if out is None:
        try:  # a corrupt header can promise more frames than memory holds
            out = np.empty((decoder.frames, decoder.channels), dtype=np.float32)
        except (ValueError, MemoryError):
            raise DataError(str(getattr(decoder, "source", "<decoder>")), None, "frames",
                            f"{decoder.frames} frames x {decoder.channels} channels "
                            f"do not fit in memory") from None
    decoder.seek(0)
    done = 0
    while done < decoder.frames:
        n = decoder.read(min(CHUNK_FRAMES, decoder.frames - done), out[done:])
        if n == 0:
            out[done:] = 0.0
            break
        done += n
    return out


def decode_pcm(decoder: WavDecoder) -> np.ndarray:
    """Every frame of an 8/16-bit WAV as its integers (uint8 or int16, (frames, channels))."""
    decoder.seek(0)
    return decoder.read_pcm(decoder.frames)
