"""OSBD records in OniSplit's XML (``onisplit -extract:xml``), read into the database.

OniSplit (``Paradox-01/OniSplit_v0.9.99.2_DX``) writes one file per OSBD instance,
named after it (``OSBDmus_chase.amb.xml``): ``<Oni>`` holding one
``<AmbientSound>``, ``<SoundGroup>`` or ``<ImpulseSound>`` whose children are the
fields of ``Oni.Metadata/SoundMetadata.cs`` (``osam6``, ``osgr6``, ``osim6``,
``osgrPermutation``) in that order, nested structs as nested elements
(``Oni.Sound/OsbdXmlExporter.cs``, ``OsbdXmlImporter.cs``,
``Oni.Xml/XmlImporter.cs`` ``ReadSoundData``). Priorities are enum names
(``Low``, ``Normal``, ``High``, ``Highest``: 0..3), flags space-separated names
(empty for none), ``Treshold`` is spelt so.

The record is the one the binary chunk of version 6 gives (``soundscape.oni.osbd``):
OniSplit's importer writes version 6, with the group's second 16-bit word (the
"last permutation played") as padding, i.e. 0. OniSplit labels the impulse's two
angle floats ``Min`` then ``Max``; the binary reader, after Bungie's source,
calls the first ``max_volume_angle``: they are mapped by position.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

from soundscape.errors import DataError
from soundscape.oni.data import (
    DEFAULT_LAST,
    Ambient,
    AmbientFlags,
    Group,
    GroupFlags,
    Impulse,
    OniDatabase,
    Permutation,
    Record,
)
from soundscape.oni.osbd import instance_object_name

PRIORITIES = {"Low": 0, "Normal": 1, "High": 2, "Highest": 3}
AMBIENT_FLAGS: dict[str, int] = {"InterruptTracksOnStop": int(AmbientFlags.INTERRUPT_ON_STOP),
                                  "PlayOnce": int(AmbientFlags.PLAY_ONCE),
                                  "CanPan": int(AmbientFlags.CAN_PAN)}
GROUP_FLAGS: dict[str, int] = {"PreventRepeat": int(GroupFlags.DONT_REPEAT)}
VERSION = 6


class _Fields:
    """Children of one element read by path, refusing missing, repeated and unknown ones."""

    def __init__(self, source: str, element: ET.Element, path: str) -> None:
        self.source, self.element, self.path = source, element, path
        self.used: set[str] = set()

    def fail(self, field: str, problem: str) -> DataError:
        return DataError(self.source, self.path, field, problem)

    def child(self, name: str) -> ET.Element:
        found = self.element.findall(name)
        if len(found) != 1:
            raise self.fail(name, "is missing" if not found else f"appears {len(found)} times")
        self.used.add(name)
        return found[0]

    def sub(self, name: str) -> _Fields:
        return _Fields(self.source, self.child(name), f"{self.path}.{name}")

    def text(self, name: str) -> str:
        return (self.child(name).text or "").strip()

    def name32(self, name: str) -> str:
        value = self.text(name)
        if len(value.encode("latin-1", errors="replace")) > 31:
            raise self.fail(name, f"{value!r} is longer than the 31 characters a name keeps")
        return value

    def number(self, name: str) -> float:
        raw = self.text(name)
        try:
            value = float(raw)
        except ValueError:
            raise self.fail(name, f"{raw!r} is not a number") from None
        if not math.isfinite(value):
            raise self.fail(name, f"{raw!r} is not a finite number")
        return value

    def integer(self, name: str, lo: int = 0, hi: int = 0xFFFFFFFF) -> int:
        raw = self.text(name)
        try:
            value = int(raw)
        except ValueError:
            raise self.fail(name, f"{raw!r} is not a whole number") from None
        if not lo <= value <= hi:
            raise self.fail(name, f"{value} is outside {lo}..{hi}")
        return value

    def enum(self, name: str, names: dict[str, int]) -> int:
        raw = self.text(name)
        if raw not in names:
            raise self.fail(name, f"{raw!r} is not one of {sorted(names)}")
        return names[raw]

    def flags(self, name: str, names: dict[str, int]) -> int:
        value = 0
        for word in self.text(name).split():
            if word not in names:
                raise self.fail(name, f"{word!r} is not one of {sorted(names)}")
            value |= names[word]
        return value

    def done(self) -> None:
        extra = [c.tag for c in self.element if c.tag not in self.used]
        if extra:
            raise self.fail(extra[0], "is not a field OniSplit writes here")


def _ambient(f: _Fields, name: str) -> Ambient:
    amb = Ambient(name, version=VERSION)
    amb.priority = f.enum("Priority", PRIORITIES)
    amb.flags = f.flags("Flags", AMBIENT_FLAGS)
    detail = f.sub("DetailTrackProperties")
    amb.detail_range = detail.number("SphereRadius")
    elapsed = detail.sub("ElapsedTime")
    amb.detail_interval_min_s, amb.detail_interval_max_s = elapsed.number("Min"), \
        elapsed.number("Max")
    distance = f.sub("Volume").sub("Distance")
    amb.near, amb.far = distance.number("Min"), distance.number("Max")
    amb.detail_name, amb.base1_name, amb.base2_name = (f.name32(n) for n in (
        "DetailTrack", "BaseTrack1", "BaseTrack2"))
    amb.in_name, amb.out_name = f.name32("InSound"), f.name32("OutSound")
    amb.threshold = f.integer("Treshold")
    amb.min_occlusion = f.number("MinOcclusion")
    for part in (elapsed, distance, detail, f):
        part.done()
    return amb


def _group(f: _Fields, name: str) -> Group:
    volume, pitch = f.number("Volume"), f.number("Pitch")
    flags = f.flags("Flags", GROUP_FLAGS)
    channels = f.integer("NumberOfChannels", 1, 2)
    perms_f = f.sub("Permutations")
    perms = []
    for i, element in enumerate(perms_f.element):
        if element.tag != "Permutation":
            raise perms_f.fail(element.tag, "is not a Permutation")
        p = _Fields(f.source, element, f"{f.path}.Permutations[{i}]")
        weight = p.integer("Weight", -2**31, 2**31 - 1)
        vol, pit = p.sub("Volume"), p.sub("Pitch")
        perm = Permutation(p.name32("Sound"), weight & 0xFFFFFFFF, vol.number("Min"),
                           vol.number("Max"), pit.number("Min"), pit.number("Max"))
        for part in (vol, pit, p):
            part.done()
        perms.append(perm)
    perms_f.used.add("Permutation")
    f.done()
    return Group(name, perms, volume, pitch, flags, DEFAULT_LAST, channels, VERSION)


def _impulse(f: _Fields, name: str) -> Impulse:
    imp = Impulse(name, version=VERSION)
    imp.group_name = f.name32("Group")
    imp.priority = f.enum("Priority", PRIORITIES)
    volume = f.sub("Volume")
    distance, angle = volume.sub("Distance"), volume.sub("Angle")
    imp.near, imp.far = distance.number("Min"), distance.number("Max")
    imp.max_volume_angle, imp.min_volume_angle = angle.number("Min"), angle.number("Max")
    imp.min_angle_attenuation = angle.number("MinAttenuation")
    alternate = f.sub("AlternateImpulse")
    imp.alternate_threshold = alternate.integer("Treshold")
    imp.alternate_name = alternate.name32("Impulse")
    imp.impact_velocity = f.number("ImpactVelocity")
    imp.min_occlusion = f.number("MinOcclusion")
    for part in (distance, angle, volume, alternate, f):
        part.done()
    return imp


KINDS: dict[str, Callable[[_Fields, str], Record]] = {
    "AmbientSound": _ambient, "SoundGroup": _group, "ImpulseSound": _impulse}


def parse_osbd_xml(text: str, *, name: str, source: str = "<xml>") -> Record:
    """The record in one OniSplit OSBD XML document; ``name`` is its instance name
    (``OSBDmus_chase.amb``: the object is ``mus_chase``).

    Raises:
        DataError: not XML, not one sound element under ``<Oni>``, or a field
            missing, repeated, unknown or out of range (names the element path).
    """
    try:
        root = ET.fromstring(text)
    except ET.ParseError as error:
        raise DataError(source, None, None, f"malformed XML: {error}") from None
    if root.tag != "Oni":
        raise DataError(source, root.tag, None, "the root element must be <Oni>")
    sounds = [c for c in root if c.tag in KINDS]
    if len(sounds) != 1 or len(root) != 1:
        raise DataError(source, "Oni", None, "must hold exactly one AmbientSound, SoundGroup "
                                             "or ImpulseSound")
    element = sounds[0]
    return KINDS[element.tag](_Fields(source, element, element.tag), instance_object_name(name))


def load_osbd_xml(paths: str | Path | list[str | Path], *,
                  database: OniDatabase | None = None) -> OniDatabase:
    """Load OniSplit OSBD XML files (each named after its instance) and resolve names."""
    db = database if database is not None else OniDatabase()
    for path in [paths] if isinstance(paths, (str, Path)) else paths:
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise DataError(str(path), None, None, f"cannot read: {error}") from None
        name = path.name[:-4] if path.name.lower().endswith(".xml") else path.name
        db.add(parse_osbd_xml(text, name=name, source=str(path)))
    db.resolve()
    return db


__all__ = ["load_osbd_xml", "parse_osbd_xml"]
