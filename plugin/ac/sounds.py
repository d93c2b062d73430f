"""AC ambient sound objects: ``ConstantSound`` and ``IntermitSound`` (seed 000 sections 3-7).

Both keep the weight accumulated this rebuild (``sound_count``) for one ambient
of one STB desc. A constant sound is a one-shot re-fired every ``min_rate``
seconds from the listener's centre at a crossfaded volume; an intermittent
sound fires at its authored volume, gated by a chance roll, at a random
accumulated compass bearing and shell distance.
"""

from __future__ import annotations

import math
from typing import ClassVar

from soundscape.ac.region import AmbientSoundDesc, AmbientSTBDesc
from soundscape.laws.ac import (
    HALF_MIN_DIST_M,
    HEADING_SPREAD_RAD,
    IN_VIEWER_EXPANSION,
    MIN_VOLUME,
    NEAR_MIN_DIST_M,
    Direction,
    UnitSource,
    direction_heading,
    f32,
    roll_dice,
)

Vec3 = tuple[float, float, float]


class AmbientSound:
    """``AmbientSound`` (0x18 bytes): the base with the folded default slots."""

    __slots__ = ("desc", "ambient_sound_id", "on_queue", "sound_count", "label")
    kind: ClassVar[str] = "base"

    def __init__(self, desc: AmbientSTBDesc, ambient_sound_id: int) -> None:
        self.desc = desc
        self.ambient_sound_id = ambient_sound_id
        self.on_queue = False
        self.sound_count = 0.0
        self.label = f"{desc.stb_id:#010x}#{ambient_sound_id}"

    @property
    def sound_desc(self) -> AmbientSoundDesc:
        return self.desc.ambient_sounds[self.ambient_sound_id]

    def reset_count(self) -> None:
        """Base ``ResetCount``: a folded ``ret``."""

    def get_volume(self) -> float:
        return 0.0

    def can_hear(self) -> bool:
        return False

    def play_now(self, rng: UnitSource) -> bool:
        """Base ``PlayNow`` 0x5269f0 (``mov eax,1; ret``): always play."""
        return True

    def get_play_interval(self, rng: UnitSource) -> float:
        return 0.0

    def add_to(self, weight: float, offset: Vec3, direction: Direction) -> None:
        """Base ``AddTo``: a folded ``ret``."""

    def update_sound(self, total: float) -> None:
        """Base ``UpdateSound``: a folded ``ret``."""

    def get_sound_pos(self, origin: Vec3, rng: UnitSource) -> Vec3 | None:
        """Base ``GetSoundPos`` 0x4f0ea0 (``xor eax,eax; ret 4``): no position."""
        return None


class ConstantSound(AmbientSound):
    """``ConstantSound`` (``base_chance == 0``): crossfaded volume, fixed cadence, no position."""

    __slots__ = ("current_volume",)
    kind: ClassVar[str] = "constant"

    def __init__(self, desc: AmbientSTBDesc, ambient_sound_id: int) -> None:
        super().__init__(desc, ambient_sound_id)
        self.current_volume = 0.0

    def reset_count(self) -> None:
        """``ConstantSound::ResetCount`` 0x550d70: ``current_volume`` is NOT reset."""
        self.desc.play_count = 0
        self.sound_count = 0.0

    def get_volume(self) -> float:
        """``ConstantSound::GetVolume`` 0x550d80."""
        return self.current_volume

    def can_hear(self) -> bool:
        """``ConstantSound::CanHear`` 0x550fd0: volume >= 0.03f and the table is loaded."""
        return self.current_volume >= MIN_VOLUME and self.desc.sound_table is not None

    def get_play_interval(self, rng: UnitSource) -> float:
        """``ConstantSound::GetPlayInterval`` 0x5510a0: ``min_rate`` (``max_rate`` unused)."""
        return self.sound_desc.min_rate_s

    def add_to(self, weight: float, offset: Vec3, direction: Direction) -> None:
        """``ConstantSound::AddTo`` 0x551000: weight only."""
        self.sound_count = f32(self.sound_count + weight)

    def update_sound(self, total: float) -> None:
        """``ConstantSound::UpdateSound`` 0x551540: ``volume / total * count``, 0 when none."""
        if self.sound_count == 0.0:
            self.current_volume = 0.0
            return
        self.desc.play_count += 1
        self.current_volume = f32(f32(self.sound_desc.volume / total) * self.sound_count)


class IntermitSound(AmbientSound):
    """``IntermitSound``: authored volume, chance share, up to 8 (bearing, shell) slots."""

    __slots__ = ("play_chance", "sound_dir", "min_dist", "max_dist")
    kind: ClassVar[str] = "intermittent"

    def __init__(self, desc: AmbientSTBDesc, ambient_sound_id: int) -> None:
        super().__init__(desc, ambient_sound_id)
        self.play_chance = 0.0
        self.sound_dir: list[Direction] = []
        self.min_dist: list[float] = []
        self.max_dist: list[float] = []

    @property
    def num_dir(self) -> int:
        return len(self.sound_dir)

    def slots(self) -> list[tuple[Direction, float, float]]:
        """The accumulated (direction, min m, max m) slots, in slot order."""
        return list(zip(self.sound_dir, self.min_dist, self.max_dist, strict=True))

    def set_slots(self, slots: list[tuple[Direction, float, float]]) -> None:
        """Install slots computed for the whole desc (the vectorised rebuild)."""
        self.sound_dir = [s[0] for s in slots]
        self.min_dist = [s[1] for s in slots]
        self.max_dist = [s[2] for s in slots]

    def reset_count(self) -> None:
        """``IntermitSound::ResetCount`` 0x550cd0: the only place ``play_chance`` is zeroed."""
        self.desc.play_count = 0
        self.sound_count = 0.0
        self.sound_dir, self.min_dist, self.max_dist = [], [], []
        self.play_chance = 0.0

    def get_volume(self) -> float:
        """``IntermitSound::GetVolume`` 0x551070: the authored volume."""
        return self.sound_desc.volume

    def can_hear(self) -> bool:
        """``IntermitSound::CanHear`` 0x550f80: ``play_chance > 0``."""
        return self.play_chance > 0.0

    def play_now(self, rng: UnitSource) -> bool:
        """``IntermitSound::PlayNow`` 0x550fa0: ``RollDice(0, 1) <= play_chance``."""
        return roll_dice(0.0, 1.0, rng) <= self.play_chance

    def get_play_interval(self, rng: UnitSource) -> float:
        """``IntermitSound::GetPlayInterval`` 0x551080: ``RollDice(min_rate, max_rate)``."""
        desc = self.sound_desc
        return roll_dice(desc.min_rate_s, desc.max_rate_s, rng)

    def add_to(self, weight: float, offset: Vec3, direction: Direction) -> None:
        """``IntermitSound::AddTo`` 0x551450: weight, then a shell at the bearing.

        A neighbour adds ``(d - 10, d + 10)`` at its direction; an in-viewer
        source adds ``(4, 10)`` at all eight directions.
        """
        ox, oy, oz = offset
        dist = f32(math.sqrt(f32(f32(f32(ox * ox) + f32(oy * oy)) + f32(oz * oz))))
        self.sound_count = f32(self.sound_count + weight)
        if direction != Direction.IN_VIEWER_BLOCK:
            self.add_dir(direction, f32(dist - HALF_MIN_DIST_M), f32(dist + HALF_MIN_DIST_M))
            return
        for each in IN_VIEWER_EXPANSION:
            self.add_dir(each, NEAR_MIN_DIST_M, HALF_MIN_DIST_M)

    def add_dir(self, direction: Direction, lo: float, hi: float) -> None:
        """``IntermitSound::AddDir`` 0x550cf0: append, or widen strictly."""
        if direction not in self.sound_dir:
            self.sound_dir.append(direction)
            self.min_dist.append(lo)
            self.max_dist.append(hi)
            return
        i = self.sound_dir.index(direction)
        if lo < self.min_dist[i]:
            self.min_dist[i] = lo
        if hi > self.max_dist[i]:
            self.max_dist[i] = hi

    def update_sound(self, total: float) -> None:
        """``IntermitSound::UpdateSound`` 0x551310: skipped (chance kept) when count <= 0."""
        if self.sound_count <= 0.0:
            return
        self.desc.play_count += 1
        self.play_chance = f32(f32(self.sound_desc.base_chance / total) * self.sound_count)

    def get_sound_pos(self, origin: Vec3, rng: UnitSource) -> Vec3 | None:
        """``IntermitSound::GetSoundPos`` 0x551350: a random slot, +-11.25 deg, t^2 distance.

        ``origin`` is the listener's (AC frame, landblock-local); its z is kept.
        Draw order: slot, bearing jitter, distance.
        """
        if not self.sound_dir:
            return None  # unreachable with play_chance > 0; never index an empty slot list
        idx = int(math.floor(roll_dice(0.0, float(self.num_dir), rng)))
        idx = min(idx, self.num_dir - 1)  # rand() tops out just below 1: a guard only
        angle = (
            direction_heading(self.sound_dir[idx])
            + roll_dice(0.0, HEADING_SPREAD_RAD, rng)
            - HEADING_SPREAD_RAD * 0.5
        )
        lo, hi = self.min_dist[idx], self.max_dist[idx]
        t = roll_dice(0.0, 1.0, rng)
        dist = lo + (hi - lo) * t * t
        return (
            f32(origin[0] + math.sin(angle) * dist),
            f32(origin[1] + math.cos(angle) * dist),
            origin[2],
        )


def new_sound(desc: AmbientSTBDesc, ambient_sound_id: int) -> AmbientSound:
    """``Ambient::GetSound``'s constructor choice: constant when ``is_continuous``."""
    if desc.ambient_sounds[ambient_sound_id].is_continuous:
        return ConstantSound(desc, ambient_sound_id)
    return IntermitSound(desc, ambient_sound_id)
