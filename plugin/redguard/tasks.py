"""Native SOUP tasks: AmbientSound and AmbientRTX, and the task list that runs them.

A task is invoked once per object update with its *elapsed input*: zero on the
first invocation of a new call, the whole ticks since the last one afterwards.
An ambient task keeps its own remembered sample slot. When its elapsed input is
zero or the shared sample-reset flag is set, it forgets that slot (without
stopping anything) before querying playback status. Then:

* the listener beyond R: the slot's current sample is stopped and the task ends
  for good (the script must call again to resume);
* the slot still playing (status 4): its volume and pan follow the listener;
* otherwise the effect starts again (a non-looping effect restarts when it ends).

A code object (no ``Position``) sounds at the listener; a caller entity deleted
since the call ends the task; a non-finite position skips the update (logged
once) and the task goes on.

The slot is queried, not the start: if another sound took the slot after the
ambient's own sound ended, the task refreshes that sound's volume and pan.
``TaskStop`` removes a task without invoking it and stops nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import esper

from soundscape.laws import redguard as law

if TYPE_CHECKING:
    from soundscape.redguard.runtime import RedguardRuntime

_ids = iter(range(1, 1 << 62))


@dataclass(slots=True)
class NativeTask:
    """A native task slot on an object: invocation counter and completion."""

    caller: int
    owner: int
    invocations: int = 0
    done: bool = False
    task_id: int = field(default_factory=lambda: next(_ids))
    caller_entity: bool = False
    """The caller was an esper entity when the call was made (a code object's
    plain id need not be): a deleted caller ends the task."""

    def __post_init__(self) -> None:
        self.caller_entity = esper.entity_exists(self.caller)

    def elapsed(self, ticks: int) -> int:
        """Elapsed input: 0 for a new call, else the ticks since the last invocation."""
        elapsed = 0 if self.invocations == 0 else ticks
        self.invocations += 1
        return elapsed

    def run(self, rt: RedguardRuntime, ticks: int) -> None:
        raise NotImplementedError


@dataclass(slots=True)
class AmbientTask(NativeTask):
    """AmbientSound(effect, volume_offset, rate_offset) from the calling object.

    Each run (the public SOUP table, michidk/redguard-preservation
    ``docs/engine/sound.md``): compute volume and pan; at v = 0 stop this task's
    sound and end the multitask; otherwise start the sound if it is not playing,
    then set its volume and pan.
    """

    effect: int = 0
    rate_offset: int = 0
    volume_offset: int = 0
    slot: int | None = None
    silent_reported: bool = False
    nan_reported: bool = False
    dropped: bool = False
    """A drop is logged once; retries stay quiet until the task gets a channel."""

    def run(self, rt: RedguardRuntime, ticks: int) -> None:
        if self.elapsed(ticks) == 0 or rt.reset_flag:
            self.slot = None  # forgets the slot; nothing is stopped
        point = rt.emitter(self.caller)
        if point is not None:
            d, volume, pan = rt.measure(point, self.volume_offset)
        else:  # rare: a deleted caller, a code object or a NaN position
            if self.caller_entity and not esper.entity_exists(self.caller):
                self.finish(rt, "object deleted")  # its task slots went with the object
                return
            found = rt.script_curve(self.caller, self.volume_offset)
            if found is None:  # a non-finite position: this update is skipped, nothing lost
                if not self.nan_reported:
                    self.nan_reported = True
                    rt.events.emit("redguard", "skip", sound=self.effect, owner=self.owner,
                                   reason="emitter position not finite", caller="AmbientSound")
                return
            d, volume, pan = found
        if volume == 0:  # beyond R the curve gives 0 too (SOUP: "If v = 0 ...")
            rt.stop_slot(self.slot, "ambient silent")
            self.finish(rt, "out of range" if d > rt.radius else "silent")
            return
        slot = self.slot
        if slot is not None and rt.bank.channels[slot].playing:
            rt.set_slot_volume(slot, volume)
            rt.set_slot_pan(slot, pan)
            return
        self.slot = self._start(rt, volume, pan)
        self.dropped = self.slot is None

    def _start(self, rt: RedguardRuntime, volume: int, pan: int) -> int | None:
        if rt.effects.get(self.effect) is None:
            if not self.silent_reported:  # AmbientSound 127 in a 118-effect bank: never sounds
                self.silent_reported = True
                rt.events.emit("redguard", "skip", sound=self.effect, owner=self.owner,
                               reason="effect out of range", caller="AmbientSound")
            return None
        return rt.start(self.effect, self.rate_offset, volume, pan, self.owner,
                        caller="AmbientSound", log_drop=not self.dropped)

    def finish(self, rt: RedguardRuntime, reason: str) -> None:
        self.done = True
        rt.events.emit("redguard", "task_end", sound=self.effect, owner=self.owner,
                       reason=reason, task=self.task_id)


@dataclass(slots=True)
class AmbientRtxTask(AmbientTask):
    """AmbientRTX(label, volume_offset, 0): an RTX clip's audio as an ambient sound.

    The clip plays at its own rate (rate offset 0); the third argument, 0 in
    every shipped call, is kept in ``arg3`` and has no effect.
    """

    label: str = ""
    arg3: int = 0

    def _start(self, rt: RedguardRuntime, volume: int, pan: int) -> int | None:
        clip = rt.rtx_store.find(self.label)
        if clip is None or not clip.voiced:
            if not self.silent_reported:
                self.silent_reported = True
                rt.events.emit("redguard", "skip", sound=self.label, owner=self.owner,
                               reason="no RTX audio", caller="AmbientRTX")
            return None
        rate = law.playback_rate(clip.sample_rate_hz, 0)
        return rt.start_named(clip.sound_name, rate, volume, pan, self.owner,
                              caller="AmbientRTX", log_drop=not self.dropped)


class TaskList:
    """The running native tasks in call order (the object-update stage runs them)."""

    def __init__(self, runtime: RedguardRuntime) -> None:
        self.rt = runtime
        self.tasks: list[NativeTask] = []

    def add(self, task: NativeTask) -> NativeTask:
        self.tasks.append(task)
        return task

    def stop(self, task: NativeTask) -> None:
        """TaskStop: the slot is removed without invoking its handler (no sample stop)."""
        if task in self.tasks:
            self.tasks.remove(task)
            task.done = True
            self.rt.events.emit("redguard", "task_stop", task=task.task_id, owner=task.owner)

    def run(self, ticks: int) -> None:
        """Invoke every task once; finished ones leave the list."""
        finished = False
        for task in list(self.tasks):
            if not task.done:
                task.run(self.rt, ticks)
            finished = finished or task.done
        if finished:
            self.tasks = [task for task in self.tasks if not task.done]

    def clear(self) -> None:
        self.tasks.clear()
