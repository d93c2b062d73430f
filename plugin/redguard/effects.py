"""The Redguard effect bank (MAIN.SFX): effects with their header fields.

Each effect's integer PCM (int16, or uint8 for 8-bit data) for the Miles
integer mixer is kept once. With a sound bank it lives there, registered as
``rg.sfx.<index>`` (``SoundBank.add_pcm``: float32 samples that are exactly
``s / 32768``, ``s`` in signed 16-bit units, 8-bit data as ``(u - 128) x 256``,
so the integers come back exactly); the ``Effect`` keeps its header fields and
gives the integers back on demand (``Effect.pcm``). Without a sound bank the
``Effect`` keeps the integer array itself. ``EffectBank.pcm_for(name)`` returns
``(pcm, sample_bits)`` for a registered name.

An effect read from an attached MAIN.SFX may be unloaded from the sound bank
(``SoundBank.unload_unused``): it is read from the file again when next played
(the bank's loader for ``rg.sfx.``).

Banks load from TOML (``[[effect]]`` tables with ``index``, ``file`` (a WAV,
8- or 16-bit PCM, inside the TOML file's folder: ``datafile.data_path``),
``sample_rate_hz``, ``base_volume`` (default 64, the shipped value), ``loop_flag``),
are built in code with ``add``, or read the retail
MAIN.SFX lazily (``attach``: an effect's PCM is read the first time it is asked
for, ``soundscape.redguard.sfx_file``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from soundscape.audio.wav import read_wav
from soundscape.datafile import MAX_FILE_BYTES, data_path, read_toml
from soundscape.errors import DataError

if TYPE_CHECKING:
    from soundscape.redguard.sfx_file import SfxFile

SFX_PREFIX = "rg.sfx."
SHIPPED_BASE_VOLUME = 64
"""Header byte 0x0C, the base volume FlatSound adds to: 64 in all 118 shipped effects
(michidk/redguard-preservation ``docs/formats/SFX.md``), so ``FlatSound(e, 0, 0)`` plays at 64."""


@dataclass(frozen=True, slots=True)
class Effect:
    """One MAIN.SFX effect: header fields and its integer PCM (kept once).

    Attributes:
        index: the effect ID scripts use.
        sample_rate_hz: header sample rate (the start rate before the offset).
        base_volume: header base volume (FlatSound adds its volume to it).
        loop_flag: header loop flag; any non-zero value (0xFF, 0xE1) loops whole.
        sample_bits: 16 or 8.
        frames, channels: the PCM's shape.
        kept: the integer PCM when no sound bank holds it (else None).
        sounds: the sound bank holding it as ``sound_name`` (else None).
    """

    index: int
    sample_rate_hz: int
    base_volume: int
    loop_flag: int
    sample_bits: int
    frames: int
    channels: int
    kept: np.ndarray | None = field(default=None, compare=False, repr=False)
    sounds: Any = field(default=None, compare=False, repr=False)

    @property
    def loops(self) -> bool:
        return self.loop_flag != 0

    @property
    def sound_name(self) -> str:
        return f"{SFX_PREFIX}{self.index}"

    @property
    def pcm(self) -> np.ndarray | None:
        """int16 (16-bit) or uint8 (8-bit) samples, mono 1-D or (frames, 2): the kept
        array, or the sound bank's copy turned back into integers (exact)."""
        if self.kept is not None:
            return self.kept
        return bank_pcm(self.sounds, self.sound_name)


def bank_pcm(sounds: Any, name: str) -> np.ndarray | None:
    """The integer PCM of ``name`` in ``sounds`` (mono as 1-D), or None."""
    sound = sounds.get(name) if sounds is not None else None
    pcm = sound.pcm if sound is not None else None
    if pcm is None:
        return None
    return pcm[:, 0] if pcm.shape[1] == 1 else pcm


def pcm_to_float(pcm: np.ndarray, sample_bits: int) -> np.ndarray:
    """Integer PCM as float32 exactly ``s / 32768`` (s in signed 16-bit units)."""
    if sample_bits == 16:
        return pcm.astype(np.float32) / np.float32(32768.0)
    return (pcm.astype(np.float32) - np.float32(128.0)) / np.float32(128.0)


def register_pcm(sounds: Any, name: str, pcm: np.ndarray, bits: int, rate_hz: int) -> Any:
    """Hand ``pcm`` to the sound bank: its one copy, exact floats (``SoundBank.add_pcm``);
    a bank without ``add_pcm`` gets the floats. Returns the bank's sound."""
    add_pcm = getattr(sounds, "add_pcm", None)
    if add_pcm is not None:
        return add_pcm(name, pcm, rate_hz)
    return sounds.add(name, pcm_to_float(pcm, bits), rate_hz)


class EffectBank:
    """MAIN.SFX: effects by index; ``count`` is the number of effects (118 shipped).

    An index below zero or at or beyond ``count`` starts nothing; an index inside
    the range with no data (a bank built sparsely) also starts nothing.
    """

    def __init__(self, sounds: Any = None, count: int = 0, events: Any = None,
                 max_file_bytes: int | None = MAX_FILE_BYTES) -> None:
        self.sounds = sounds
        self.events = events
        self.max_file_bytes = max_file_bytes
        """The largest TOML or WAV file ``load_toml`` reads (``Settings.max_file_bytes``)."""
        self.count = int(count)
        self._effects: dict[int, Effect] = {}
        self._by_name: dict[str, Effect] = {}
        self.sfx: SfxFile | None = None
        """The attached MAIN.SFX (``attach``), read as effects are first asked for."""
        self._refused: set[int] = set()

    def attach(self, sfx: SfxFile) -> None:
        """Play the effects of a retail MAIN.SFX: ``count`` becomes its effect count and
        each effect's PCM is read the first time ``get`` asks for it (then kept).

        Effects already added keep their data; an index the file has is read from it.
        """
        self.sfx = sfx
        self.count = sfx.count
        self._refused.clear()
        loaders = getattr(self.sounds, "loaders", None)
        if loaders is not None:
            loaders[SFX_PREFIX] = self.load_sound
        for index in [i for i in self._effects if i < sfx.count]:
            del self._by_name[self._effects.pop(index).sound_name]

    def add(
        self,
        index: int,
        pcm: np.ndarray,
        sample_rate_hz: int,
        *,
        base_volume: int = SHIPPED_BASE_VOLUME,
        loop_flag: int = 0,
        source: str = "effect bank",
        from_file: bool = False,
    ) -> Effect:
        """Register effect ``index`` with integer PCM (int16 or uint8) and header fields.

        ``from_file``: read from the attached MAIN.SFX (it can be read again, so the
        sound bank may unload it)."""
        record = f"effect[{index}]"
        if isinstance(index, bool) or not isinstance(index, int) or index < 0:
            raise DataError(source, record, "index", "must be a non-negative integer")
        data = np.asarray(pcm)
        if data.dtype == np.int16:
            bits = 16
        elif data.dtype == np.uint8:
            bits = 8
        else:
            raise DataError(source, record, "pcm", f"must be int16 or uint8, not {data.dtype}")
        if data.ndim not in (1, 2) or (data.ndim == 2 and data.shape[1] not in (1, 2)):
            raise DataError(source, record, "pcm", "must be mono or stereo frames")
        if data.shape[0] == 0:
            raise DataError(source, record, "pcm", "has no frames")
        for name, value in (("sample_rate_hz", sample_rate_hz), ("base_volume", base_volume),
                            ("loop_flag", loop_flag)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise DataError(source, record, name, "must be an integer")
        if not 0 < int(sample_rate_hz) <= 0x7FFFFFFF:
            raise DataError(source, record, "sample_rate_hz", "must be positive")
        data = np.ascontiguousarray(data)
        channels = 1 if data.ndim == 1 else int(data.shape[1])
        effect = Effect(index, int(sample_rate_hz), int(base_volume), int(loop_flag), bits,
                        int(data.shape[0]), channels,
                        kept=data if self.sounds is None else None, sounds=self.sounds)
        if self.sounds is not None:
            sound = register_pcm(self.sounds, effect.sound_name, data, bits,
                                 effect.sample_rate_hz)
            if hasattr(sound, "reloadable"):
                sound.reloadable = from_file  # unload_unused may drop it: read again
        self._effects[index] = effect
        self._by_name[effect.sound_name] = effect
        self.count = max(self.count, index + 1)
        return effect

    def get(self, index: int) -> Effect | None:
        """The effect ``index`` or None when it is out of range or absent."""
        if index < 0 or index >= self.count:
            return None
        effect = self._effects.get(index)
        if effect is None and self.sfx is not None and index < self.sfx.count:
            effect = self._read(self.sfx, index)
        return effect

    def _read(self, sfx: SfxFile, index: int) -> Effect | None:
        """Effect ``index`` from MAIN.SFX; a read that fails is logged once, then silent."""
        if index in self._refused:
            return None
        header = sfx.entries[index].header
        try:
            pcm = sfx.read_pcm(index)
            return self.add(index, pcm, header.sample_rate_hz, base_volume=header.level,
                            loop_flag=header.loop_flag & 0xFF, source=sfx.source,
                            from_file=True)
        except DataError as error:
            self._refused.add(index)
            if self.events is not None:
                self.events.emit("redguard", "error", sound=index, reason="MAIN.SFX",
                                 error=str(error))
            return None

    def pcm_for(self, sound_name: str) -> tuple[np.ndarray, int] | None:
        """``(pcm, sample_bits)`` of the effect registered as ``sound_name``."""
        effect = self._by_name.get(sound_name)
        pcm = effect.pcm if effect is not None else None
        return None if effect is None or pcm is None else (pcm, effect.sample_bits)

    def load_sound(self, sound_name: str) -> Any:
        """The sound bank's loader for ``rg.sfx.<index>``: an effect of the attached
        MAIN.SFX that was unloaded (or never read) is read again. None otherwise."""
        suffix = sound_name[len(SFX_PREFIX):]
        if self.sfx is None or not suffix.isdigit():
            return None
        index = int(suffix)
        effect = self._effects.get(index)
        if effect is not None and effect.kept is None and self.sounds is not None \
                and sound_name in self.sounds:
            return self.sounds.get(sound_name)
        if index >= self.sfx.count:
            return None
        self._effects.pop(index, None)
        self._by_name.pop(sound_name, None)
        effect = self._read(self.sfx, index)
        return None if effect is None else self.sounds.get(sound_name)

    def __len__(self) -> int:
        return self.count

    def load_toml(self, path: str | Path) -> None:
        """Load ``[[effect]]`` tables from a TOML file; WAV paths resolve inside its folder.

        Raises:
            DataError: naming the file, ``effect[i]`` and the field (a ``file`` that
                leaves the folder, is not a regular file or is over the size cap too).
        """
        path = Path(path)
        source = str(path)
        doc = read_toml(path, self.max_file_bytes)
        if "count" in doc:
            count = doc["count"]
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise DataError(source, None, "count", "must be a non-negative integer")
            self.count = max(self.count, count)
        entries = doc.get("effect", [])
        if not isinstance(entries, list):
            raise DataError(source, None, "effect", "must be an array of tables")
        for position, entry in enumerate(entries):
            self._load_entry(source, path.parent, position, entry)

    def _load_entry(self, source: str, root: Path, position: int, entry: Any) -> None:
        record = f"effect[{position}]"
        if not isinstance(entry, dict):
            raise DataError(source, record, None, "must be a table")
        for key in ("index", "file"):
            if key not in entry:
                raise DataError(source, record, key, "is missing")
        for key in ("index", "base_volume", "loop_flag", "sample_rate_hz"):
            value = entry.get(key, 0)
            if isinstance(value, bool) or not isinstance(value, int):
                raise DataError(source, record, key, "must be an integer")
        wav = data_path(root, entry["file"], source, record, "file")
        pcm, rate = read_wav_pcm(wav, source, record, self.max_file_bytes)
        self.add(entry["index"], pcm, entry.get("sample_rate_hz") or rate,
                 base_volume=entry.get("base_volume", SHIPPED_BASE_VOLUME),
                 loop_flag=entry.get("loop_flag", 0),
                 source=source)


def read_wav_pcm(path: Path, source: str, record: str,
                 max_bytes: int | None = MAX_FILE_BYTES) -> tuple[np.ndarray, int]:
    """8- or 16-bit PCM frames of a WAV file (uint8 or int16; mono 1-D) and its rate.

    Decoded by ``soundscape.audio.wav`` (plain or extensible headers); the Miles path
    needs the integer samples, so float or 24/32-bit files are refused.
    """
    try:
        decoded = read_wav(path, max_bytes)
    except DataError as error:
        raise DataError(source, record, "file", f"cannot read {path}: {error}") from None
    if decoded.pcm is None:
        raise DataError(source, record, "file", f"{path}: only 8/16-bit mono or stereo PCM")
    pcm = decoded.pcm
    return (pcm[:, 0] if pcm.shape[1] == 1 else pcm), decoded.sample_rate_hz
