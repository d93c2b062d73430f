"""The Redguard effect bank (MAIN.SFX): effects with their header fields.

Each effect keeps its integer PCM (``pcm``: int16, or uint8 for 8-bit data) for
the Miles integer mixer and is registered in the sound bank as
``rg.sfx.<index>`` with float32 samples that are exactly ``s / 32768`` (``s``
in signed 16-bit units; 8-bit data as ``(u - 128) x 256``), so the mixer can
recover the integers with ``round(x * 32768)``. ``EffectBank.pcm_for(name)``
returns ``(pcm, sample_bits)`` for a registered name.

Banks load from TOML (``[[effect]]`` tables with ``index``, ``file`` (a WAV,
8- or 16-bit PCM, inside the TOML file's folder: ``datafile.data_path``),
``sample_rate_hz``, ``base_volume`` (default 64, the shipped value), ``loop_flag``),
are built in code with ``add``, or read the retail
MAIN.SFX lazily (``attach``: an effect's PCM is read the first time it is asked
for, ``soundscape.redguard.sfx_file``).
"""

from __future__ import annotations

from dataclasses import dataclass
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
    """One MAIN.SFX effect: header fields plus integer PCM.

    Attributes:
        index: the effect ID scripts use.
        sample_rate_hz: header sample rate (the start rate before the offset).
        base_volume: header base volume (FlatSound adds its volume to it).
        loop_flag: header loop flag; any non-zero value (0xFF, 0xE1) loops whole.
        pcm: int16 (16-bit) or uint8 (8-bit) samples, mono 1-D or (frames, 2).
        sample_bits: 16 or 8.
    """

    index: int
    sample_rate_hz: int
    base_volume: int
    loop_flag: int
    pcm: np.ndarray
    sample_bits: int

    @property
    def loops(self) -> bool:
        return self.loop_flag != 0

    @property
    def sound_name(self) -> str:
        return f"{SFX_PREFIX}{self.index}"


def pcm_to_float(pcm: np.ndarray, sample_bits: int) -> np.ndarray:
    """Integer PCM as float32 exactly ``s / 32768`` (s in signed 16-bit units)."""
    if sample_bits == 16:
        return pcm.astype(np.float32) / np.float32(32768.0)
    return (pcm.astype(np.float32) - np.float32(128.0)) / np.float32(128.0)


def register_pcm(sounds: Any, name: str, pcm: np.ndarray, bits: int, rate_hz: int) -> None:
    """Add ``pcm`` to the sound bank as exact floats, with the integers kept beside them.

    The sound bank keeps ``pcm``/``bits`` on the ``Sound`` for the mixer's Miles
    integer path; a bank without those slots gets the floats only.
    """
    samples = pcm_to_float(pcm, bits)
    try:
        sounds.add(name, samples, rate_hz, pcm=pcm, bits=bits)
    except TypeError:
        sounds.add(name, samples, rate_hz)


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
    ) -> Effect:
        """Register effect ``index`` with integer PCM (int16 or uint8) and header fields."""
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
        effect = Effect(index, int(sample_rate_hz), int(base_volume), int(loop_flag),
                        np.ascontiguousarray(data), bits)
        self._effects[index] = effect
        self._by_name[effect.sound_name] = effect
        self.count = max(self.count, index + 1)
        if self.sounds is not None:
            register_pcm(self.sounds, effect.sound_name, effect.pcm, bits, effect.sample_rate_hz)
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
                            loop_flag=header.loop_flag & 0xFF, source=sfx.source)
        except DataError as error:
            self._refused.add(index)
            if self.events is not None:
                self.events.emit("redguard", "error", sound=index, reason="MAIN.SFX",
                                 error=str(error))
            return None

    def pcm_for(self, sound_name: str) -> tuple[np.ndarray, int] | None:
        """``(pcm, sample_bits)`` of the effect registered as ``sound_name``."""
        effect = self._by_name.get(sound_name)
        return None if effect is None else (effect.pcm, effect.sample_bits)

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
