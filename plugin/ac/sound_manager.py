"""AC ``SoundManager``'s ambient half: the listener's place, table picks, volume, voicing.

``PlayAmbientSound`` (0x550820, positioned) and ``PlayAmbientSoundFromCenter``
(0x5508b0) multiply by the ambient slider, pick a random sound-table entry for
the sound type (``SoundManager::GetSound`` 0x550680, ``Random::RollDice``), roll
the entry's own ``probability_`` (MSVC ``rand()``), then attenuate
(``GetAttenuation``: the slider again, 25/d^2 past 5 m, integer dB, -50 dB floor).
Each play is an event-log record and, when the ``ac`` channel bank exists, a
one-shot on it.
"""

from __future__ import annotations

import math
from typing import Any

from soundscape.ac.region import SoundTable, SoundTableEntry
from soundscape.ac.sound_types import sound_type_name
from soundscape.ac.sounds import AmbientSound, Vec3
from soundscape.context import Context
from soundscape.laws.ac import (
    BLOCK_LENGTH_M,
    attenuation_db,
    bearing_deg,
    block_of,
    db_to_gain,
    f32,
    pan,
    roll_dice,
    x87_int,
)
from soundscape.rng import LecuyerRand, MsvcRand

SOURCE = "ac"


class AcSoundManager:
    """The listener as ``SoundManager::SetPlayerPosition`` 0x5503c0 latched it, and output.

    Attributes:
        player_cell: the listener's objcell id.
        player_origin: landblock-local AC position (x east, y north, z up), float32.
        heading_rad: the listener's compass heading.
        ambient_volume: ``SoundManager::ambient_sound_volume`` (the slider).
        origin_block: the landblock whose SW corner is the world frame's origin.
    """

    def __init__(self, ctx: Context, rng: MsvcRand, origin_block: tuple[int, int],
                 dice: LecuyerRand | None = None) -> None:
        self.ctx = ctx
        self.rng = rng
        """MSVC ``rand()``: the entry's ``probability_`` roll (``PlayProbability`` 0x5500e0)."""
        self.dice = dice if dice is not None else LecuyerRand(1)
        """``Random::rand`` (``UniformUnit``): every ``Random::RollDice``."""
        self.origin_block = origin_block
        self.player_cell = 0
        self.player_origin: Vec3 = (0.0, 0.0, 0.0)
        self.heading_rad = 0.0
        self.ambient_volume = float(ctx.settings.ambient_volume)

    def to_world(self, cell: int, origin: Vec3) -> tuple[float, float, float]:
        """A landblock-local AC position as a world-frame point (x east, y up, z north)."""
        bx, by = block_of(cell)
        x = (bx - self.origin_block[0]) * BLOCK_LENGTH_M + origin[0]
        north = (by - self.origin_block[1]) * BLOCK_LENGTH_M + origin[1]
        return (x, origin[2], north)

    def get_sound(self, stype: int, table: SoundTable | None) -> SoundTableEntry | None:
        """``SoundManager::GetSound`` 0x550680: a random entry of the type, or None.

        The public decompile (acclient.c:383432) picks ``(int)((n - 1) x RollDice(0, 1))``
        and keeps it when below ``n``: ``Random::rand`` stays below 1, so the last entry
        of a type with several never plays (the seed's l.400 reads ``n``). No table or
        no entries for the type: nothing, and no draw.
        """
        if table is None:
            return None
        entries = table.entries.get(stype)
        if not entries:
            return None
        i = x87_int((len(entries) - 1) * roll_dice(0.0, 1.0, self.dice))
        return entries[i] if 0 <= i < len(entries) else None

    def play_from_center(self, sound: AmbientSound, volume: float) -> None:
        """``PlayAmbientSoundFromCenter`` 0x5508b0: no position, no pan, no distance."""
        self._play(sound, volume, None)

    def play_positioned(self, sound: AmbientSound, pos: Vec3, volume: float) -> None:
        """``PlayAmbientSound`` 0x550820 at ``pos`` (AC frame, the listener's landblock)."""
        self._play(sound, volume, pos)

    def _play(self, sound: AmbientSound, volume: float, pos: Vec3 | None) -> None:
        stype = sound.sound_desc.stype
        entry = self.get_sound(stype, sound.desc.sound_table)
        if entry is None:
            self._skip(sound, "no_entry")
            return
        if not self.rng.unit() < entry.probability:
            self._skip(sound, "probability", sound_name=entry.sound)
            return
        distance, pan_value, world = 0.0, 0, None
        extra: dict[str, Any] = {}
        if pos is not None:
            ox, oy, oz = self.player_origin
            dx, dy, dz = pos[0] - ox, pos[1] - oy, pos[2] - oz
            distance = f32(math.sqrt(dx * dx + dy * dy + dz * dz))
            bearing = bearing_deg(dx, dy)
            pan_value = pan(bearing, math.degrees(self.heading_rad), distance)
            world = self.to_world(self.player_cell, pos)
            extra = {"bearing_deg": bearing, "distance_m": distance}
        db = attenuation_db(distance, volume, self.ambient_volume)
        if db is None:
            self._skip(sound, "vol_min", sound_name=entry.sound)
            return
        channel = self._voice(entry, db, pan_value, world)
        self.ctx.events.emit(
            SOURCE, "play", sound=entry.sound, pos=world, gain=db_to_gain(db), db=db,
            pan=pan_value, channel=channel, kind=sound.kind, stype=sound_type_name(stype),
            ambient=sound.label, volume=volume, **extra,
        )

    def _voice(
        self, entry: SoundTableEntry, db: int, pan_value: int, world: Vec3 | None
    ) -> int | None:
        bank = self.ctx.channels.get(SOURCE)
        if bank is None:
            return None
        handle = bank.acquire(priority=entry.priority, owner=-1, sound=entry.sound)
        if handle is None:
            return None
        if not bank.play(handle, entry.sound, volume=db, pan=pan_value, position=world):
            return None
        return int(handle.slot)

    def _skip(self, sound: AmbientSound, reason: str, sound_name: str | None = None) -> None:
        self.ctx.events.emit(
            SOURCE, "skip", sound=sound_name, reason=reason, kind=sound.kind,
            stype=sound_type_name(sound.sound_desc.stype), ambient=sound.label,
        )
