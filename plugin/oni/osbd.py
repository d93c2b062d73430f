"""OSBD chunks: Oni's binary groups, ambients and impulses (seed 001, "The chunk").

``OSiBinaryData_ProcHandler`` 0x5147b0 reads an OSBD instance (the chunk's size
and its offset in the level's .raw), names the object after the instance (tag
and extension cut, spaces made ``_``, 31 characters) and calls the class loader:
``OSGr`` 0x513950, ``OSAm`` 0x513580, ``OSIm`` 0x513d90. All values are
little-endian; the class tag is stored reversed (``rGSO`` for ``OSGr``).

Every version on the CD loads (groups 4 and 6, with the defaults for 1..5;
ambients 4..6; impulses 3..6). A chunk whose sizes or counts do not fit its
bytes is refused with a ``DataError`` naming the instance and the offset.
``write_chunk`` builds the bytes back (tests, round trips).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Iterable

from soundscape.errors import DataError
from soundscape.oni.data import (
    DEFAULT_LAST,
    DEFAULT_THRESHOLD,
    OLD_GROUP_DONT_REPEAT_ABOVE,
    Ambient,
    Group,
    GroupFlags,
    Impulse,
    OniDatabase,
    Permutation,
    Record,
    object_name,
)

TAG_GROUP, TAG_AMBIENT, TAG_IMPULSE = b"rGSO", b"mASO", b"mISO"
"""The class tags as stored (reversed ``OSGr``, ``OSAm``, ``OSIm``)."""
HEADER = 12
"""Tag, size of what follows, version."""
NAME_FIELD = 32
PERMUTATION_SIZE = 0x34
GROUP_VERSIONS = range(1, 7)
"""Group versions the loader reads (4 and 6 on the CD, 1..5 with defaults)."""
AMBIENT_END = {4: 0xC8, 5: 0xCC, 6: 0xD0}
"""Where an ambient chunk's data ends, by version."""
IMPULSE_END = {3: 0x44, 4: 0x68, 5: 0x6C, 6: 0x70}


class _Reader:
    """Little-endian fields of one chunk, refusing reads past its end."""

    def __init__(self, data: bytes, start: int, end: int, source: str, instance: str) -> None:
        self.data, self.pos, self.end = data, start, end
        self.start, self.source, self.instance = start, source, instance

    def fail(self, field: str, problem: str) -> DataError:
        return DataError(self.source, self.instance, field, problem)

    def take(self, fmt: str, field: str) -> tuple[float | int, ...]:
        size = struct.calcsize(fmt)
        if self.pos + size > self.end:
            raise self.fail(field, f"needs {size} bytes at offset {self.pos:#x}, "
                                   f"the chunk ends at {self.end:#x}")
        values = struct.unpack_from(fmt, self.data, self.pos)
        self.pos += size
        return values

    def u32(self, field: str) -> int:
        return int(self.take("<I", field)[0])

    def s32(self, field: str) -> int:
        return int(self.take("<i", field)[0])

    def f32(self, field: str) -> float:
        at = self.pos
        value = float(self.take("<f", field)[0])
        if not math.isfinite(value):
            raise self.fail(field, f"is not a finite number at offset {at:#x}")
        return value

    def name(self, field: str) -> str:
        raw = bytes(self.take(f"<{NAME_FIELD}s", field)[0])  # type: ignore[arg-type]
        return raw.split(b"\0", 1)[0][:NAME_FIELD - 1].decode("latin-1")


def instance_object_name(instance: str) -> str:
    """The object's name from its instance's: tag and extension cut (0x426690).

    >>> instance_object_name("OSBDmus_chase.amb")
    'mus_chase'
    """
    name = instance[4:] if instance.startswith("OSBD") else instance
    if "." in name:
        name = name[: name.index(".")]
    return object_name(name)


def parse_chunk(data: bytes, offset: int = 0, *, name: str, instance: str | None = None,
                source: str = "OSBD", limit: int | None = None) -> Record:
    """Load the chunk at ``offset`` of ``data`` as the object ``name``.

    ``limit`` is where the chunk must end (the instance's size); default the end
    of ``data``.
    """
    label = instance or name
    end = len(data) if limit is None else min(limit, len(data))
    if offset < 0 or offset + HEADER > end:
        raise DataError(source, label, "header",
                        f"a chunk needs {HEADER} bytes at offset {offset:#x}; {end - offset} left")
    tag, size, version = struct.unpack_from("<4sII", data, offset)
    if offset + 8 + size > end:
        raise DataError(source, label, "size", f"{size} bytes from offset {offset + 8:#x} "
                                               f"run past the chunk's end at {end:#x}")
    reader = _Reader(data, offset + HEADER, offset + 8 + size, source, label)
    if tag == TAG_GROUP:
        return _group(reader, object_name(name), version)
    if tag == TAG_AMBIENT:
        return _ambient(reader, object_name(name), version, offset)
    if tag == TAG_IMPULSE:
        return _impulse(reader, object_name(name), version, offset)
    raise DataError(source, label, "class", f"unknown class tag {tag!r} at offset {offset:#x}")


def _check_version(reader: _Reader, version: int, known: range, kind: str) -> None:
    if version not in known:
        raise reader.fail("version", f"{kind} version {version} at offset "
                                     f"{reader.start - 4:#x} is not one of {list(known)}")


def _check_layout(reader: _Reader, version: int, ends: dict[int, int], kind: str,
                  offset: int) -> None:
    """A known version whose fixed fields (up to ``ends[version]``) fit the chunk."""
    _check_version(reader, version, range(min(ends), max(ends) + 1), kind)
    if offset + ends[version] > reader.end:
        raise reader.fail("size", f"a version {version} {kind} needs {ends[version]:#x} bytes "
                                  f"at offset {offset:#x}; the chunk has {reader.end - offset:#x}")


def _group(r: _Reader, name: str, version: int) -> Group:
    """``OSGr`` 0x513950: the fields after the version depend on it."""
    _check_version(r, version, GROUP_VERSIONS, "group")
    volume = r.f32("volume") if version >= 2 else 1.0
    pitch = r.f32("pitch") if version >= 3 else 1.0
    if version >= 6:
        flags, last = (int(v) for v in r.take("<HH", "flags"))
    else:
        flags, last = 0, DEFAULT_LAST
    channels = r.u32("channels")
    if channels not in (1, 2):
        raise r.fail("channels", f"{channels} at offset {r.pos - 4:#x} is not 1 or 2")
    count = r.u32("permutation_count")
    need = count * PERMUTATION_SIZE
    if r.pos + need > r.end:
        raise r.fail("permutation_count", f"{count} permutations need {need} bytes at offset "
                                          f"{r.pos:#x}; the chunk has {r.end - r.pos}")
    perms = []
    for i in range(count):
        weight = r.u32(f"permutations[{i}].weight")
        vmin, vmax, pmin, pmax = (r.f32(f"permutations[{i}].{f}") for f in
                                  ("min_volume", "max_volume", "min_pitch", "max_pitch"))
        sound = r.name(f"permutations[{i}].sound")
        perms.append(Permutation(sound, weight, vmin, vmax, pmin, pmax))
    if version < 6 and count > OLD_GROUP_DONT_REPEAT_ABOVE:
        flags |= int(GroupFlags.DONT_REPEAT)
    return Group(name, perms, volume, pitch, flags, last, channels, version)


def _ambient(r: _Reader, name: str, version: int, offset: int) -> Ambient:
    """``OSAm`` 0x513580."""
    _check_layout(r, version, AMBIENT_END, "ambient", offset)
    amb = Ambient(name, version=version)
    amb.priority = r.s32("priority")
    amb.flags = r.u32("flags")
    amb.detail_range = r.f32("detail_range")
    amb.detail_interval_min_s, amb.detail_interval_max_s = r.f32("detail_min"), r.f32("detail_max")
    amb.near, amb.far = r.f32("near"), r.f32("far")
    amb.detail_name, amb.base1_name, amb.base2_name = r.name("detail"), r.name("base1"), \
        r.name("base2")
    amb.in_name, amb.out_name = r.name("in"), r.name("out")
    amb.threshold = r.u32("threshold") if version >= 5 else DEFAULT_THRESHOLD
    amb.min_occlusion = r.f32("min_occlusion") if version >= 6 else 0.0
    return amb


def _impulse(r: _Reader, name: str, version: int, offset: int) -> Impulse:
    """``OSIm`` 0x513d90; a version 3 impulse ends at 0x44."""
    _check_layout(r, version, IMPULSE_END, "impulse", offset)
    imp = Impulse(name, version=version)
    imp.group_name = r.name("group")
    imp.priority = r.s32("priority")
    imp.near, imp.far = r.f32("near"), r.f32("far")
    imp.max_volume_angle, imp.min_volume_angle = r.f32("max_angle"), r.f32("min_angle")
    imp.min_angle_attenuation = r.f32("min_angle_attenuation")
    if version >= 4:
        imp.alternate_threshold = r.u32("alternate_threshold")
        imp.alternate_name = r.name("alternate")
    if version >= 5:
        imp.impact_velocity = r.f32("impact_velocity")
    if version >= 6:
        imp.min_occlusion = r.f32("min_occlusion")
    return imp


def load_instance(instance: str, instance_data: bytes, raw: bytes, *, raw_base: int = 0,
                  source: str = "OSBD") -> Record:
    """``OSiBinaryData_ProcHandler`` 0x5147b0: one instance (size, offset) into ``raw``."""
    if len(instance_data) < 8:
        raise DataError(source, instance, "instance", f"needs 8 bytes, has {len(instance_data)}")
    size, rel = struct.unpack_from("<II", instance_data, 0)
    offset = raw_base + rel
    if offset + size > len(raw):
        raise DataError(source, instance, "size", f"{size} bytes at offset {offset:#x} run past "
                                                  f"the .raw's end at {len(raw):#x}")
    return parse_chunk(raw, offset, name=instance_object_name(instance), instance=instance,
                       source=source, limit=offset + size)


def load_osbd(instances: Iterable[tuple[str, bytes]], raw: bytes, *, source: str = "OSBD",
              database: OniDatabase | None = None) -> OniDatabase:
    """Load every ``(instance name, instance data)`` into a database and resolve it."""
    db = database if database is not None else OniDatabase()
    for instance, data in instances:
        db.add(load_instance(instance, data, raw, source=source))
    db.resolve()
    return db


# --- the writer --------------------------------------------------------------------


def _name_bytes(name: str) -> bytes:
    return name.encode("latin-1")[: NAME_FIELD - 1].ljust(NAME_FIELD, b"\0")


def _group_body(g: Group, version: int) -> bytes:
    out = b""
    if version >= 2:
        out += struct.pack("<f", g.volume)
    if version >= 3:
        out += struct.pack("<f", g.pitch)
    if version >= 6:
        out += struct.pack("<HH", int(g.flags) & 0xFFFF, g.last & 0xFFFF)
    out += struct.pack("<II", g.channels, len(g.permutations))
    for p in g.permutations:
        out += struct.pack("<I4f", p.weight, p.min_volume, p.max_volume, p.min_pitch, p.max_pitch)
        out += _name_bytes(p.sound)
    return out


def _ambient_body(a: Ambient, version: int) -> bytes:
    out = struct.pack("<iI5f", a.priority, int(a.flags), a.detail_range, a.detail_interval_min_s,
                      a.detail_interval_max_s, a.near, a.far)
    for n in (a.detail_name, a.base1_name, a.base2_name, a.in_name, a.out_name):
        out += _name_bytes(n)
    if version >= 5:
        out += struct.pack("<I", a.threshold)
    if version >= 6:
        out += struct.pack("<f", a.min_occlusion)
    return out


def _impulse_body(i: Impulse, version: int) -> bytes:
    out = _name_bytes(i.group_name) + struct.pack(
        "<i5f", i.priority, i.near, i.far, i.max_volume_angle, i.min_volume_angle,
        i.min_angle_attenuation)
    if version >= 4:
        out += struct.pack("<I", i.alternate_threshold) + _name_bytes(i.alternate_name)
    if version >= 5:
        out += struct.pack("<f", i.impact_velocity)
    if version >= 6:
        out += struct.pack("<f", i.min_occlusion)
    return out


def write_chunk(record: Record, version: int | None = None) -> bytes:
    """The OSBD chunk of ``record`` at ``version`` (default the record's own)."""
    v = record.version if version is None else version
    if isinstance(record, Group):
        tag, body = TAG_GROUP, _group_body(record, v)
    elif isinstance(record, Ambient):
        tag, body = TAG_AMBIENT, _ambient_body(record, v)
    else:
        tag, body = TAG_IMPULSE, _impulse_body(record, v)
    return struct.pack("<4sII", tag, 4 + len(body), v) + body


def write_osbd(records: Iterable[Record]) -> tuple[list[tuple[str, bytes]], bytes]:
    """Instances and a .raw holding ``records``' chunks (extension ``.grp``/``.amb``/``.imp``)."""
    raw = b""
    instances = []
    for record in records:
        ext = ".grp" if isinstance(record, Group) else ".amb" if isinstance(record, Ambient) \
            else ".imp"
        chunk = write_chunk(record)
        instances.append((f"OSBD{record.name}{ext}", struct.pack("<II", len(chunk), len(raw))))
        raw += chunk
    return instances, raw
