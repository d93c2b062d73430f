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
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from soundscape.audio import resample
from soundscape.audio.decoders import CHUNK_FRAMES, SUFFIXES, Decoder, open_decoder
from soundscape.audio.mixer_store import SampleStore, Segment
from soundscape.datafile import MAX_FILE_BYTES
from soundscape.errors import DataError, InputError, SoundscapeError
from soundscape.names import check_sound_name, sound_name_problem

DECODED_PER_FILE_BYTE = 8
"""A sound decodes to at most this many float32 bytes per byte of ``max_file_bytes``
(512 MiB by default: 23 minutes of 48 kHz stereo): a compressed file, or a corrupt
header that promises more frames than the file holds, is refused before decoding."""

STREAM_THRESHOLD_S = 30.0
"""Default ``Settings.stream_threshold_s``: files longer than this are streamed."""

MAX_SAMPLE = 1e6
"""The largest float sample a sound may hold: a few voices of 1e38 (a corrupt float
WAV) overflow the float32 mix to inf; real PCM is within +-1."""


class Sound:
    """A decoded sound: float32 frames in -1..1 kept in a ``SampleStore``.

    ``samples`` is a read-only (frames, channels) view of the sound's block in
    its store (the one copy of its samples, which the mixer reads too).
    ``bits`` is 8 or 16 when the samples are integer PCM kept exact (``s / 32768``;
    8-bit as ``(u - 128) / 128``): the Redguard Miles path mixes those integers,
    and ``pcm`` gives them back (computed on demand). ``source_rate_hz`` is the
    original rate when the sound was converted to ``sample_rate_hz`` for the
    ``modern`` profile (0: not converted). ``removed`` turns True when its bank
    lets it go (its block may then be reused: do not read ``samples`` after).
    """

    __slots__ = ("name", "store", "segment", "sample_rate_hz", "bits", "source_rate_hz",
                 "removed", "reloadable")

    def __init__(self, name: str, store: SampleStore | None, segment: Segment,
                 sample_rate_hz: int,
                 bits: int = 0, source_rate_hz: int = 0, reloadable: bool = False) -> None:
        self.name, self.store, self.segment = name, store, segment
        self.sample_rate_hz, self.bits = int(sample_rate_hz), int(bits)
        self.source_rate_hz = int(source_rate_hz)
        self.removed = False
        self.reloadable = reloadable
        """Loaded from the bank's root or one of its ``loaders``: ``unload_unused`` may
        drop it, and it loads again when next asked for."""

    def __repr__(self) -> str:
        return (f"Sound({self.name!r}, {self.frames} frames x {self.channels}, "
                f"{self.sample_rate_hz} Hz{f', {self.bits}-bit' if self.bits else ''})")

    @property
    def samples(self) -> np.ndarray:
        if self.store is None:
            raise InputError(f"sound {self.name!r} holds no samples")
        return self.store.view(self.segment)

    @property
    def pcm(self) -> np.ndarray | None:
        """The integer samples of 8/16-bit PCM (uint8 / int16, (frames, channels)), made
        from the exact floats on each call; None for other sounds."""
        if self.bits == 16:
            return (self.samples * np.float32(32768.0)).astype(np.int16)
        if self.bits == 8:
            return (self.samples * np.float32(128.0) + np.float32(128.0)).astype(np.uint8)
        return None

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
        return self.segment.frames

    @property
    def channels(self) -> int:
        return 2 if self.segment.stereo else 1

    @property
    def nbytes(self) -> int:
        """Bytes its samples take in the store."""
        return 4 * self.frames * self.channels

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


def _check_values(name: str, array: np.ndarray) -> None:
    """Finite and within ``MAX_SAMPLE`` (max and min make no temporary array; NaN
    propagates through both)."""
    high, low = float(array.max()), float(array.min())
    if not (math.isfinite(high) and math.isfinite(low)):
        raise InputError(f"sound {name!r}: samples contain NaN or infinity")
    if max(high, -low) > MAX_SAMPLE:
        raise InputError(f"sound {name!r}: samples beyond +-{MAX_SAMPLE:g} (corrupt float PCM)")


def pcm_floats(pcm: np.ndarray) -> np.ndarray:
    """Integer PCM as its exact float32 samples: int16 ``s / 32768``, uint8 ``(u - 128) / 128``."""
    if pcm.dtype == np.uint8:
        return (pcm.astype(np.float32) - np.float32(128.0)) / np.float32(128.0)
    return pcm.astype(np.float32) / np.float32(32768.0)


class StreamedSound(Sound):
    """A sound played from its file a piece at a time (no samples held).

    ``frames``, ``channels`` and ``sample_rate_hz`` come from the file's header
    (``sample_rate_hz`` is the output rate when the ``modern`` profile converts
    it, ``source_rate_hz`` then the file's). ``samples`` raises: use a ring.
    """

    __slots__ = ("path",)

    def __init__(self, name: str, path: Path, frames: int, channels: int,
                 sample_rate_hz: int, source_rate_hz: int = 0) -> None:
        super().__init__(name, None, Segment(0, 0, int(frames), channels == 2),
                         sample_rate_hz, 0, source_rate_hz, reloadable=True)
        self.path = Path(path)

    streamed = True

    @property
    def samples(self) -> np.ndarray:
        raise InputError(f"sound {self.name!r} is streamed from {self.path}: its samples "
                         "are read a piece at a time by each voice, never held whole")

    @property
    def nbytes(self) -> int:
        return 0

    def at_rate(self, rate_hz: int) -> StreamedSound:
        """The same file converted to ``rate_hz`` as it streams."""
        original = self.original_rate_hz
        frames = resample.converted_frames(self.frames, original, rate_hz)
        return StreamedSound(self.name, self.path, frames, self.channels, rate_hz,
                             original if rate_hz != original else 0)


def open_streamed(name: str, path: Path, threshold_s: float | None,
                  force: bool = False) -> StreamedSound | None:
    """A ``StreamedSound`` for ``path`` when it is longer than ``threshold_s`` (or
    ``force``); None when it should be decoded whole. Reads the header only."""
    with open_decoder(path) as decoder:
        seconds = decoder.frames / decoder.sample_rate_hz
        if not force and (threshold_s is None or seconds <= threshold_s):
            return None
        return StreamedSound(name, path, decoder.frames, decoder.channels,
                             decoder.sample_rate_hz)


class SoundBank:
    """Sounds by name. A name that cannot be found is remembered (negative cache).

    Args:
        root: folder sound names resolve in; None for a bank of added sounds only.
        events: an ``EventLog``; a missing name is logged there once.
        store: the ``SampleStore`` its samples live in (the mixer reads the same
            one: ``Mixer.store``); a new one by default.
        max_file_bytes: the largest sound file decoded whole (None: no cap).
        stream_threshold_s: files longer than this are streamed (``Settings``;
            None: only names given to ``stream``).

    >>> bank = SoundBank()
    >>> bank.add("click", np.zeros(10, dtype=np.float32), 22050).frames
    10
    >>> bank.get("nothing") is None
    True
    >>> bank.remove("click"), "click" in bank
    (True, False)
    """

    def __init__(self, root: str | Path | None = None, events: Any = None,
                 store: SampleStore | None = None,
                 max_file_bytes: int | None = MAX_FILE_BYTES,
                 stream_threshold_s: float | None = None) -> None:
        self._sounds: dict[str, Sound] = {}
        self.missing: set[str] = set()
        self.refused: dict[str, SoundscapeError] = {}
        """Names whose file is corrupt or that escape the root: the error, raised
        again on every ``get`` without touching the disk."""
        self.root = Path(root).resolve() if root is not None else None
        self.events = events
        self.max_file_bytes = max_file_bytes
        self.stream_threshold_s = stream_threshold_s
        self.stream_names: set[str] = set()
        """Names ``stream`` asked to play streamed whatever their length."""
        self.store = store if store is not None else SampleStore()
        self.generation = 0
        """Bumped whenever a sound is added, replaced or removed."""
        self.on_remove: list[Callable[[Sound], object]] = []
        """Called with each sound the bank lets go (``remove``, a replacement,
        ``unload_unused``) before its block is released: the audio feature stops
        its voices there."""
        self.in_use: Callable[[], set[str]] = set
        self.loaders: dict[str, Callable[[str], Sound | None]] = {}
        """Name prefix -> a function that makes the sound of a name with that prefix
        (registering it here) or returns None: tried on a miss before the root."""
        """Names some voice is playing (the audio feature sets it); ``unload_unused``
        keeps those."""

    # -- adding ------------------------------------------------------------------

    def add(self, name: str, samples: np.ndarray, sample_rate_hz: int, *,
            pcm: np.ndarray | None = None, bits: int = 0, source_rate_hz: int = 0) -> Sound:
        """Register ``samples`` (mono 1-D or (frames, channels)) under ``name``.

        The samples are copied into the bank's store (the caller's array is not
        kept). ``pcm`` (int16 for 16-bit, uint8 for 8-bit) marks integer PCM the
        Redguard Miles path mixes exactly: its exact floats are stored (``samples``
        must be them, as ``synth.add_to`` makes them). ``source_rate_hz``: the
        original rate of samples already converted to ``sample_rate_hz``.

        Raises:
            InputError: a name that cannot be a file name, or unusable samples.
        """
        check_sound_name(name, "SoundBank.add")
        self._check_rate(name, sample_rate_hz)
        if pcm is not None:
            pcm = _check_frames(name, np.asarray(pcm))
            if pcm.dtype not in (np.int16, np.uint8):
                raise InputError(f"sound {name!r}: pcm must be int16/uint8 of the samples' shape")
            array = _check_frames(name, np.asarray(samples, dtype=np.float32))
            if pcm.shape != array.shape:
                raise InputError(f"sound {name!r}: pcm must be int16/uint8 of the samples' shape")
            return self.add_pcm(name, pcm, sample_rate_hz)
        array = _check_frames(name, np.asarray(samples, dtype=np.float32))
        _check_values(name, array)
        seg = self.store.allocate(array.shape[0], array.shape[1])
        self.store.write(seg, 0, array)
        return self._register(Sound(name, self.store, seg, sample_rate_hz, 0, source_rate_hz))

    def add_pcm(self, name: str, pcm: np.ndarray, sample_rate_hz: int) -> Sound:
        """Register 8/16-bit integer PCM (uint8 / int16, mono 1-D or (frames, 2)): stored as
        its exact floats, converted a piece at a time (no full-size temporary)."""
        check_sound_name(name, "SoundBank.add_pcm")
        self._check_rate(name, sample_rate_hz)
        pcm = _check_frames(name, np.asarray(pcm))
        if pcm.dtype not in (np.int16, np.uint8):
            raise InputError(f"sound {name!r}: pcm must be int16 or uint8, not {pcm.dtype}")
        seg = self.store.allocate(pcm.shape[0], pcm.shape[1])
        for start in range(0, pcm.shape[0], CHUNK_FRAMES):
            self.store.write(seg, start, pcm_floats(pcm[start : start + CHUNK_FRAMES]))
        bits = 16 if pcm.dtype == np.int16 else 8
        return self._register(Sound(name, self.store, seg, sample_rate_hz, bits))

    @staticmethod
    def _check_rate(name: str, sample_rate_hz: float) -> None:
        if not sample_rate_hz > 0:  # NaN too
            raise InputError(
                f"sound {name!r}: sample rate must be positive, got {sample_rate_hz!r}")

    def _register(self, sound: Sound, *, converted: bool = False) -> Sound:
        old = self._sounds.get(sound.name)
        self._sounds[sound.name] = sound
        self.missing.discard(sound.name)
        self.refused.pop(sound.name, None)
        self.generation += 1
        if old is not None:
            self._let_go(old, log=not converted)
        return sound

    # -- removing -------------------------------------------------------------------

    def remove(self, name: str) -> bool:
        """Let the sound ``name`` go: its voices end (``on_remove``: the audio feature
        stops each with one ``stop`` event, reason ``unloaded``) and its block in the
        store is reused once the audio side has moved past it. The name's negative
        caches are forgotten too (a fixed file loads again). False when nothing was
        loaded under ``name``."""
        self.missing.discard(name)
        self.refused.pop(name, None)
        sound = self._sounds.pop(name, None)
        if sound is None:
            return False
        self.generation += 1
        self._let_go(sound)
        return True

    def unload_unused(self) -> list[str]:
        """Remove every sound loaded from the root (or a ``loaders`` entry: Redguard
        effects of an attached MAIN.SFX) that no voice is playing (``in_use``); each
        loads again on its next ``get``. Sounds added in code stay (they could not
        come back). Returns the names unloaded, sorted."""
        playing = self.in_use()
        names = sorted(n for n, s in self._sounds.items() if s.reloadable and n not in playing)
        for name in names:
            self.remove(name)
        return names

    def _let_go(self, sound: Sound, log: bool = True) -> None:
        for callback in list(self.on_remove):
            callback(sound)
        sound.removed = True
        if sound.store is self.store:
            self.store.release(sound.segment)
        if log and self.events is not None:
            self.events.emit("sounds", "unloaded", sound=sound.name, bytes=sound.nbytes)

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

        The file is decoded a piece at a time straight into the sound's block in the
        store: loading holds one copy of the sound and a few pieces. With
        ``rate_hz`` (the ``modern`` profile's output rate) a file at another rate
        is converted while it is decoded (``soundscape.audio.resample``).

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
        streamed = self._streamed(name, path)
        if streamed is not None:  # a long file: its voices decode it a piece at a time
            return self._register(streamed) if rate_hz is None else self._register(
                streamed.at_rate(rate_hz))
        if self.max_file_bytes is not None and size > self.max_file_bytes:
            raise DataError(str(path), None, None, f"{path} is {size} bytes, over the cap of "
                            f"{self.max_file_bytes} (Settings.max_file_bytes)")
        with open_decoder(path) as decoder:
            rate = decoder.sample_rate_hz
            decoded = decoder.frames * decoder.channels * 4
            if self.max_file_bytes is not None and decoded > DECODED_PER_FILE_BYTE * \
                    self.max_file_bytes:  # a compressed file (or a corrupt header) this long
                raise DataError(str(path), None, "frames", f"{decoder.frames} frames decode "
                                f"to {decoded} bytes, over {DECODED_PER_FILE_BYTE} x "
                                f"Settings.max_file_bytes")
            convert = rate_hz is not None and rate != rate_hz and resample.available()
            frames = (resample.converted_frames(decoder.frames, rate, rate_hz)
                      if convert and rate_hz is not None else decoder.frames)
            seg = self.store.allocate(max(frames, 1), decoder.channels)
            try:
                if convert and rate_hz is not None:
                    resample.convert_stream(lambda buffer: self._read(name, decoder, buffer),
                                            decoder.frames, decoder.channels, rate, rate_hz,
                                            lambda start, piece: self.store.write(seg, start,
                                                                                  piece))
                else:
                    self._decode_into(name, decoder, seg)
            except BaseException:
                self.store.discard(seg)
                raise
        if convert and rate_hz is not None:
            self._log_conversion(name, rate, rate_hz)
            sound = Sound(name, self.store, seg, rate_hz, 0, rate, reloadable=True)
        else:
            sound = Sound(name, self.store, seg, rate, decoder.bits, reloadable=True)
        return self._register(sound)

    def _streamed(self, name: str, path: Path) -> StreamedSound | None:
        """A ``StreamedSound`` for a file longer than ``stream_threshold_s`` or named in
        ``stream``; None to decode it whole."""
        force = name in self.stream_names
        if not force and self.stream_threshold_s is None:
            return None
        return open_streamed(name, path, self.stream_threshold_s, force)

    def stream(self, name: str) -> Sound | None:
        """Play the file ``name`` streamed, whatever its length: each voice decodes it a
        piece at a time into its own ring (``soundscape.audio.streams``). A copy of it
        already decoded is let go (its voices stop). None when there is no such file.

        Raises:
            InputError, DataError: as ``get``.
        """
        self.stream_names.add(name)
        sound = self._sounds.get(name)
        if sound is not None and not getattr(sound, "streamed", False):
            self.remove(name)
            self.stream_names.add(name)
        return self.get(name)

    def _read(self, name: str, decoder: Decoder, buffer: np.ndarray) -> int:
        n = decoder.read(buffer.shape[0], buffer)
        if n:
            try:
                _check_values(name, buffer[:n])
            except InputError as error:
                raise DataError(decoder.source, None, "data", str(error)) from None
        return n

    def _decode_into(self, name: str, decoder: Decoder, seg: Segment) -> None:
        buffer = np.empty((min(CHUNK_FRAMES, decoder.frames), decoder.channels), np.float32)
        done = 0
        while done < decoder.frames:
            n = self._read(name, decoder, buffer)
            if n == 0:
                break  # the rest of the block stays zero
            self.store.write(seg, done, buffer[:n])
            done += n

    def _log_conversion(self, name: str, from_hz: int, to_hz: int) -> None:
        if self.events is not None:
            self.events.emit("sounds", "resampled", sound=name, from_hz=from_hz, to_hz=to_hz)

    def at_rate(self, sound: Sound, rate_hz: int | None) -> Sound:
        """``sound`` converted to ``rate_hz`` once (it replaces the bank's entry), for the
        ``modern`` profile; the sound itself when it is at that rate already, when
        ``rate_hz`` is None or when python-soxr is missing.

        The converted sound keeps its original rate (``Sound.source_rate_hz``), so a
        retail voice of it still plays it as the original (``Sound.rate_scale``);
        it is no longer integer PCM (the Redguard Miles path then mixes it as floats).
        A sound some voice is playing already is not converted (those voices would
        end): the new voice interpolates it linearly.
        """
        if rate_hz is None or sound.sample_rate_hz == rate_hz or not resample.available():
            return sound
        if sound.name in self.in_use():
            return sound  # playing already: converting would cut those voices
        at_rate = getattr(sound, "at_rate", None)
        if at_rate is not None:  # streamed: its voices convert as they decode
            return self._register(at_rate(rate_hz), converted=True)
        frames = resample.converted_frames(sound.frames, sound.sample_rate_hz, rate_hz)
        seg = self.store.allocate(max(frames, 1), sound.channels)
        position = 0

        def read(buffer: np.ndarray) -> int:
            nonlocal position
            piece = sound.samples[position : position + buffer.shape[0]]
            buffer[: piece.shape[0]] = piece
            position += piece.shape[0]
            return int(piece.shape[0])

        resample.convert_stream(read, sound.frames, sound.channels, sound.sample_rate_hz,
                                rate_hz, lambda start, piece: self.store.write(seg, start, piece))
        self._log_conversion(sound.name, sound.sample_rate_hz, rate_hz)
        return self._register(Sound(sound.name, self.store, seg, rate_hz, 0,
                                    sound.original_rate_hz, reloadable=sound.reloadable),
                              converted=True)

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
        if refused is not None:  # without its old traceback: re-raising would chain them
            raise refused.with_traceback(None)
        problem = sound_name_problem(name)
        if problem is not None:  # with or without a root: no file could hold it
            error = InputError(f"sound {name!r} cannot be a file name: {problem}")
            self.refused[name] = error
            raise error
        for prefix, loader in list(self.loaders.items()):
            if name.startswith(prefix):
                made = loader(name)
                if made is not None:
                    return self.at_rate(made, rate_hz)
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
