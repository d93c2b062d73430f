"""Dialogue records: the lines on screen, their lifetimes and the per-tick update.

``max(dialog_max_dialog_lines, 16)`` records; record 0 is the player's (RTXp),
creation takes the first inactive record from 1. A record's remembered sample is
stored as a handle value: ``0`` in a fresh record, ``ABSENT_HANDLE`` after a
clear, ``slot + 1`` while it remembers channel ``slot`` (a handle names a slot).
Lifetimes count 1/256 s from the audio length, or 15 x the text bytes, and lose
21 x the whole ticks every update.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import esper

from soundscape.components.redguard import RgObject
from soundscape.laws import redguard as law

if TYPE_CHECKING:
    from soundscape.redguard.rtx import RtxEntry
    from soundscape.redguard.runtime import RedguardRuntime

NULL_HANDLE = 0
ABSENT_HANDLE = -1
LIFETIME_PER_TICK = 21
TEXT_LIFETIME_PER_BYTE = 15
PLAYER_RECORD = 0


@dataclass(slots=True)
class DialogueRecord:
    """One line: speaker entity, text, active word, sample handle, lifetime (1/256 s)."""

    active: int = 0
    speaker: int = -1
    text: str = ""
    sample: int = NULL_HANDLE
    lifetime: int = 0

    @property
    def sample_slot(self) -> int | None:
        return self.sample - 1 if self.sample > 0 else None


def text_lifetime(text: str) -> int:
    """15 x the original text's byte count (before display formatting)."""
    return TEXT_LIFETIME_PER_BYTE * len(text.encode("latin-1", errors="replace"))


class DialogueTable:
    """The dialogue records and their update (after ordinary and code-object updates)."""

    def __init__(self, runtime: RedguardRuntime, count: int = 16) -> None:
        self.rt = runtime
        self.records = [DialogueRecord() for _ in range(max(count, 16))]
        self.skip_input = False
        """The walk/run modifier (KEYS.INI key_a pair) as the game reads it this frame."""
        self.skip_latch = False
        self.presented: int | None = None

    # -- creation and clearing -------------------------------------------------

    def _fill(self, index: int, speaker: int, entry: RtxEntry) -> None:
        record = self.records[index]
        text = entry.text or ""
        record.active, record.speaker, record.text = 1, speaker, text
        record.sample = entry.sample + 1 if entry.sample is not None else NULL_HANDLE
        if entry.sample is not None and entry.clip is not None and entry.clip.voiced:
            record.lifetime = entry.clip.duration_256()
        else:
            record.lifetime = text_lifetime(text)
        self.rt.events.emit("redguard", "dialogue_create", sound=entry.label, record=index,
                            speaker=speaker, lifetime=record.lifetime,
                            channel=entry.sample)

    def create(self, speaker: int, entry: RtxEntry) -> int:
        """The first inactive record from 1 filled with ``entry``; -1 when none is free."""
        for index in range(1, len(self.records)):
            if self.records[index].active == 0:
                self._fill(index, speaker, entry)
                return index
        self.rt.events.emit("redguard", "dialogue_full", sound=entry.label, speaker=speaker)
        return -1

    def replace_player(self, speaker: int, entry: RtxEntry) -> int:
        """RTXp: record 0 replaced directly, whatever it held."""
        self._fill(PLAYER_RECORD, speaker, entry)
        return PLAYER_RECORD

    def clear(self, index: int, reason: str = "clear") -> None:
        """Active state and text removed, sample replaced by the absent handle."""
        record = self.records[index]
        was_active = record.active
        record.active, record.text, record.sample = 0, "", ABSENT_HANDLE
        if was_active:
            self.rt.events.emit("redguard", "dialogue_clear", record=index, reason=reason)

    def clear_all(self, reason: str, *, active_only: bool = False) -> None:
        """Clear every record (teardown, restore) or only the active ones (periodic reset)."""
        for index, record in enumerate(self.records):
            if record.active or not active_only:
                self.clear(index, reason)
        self._present(None)

    def clear_by_sample(self, slot: int | None) -> None:
        """Clear active ordinary records (from 1) remembering ``slot``; record 0 untouched."""
        if slot is None:
            return
        for index in range(1, len(self.records)):
            record = self.records[index]
            if record.active and record.sample == slot + 1:
                self.clear(index, "sample")

    def is_active(self, index: int | None) -> bool:
        """An absent record (None, -1, out of range) reads inactive."""
        if index is None or not 0 <= index < len(self.records):
            return False
        return self.records[index].active != 0

    def wait_on_dialog(self) -> int:
        """WaitOnDialog: 1 while any record's active word equals one (any caller)."""
        return int(any(record.active == 1 for record in self.records))

    # -- the per-tick update ---------------------------------------------------

    def _skip_pressed(self, player_lockout: int) -> bool:
        """Edge-detect the skip input; True when a new press cleared every line."""
        if not self.skip_input:
            self.skip_latch = False
            return False
        if self.skip_latch:
            return False
        self.skip_latch = True
        if player_lockout != 1:
            return False
        for index, record in enumerate(self.records):
            slot = record.sample_slot
            if slot is not None and self.rt.slot_playing(slot):
                self.rt.stop_slot(slot, "dialogue skip")
            self.clear(index, "skip")
        self._present(None)
        return True

    def update(self, ticks: int, player_lockout: int = 0) -> None:
        """Dialogue-record update: skip latch, then records in index order."""
        if self._skip_pressed(player_lockout):
            return
        use_speech = self.rt.config.dialog_use_speech == 1  # as the speech starts test it
        for index, record in enumerate(self.records):
            if not record.active:
                continue
            self._inhibit(record.speaker)
            record.lifetime = law.wrap32(record.lifetime - LIFETIME_PER_TICK * ticks)
            if use_speech:
                slot = record.sample_slot
                if slot is None:
                    continue
                if self.rt.slot_playing(slot):
                    self._refresh_volume(record.speaker, slot)
                    self._present(index)
                else:
                    self.clear(index, "sample finished")
                    self._present(None)
                return
            if record.lifetime > 0:
                self._present(index)
                return
            self.clear(index, "expired")
        self._present(None)

    def _inhibit(self, speaker: int) -> None:
        """The speaker's dialogue-inhibition attribute is set to one."""
        if esper.entity_exists(speaker):
            obj = esper.try_component(speaker, RgObject)
            if obj is not None:
                obj.dialogue_inhibit = 1

    def _refresh_volume(self, speaker: int, slot: int) -> None:
        """Speech volume from the speaker's distance (curve, off 0); the pan stays."""
        point = self.rt.emitter(speaker)
        if point is not None:
            volume, _pan = self.rt.curve(point, 0)
            self.rt.set_slot_volume(slot, volume)

    def _present(self, index: int | None) -> None:
        if index != self.presented:
            self.presented = index
            text = None if index is None else self.records[index].text
            self.rt.events.emit("redguard", "dialogue_present", record=index, text=text)
