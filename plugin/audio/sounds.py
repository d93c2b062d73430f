"""Decoded sounds by name: float32 numpy frames, decoded once.

A ``SoundBank`` holds sounds added from numpy (``add``, the synth helpers) and
loads sound files on first use from its root folder (``Settings.sound_root``)
through ``soundscape.audio.decoders``: WAV with soundscape's own decoder, OGG
Vorbis, Opus, FLAC, MP3, AIFF and W64 through ``soundfile``. A name without a
suffix is tried with ``decoders.SUFFIXES`` in order (``.wav`` first). Names
resolve inside that folder only, and only regular files of at most
``Settings.max_file_bytes`` are read. A name that cannot be found is remembered
(a negative cache) and logged once; a name that cannot be a file name (a NUL, a
lone surrogate, over 255 bytes), escapes the root or names a corrupt file is
remembered with its error (``refused``) and never touches the disk again.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from soundscape.audio import resample
from soundscape.audio.decoders import (
    SUFFIXES,
    WavDecoder,
    decode_all,
    decode_pcm,
    open_decoder,
)
from soundscape.datafile import MAX_FILE_BYTES
from soundscape.errors import DataError, InputError, SoundscapeError
from soundscape.names import check_sound_name, sound_name_problem

MAX_SAMPLE = 1e6
"""The largest float sample a sound may hold: a few voices of 1e38 (a corrupt float
WAV) overflow the float32 mix to inf; real PCM is within +-1."""


@dataclass(frozen=True, slots=True)
class Sound:
    """A decoded sound: ``samples`` is float32 of shape (frames, channels) in -1..1.

    ``pcm`` keeps the original integer samples of 8-bit (uint8) and 16-bit
    (int16) PCM files for the Redguard Miles mixer path; ``bits`` is their width.
    ``source_rate_hz`` is the file's own rate when the sound was converted to
    ``sample_rate_hz`` for the ``modern`` profile (0: not converted).
    """

    name: str
    samples: np.ndarray
    sample_rate_hz: int
    pcm: np.ndarray | None = None
    bits: int = 0
    source_rate_hz: int = 0

    @property
    def original_rate_hz(self) -> int:
        """The rate the sound was made at (before any conversion)."""
        return self.source_rate_hz or self.sample_rate_hz

    @property
    def rate_scale(self) -> float:
        """Frames of this sound per frame of the original: 1 unless converted.

        A retail profile that plays a converted sound at its documented rate (Oni's
        22,050 x pitch, Redguard's rate) multiplies that rate by this, so it sounds
        as the original would.
        """
        return self.sample_rate_hz / self.original_rate_hz

    @property
    def frames(self) -> int:
        return int(self.samples.shape[0])

    @property
    def channels(self) -> int:
        return int(self.samples.shape[1])

    @property
    def duration_s(self) -> float:
        return self.frames / self.sample_rate_hz


def _check_frames(name: str, array: np.ndarray) -> np.ndarray:
    if array.ndim == 1:
        array = array[:, None]
    if array.ndim != 2 or array.shape[1] not in (1, 2):
        raise InputError(f"sound {name!r}: samples must be mono or stereo frames")
    if array.shape[0] == 0:
        raise InputError(f"sound {name!r}: no samples")
    return array


class SoundBank:
    """Sounds by name. A name that cannot be found is remembered (negative cache).

    Args:
        root: folder WAV names resolve in; None for a bank of added sounds only.
        events: an ``EventLog``; a missing name is logged there once.
        max_file_bytes: the largest sound file loaded (None: no cap).

    >>> bank = SoundBank()
    >>> bank.add("click", np.zeros(10, dtype=np.float32), 22050).frames
    10
    >>> bank.get("nothing") is None
    True
    """

    def __init__(self, root: str | Path | None = None, events: Any = None,
                 max_file_bytes: int | None = MAX_FILE_BYTES) -> None:
        self._sounds: dict[str, Sound] = {}
        self.missing: set[str] = set()
        self.refused: dict[str, SoundscapeError] = {}
        """Names whose file is corrupt or that escape the root: the error, raised
        again on every ``get`` without touching the disk."""
        self.root = Path(root).resolve() if root is not None else None
        self.events = events
        self.max_file_bytes = max_file_bytes
        self.generation = 0
        """Bumped whenever a sound is added or replaced (the mixer re-packs then)."""

    def add(self, name: str, samples: np.ndarray, sample_rate_hz: int, *,
            pcm: np.ndarray | None = None, bits: int = 0, source_rate_hz: int = 0) -> Sound:
        """Register ``samples`` (mono 1-D or (frames, channels)) under ``name``.

        ``pcm``/``bits`` optionally keep the integer samples (int16 for 16-bit,
        uint8 for 8-bit) the Redguard Miles path mixes. ``source_rate_hz``: the
        original rate of samples already converted to ``sample_rate_hz``.

        Raises:
            InputError: a name that cannot be a file name, or unusable samples.
        """
        check_sound_name(name, "SoundBank.add")
        array = _check_frames(name, np.asarray(samples, dtype=np.float32))
        if not sample_rate_hz > 0:  # NaN too
            raise InputError(
                f"sound {name!r}: sample rate must be positive, got {sample_rate_hz!r}")
        # max and min make no temporary array (a long sound is checked in place); NaN
        # propagates through both
        high, low = float(array.max()), float(array.min())
        if not (math.isfinite(high) and math.isfinite(low)):
            raise InputError(f"sound {name!r}: samples contain NaN or infinity")
        if max(high, -low) > MAX_SAMPLE:
            raise InputError(f"sound {name!r}: samples beyond +-{MAX_SAMPLE:g} (corrupt float PCM)")
        if pcm is not None:
            pcm = _check_frames(name, np.asarray(pcm))
            if pcm.shape != array.shape or pcm.dtype not in (np.int16, np.uint8):
                raise InputError(f"sound {name!r}: pcm must be int16/uint8 of the samples' shape")
            bits = 16 if pcm.dtype == np.int16 else 8
        sound = Sound(name, np.ascontiguousarray(array), int(sample_rate_hz), pcm, bits,
                      int(source_rate_hz))
        self._sounds[name] = sound
        self.missing.discard(name)
        self.refused.pop(name, None)
        self.generation += 1
        return sound

    def resolve(self, name: str) -> Path:
        """The file ``name`` names inside the root; refuses a name that escapes it.

        Raises:
            InputError: no root, or the name leads outside the root folder.
        """
        if self.root is None:
            raise InputError(f"sound {name!r}: the sound bank has no root folder")
        check_sound_name(name, "SoundBank")
        try:
            candidate = (self.root / name).resolve()
        except (OSError, RuntimeError) as error:  # a link loop
            raise InputError(f"sound {name!r}: cannot resolve: {error}") from None
        if not candidate.is_relative_to(self.root):
            raise InputError(f"sound {name!r}: the name escapes the sound root {self.root}")
        return candidate

    def find(self, name: str) -> Path | None:
        """The file ``name`` loads from, or None when there is none.

        A name with a suffix is that file; a name without one (or whose suffix
        is not a file) is tried with each of ``decoders.SUFFIXES`` in order. Each
        candidate is resolved on its own (``name.ogg`` may be a link out of the root).

        Raises:
            InputError: the name (or a candidate) escapes the root.
        """
        path = self.resolve(name)
        if path.suffix and path.is_file():
            return path
        for suffix in SUFFIXES:
            candidate = self.resolve(f"{name}{suffix}")
            if candidate.is_file():
                return candidate
        return None

    def load(self, name: str, rate_hz: int | None = None) -> Sound:
        """Decode the sound file ``name`` from the root (see ``find``).

        The file is decoded straight into the sound's array, a piece at a time
        (``decoders.decode_all``): loading holds about one copy of the sound.
        With ``rate_hz`` (the ``modern`` profile's output rate) a file at another
        rate is converted while it is decoded (``soundscape.audio.resample``).

        Raises:
            InputError: the name cannot be a file name or escapes the root.
            DataError: over ``max_file_bytes``, or the file is malformed or cannot
                be decoded (names the file; for WAV also the chunk and field).
            FileNotFoundError: no such file.
        """
        try:
            path = self.find(name)  # is_file: regular files only (no FIFO, no device)
            size = path.stat().st_size if path is not None else 0
        except SoundscapeError:
            raise
        except (OSError, ValueError) as error:
            raise DataError(str(self.root), None, None, f"{name!r}: cannot read: {error}") from None
        if path is None:
            raise FileNotFoundError(str(self.resolve(name)))
        if self.max_file_bytes is not None and size > self.max_file_bytes:
            raise DataError(str(path), None, None, f"{path} is {size} bytes, over the cap of "
                            f"{self.max_file_bytes} (Settings.max_file_bytes)")
        with open_decoder(path) as decoder:
            rate = decoder.sample_rate_hz
            if rate_hz is not None and rate != rate_hz and resample.available():
                samples = resample.convert_stream(lambda buffer: decoder.read(len(buffer), buffer),
                                                  decoder.frames, decoder.channels, rate, rate_hz)
                self._log_conversion(name, rate, rate_hz)
                return self.add(name, samples, rate_hz, source_rate_hz=rate)
            samples = decode_all(decoder)
            pcm = decode_pcm(decoder) if isinstance(decoder, WavDecoder) and decoder.bits else None
        return self.add(name, samples, rate, pcm=pcm)

    def _log_conversion(self, name: str, from_hz: int, to_hz: int) -> None:
        if self.events is not None:
            self.events.emit("sounds", "resampled", sound=name, from_hz=from_hz, to_hz=to_hz)

    def at_rate(self, sound: Sound, rate_hz: int | None) -> Sound:
        """``sound`` converted to ``rate_hz`` once (it replaces the bank's entry), for the
        ``modern`` profile; the sound itself when it is at that rate already, when
        ``rate_hz`` is None or when python-soxr is missing.

        The converted sound keeps its original rate (``Sound.source_rate_hz``), so a
        retail voice of it still plays it as the original (``Sound.rate_scale``);
        its integer PCM is dropped (the Redguard Miles path then mixes it as floats).
        """
        if rate_hz is None or sound.sample_rate_hz == rate_hz or not resample.available():
            return sound
        samples = resample.convert(sound.samples, sound.sample_rate_hz, rate_hz)
        self._log_conversion(sound.name, sound.sample_rate_hz, rate_hz)
        return self.add(sound.name, samples, rate_hz, source_rate_hz=sound.original_rate_hz)

    def get(self, name: str, rate_hz: int | None = None) -> Sound | None:
        """The sound called ``name``, loading it from the root on first use.

        ``rate_hz`` (the ``modern`` profile passes the output rate): the sound
        converted to that rate once, at load (``at_rate``).

        None when it cannot be found: the name joins the negative cache (no
        further file look-ups) and is logged once as ``missing``. A name that
        cannot be a file name or escapes the root raises ``InputError``; a corrupt
        file ``DataError`` (all remembered: later calls raise the same error
        without touching the disk).
        ``ChannelBank.play`` turns either into a logged, failed start.
        """
        sound = self._sounds.get(name)
        if sound is not None:
            return self.at_rate(sound, rate_hz)
        if name in self.missing:
            return None
        refused = self.refused.get(name)
        if refused is not None:
            raise refused
        problem = sound_name_problem(name)
        if problem is not None:  # with or without a root: no file could hold it
            error = InputError(f"sound {name!r} cannot be a file name: {problem}")
            self.refused[name] = error
            raise error
        if self.root is not None:
            try:
                return self.load(name, rate_hz)
            except FileNotFoundError:
                pass
            except SoundscapeError as error:  # corrupt, or escapes the root: cached too
                self.refused[name] = error
                raise
        self.missing.add(name)
        if self.events is not None:
            self.events.emit("sounds", "missing", sound=name)
        return None

    def __contains__(self, name: object) -> bool:
        return name in self._sounds

    def names(self) -> list[str]:
        return sorted(self._sounds)

    def sounds(self) -> list[Sound]:
        """Every loaded sound, by name."""
        return [self._sounds[n] for n in sorted(self._sounds)]
