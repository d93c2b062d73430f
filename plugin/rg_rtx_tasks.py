"""The RTX and RTXp dialogue tasks (SOUP ``RTX(label)`` / ``RTXp(label)``).

RTX: completes at once when the sample-reset flag is set; otherwise measures
the scripted actor's distance to the selected player and completes beyond
``dialog_max_distance`` (first stopping the line's remembered sample and
clearing the ordinary records using that slot, when it created one). Within
range, only a zero-elapsed invocation with no retained record looks the label
up, starts its speech and creates an ordinary record; a full table retains -1
(reads inactive) and a failed lookup retains record 0 (the player's line). It
runs while its record is active.

RTXp: record 0 with the selected player as speaker, no distance gate; the
first zero-elapsed invocation with a clear start marker loads the label once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from soundscape.laws import redguard as law
from soundscape.rg_dialogue import PLAYER_RECORD
from soundscape.rg_emitter import own_position
from soundscape.rg_tasks import NativeTask

if TYPE_CHECKING:
    from soundscape.rg_runtime import RedguardRuntime


def player_distance(rt: RedguardRuntime, actor: int) -> int | None:
    """PlayerDistance: rounded length of actor - player, shifted right eight bits."""
    point = own_position(actor, rt.units_per_m)
    player = own_position(rt.player, rt.units_per_m) if rt.player is not None else rt.listener
    if point is None or player is None:
        return None
    return law.distance(point[0] - player[0], point[1] - player[1], point[2] - player[2])


@dataclass
class RtxTask(NativeTask):
    """RTX(label) on the scripted actor (``caller``)."""

    label: str = ""
    record: int | None = None

    def run(self, rt: RedguardRuntime, ticks: int) -> None:
        elapsed = self.elapsed(ticks)
        if rt.reset_flag:
            self._finish(rt, "sample reset")
            return
        d = player_distance(rt, self.caller)
        if d is None or d > rt.config.dialog_max_distance:
            if self.record is not None and self.record >= 1:
                slot = rt.dialogue.records[self.record].sample_slot
                rt.stop_slot(slot, "dialogue out of range")
                rt.dialogue.clear_by_sample(slot)
            self._finish(rt, "out of range")
            return
        if elapsed == 0 and self.record is None:
            entry = rt.rtx.lookup(self.label)
            if entry is None:
                self.record = PLAYER_RECORD
            else:
                if rt.config.dialog_use_speech == 1:
                    rt.rtx.speak(entry)
                self.record = rt.dialogue.create(self.caller, rt.rtx.entries[entry])
        if not rt.dialogue.is_active(self.record):
            self._finish(rt, "line over")

    def _finish(self, rt: RedguardRuntime, reason: str) -> None:
        self.done = True
        rt.events.emit("redguard", "task_end", sound=self.label, reason=reason,
                       record=self.record, task=self.task_id)


@dataclass
class RtxpTask(NativeTask):
    """RTXp(label): the selected player's line in record 0."""

    label: str = ""
    started: bool = False

    def run(self, rt: RedguardRuntime, ticks: int) -> None:
        elapsed = self.elapsed(ticks)
        if rt.reset_flag:
            self._finish(rt, "sample reset")
            return
        if elapsed == 0 and not self.started:
            self.started = True
            entry = rt.rtx.lookup(self.label)
            if entry is not None:
                if rt.config.dialog_use_speech == 1:
                    rt.rtx.speak(entry)
                speaker = rt.player if rt.player is not None else self.caller
                rt.dialogue.replace_player(speaker, rt.rtx.entries[entry])
        if not rt.dialogue.is_active(PLAYER_RECORD):
            self._finish(rt, "line over")

    def _finish(self, rt: RedguardRuntime, reason: str) -> None:
        self.done = True
        rt.events.emit("redguard", "task_end", sound=self.label, reason=reason,
                       record=PLAYER_RECORD, task=self.task_id)
