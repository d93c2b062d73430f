"""Readable AC region data: the TOML schema and its loader.

Schema (every list is in index order; an index is a position in its list)::

    [[terrain]]                 # terrain type 0, 1, ... (5-bit field: at most 32)
    name = "grass"              # optional
    scenes = [0, 1]             # scene-type indices: TerrainType.SceneTypes

    [[scene]]                   # scene type 0, 1, ...
    name = "meadow"             # optional
    stb = 0                     # index into [[stb]]; omit, -1 or 0xFFFFFFFF: none

    [[stb]]                     # SoundDesc.STBDesc 0, 1, ...
    id = 0x20000001             # the sound table's DID
    packed = "meadow.stb"       # optional: read the desc from its on-disk packing instead
                                # (a file inside the region file's folder)
    [[stb.sounds]]              # AmbientSoundDesc
    stype = "Ambient1"          # SoundType name or number
    volume = 0.6
    base_chance = 0.0           # 0: constant (continuous); else intermittent
    min_rate = 4.0              # seconds
    max_rate = 4.0

    [[sound_table]]             # a loadable sound table
    id = 0x20000001
    [[sound_table.entry]]       # grouped by stype in file order
    stype = "Ambient1"
    sound = "wind"              # sound-bank name
    priority = 1
    probability = 1.0
    volume = 1.0

Every error is a ``DataError`` naming the file, the record (``stb[2].sounds[0]``)
and the field.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from soundscape.ac.region import (
    NO_STB,
    AmbientSoundDesc,
    AmbientSTBDesc,
    Region,
    SoundTable,
    SoundTableEntry,
    unpack_stb_desc,
    validate_sound_desc,
)
from soundscape.ac.sound_types import parse_sound_type
from soundscape.datafile import MAX_FILE_BYTES, data_path, read_file, read_toml
from soundscape.errors import DataError
from soundscape.laws.ac import f32

MAX_TERRAIN_TYPES = 32
"""The terrain type is a 5-bit field of the terrain word."""


class _Reader:
    """Field access with errors that name the file, the record and the field."""

    def __init__(self, source: str, base: Path | None,
                 max_bytes: int | None = MAX_FILE_BYTES) -> None:
        self.source, self.base, self.max_bytes = source, base, max_bytes

    def fail(self, record: str | None, name: str | None, problem: str) -> DataError:
        return DataError(self.source, record, name, problem)

    def table(self, value: Any, record: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(record, None, f"must be a table, got {type(value).__name__}")
        return value

    def keys(self, table: Mapping[str, Any], record: str, allowed: set[str]) -> None:
        for key in table:
            if key not in allowed:
                raise self.fail(record, str(key), f"unknown field; allowed: {sorted(allowed)}")

    def tables(self, doc: Mapping[str, Any], record: str | None, name: str) -> list[Any]:
        value = doc.get(name, [])
        if not isinstance(value, list):
            raise self.fail(record, name, "must be an array of tables")
        where = f"{record}.{name}" if record else name
        return [self.table(item, f"{where}[{i}]") for i, item in enumerate(value)]

    def integer(self, table: Mapping[str, Any], record: str, name: str, lo: int, hi: int) -> int:
        if name not in table:
            raise self.fail(record, name, "missing")
        value = table[name]
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(record, name, f"must be an integer, got {value!r}")
        if not lo <= value <= hi:
            raise self.fail(record, name, f"{value} is outside {lo}..{hi}")
        return value

    def number(self, table: Mapping[str, Any], record: str, name: str) -> float:
        if name not in table:
            raise self.fail(record, name, "missing")
        value = table[name]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(record, name, f"must be a number, got {value!r}")
        value = float(value)
        if not math.isfinite(value):
            raise self.fail(record, name, f"must be finite, got {value!r}")
        if value < 0.0:
            raise self.fail(record, name, f"must not be negative, got {value!r}")
        return value

    def stype(self, table: Mapping[str, Any], record: str) -> int:
        if "stype" not in table:
            raise self.fail(record, "stype", "missing")
        stype = parse_sound_type(table["stype"])
        if stype is None:
            raise self.fail(record, "stype", f"unknown sound type {table['stype']!r}")
        return stype


def _terrain(r: _Reader, doc: Mapping[str, Any]) -> list[list[int]]:
    items = r.tables(doc, None, "terrain")
    if len(items) > MAX_TERRAIN_TYPES:
        raise r.fail("terrain", None, f"{len(items)} terrain types; the 5-bit field allows 32")
    out = []
    for i, item in enumerate(items):
        rec = f"terrain[{i}]"
        r.keys(item, rec, {"name", "scenes"})
        scenes = item.get("scenes", [])
        if not isinstance(scenes, list):
            raise r.fail(rec, "scenes", "must be a list of scene-type indices")
        for j, s in enumerate(scenes):
            if isinstance(s, bool) or not isinstance(s, int) or s < 0:
                raise r.fail(rec, f"scenes[{j}]", f"must be a non-negative integer, got {s!r}")
        out.append(list(scenes))
    return out


def _scenes(r: _Reader, doc: Mapping[str, Any], stb_count: int) -> list[int]:
    out = []
    for i, item in enumerate(r.tables(doc, None, "scene")):
        rec = f"scene[{i}]"
        r.keys(item, rec, {"name", "stb"})
        stb = item.get("stb", -1)
        if not isinstance(stb, bool) and stb in (-1, NO_STB):
            out.append(NO_STB)
        elif stb_count == 0:
            raise r.fail(rec, "stb", f"{stb!r} names an STB desc but the region has none")
        else:
            out.append(r.integer(item, rec, "stb", 0, stb_count - 1))
    return out


def _stb(r: _Reader, doc: Mapping[str, Any]) -> list[AmbientSTBDesc]:
    out = []
    for i, item in enumerate(r.tables(doc, None, "stb")):
        rec = f"stb[{i}]"
        r.keys(item, rec, {"id", "sounds", "packed", "name"})
        if "packed" in item:
            out.append(_packed(r, item, rec))
            continue
        stb_id = r.integer(item, rec, "id", 0, NO_STB)
        sounds = []
        for j, s in enumerate(r.tables(item, rec, "sounds")):
            srec = f"{rec}.sounds[{j}]"
            r.keys(s, srec, {"stype", "volume", "base_chance", "min_rate", "max_rate"})
            desc = AmbientSoundDesc(
                r.stype(s, srec), r.number(s, srec, "volume"), r.number(s, srec, "base_chance"),
                r.number(s, srec, "min_rate"), r.number(s, srec, "max_rate"),
            )
            sounds.append(validate_sound_desc(desc, r.source, srec))
        out.append(AmbientSTBDesc(stb_id, sounds))
    return out


def _packed(r: _Reader, item: Mapping[str, Any], rec: str) -> AmbientSTBDesc:
    name = item["packed"]
    if not isinstance(name, str) or not name:
        raise r.fail(rec, "packed", "must be a file name")
    if r.base is None:
        raise r.fail(rec, "packed", "a packed desc needs the region's folder: load the region "
                     "from its file (or pass base= to region_from_dict)")
    path = data_path(r.base, name, r.source, rec, "packed")
    data = read_file(path, r.max_bytes, source=r.source, record=rec, field="packed")
    desc = unpack_stb_desc(data, str(path), rec)
    if "id" in item and r.integer(item, rec, "id", 0, NO_STB) != desc.stb_id:
        raise r.fail(rec, "id", f"{item['id']:#x} differs from the packed id {desc.stb_id:#x}")
    return desc


def _sound_tables(r: _Reader, doc: Mapping[str, Any]) -> dict[int, SoundTable]:
    out: dict[int, SoundTable] = {}
    for i, item in enumerate(r.tables(doc, None, "sound_table")):
        rec = f"sound_table[{i}]"
        r.keys(item, rec, {"id", "entry", "name"})
        table_id = r.integer(item, rec, "id", 0, NO_STB)
        if table_id in out:
            raise r.fail(rec, "id", f"duplicate sound table id {table_id:#x}")
        table = out[table_id] = SoundTable(table_id)
        for j, e in enumerate(r.tables(item, rec, "entry")):
            erec = f"{rec}.entry[{j}]"
            r.keys(e, erec, {"stype", "sound", "priority", "probability", "volume"})
            sound = e.get("sound")
            if not isinstance(sound, str) or not sound:
                raise r.fail(erec, "sound", "must be a sound-bank name")
            entry = SoundTableEntry(
                sound, r.integer(e, erec, "priority", -(2**31), 2**31 - 1),
                f32(r.number(e, erec, "probability")), f32(r.number(e, erec, "volume")),
            )
            table.entries.setdefault(r.stype(e, erec), []).append(entry)
    return out


def region_from_dict(doc: Mapping[str, Any], source: str = "<dict>",
                     base: Path | None = None,
                     max_bytes: int | None = MAX_FILE_BYTES) -> Region:
    """A ``Region`` from the parsed schema above (``source`` names it in errors).

    ``base`` is the folder ``packed`` names resolve in (None: ``packed`` is refused);
    ``max_bytes`` caps each packed file read.
    """
    r = _Reader(source, base, max_bytes)
    r.table(doc, "region")
    r.keys(doc, "region", {"terrain", "scene", "stb", "sound_table", "name"})
    stb = _stb(r, doc)
    return Region(_terrain(r, doc), _scenes(r, doc, len(stb)), stb, _sound_tables(r, doc), source)


def load_region(source: str | Path | Mapping[str, Any],
                max_bytes: int | None = MAX_FILE_BYTES) -> Region:
    """Load a region from a TOML file path or an already-parsed mapping.

    Raises:
        DataError: unreadable file, malformed TOML, or any field out of the schema.
    """
    if isinstance(source, Mapping):
        return region_from_dict(source)
    path = Path(source)
    return region_from_dict(read_toml(path, max_bytes), str(path), path.parent, max_bytes)
