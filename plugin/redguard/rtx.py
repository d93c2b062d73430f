"""RTX speech: the clip store (ENGLISH.RTX) and the 20-entry RTX cache.

Lookup reuses an entry with the same label (marking it used, age 8), else loads
into the first entry whose used flag is clear (even one still holding another
label's payload); every entry used is a cache-exhaustion error, never an
eviction. The periodic update keeps an entry whose remembered sample is playing
(Miles status 4), otherwise forgets the sample, re-arms a used entry to age 8
and releases an unused one whose age is strictly less than the elapsed ticks.

The store holds clips added in code or from TOML, and reads the retail
ENGLISH.RTX lazily once attached (``RtxStore.attach``): a line is read from the
file the first time it is looked up (``soundscape.redguard.rtx_file``).

A voiced clip's integer PCM is kept once: in the sound bank as ``rg.rtx.<label>``
(exact floats, ``SoundBank.add_pcm``; ``RtxClip.pcm`` gives the integers back),
or on the clip when there is no sound bank. A line read from the attached file
lets its audio go again when its cache entry is released (``RtxStore.unload``)
and is read anew when next looked up, so only the lines in the cache hold audio.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from soundscape.datafile import MAX_FILE_BYTES, data_path, read_toml
from soundscape.errors import DataError
from soundscape.laws import redguard as law
from soundscape.names import name_problem
from soundscape.redguard.effects import bank_pcm, read_wav_pcm, register_pcm

if TYPE_CHECKING:
    from soundscape.redguard.rtx_file import RtxFile
    from soundscape.redguard.runtime import RedguardRuntime

CACHE_ENTRIES = 20
ENTRY_AGE_TICKS = 8
RTX_PREFIX = "rg.rtx."
SPEECH_PAN = 64
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def file_label(label: str) -> str:
    """File lookup lowercases ASCII uppercase letters only.

    >>> file_label("AbÇD")
    'abÇd'
    """
    return label.translate(_ASCII_LOWER)


@dataclass(frozen=True, slots=True)
class RtxClip:
    """One RTX entry on disk: its text and optional audio.

    ``header_volume`` is the audio header byte 0x0C (100 in the shipped file).
    ``frames``/``channels`` describe the audio (0 frames: a text-only line);
    ``kept`` is the integer PCM when no sound bank holds it; ``from_file``: read
    from the attached ENGLISH.RTX (its audio can be read again).
    """

    label: str
    text: str
    sample_rate_hz: int = 22050
    sample_bits: int = 16
    header_volume: int = 100
    frames: int = 0
    channels: int = 1
    kept: np.ndarray | None = field(default=None, compare=False, repr=False)
    sounds: Any = field(default=None, compare=False, repr=False)
    from_file: bool = False

    @property
    def voiced(self) -> bool:
        return self.frames > 0

    @property
    def sound_name(self) -> str:
        return RTX_PREFIX + self.label

    @property
    def pcm(self) -> np.ndarray | None:
        """The integer PCM (int16 or uint8; mono 1-D): kept, or from the sound bank."""
        if not self.voiced:
            return None
        if self.kept is not None:
            return self.kept
        return bank_pcm(self.sounds, self.sound_name)

    @property
    def pcm_bytes(self) -> int:
        return self.frames * self.channels * (self.sample_bits // 8)

    def duration_256(self) -> int:
        """Audio length in 1/256 s: (PCM_bytes << 8) / (channels x rate x bytes/sample)."""
        return law.rtx_duration_256(self.pcm_bytes, self.channels, self.sample_rate_hz,
                                    self.sample_bits // 8)


class RtxStore:
    """The RTX file: clips by (lowercased) label; voiced clips go into the sound bank."""

    def __init__(self, sounds: Any = None, events: Any = None,
                 max_file_bytes: int | None = MAX_FILE_BYTES) -> None:
        self.sounds = sounds
        self.events = events
        self.max_file_bytes = max_file_bytes
        """The largest TOML or WAV file ``load_toml`` reads (``Settings.max_file_bytes``)."""
        self._clips: dict[str, RtxClip] = {}
        self._by_name: dict[str, RtxClip] = {}
        self.rtx: RtxFile | None = None
        """The attached ENGLISH.RTX (``attach``), read a line at a time."""
        self._refused: set[str] = set()

    def attach(self, rtx: RtxFile) -> None:
        """Look lines up in a retail ENGLISH.RTX: each is read (text, and audio into the
        sound bank) the first time ``find`` asks for it, then kept. Clips added
        before keep precedence over the file's lines of the same label."""
        self.rtx = rtx
        self._refused.clear()
        loaders = getattr(self.sounds, "loaders", None)
        if loaders is not None:
            loaders[RTX_PREFIX] = self.load_sound

    def add(self, label: str, text: str, pcm: np.ndarray | None = None, *,
            sample_rate_hz: int = 22050, header_volume: int = 100,
            from_file: bool = False) -> RtxClip:
        """Add a clip; ``pcm`` int16 or uint8 (None: a text-only line). With a sound
        bank the PCM goes there (its one copy); ``from_file``: a line of the attached
        ENGLISH.RTX (``unload`` lets its audio go).

        Raises:
            DataError: naming the label and the bad field.
        """
        if not isinstance(label, str) or not label:
            raise DataError("RTX", None, "label", f"must be a non-empty string, not {label!r}")
        problem = name_problem(RTX_PREFIX + label)
        if problem is not None:  # the clip is a sound-bank name: it must be a file name too
            raise DataError("RTX", None, "label", f"{label!r} cannot be a sound name: {problem}")
        key = file_label(label)
        if not isinstance(text, str):
            raise DataError("RTX", key, "text", "must be a string")
        for name, value in (("sample_rate_hz", sample_rate_hz), ("header_volume", header_volume)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise DataError("RTX", key, name, "must be an integer")
        bits = 16
        if pcm is not None:
            pcm = np.ascontiguousarray(pcm)
            if pcm.dtype not in (np.int16, np.uint8) or pcm.shape[0] == 0:
                raise DataError("RTX", key, "pcm", "must be non-empty int16 or uint8 samples")
            bits = 16 if pcm.dtype == np.int16 else 8
        if sample_rate_hz <= 0:
            raise DataError("RTX", key, "sample_rate_hz", "must be positive")
        frames = 0 if pcm is None else int(pcm.shape[0])
        channels = 1 if pcm is None or pcm.ndim == 1 else int(pcm.shape[1])
        clip = RtxClip(key, text, int(sample_rate_hz), bits, int(header_volume), frames,
                       channels, kept=pcm if self.sounds is None else None,
                       sounds=self.sounds, from_file=from_file)
        if pcm is not None and self.sounds is not None:
            register_pcm(self.sounds, clip.sound_name, pcm, bits, clip.sample_rate_hz)
        self._clips[key] = clip
        self._by_name[clip.sound_name] = clip
        return clip

    def unload(self, label: str) -> bool:
        """Let a line of the attached file go (its audio leaves the sound bank; the
        next ``find`` reads it again). Lines added in code stay, and so does a line
        some voice is still playing. True when it went."""
        key = file_label(label)
        clip = self._clips.get(key)
        if clip is None or not clip.from_file:
            return False
        if self.sounds is not None and clip.voiced:
            if clip.sound_name in self.sounds.in_use():
                return False
            self.sounds.remove(clip.sound_name)
        del self._clips[key]
        self._by_name.pop(clip.sound_name, None)
        return True

    def load_sound(self, sound_name: str) -> Any:
        """The sound bank's loader for ``rg.rtx.<label>``: a line of the attached file
        read (again) when a voice asks for its audio. None otherwise."""
        clip = self.find(sound_name[len(RTX_PREFIX):])
        if clip is None or not clip.voiced or self.sounds is None \
                or sound_name not in self.sounds:
            return None
        return self.sounds.get(sound_name)

    def load_toml(self, path: str | Path) -> None:
        """Load ``[[line]]`` tables: ``label``, ``text``, optional ``file`` (an 8- or
        16-bit PCM WAV inside the TOML file's folder; its rate is the clip's) and
        ``header_volume`` (the audio header byte 0x0C, default 100).

        Raises:
            DataError: naming the file, ``line[i]`` and the field.
        """
        path = Path(path)
        source = str(path)
        doc = read_toml(path, self.max_file_bytes)
        lines = doc.get("line", [])
        if not isinstance(lines, list):
            raise DataError(source, None, "line", "must be an array of tables")
        for position, entry in enumerate(lines):
            record = f"line[{position}]"
            if not isinstance(entry, dict):
                raise DataError(source, record, None, "must be a table")
            for key in ("label", "text"):
                if not isinstance(entry.get(key), str):
                    raise DataError(source, record, key, "must be a string")
            pcm, rate = None, 22050
            if "file" in entry:
                wav = data_path(path.parent, entry["file"], source, record, "file")
                pcm, rate = read_wav_pcm(wav, source, record, self.max_file_bytes)
            try:
                self.add(entry["label"], entry["text"], pcm, sample_rate_hz=rate,
                         header_volume=entry.get("header_volume", 100))
            except DataError as error:
                raise DataError(source, record, error.field, error.problem) from None

    def find(self, label: str) -> RtxClip | None:
        """The clip ``label`` (looked up lowercased), read from the attached file if new."""
        key = file_label(label)
        clip = self._clips.get(key)
        if clip is None and self.rtx is not None and key in self.rtx:
            clip = self._read(self.rtx, key)
        return clip

    def _read(self, rtx: RtxFile, key: str) -> RtxClip | None:
        """Line ``key`` from ENGLISH.RTX; a read that fails is logged once, then absent."""
        if key in self._refused:
            return None
        try:
            line = rtx.read(key)
            if line is None:
                return None
            if line.header is None:
                return self.add(key, line.text, from_file=True)
            return self.add(key, line.text, line.pcm, sample_rate_hz=line.header.sample_rate_hz,
                            header_volume=line.header.level, from_file=True)
        except DataError as error:
            self._refused.add(key)
            if self.events is not None:
                self.events.emit("redguard", "error", sound=key, reason="ENGLISH.RTX",
                                 error=str(error))
            return None

    def pcm_for(self, sound_name: str) -> tuple[np.ndarray, int] | None:
        clip = self._by_name.get(sound_name)
        pcm = clip.pcm if clip is not None else None
        return None if clip is None or pcm is None else (pcm, clip.sample_bits)


@dataclass(slots=True)
class RtxEntry:
    """One cache slot: label, payloads, used flag, age and remembered sample slot."""

    label: str | None = None
    text: str | None = None
    clip: RtxClip | None = None
    used: bool = False
    occupied: bool = False
    age: int = 0
    sample: int | None = None


class RtxCache:
    """The 20 cache slots (RTX initialisation: no payload, clear, no sample)."""

    def __init__(self, runtime: RedguardRuntime, store: RtxStore) -> None:
        self.rt, self.store = runtime, store
        self.entries = [RtxEntry() for _ in range(CACHE_ENTRIES)]

    def pcm_for(self, sound_name: str) -> tuple[np.ndarray, int] | None:
        return self.store.pcm_for(sound_name)

    def lookup(self, label: str) -> int | None:
        """The entry index for ``label``; None when the label is unknown or the cache is full."""
        for index, entry in enumerate(self.entries):
            if entry.label == label:
                entry.used, entry.age = True, ENTRY_AGE_TICKS
                return index
        free = next((i for i, e in enumerate(self.entries) if not e.used), None)
        if free is None:
            self.rt.events.emit("redguard", "error", sound=label, reason="rtx cache exhausted",
                                error=f"RTX cache: all {CACHE_ENTRIES} entries in use")
            return None
        clip = self.store.find(label)
        if clip is None:
            self.rt.events.emit("redguard", "rtx_missing", sound=label)
            return None
        entry = self.entries[free]
        entry.label, entry.text, entry.clip = label, clip.text, clip
        entry.used, entry.occupied, entry.age = True, True, ENTRY_AGE_TICKS
        self.rt.events.emit("redguard", "rtx_load", sound=label, entry=free)
        return free

    def speak(self, index: int) -> int | None:
        """Start a voiced entry with no remembered sample: pan 64, rate offset 0,
        volume clamp(header byte 0x0C), start index 0, then the shared index back to 6."""
        entry = self.entries[index]
        clip = entry.clip
        if clip is None or not clip.voiced or entry.sample is not None:
            return entry.sample
        volume = law.clamp(clip.header_volume, 0, law.VOLUME_MAX)
        rate = law.playback_rate(clip.sample_rate_hz, 0)
        entry.sample = self.rt.start_named(clip.sound_name, rate, volume, SPEECH_PAN,
                                           start_index=0, caller="RTX", bus="dialogue")
        return entry.sample

    def update(self, ticks: int) -> None:
        """The periodic cache update (after the dialogue-record stage)."""
        for entry in self.entries:
            if entry.sample is not None and self.rt.slot_playing(entry.sample):
                continue
            entry.sample = None
            if entry.used:
                entry.used, entry.age = False, ENTRY_AGE_TICKS
            elif entry.age < ticks:
                # no occupancy test: an entry the periodic reset emptied (label kept)
                # ages out and loses its label like any other
                self._release(entry)
            else:
                entry.age -= ticks

    def release(self, index: int) -> None:
        """Release one entry: text, audio, occupancy, label and remembered sample."""
        self._release(self.entries[index])

    def _release(self, entry: RtxEntry) -> None:
        if entry.label is not None or entry.occupied:  # releasing an empty slot is silent
            self.rt.events.emit("redguard", "rtx_release", sound=entry.label)
        self._drop_audio(entry)
        entry.text = entry.clip = entry.label = entry.sample = None
        entry.occupied = False

    def _drop_audio(self, entry: RtxEntry) -> None:
        """The entry's audio payload goes (a line of the attached file leaves the sound
        bank unless another entry or a voice still holds it)."""
        clip = entry.clip
        if clip is None or any(e.clip is clip for e in self.entries if e is not entry):
            return
        self.store.unload(clip.label)

    def release_payloads(self) -> None:
        """The periodic sound reset: text and audio released, occupancy cleared."""
        for entry in self.entries:
            self._drop_audio(entry)
            entry.text = entry.clip = None
            entry.occupied = False

    def full_reset(self) -> None:
        """Text first, a remembered sample stopped only at status 4, then audio,
        occupancy, sample and label (save restores)."""
        for entry in self.entries:
            entry.text = None
            if entry.sample is not None and self.rt.slot_playing(entry.sample):
                self.rt.stop_slot(entry.sample, "rtx reset")
            self._drop_audio(entry)
            entry.clip = None
            entry.occupied = False
            entry.sample = entry.label = None
