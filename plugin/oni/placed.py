"""Placed ambients: the OS layer's 1024-record table (``OSrAmbient_Start`` 0x511730).

The speech and the particles' sounds start through this table, not the sound
system directly. Each record is an esper entity with a ``PlacedAmbient`` (and,
when placed, a ``Position`` and an ``Occluded`` the OCCLUSION phase fills).

* Start: no place, the sound system's start without one (0x4823a0); a place in
  hearing, started (0x4821f0) at the record's volume times the occlusion volume
  (a refused start waits and retries, play once or not); out of hearing, an
  ambient that plays once is dropped, another waits.
* Every tick (``OSiAmbient_Update`` 0x511f00): out of hearing, a playing one is
  set to volume 0 (``SSrAmbient_Update`` 0x4824a0) and stopped (0x481d90) unless
  it plays once; in hearing, a waiting one starts and a playing one's volume moves
  toward the new one by at most 0.05, held to 0..1. A record that plays once goes
  when its sound has ended (the update fails).
* Hearing: out of hearing when ``far^2 < |place - listener|^2 / 9``; with the
  occlusion feature the ``Occluded`` fields say it, else this module tests it
  and the volume is 1.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import esper

from soundscape.components.occlusion import Occluded
from soundscape.components.oni import PlacedAmbient
from soundscape.components.spatial import Position
from soundscape.errors import InputError
from soundscape.laws.oni import in_hearing
from soundscape.names import check_sound_name

if TYPE_CHECKING:
    from soundscape.oni.sound import OniSound

RECORDS = 1024
SLEW = 0.05
"""A playing record's volume moves by at most 0.05 a frame (0x52a02c, 0x52a31c)."""

Vec3 = tuple[float, float, float]


class PlacedTable:
    """``ctx.oni.placed``: the records, their entities and the per-tick update."""

    def __init__(self, sound: OniSound) -> None:
        self.sound = sound
        self.records: list[PlacedAmbient | None] = [None] * RECORDS
        self.entities: list[int] = [-1] * RECORDS
        self.positions: list[Position | None] = [None] * RECORDS
        self.occluded: list[Occluded | None] = [None] * RECORDS
        self.live: list[int] = []
        self.refused: set[int] = set()
        """Records whose start was refused (no slot...): their retries are not logged."""

    # -- hearing ----------------------------------------------------------------------

    def hearing(self, index: int, *, fresh: bool = False) -> tuple[bool, float]:
        """(in hearing, occlusion volume) of a placed record."""
        pos, occ, rec = self.positions[index], self.occluded[index], self.records[index]
        if pos is None or occ is None or rec is None:
            return True, 1.0
        snd = self.sound
        occlusion = snd.occlusion()
        if occlusion is not None:
            if fresh:  # a start: ask now, the OCCLUSION phase has not seen the record yet
                result = occlusion.query(pos.as_tuple(), rec.far, occ.min_occlusion,
                                         listener_xyz=snd.ears.xyz)
                occ.in_hearing, occ.volume, occ.walls = result.in_hearing, result.volume, \
                    result.walls
                occ.cache_tick = snd.ctx.clock.tick
            return occ.in_hearing, occ.volume
        d = snd.distance_units(pos.as_tuple())
        occ.in_hearing = in_hearing(d * d, rec.far)  # NaN: out of hearing
        return occ.in_hearing, 1.0

    # -- the game's calls ---------------------------------------------------------------

    def start(self, ambient: str, place: Vec3 | None = None, *, volume: float = 1.0,
              near: float | None = None, far: float | None = None) -> int | None:
        """``OSrAmbient_Start`` 0x511730: the record's index, or None (no record, unknown
        ambient, or a play-once ambient out of hearing / that could not start)."""
        check_sound_name(ambient, "oni placed.start")
        snd = self.sound
        amb = snd.ambient(ambient)
        if amb is None:
            snd.emit("missing_ambient", sound=ambient)
            return None
        if place is not None and not all(math.isfinite(v) for v in place):
            raise InputError(f"placed ambient {ambient!r}: place {place} is not finite")
        if not math.isfinite(volume):
            raise InputError(f"placed ambient {ambient!r}: volume {volume!r} is not finite")
        index = next((i for i, r in enumerate(self.records) if r is None), None)
        if index is None:
            snd.emit("placed_refused", sound=ambient, reason="table full")
            return None
        rec = PlacedAmbient(index, ambient, placed=place is not None,
                            near=amb.near if near is None else near,
                            far=amb.far if far is None else far,
                            volume=volume, play_once=amb.play_once)
        components: list[object] = [rec]
        if place is not None:
            self.positions[index] = Position(*place)
            self.occluded[index] = Occluded(far=rec.far, min_occlusion=amb.min_occlusion,
                                            cache_index=index)
            components += [self.positions[index], self.occluded[index]]
        self.records[index] = rec
        self.entities[index] = esper.create_entity(*components)
        self.live.append(index)
        snd.emit("placed_start", sound=ambient, pos=place, gain=volume, index=index)
        if place is None:
            rec.current_volume = volume
            rec.sound_id = snd.ambients.start(amb, volume=volume) or -1
            if rec.sound_id < 0:
                self._free(index, "could not start")
                return None
            return index
        heard, occlusion = self.hearing(index, fresh=True)
        if heard:
            self._start_sound(index, rec, rec.volume * occlusion)
        elif rec.play_once:  # a play-once record in hearing whose start failed retries
            self._free(index, "out of hearing")
            return None
        return index

    def update(self, index: int, place: Vec3 | None = None, volume: float | None = None) -> bool:
        """``OSrAmbient_Update`` 0x511ec0: a new place (and volume) for the record; the
        PLACED_AMBIENTS phase applies it this tick. False for a free record."""
        rec = self._record(index)
        if rec is None:
            return False
        if place is not None:
            pos = self.positions[index]
            if pos is None:
                raise InputError(f"placed ambient {index}: it was started without a place")
            if not all(math.isfinite(v) for v in place):
                raise InputError(f"placed ambient {index}: place {place} is not finite")
            pos.x_m, pos.y_m, pos.z_m = (float(v) for v in place)
        if volume is not None:
            if not math.isfinite(volume):
                raise InputError(f"placed ambient {index}: volume {volume!r} is not finite")
            rec.volume = volume
        return True

    def stop(self, index: int) -> bool:
        """``OSrAmbient_Stop``: stop the record's ambient (its base ends, then its out
        sound) and free the record."""
        rec = self._record(index)
        if rec is None:
            return False
        self.sound.ambients.stop(rec.sound_id)
        self._free(index, "stop")
        return True

    def halt(self, index: int) -> bool:
        """``OSrAmbient_Halt``: cut the record's ambient at once and free the record."""
        rec = self._record(index)
        if rec is None:
            return False
        self.sound.ambients.halt(rec.sound_id, reason="placed halt")
        self._free(index, "halt")
        return True

    def is_playing(self, index: int) -> bool:
        """A speech line counts as playing while its record is there."""
        return self._record(index) is not None

    def get(self, index: int) -> PlacedAmbient | None:
        return self._record(index)

    def _record(self, index: int) -> PlacedAmbient | None:
        if not isinstance(index, int) or not 0 <= index < RECORDS:
            raise InputError(f"placed ambient index {index!r} is outside 0..{RECORDS - 1}")
        return self.records[index]

    # -- every tick (OSiAmbient_Update 0x511f00) ------------------------------------------

    def tick(self) -> None:
        """Phase PLACED_AMBIENTS: hear, start, wait, stop and slew every record."""
        snd = self.sound
        ambients = snd.ambients
        ids = ambients.ids
        occlusion_on = snd.occlusion() is not None
        lx, ly, lz = snd.ears.xyz
        u2 = snd.units_per_m * snd.units_per_m
        records, positions, occluded = self.records, self.positions, self.occluded
        for index in list(self.live):
            rec = records[index]
            if rec is None:
                continue
            if rec.sound_id >= 0 and rec.sound_id not in ids:  # its ambient has ended
                if rec.play_once or not rec.placed:
                    self._free(index, "ended")
                    continue
                rec.sound_id = -1
            pos, occ = positions[index], occluded[index]
            if pos is None or occ is None:
                continue
            if occlusion_on:
                heard, occlusion = occ.in_hearing, occ.volume
            else:  # no walls: the hearing test alone (a NaN place is out of hearing)
                d2 = ((pos.x_m - lx) ** 2 + (pos.y_m - ly) ** 2 + (pos.z_m - lz) ** 2) * u2
                heard = occ.in_hearing = in_hearing(d2, rec.far)
                occlusion = 1.0
            if not heard:
                if rec.sound_id >= 0:
                    self._out_of_hearing(index, rec, pos)
                continue
            target = rec.volume * occlusion
            if rec.sound_id < 0:
                if index in self.refused and len(ids) >= len(ambients.slots):
                    continue  # still no free slot: the retry would be refused
                self._start_sound(index, rec, target)
                continue
            step = max(-SLEW, min(SLEW, target - rec.current_volume))
            rec.current_volume = min(max(rec.current_volume + step, 0.0), 1.0)
            ambients.update(rec.sound_id, (pos.x_m, pos.y_m, pos.z_m), rec.current_volume)

    def _out_of_hearing(self, index: int, rec: PlacedAmbient, pos: Position) -> None:
        """Volume 0 (``SSrAmbient_Update``), then stopped (0x481d90) unless it plays once.

        The record keeps its volume (``OSiAmbient_Update`` returns before storing the
        new one), so a play-once sound back in hearing slews on from where it was.
        """
        ambients = self.sound.ambients
        place: Vec3 | None = (pos.x_m, pos.y_m, pos.z_m)
        if not pos.is_finite():  # a NaN place keeps the ambient where it last was
            slot = ambients.by_id(rec.sound_id)
            place = slot.position if slot is not None else None
        ambients.update(rec.sound_id, place, 0.0)
        if not rec.play_once:
            ambients.halt(rec.sound_id, reason="out of hearing")
            self.sound.emit("placed_wait", sound=rec.ambient, index=index)
            rec.sound_id = -1

    def _start_sound(self, index: int, rec: PlacedAmbient, volume: float) -> None:
        snd = self.sound
        amb = snd.ambient(rec.ambient)
        if amb is None:
            return
        pos = self.positions[index]
        rec.current_volume = min(max(volume, 0.0), 1.0)
        sound_id = snd.ambients.start(amb, volume=rec.current_volume, quiet=index in self.refused,
                                      position=pos.as_tuple() if pos is not None else None,
                                      near=rec.near, far=rec.far)
        rec.sound_id = -1 if sound_id is None else sound_id
        if sound_id is None:
            if index not in self.refused:  # log the first refusal, not every retry
                self.refused.add(index)
                snd.emit("placed_refused", sound=rec.ambient, index=index, reason="no start")
            return
        self.refused.discard(index)
        snd.emit("placed_play", sound=rec.ambient, index=index, id=rec.sound_id,
                 gain=rec.current_volume)

    def _free(self, index: int, reason: str) -> None:
        rec = self.records[index]
        entity = self.entities[index]
        if entity >= 0 and esper.entity_exists(entity):
            esper.delete_entity(entity)
            occlusion = self.sound.occlusion()
            if occlusion is not None:
                occlusion.forget(entity)
        self.records[index], self.entities[index] = None, -1
        self.positions[index] = self.occluded[index] = None
        if index in self.live:
            self.live.remove(index)
        self.refused.discard(index)
        self.sound.emit("placed_end", sound=rec.ambient if rec else None, index=index,
                        reason=reason)
