"""Readable TOML for Oni sound objects: the same records the OSBD chunks give.

Example::

    [groups.mus_chase]
    channels = "stereo"            # "mono" / "stereo" or 1 / 2
    volume = 1.0                   # group volume and pitch
    pitch = 1.0
    dont_repeat = true
    permutations = [
      { sound = "mus_chase_01", weight = 10, volume = [0.9, 1.0], pitch = [1.0, 1.0] },
    ]

    [ambients.mus_chase]
    priority = 1
    interrupt_on_stop = false      # flags: interrupt_on_stop, play_once, can_pan
    play_once = false
    can_pan = false
    detail_range = 0.0
    detail_interval_s = [5.0, 10.0]
    distance = [10.0, 40.0]        # near, far (Oni sound units)
    in = "mus_chase_in"            # detail, base1, base2, in, out: group names
    base1 = "mus_chase"
    out = "mus_chase_out"
    threshold = 3                  # how many may play at once

    [impulses.gunshot]
    group = "gunshot"
    priority = 2
    distance = [5.0, 30.0]
    alternate_threshold = 4
    alternate = "gunshot_far"

Every value is checked; a bad one, or a field a record does not have, raises
``DataError`` naming the file, the record (``groups.mus_chase``) and the field.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from soundscape.datafile import MAX_FILE_BYTES, parse_toml, read_file
from soundscape.errors import DataError
from soundscape.oni.data import (
    DEFAULT_LAST,
    DEFAULT_THRESHOLD,
    Ambient,
    AmbientFlags,
    Group,
    GroupFlags,
    Impulse,
    OniDatabase,
    Permutation,
    object_name,
)

_AMBIENT_FLAGS = {"interrupt_on_stop": AmbientFlags.INTERRUPT_ON_STOP,
                  "play_once": AmbientFlags.PLAY_ONCE, "can_pan": AmbientFlags.CAN_PAN}
_GROUP_NAMES = {"detail": "detail_name", "base1": "base1_name", "base2": "base2_name",
                "in": "in_name", "out": "out_name"}


class _Fields:
    """Typed reads of one TOML table, with errors naming file, record and field."""

    def __init__(self, source: str, record: str, table: Any) -> None:
        if not isinstance(table, dict):
            raise DataError(source, record, None, "must be a table")
        self.source, self.record, self.table = source, record, table

    def fail(self, field: str, problem: str) -> DataError:
        return DataError(self.source, self.record, field, problem)

    def only(self, *known: str) -> None:
        """Refuse a field this record does not have (a typo would silently do nothing)."""
        unknown = sorted(set(self.table) - set(known))
        if unknown:
            raise self.fail(unknown[0], f"is not a field; known: {', '.join(known)}")

    def number(self, field: str, default: float) -> float:
        value = self.table.get(field, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(field, f"must be a number, got {value!r}")
        if not math.isfinite(value):
            raise self.fail(field, f"must be finite, got {value!r}")
        return float(value)

    def integer(self, field: str, default: int, lo: int = 0, hi: int = 2**31 - 1) -> int:
        value = self.table.get(field, default)
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise self.fail(field, f"must be an integer in {lo}..{hi}, got {value!r}")
        return value

    def boolean(self, field: str) -> bool:
        value = self.table.get(field, False)
        if not isinstance(value, bool):
            raise self.fail(field, f"must be true or false, got {value!r}")
        return value

    def text(self, field: str) -> str:
        value = self.table.get(field, "")
        if not isinstance(value, str):
            raise self.fail(field, f"must be a string, got {value!r}")
        return value

    def pair(self, field: str, default: tuple[float, float]) -> tuple[float, float]:
        value = self.table.get(field, list(default))
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = [value, value]
        if (not isinstance(value, list) or len(value) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                           and math.isfinite(v) for v in value)):
            raise self.fail(field, f"must be [min, max] numbers, got {value!r}")
        return float(value[0]), float(value[1])


def _group(src: str, name: str, table: Any) -> Group:
    f = _Fields(src, f"groups.{name}", table)
    f.only("channels", "volume", "pitch", "dont_repeat", "last", "permutations")
    channels = table.get("channels", 1) if isinstance(table, dict) else 1
    channels = {"mono": 1, "stereo": 2}.get(channels, channels) if isinstance(channels, str) \
        else channels
    if channels not in (1, 2) or isinstance(channels, bool):
        raise f.fail("channels", f"must be mono/stereo or 1/2, got {table.get('channels')!r}")
    perms_raw = table.get("permutations", [])
    if not isinstance(perms_raw, list):
        raise f.fail("permutations", "must be a list of tables")
    perms = []
    for i, p in enumerate(perms_raw):
        pf = _Fields(src, f"groups.{name}.permutations[{i}]", p)
        pf.only("sound", "weight", "volume", "pitch")
        sound = pf.text("sound")
        if not sound:
            raise pf.fail("sound", "must name a sound")
        vol, pitch = pf.pair("volume", (1.0, 1.0)), pf.pair("pitch", (1.0, 1.0))
        perms.append(Permutation(sound, pf.integer("weight", 1), *vol, *pitch))
    flags = int(GroupFlags.DONT_REPEAT) if f.boolean("dont_repeat") else 0
    return Group(object_name(name), perms, f.number("volume", 1.0), f.number("pitch", 1.0), flags,
                 f.integer("last", DEFAULT_LAST, 0, 0xFFFF), int(channels))


def _ambient(src: str, name: str, table: Any) -> Ambient:
    f = _Fields(src, f"ambients.{name}", table)
    f.only("priority", *_AMBIENT_FLAGS, "detail_range", "detail_interval_s", "distance",
           *_GROUP_NAMES, "threshold", "min_occlusion")
    amb = Ambient(object_name(name), priority=f.integer("priority", 1, -(2**31)))
    for key, flag in _AMBIENT_FLAGS.items():
        if f.boolean(key):
            amb.flags |= int(flag)
    amb.detail_range = f.number("detail_range", 0.0)
    amb.detail_interval_min_s, amb.detail_interval_max_s = f.pair("detail_interval_s", (0.0, 0.0))
    amb.near, amb.far = f.pair("distance", (0.0, 0.0))
    for key, attr in _GROUP_NAMES.items():
        setattr(amb, attr, f.text(key))
    amb.threshold = f.integer("threshold", DEFAULT_THRESHOLD)
    amb.min_occlusion = f.number("min_occlusion", 0.0)
    return amb


def _impulse(src: str, name: str, table: Any) -> Impulse:
    f = _Fields(src, f"impulses.{name}", table)
    f.only("group", "priority", "distance", "alternate_threshold", "alternate",
           "impact_velocity", "min_occlusion", "max_volume_angle", "min_volume_angle",
           "min_angle_attenuation")
    imp = Impulse(object_name(name), group_name=f.text("group"),
                  priority=f.integer("priority", 1, -(2**31)))
    imp.near, imp.far = f.pair("distance", (0.0, 0.0))
    imp.alternate_threshold = f.integer("alternate_threshold", 0)
    imp.alternate_name = f.text("alternate")
    imp.max_volume_angle = f.number("max_volume_angle", 0.0)
    imp.min_volume_angle = f.number("min_volume_angle", 0.0)
    imp.min_angle_attenuation = f.number("min_angle_attenuation", 0.0)
    imp.impact_velocity = f.number("impact_velocity", 0.0)
    imp.min_occlusion = f.number("min_occlusion", 0.0)
    return imp


def loads_toml(text: str, *, source: str = "<toml>",
               database: OniDatabase | None = None) -> OniDatabase:
    """Parse TOML text into a (resolved) database; ``source`` names it in errors."""
    doc = parse_toml(text, source)
    db = database if database is not None else OniDatabase()
    for section, build in (("groups", _group), ("ambients", _ambient), ("impulses", _impulse)):
        tables = doc.get(section, {})
        if not isinstance(tables, dict):
            raise DataError(source, section, None, "must be a table of named records")
        for name, table in tables.items():
            db.add(build(source, name, table))
    unknown = sorted(set(doc) - {"groups", "ambients", "impulses"})
    if unknown:
        raise DataError(source, None, None, f"unknown sections {unknown}")
    db.resolve()
    return db


def load_toml(path: str | Path, *, database: OniDatabase | None = None,
              max_bytes: int | None = MAX_FILE_BYTES) -> OniDatabase:
    """Load an Oni sound TOML file (a regular file of at most ``max_bytes``)."""
    p = Path(path)
    data = read_file(p, max_bytes)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise DataError(str(p), None, None, f"cannot read: not UTF-8: {error}") from None
    return loads_toml(text, source=str(p), database=database)
