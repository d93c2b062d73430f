"""Oni sound objects as records: groups, ambients and impulses (seed 001, "OSBD").

The three classes of OSBD chunk (``OSGr``, ``OSAm``, ``OSIm``) load into these
dataclasses; an ``OniDatabase`` holds them by name and resolves the names an
ambient or impulse gives (``SSrAmbient`` group pointers, 0x482670) with a
case-sensitive search, a missing name being no group.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import IntFlag

NAME_MAX = 31
"""The loaders keep at most 31 characters of a name (32-byte fields)."""

DEFAULT_LAST = 0
"""``last`` of a group that stores none: ``SSrGroup_New`` and the loader before
version 6 set the "last permutation played" (``flag_data``) to 0, so a first draw
of permutation 0 already counts as a repeat (BFW_SoundSystem2.c, Oni_Sound2.c)."""

DEFAULT_THRESHOLD = 3
"""How many of one ambient may play at once before version 5 (0xc8)."""

OLD_GROUP_DONT_REPEAT_ABOVE = 3
"""Before version 6, a group of more than three permutations gets the don't-repeat flag."""


def object_name(name: str) -> str:
    """An object name as the loaders keep it: spaces made ``_``, at most 31 characters.

    >>> object_name("my long name"), len(object_name("x" * 40))
    ('my_long_name', 31)
    """
    return name.replace(" ", "_")[:NAME_MAX]


class GroupFlags(IntFlag):
    """``OSGr`` flags (version 6, u16)."""

    NONE = 0
    DONT_REPEAT = 0x1


class AmbientFlags(IntFlag):
    """``OSAm`` flags (0x10)."""

    NONE = 0
    INTERRUPT_ON_STOP = 0x1
    """A stop cuts the channels at once; otherwise base plays to its end, then out."""
    PLAY_ONCE = 0x2
    """The base tracks don't loop."""
    CAN_PAN = 0x4
    """Its channels pan with the position."""


@dataclass(slots=True)
class Permutation:
    """One choice of a group: a sound with a weight and volume and pitch ranges (0x34 bytes)."""

    sound: str
    weight: int = 1
    min_volume: float = 1.0
    max_volume: float = 1.0
    min_pitch: float = 1.0
    max_pitch: float = 1.0


@dataclass(slots=True)
class Group:
    """``OSGr``: weighted permutations, the group volume and pitch, mono (1) or stereo (2).

    ``last`` is the last permutation played (u16, ``DEFAULT_LAST`` at first);
    ``version`` the chunk version it came from.
    """

    name: str
    permutations: list[Permutation] = field(default_factory=list)
    volume: float = 1.0
    pitch: float = 1.0
    flags: int = 0
    """``GroupFlags`` bits, kept as a plain int (tested every play)."""
    last: int = DEFAULT_LAST
    channels: int = 1
    version: int = 6

    @property
    def dont_repeat(self) -> bool:
        return bool(self.flags & 0x1)  # GroupFlags.DONT_REPEAT

    @property
    def stereo(self) -> bool:
        return self.channels == 2

    @property
    def total_weight(self) -> int:
        return sum(p.weight for p in self.permutations)


@dataclass(slots=True)
class Ambient:
    """``OSAm``: up to five groups played as one longer sound.

    The ``*_name`` fields are what the chunk names; ``detail``, ``base1``,
    ``base2``, ``in_group`` and ``out_group`` are resolved at level load
    (``OniDatabase.resolve``) and None when the name is empty or missing.
    Distances are Oni sound units (world distance / 3).
    """

    name: str
    priority: int = 1
    flags: int = 0
    """``AmbientFlags`` bits, kept as a plain int (tested every tick)."""
    detail_range: float = 0.0
    detail_interval_min_s: float = 0.0
    detail_interval_max_s: float = 0.0
    near: float = 0.0
    far: float = 0.0
    detail_name: str = ""
    base1_name: str = ""
    base2_name: str = ""
    in_name: str = ""
    out_name: str = ""
    threshold: int = DEFAULT_THRESHOLD
    min_occlusion: float = 0.0
    version: int = 6
    detail: Group | None = None
    base1: Group | None = None
    base2: Group | None = None
    in_group: Group | None = None
    out_group: Group | None = None

    @property
    def interrupt_on_stop(self) -> bool:
        return bool(self.flags & 0x1)  # AmbientFlags.INTERRUPT_ON_STOP

    @property
    def play_once(self) -> bool:
        return bool(self.flags & 0x2)  # AmbientFlags.PLAY_ONCE

    @property
    def can_pan(self) -> bool:
        return bool(self.flags & 0x4)  # AmbientFlags.CAN_PAN


@dataclass(slots=True)
class Impulse:
    """``OSIm``: a group played once at a position, with an alternate for crowds.

    ``far`` and ``min_occlusion`` are the names the flyby system reads.
    """

    name: str
    group_name: str = ""
    priority: int = 1
    near: float = 0.0
    far: float = 0.0
    max_volume_angle: float = 0.0
    min_volume_angle: float = 0.0
    min_angle_attenuation: float = 0.0
    alternate_threshold: int = 0
    alternate_name: str = ""
    impact_velocity: float = 0.0
    min_occlusion: float = 0.0
    version: int = 6
    group: Group | None = None
    alternate: Impulse | None = None


Record = Group | Ambient | Impulse
_RESOLVED = {"detail", "base1", "base2", "in_group", "out_group", "group", "alternate"}


class OniDatabase:
    """The level's groups, ambients and impulses by name.

    Adding an object of a name that exists reloads it in place (the same Python
    object, new fields), as the retail loaders do.
    """

    def __init__(self) -> None:
        self.groups: dict[str, Group] = {}
        self.ambients: dict[str, Ambient] = {}
        self.impulses: dict[str, Impulse] = {}

    def add(self, record: Record) -> Record:
        """Store ``record`` (or reload the existing one of its name) and return the stored one."""
        table: dict[str, Record] = self._table(record)  # type: ignore[assignment]
        old = table.get(record.name)
        if old is None:
            table[record.name] = record
            return record
        for f in fields(record):
            if f.name not in _RESOLVED:
                setattr(old, f.name, getattr(record, f.name))
        return old

    def _table(self, record: Record) -> dict[str, Group] | dict[str, Ambient] | dict[str, Impulse]:
        if isinstance(record, Group):
            return self.groups
        if isinstance(record, Ambient):
            return self.ambients
        return self.impulses

    def merge(self, other: OniDatabase) -> None:
        """Add every object of ``other`` (loaded in place where a name exists)."""
        for table in (other.groups, other.ambients, other.impulses):
            for record in table.values():
                self.add(record)

    def resolve(self) -> None:
        """Level load (0x482670): names to objects, case-sensitive; a missing name is None."""
        groups = self.groups
        for amb in self.ambients.values():
            amb.detail = groups.get(amb.detail_name) if amb.detail_name else None
            amb.base1 = groups.get(amb.base1_name) if amb.base1_name else None
            amb.base2 = groups.get(amb.base2_name) if amb.base2_name else None
            amb.in_group = groups.get(amb.in_name) if amb.in_name else None
            amb.out_group = groups.get(amb.out_name) if amb.out_name else None
        for imp in self.impulses.values():
            imp.group = groups.get(imp.group_name) if imp.group_name else None
            imp.alternate = self.impulses.get(imp.alternate_name) if imp.alternate_name else None

    def counts(self) -> dict[str, int]:
        """How many of each class: ``{"groups": n, "ambients": n, "impulses": n}``."""
        return {"groups": len(self.groups), "ambients": len(self.ambients),
                "impulses": len(self.impulses)}

    def sound_names(self) -> set[str]:
        """Every sound name a permutation gives."""
        return {p.sound for g in self.groups.values() for p in g.permutations}
