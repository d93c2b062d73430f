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

from soundscape.components.redguard import RgAnimation
from soundscape.laws import redguard as law
from soundscape.redguard.dialogue import PLAYER_RECORD
from soundscape.redguard.emitter import object_state, own_position
from soundscape.redguard.tasks import NativeTask

if TYPE_CHECKING:
    from soundscape.redguard.runtime import RedguardRuntime


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

    def actor(self, rt: RedguardRuntime) -> int:
        """The speaking and animated actor (the scripted actor for RTX)."""
        return self.caller

    def run(self, rt: RedguardRuntime, ticks: int) -> None:
        elapsed = self.elapsed(ticks)
        if rt.reset_flag:
            self._finish(rt, "sample reset")
            return
        actor = self.actor(rt)
        d = player_distance(rt, actor)
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
                self.record = rt.dialogue.create(actor, rt.rtx.entries[entry])
                if self.record >= 1:
                    self.line_created(rt, actor)
        if not self.keep_running(rt, actor, rt.dialogue.is_active(self.record)):
            self._finish(rt, "line over")

    def line_created(self, rt: RedguardRuntime, actor: int) -> None:
        """Hook: the invocation that created the line (rtxAnim requests its first group)."""

    def keep_running(self, rt: RedguardRuntime, actor: int, active: bool) -> bool:
        """RTX runs while its record is active."""
        return active

    def _finish(self, rt: RedguardRuntime, reason: str) -> None:
        self.done = True
        rt.events.emit("redguard", "task_end", sound=self.label, reason=reason,
                       record=self.record, task=self.task_id)


@dataclass
class RtxAnimTask(RtxTask):
    """rtxAnim(label, a, b, c) / RTXpAnim(label, a, b, c): RTX plus three animation groups.

    The groups cycle b, c, a. The invocation that creates the line requests b
    (an ordinary request, speed modifier 0, loop countdown 1); on every
    invocation, when the actor's current group differs from the group last
    requested and the line is active, the next group is requested. The task runs
    while the line is active or the current group equals the last request.
    rtxAnim clears the topic-menu pending flag while it runs and the topic-menu
    delay counter when it completes; RTXpAnim (``player_actor``) animates and
    voices the selected player in an ordinary record and leaves the menu alone.
    """

    groups: tuple[int, int, int] = (0, 0, 0)
    player_actor: bool = False
    cycle: int = 0
    requested: int | None = None

    def actor(self, rt: RedguardRuntime) -> int:
        if self.player_actor and rt.player is not None:
            return rt.player
        return self.caller

    def _order(self) -> tuple[int, int, int]:
        a, b, c = self.groups
        return (b, c, a)

    def line_created(self, rt: RedguardRuntime, actor: int) -> None:
        self.cycle = 0
        self._request(rt, actor, self._order()[0])

    def keep_running(self, rt: RedguardRuntime, actor: int, active: bool) -> bool:
        animation = animation_of(actor)
        if self.requested is not None and animation.group != self.requested and active:
            self.cycle = (self.cycle + 1) % 3
            self._request(rt, actor, self._order()[self.cycle])
        keep = active or (self.requested is not None and animation.group == self.requested)
        if keep and not self.player_actor:
            rt.topic_menu_pending = 0
        return keep

    def _finish(self, rt: RedguardRuntime, reason: str) -> None:
        """rtxAnim clears the topic-menu delay counter however it completes (line
        over, out of range, sample reset); RTXpAnim leaves the menu alone."""
        if not self.player_actor:
            rt.topic_menu_delay = 0
        super()._finish(rt, reason)

    def _request(self, rt: RedguardRuntime, actor: int, group: int) -> None:
        request_group(rt, actor, group)
        self.requested = group


def animation_of(entity: int) -> RgAnimation:
    """The entity's ``RgAnimation`` (added when it has none)."""
    return object_state(entity, RgAnimation)


def request_group(rt: RedguardRuntime, entity: int, group: int) -> None:
    """An ordinary animation request with speed modifier 0 and loop countdown 1.

    The group becomes current at once; the game's animation system moves
    ``RgAnimation.group`` on when the countdown runs out.
    """
    animation = animation_of(entity)
    animation.group, animation.loop_countdown = group, 1
    rt.events.emit("redguard", "anim_request", owner=entity, group=group, speed_modifier=0)


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
