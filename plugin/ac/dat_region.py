"""The Region (``CRegionDesc``, portal file 0x13000000) as the ambient runtime needs it.

``parse_region`` follows ``CRegionDesc::UnPack`` 0x4FF440 (``Mag-nus/acclient-AI-RE``
``2013-09 11.4186/acclient-src/src/PORTAL/cregion/CRegionDesc.c``) and cross-checks
against ``ACEmulator/ACE`` ``Source/ACE.DatLoader/FileTypes/RegionDesc.cs`` (with
``Entity/LandDefs.cs``, ``GameTime.cs``, ``TimeOfDay.cs``, ``Season.cs``,
``SkyDesc.cs``, ``DayGroup.cs``, ``SkyObject.cs``, ``SkyTimeOfDay.cs``,
``SkyObjectReplace.cs``, ``SoundDesc.cs``, ``AmbientSTBDesc.cs``,
``AmbientSoundDesc.cs``, ``SceneDesc.cs``, ``SceneType.cs``, ``TerrainDesc.cs``,
``TerrainType.cs``) and ``Chorizite/DatReaderWriter`` ``DatReaderWriter/dats.xml``
(``Region`` and the types it names)::

    uint32 id (0x13000000), uint32 region_number, uint32 version (3: retail refuses
        any other), PString name
    LandDefs: 8 x 4 bytes (block counts, square length ...: retail skips them and
        uses its constants), float land_height_table[256]  (LandDefs::set_height_table)
    GameTime (GameTime::UnPack 0x5A6EC0): double, uint32, float, uint32, PString,
        n x {float, uint32, PString}, n x PString, n x {uint32, PString}
    uint32 parts_mask
    0x10: SkyDesc (0x501CD0): double, double, n x DayGroup {float, PString,
          n x SkyObject (9 x 4 bytes), n x SkyTimeOfDay (11 x 4 bytes,
          n x SkyObjectReplace (6 x 4 bytes))}
    0x01: SoundDesc (CSoundDesc::UnPack 0x5028D0): n x AmbientSTBDesc
          (AmbientSTBDesc::UnPack 0x5518F0: uint32 stb_id, n x 20-byte sound descs)
    0x02: SceneDesc: n x {uint32 stb_index (0xFFFFFFFF: none), n x uint32 scene id}
          (CSceneType::unpack 0x5032C0)
    TerrainDesc: n x {PString name, uint32 colour, n x uint32 scene-type index
          (0xFFFFFFFF: none)}, then LandSurf and (0x200) RegionMisc, not read here.

Retail resolves the indices to pointers while unpacking, with no range check: a
scene type's ``stb_index`` into the sound desc, a terrain type's scene index into
the scene desc. An index out of range (other than 0xFFFFFFFF) would read outside
the array there; here it is a ``DataError``. The walk the runtime then does
(seed 000 section 9, ``CTerrainDesc::GetSTBDesc`` 0x502400) is ``Region.stb_index``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from soundscape.ac.dat_object import DatCursor, DatObject
from soundscape.ac.region import (
    NO_STB,
    SOUND,
    AmbientSoundDesc,
    AmbientSTBDesc,
    Region,
    SoundTable,
    validate_sound_desc,
)

REGION_ID = 0x13000000
REGION_VERSION = 3
"""``CRegionDesc::UnPack`` refuses any other version ("The data files have a more
recent version than the executable", or the reverse)."""
HAS_SOUND = 0x01
HAS_SCENE = 0x02
HAS_SKY = 0x10
HAS_MISC = 0x200
HEIGHT_TABLE = 256
LAND_DEFS_WORDS = 8
SKY_OBJECT_WORDS = 9
SKY_TIME_WORDS = 11
SKY_REPLACE_WORDS = 6


@dataclass(slots=True)
class DatRegion:
    """What was read of the Region: the runtime's ``Region`` and the land height table."""

    region: Region
    region_number: int
    name: str
    parts_mask: int
    land_height_m: tuple[float, ...]
    land_defs_words: tuple[int, ...]
    terrain_names: list[str] = field(default_factory=list)


def _game_time(c: DatCursor) -> None:
    """``GameTime::UnPack`` 0x5A6EC0 (read past: the ambient runtime has no time of day)."""
    c.f64("game_time.zero_time_of_year")
    c.u32s(3, "game_time.zero_year/day_length/days_per_year")
    c.pstring("game_time.year_spec")
    for i in range(c.count("game_time.times_of_day", 10)):
        c.u32s(2, f"game_time.times_of_day[{i}]")  # TimeOfDay::UnPack 0x5A6DD0
        c.pstring(f"game_time.times_of_day[{i}].name")
    for i in range(c.count("game_time.days_of_week", 4)):
        c.pstring(f"game_time.days_of_week[{i}]")  # WeekDay::UnPack 0x5A6D60
    for i in range(c.count("game_time.seasons", 8)):
        c.u32(f"game_time.seasons[{i}].begin")  # Season::UnPack 0x5A6CE0
        c.pstring(f"game_time.seasons[{i}].name")


def _sky(c: DatCursor) -> None:
    """``SkyDesc::UnPack`` 0x501CD0 and ``DayGroup::UnPack`` 0x501A70 (read past)."""
    c.f64("sky.tick_size")
    c.f64("sky.light_tick_size")
    c.align()
    for g in range(c.count("sky.day_groups", 12)):
        rec = f"sky.day_groups[{g}]"
        c.u32(f"{rec}.chance_of_occur")
        c.pstring(f"{rec}.name")
        for i in range(c.count(f"{rec}.sky_objects", 4 * SKY_OBJECT_WORDS)):
            c.u32s(SKY_OBJECT_WORDS, f"{rec}.sky_objects[{i}]")  # SkyObject::UnPack 0x500FD0
        for i in range(c.count(f"{rec}.sky_time", 4 * SKY_TIME_WORDS + 4)):
            c.u32s(SKY_TIME_WORDS, f"{rec}.sky_time[{i}]")  # SkyTimeOfDay::UnPack 0x5015B0
            replaces = c.count(f"{rec}.sky_time[{i}].replaces", 4 * SKY_REPLACE_WORDS)
            c.u32s(SKY_REPLACE_WORDS * replaces, f"{rec}.sky_time[{i}].replaces")


def _sound(c: DatCursor) -> list[AmbientSTBDesc]:
    """``CSoundDesc::UnPack`` 0x5028D0: the STB descs, each as ``AmbientSTBDesc::UnPack``."""
    descs = []
    for i in range(c.count("sound.stb", 8)):
        rec = f"sound.stb[{i}]"
        stb_id = c.u32(f"{rec}.stb_id")
        sounds = []
        for j in range(c.count(f"{rec}.ambient_sounds", SOUND.size)):
            at = c.pos
            stype, volume, chance, min_rate, max_rate = SOUND.unpack(
                c.take(SOUND.size, f"{rec}.ambient_sounds[{j}]"))
            desc = AmbientSoundDesc(stype, volume, chance, min_rate, max_rate)
            sounds.append(validate_sound_desc(desc, c.obj.source,
                                              f"{c.obj.where(at)}.{rec}.ambient_sounds[{j}]"))
        descs.append(AmbientSTBDesc(stb_id, sounds))
    return descs


def _scenes(c: DatCursor, stb_count: int) -> list[int]:
    """The scene types' STB indices (``CRegionDesc::UnPack``'s scene loop, 0x4FF440)."""
    out = []
    for i in range(c.count("scene", 8)):
        at = c.pos
        stb = c.u32(f"scene[{i}].stb_index")
        if stb != NO_STB and stb >= stb_count:
            raise c.fail(f"scene[{i}].stb_index",
                         f"{stb} names an STB desc; the sound desc has {stb_count}", at)
        out.append(stb)
        scenes = c.count(f"scene[{i}].scenes", 4)
        c.u32s(scenes, f"scene[{i}].scenes")
    return out


def _terrain(c: DatCursor, scene_count: int) -> tuple[list[list[int]], list[str]]:
    """The terrain types' names and scene-type lists (``CTerrainType``)."""
    scenes_out, names = [], []
    for i in range(c.count("terrain", 10)):
        names.append(c.pstring(f"terrain[{i}].name"))
        c.u32(f"terrain[{i}].color")
        scenes = []
        for j in range(c.count(f"terrain[{i}].scene_types", 4)):
            at = c.pos
            index = c.u32(f"terrain[{i}].scene_types[{j}]")
            if index != NO_STB and index >= scene_count:
                raise c.fail(f"terrain[{i}].scene_types[{j}]",
                             f"{index} names a scene type; the scene desc has {scene_count}",
                             at)
            scenes.append(index)  # NO_STB (a null scene type) selects nothing in stb_index
        scenes_out.append(scenes)
    return scenes_out, names


def parse_region(obj: DatObject, sound_tables: dict[int, SoundTable] | None = None) -> DatRegion:
    """The Region in ``obj`` (portal file 0x13000000).

    Args:
        obj: the Region's bytes.
        sound_tables: what ``Region.init_sound_table`` will find (the lazy portal
            tables of ``soundscape.ac.dat_sound``); default none.

    Raises:
        DataError: naming the dat file, the offset and the field.
    """
    c = DatCursor(obj)
    c.object_id()
    number = c.u32("region_number")
    at = c.pos
    version = c.u32("version")
    if version != REGION_VERSION:
        raise c.fail("version", f"{version}; the retail client reads only version "
                     f"{REGION_VERSION}", at)
    name = c.pstring("name")
    land_defs = c.u32s(LAND_DEFS_WORDS, "land_defs")
    heights = tuple(c.finite_f32(f"land_height_table[{i}]") for i in range(HEIGHT_TABLE))
    _game_time(c)
    mask = c.u32("parts_mask")
    if mask & HAS_SKY:
        _sky(c)
    stb = _sound(c) if mask & HAS_SOUND else []
    scene_stb = _scenes(c, len(stb)) if mask & HAS_SCENE else []
    terrain, names = _terrain(c, len(scene_stb))
    region = Region(terrain, scene_stb, stb, sound_tables if sound_tables is not None else {},
                    f"{obj.source}:0x{obj.file_id:08X}")
    return DatRegion(region, number, name, mask, heights, land_defs, names)


__all__ = ["DatRegion", "REGION_ID", "parse_region"]
