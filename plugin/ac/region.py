"""AC region data: terrain -> scene -> STB desc chain, ambient sound descs, sound tables.

The runtime walks ``terrain word -> (terrain type, scene index) ->
TerrainType.scene_types[scene index] -> SceneType.stb_index -> STB desc``
(``CRegionDesc::GetSTBDesc`` 0x4feab0, ``CTerrainDesc::GetSTBDesc`` 0x502400).
An STB desc names a sound table (``stb_id``) that is loaded lazily and released
when nobody used it (``AmbientSTBDesc::InitSoundTable`` 0x4fea60, with the
``stb_not_found`` negative cache). ``unpack_stb_desc`` reads the on-disk
``AmbientSTBDesc`` packing (``AmbientSTBDesc::UnPack`` 0x5518f0).

The readable TOML form is loaded by ``soundscape.ac.region_toml``.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field

from soundscape.ac.sound_types import SOUND_TYPE_NAMES
from soundscape.errors import DataError
from soundscape.laws.ac import decode_terrain_word, f32

NO_STB = 0xFFFFFFFF
"""A scene type's ``stb_index`` meaning "no ambient sounds" (region unpack 0x4ff746)."""
HEADER = struct.Struct("<II")
SOUND = struct.Struct("<Iffff")


@dataclass(slots=True)
class AmbientSoundDesc:
    """``AmbientSoundDesc``: one ambient of an STB desc (volume, chance, rates in seconds)."""

    stype: int
    volume: float
    base_chance: float
    min_rate_s: float
    max_rate_s: float

    @property
    def is_continuous(self) -> bool:
        """Derived at unpack, never stored: ``base_chance == 0.0f`` (0x5519a9)."""
        return self.base_chance == 0.0


@dataclass(slots=True)
class SoundTableEntry:
    """One ``SoundTableData`` entry: a sound-bank name, priority, probability, volume.

    ``volume`` is loaded but unused on the ambient paths (the ambient's own volume wins).
    """

    sound: str
    priority: int
    probability: float
    volume: float


@dataclass(slots=True)
class SoundTable:
    """A sound table (``CSoundTable``, DID type 0x22): entries by sound type."""

    table_id: int
    entries: dict[int, list[SoundTableEntry]] = field(default_factory=dict)


@dataclass(slots=True, eq=False)
class AmbientSTBDesc:
    """``AmbientSTBDesc``: a sound-table id, its ambients and the runtime load state.

    ``index`` is the desc's place in the region's list; ``sound_table`` is None
    until ``Region.init_sound_table`` loads it and again after a release;
    ``play_count`` counts audible sounds since the last reset.
    """

    stb_id: int
    ambient_sounds: list[AmbientSoundDesc]
    index: int = -1
    stb_not_found: bool = False
    sound_table: SoundTable | None = None
    play_count: int = 0


@dataclass(slots=True)
class Region:
    """The parts of ``CRegionDesc`` the ambient runtime reads.

    Attributes:
        terrain_scenes: per terrain type, its scene-type indices (``TerrainType.SceneTypes``).
        scene_stb: per scene type, its STB index (``NO_STB`` for none).
        stb_descs: ``SoundDesc.STBDesc``.
        sound_tables: loadable sound tables by DID (what ``DBObj::Get`` finds).
        source: the file (or "<dict>") the region came from, for messages.
    """

    terrain_scenes: list[list[int]]
    scene_stb: list[int]
    stb_descs: list[AmbientSTBDesc]
    sound_tables: dict[int, SoundTable]
    source: str = "<region>"

    def __post_init__(self) -> None:
        for index, desc in enumerate(self.stb_descs):
            desc.index = index

    def num_scene_type(self, terrain_type: int) -> int:
        """``CTerrainDesc::NumSceneType`` 0x502430 (0 for an unknown terrain type)."""
        if 0 <= terrain_type < len(self.terrain_scenes):
            return len(self.terrain_scenes[terrain_type])
        return 0

    def stb_index(self, terrain_word: int) -> int:
        """The STB desc index a terrain word selects, or -1 (every out-of-range step skips).

        >>> r = Region([[0]], [0], [AmbientSTBDesc(1, [])], {})
        >>> r.stb_index(0), r.stb_index(1 << 11), r.stb_index(1 << 2)
        (0, -1, -1)
        """
        terrain_type, scene = decode_terrain_word(terrain_word)
        if scene >= self.num_scene_type(terrain_type):
            return -1
        scene_type = self.terrain_scenes[terrain_type][scene]
        if not 0 <= scene_type < len(self.scene_stb):
            return -1
        stb = self.scene_stb[scene_type]
        return -1 if stb == NO_STB or not 0 <= stb < len(self.stb_descs) else stb

    def init_sound_table(self, desc: AmbientSTBDesc) -> bool:
        """``AmbientSTBDesc::InitSoundTable`` 0x4fea60: load the table or cache the miss.

        A missing table sets ``stb_not_found`` and is never looked up again.
        """
        if desc.stb_not_found or desc.stb_id == NO_STB:
            return False
        table = self.sound_tables.get(desc.stb_id)
        if table is None:
            desc.stb_not_found = True
            return False
        desc.sound_table = table
        return True


def _desc_fields(desc: AmbientSoundDesc, source: str, record: str) -> None:
    if not 0 <= desc.stype < len(SOUND_TYPE_NAMES):
        raise DataError(source, record, "stype", f"unknown sound type {desc.stype:#x}")
    for name in ("volume", "base_chance", "min_rate_s", "max_rate_s"):
        value = getattr(desc, name)
        if not math.isfinite(value):
            raise DataError(source, record, name, f"must be finite, got {value!r}")
        if value < 0.0:
            raise DataError(source, record, name, f"must not be negative, got {value!r}")


def validate_sound_desc(desc: AmbientSoundDesc, source: str, record: str) -> AmbientSoundDesc:
    """Check a sound desc (known sound type; finite, non-negative volume, chance and rates).

    Values are rounded to float32 (the fields are floats in retail).
    """
    _desc_fields(desc, source, record)
    desc.volume, desc.base_chance = f32(desc.volume), f32(desc.base_chance)
    desc.min_rate_s, desc.max_rate_s = f32(desc.min_rate_s), f32(desc.max_rate_s)
    _desc_fields(desc, source, record)  # float32 rounding can overflow to infinity
    return desc


def unpack_stb_desc_from(
    data: bytes, offset: int = 0, source: str = "<bytes>", record: str = "stb"
) -> tuple[AmbientSTBDesc, int]:
    """``AmbientSTBDesc::UnPack`` 0x5518f0 at ``offset``; returns the desc and the next offset.

    Layout: ``uint32 stb_id, uint32 count, count x {uint32 stype, float volume,
    float base_chance, float min_rate, float max_rate}`` (little-endian,
    ``pack_size = 8 + 20 * count``). ``is_continuous`` is derived.
    """
    view = memoryview(data)
    if isinstance(offset, bool) or not isinstance(offset, int) or not 0 <= offset <= len(view):
        raise DataError(source, record, "offset",
                        f"{offset!r} is outside the data's 0..{len(view)} bytes")
    if len(view) - offset < HEADER.size:
        raise DataError(source, record, "header", f"truncated: {len(view) - offset} bytes, need 8")
    stb_id, count = HEADER.unpack_from(view, offset)
    need = HEADER.size + SOUND.size * count
    if len(view) - offset < need:
        raise DataError(
            source, record, "ambient_sounds",
            f"truncated: {count} sounds need {need} bytes, {len(view) - offset} left",
        )
    sounds = []
    at = offset + HEADER.size
    for i in range(count):
        stype, volume, chance, min_rate, max_rate = SOUND.unpack_from(view, at)
        sound = AmbientSoundDesc(stype, volume, chance, min_rate, max_rate)
        sounds.append(validate_sound_desc(sound, source, f"{record}.ambient_sounds[{i}]"))
        at += SOUND.size
    return AmbientSTBDesc(stb_id, sounds), at


def unpack_stb_desc(data: bytes, source: str = "<bytes>", record: str = "stb") -> AmbientSTBDesc:
    """One packed ``AmbientSTBDesc`` that must fill ``data`` exactly (truncated or oversized
    bytes are a ``DataError``).

    >>> packed = pack_stb_desc(AmbientSTBDesc(7, [AmbientSoundDesc(70, 0.5, 0.0, 2, 2)]))
    >>> desc = unpack_stb_desc(packed)
    >>> desc.stb_id, desc.ambient_sounds[0].is_continuous
    (7, True)
    """
    desc, end = unpack_stb_desc_from(data, 0, source, record)
    if end != len(data):
        raise DataError(
            source, record, "pack_size",
            f"oversized: {len(data)} bytes, the desc packs into {end}",
        )
    return desc


def pack_stb_desc(desc: AmbientSTBDesc) -> bytes:
    """The on-disk packing of ``desc`` (``is_continuous`` is not stored)."""
    parts = [HEADER.pack(desc.stb_id, len(desc.ambient_sounds))]
    for s in desc.ambient_sounds:
        parts.append(SOUND.pack(s.stype, s.volume, s.base_chance, s.min_rate_s, s.max_rate_s))
    return b"".join(parts)
