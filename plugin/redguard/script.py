"""The SOUP386.DEF sound functions a script calls, with their return values.

Argument lists, in the order of the public SOUP table (michidk/redguard-preservation
``docs/engine/sound.md``; the seed's own table was lost, see docs/divergences.md):

* ``Sound(effect, volume_offset, rate_offset)``: positional from the calling
  object's emitter point; returns 0 (also when nothing starts).
* ``FlatSound(effect, volume, rate_offset)``: centred, volume =
  clamp(wrap32(base_volume + volume), 0, 127); returns 0. The shipped
  ``FlatSound(4, 128, -10000)`` plays at 127 (64 + 128, held) and 512 Hz.
* ``AmbientSound(effect, volume_offset, rate_offset)``: an ambient task.
* ``AmbientRTX(label, volume_offset, 0)``: an RTX clip's audio as an ambient task.
* ``EndSound(effect)``, ``EndMySound(effect)``, ``EndMySounds()``,
  ``StopAllSounds()``: return 0, also when they stop nothing.
* ``RTX(label)``, ``RTXp(label)``, ``rtxAnim``/``RTXpAnim(label, a, b, c)``:
  dialogue tasks; ``WaitOnDialog()``; ``DialogBegin``/``End``, ``MenuBegin``/``End``;
  ``Taunt(label, animation)`` a combat taunt.

Every call takes the calling entity first. ``owner`` overrides the recorded
owner for scripts on a temporary object: the shell entry for shell scripts
(an item's use_script), the code object for code-object scripts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import esper

from soundscape.components.redguard import RgCombat, RgObject
from soundscape.laws import redguard as law
from soundscape.redguard.args import int_arg, int_args, label_arg
from soundscape.redguard.rtx_tasks import RtxAnimTask, RtxpTask, RtxTask
from soundscape.redguard.tasks import AmbientRtxTask, AmbientTask, NativeTask
from soundscape.redguard.taunts import present_taunt

if TYPE_CHECKING:
    from soundscape.redguard.runtime import RedguardRuntime

FLAT_PAN = 64


class ScriptCalls:
    """The script-facing sound functions of one Redguard runtime."""

    def __init__(self, runtime: RedguardRuntime) -> None:
        self.rt = runtime

    @staticmethod
    def _owner(caller: int, owner: int | None) -> int:
        return caller if owner is None else owner

    def Sound(self, caller: int, effect: int, volume_offset: int = 0, rate_offset: int = 0,
              *, owner: int | None = None) -> int:  # noqa: N802 - the SOUP name
        """Sound: a positional one-shot from the caller; starts even at v = 0; returns 0.

        Volume from the curve with ``volume_offset``, pan from the caller's
        emitter point (a code object is heard at the listener: v = clamp(127 +
        off), pan 64). A world object whose position is not finite starts nothing.
        """
        effect, rate_offset, volume_offset = int_args("Sound", effect=effect,
                                                      rate_offset=rate_offset,
                                                      volume_offset=volume_offset)
        found = self.rt.script_curve(caller, volume_offset)
        if found is None:
            self.rt.events.emit("redguard", "skip", sound=effect, owner=caller,
                                reason="emitter position not finite", caller="Sound")
            return 0
        _d, volume, pan = found
        self.rt.start(effect, rate_offset, volume, pan, self._owner(caller, owner), caller="Sound")
        return 0

    def FlatSound(self, caller: int, effect: int, volume: int = 0, rate_offset: int = 0,
                  *, owner: int | None = None) -> int:  # noqa: N802
        """FlatSound: pan 64, volume clamp(wrap32(base_volume + volume), 0, 127); returns 0."""
        effect, rate_offset, volume = int_args("FlatSound", effect=effect,
                                               rate_offset=rate_offset, volume=volume)
        record = self.rt.effects.get(effect)
        base = record.base_volume if record is not None else 0
        level = law.clamp(law.wrap32(base + volume), 0, law.VOLUME_MAX)
        self.rt.start(effect, rate_offset, level, FLAT_PAN, self._owner(caller, owner),
                      caller="FlatSound")
        return 0

    def AmbientSound(self, caller: int, effect: int, volume_offset: int = 0,
                     rate_offset: int = 0, *, owner: int | None = None) -> AmbientTask:  # noqa: N802
        """AmbientSound: a task that follows the listener until it leaves the range.

        Returns the task (``.done`` once it has stopped for good; ``TaskStop`` it
        to end it without stopping its sample).
        """
        effect, rate_offset, volume_offset = int_args("AmbientSound", effect=effect,
                                                      rate_offset=rate_offset,
                                                      volume_offset=volume_offset)
        task = AmbientTask(caller, self._owner(caller, owner), effect=effect,
                           rate_offset=rate_offset, volume_offset=volume_offset)
        self.rt.tasks.add(task)
        return task

    def AmbientRTX(self, caller: int, label: str, volume_offset: int = 0, arg3: int = 0,
                   *, owner: int | None = None) -> AmbientRtxTask:  # noqa: N802
        """AmbientRTX: the clip's audio as an ambient task (every shipped call passes 0)."""
        label = label_arg("AmbientRTX", label)
        volume_offset, arg3 = int_args("AmbientRTX", volume_offset=volume_offset, arg3=arg3)
        task = AmbientRtxTask(caller, self._owner(caller, owner), volume_offset=volume_offset,
                              label=label, arg3=arg3, effect=-1)
        self.rt.tasks.add(task)
        return task

    def EndSound(self, caller: int, effect: int) -> int:  # noqa: N802
        """EndSound: stops every channel whose requested effect is ``effect``; returns 0."""
        self.rt.stop_matching(effect=int_arg("EndSound", "effect", effect), reason="EndSound")
        return 0

    def EndMySound(self, caller: int, effect: int, *, owner: int | None = None) -> int:  # noqa: N802
        """EndMySound: the caller's channels with requested effect ``effect``; returns 0."""
        self.rt.stop_matching(owner=self._owner(caller, owner),
                              effect=int_arg("EndMySound", "effect", effect),
                              reason="EndMySound")
        return 0

    def EndMySounds(self, caller: int, *, owner: int | None = None) -> int:  # noqa: N802
        """EndMySounds: every channel the caller owns."""
        self.rt.stop_matching(owner=self._owner(caller, owner), reason="EndMySounds")
        return 0

    def StopAllSounds(self, caller: int = -1) -> int:  # noqa: N802
        """StopAllSounds: every sample channel."""
        self.rt.stop_all("StopAllSounds")
        return 0

    def RTX(self, caller: int, label: str) -> RtxTask:  # noqa: N802
        """RTX(label): the caller speaks a line (a dialogue task)."""
        task = RtxTask(caller, caller, label=label_arg("RTX", label))
        self.rt.tasks.add(task)
        return task

    def RTXp(self, caller: int, label: str) -> RtxpTask:  # noqa: N802
        """RTXp(label): the selected player speaks in record 0."""
        task = RtxpTask(caller, caller, label=label_arg("RTXp", label))
        self.rt.tasks.add(task)
        return task

    def rtxAnim(self, caller: int, label: str, a: int, b: int, c: int) -> RtxAnimTask:  # noqa: N802
        """rtxAnim(label, a, b, c): RTX plus the animation groups cycled b, c, a."""
        a, b, c = int_args("rtxAnim", a=a, b=b, c=c)
        task = RtxAnimTask(caller, caller, label=label_arg("rtxAnim", label), groups=(a, b, c))
        self.rt.tasks.add(task)
        return task

    def RTXpAnim(self, caller: int, label: str, a: int, b: int, c: int) -> RtxAnimTask:  # noqa: N802
        """RTXpAnim: the selected player speaks (an ordinary record) and is animated."""
        a, b, c = int_args("RTXpAnim", a=a, b=b, c=c)
        task = RtxAnimTask(caller, caller, label=label_arg("RTXpAnim", label), groups=(a, b, c),
                           player_actor=True)
        self.rt.tasks.add(task)
        return task

    def DialogBegin(self, caller: int = -1) -> int:  # noqa: N802
        """Writes one to the dialogue-state word (not the records WaitOnDialog scans)."""
        self.rt.dialog_state = 1
        return 0

    def DialogEnd(self, caller: int = -1) -> int:  # noqa: N802
        self.rt.dialog_state = 0
        return 0

    def MenuBegin(self, caller: int = -1) -> int:  # noqa: N802
        """Sets the menu-state word (the player controller then inhibits maintenance)."""
        self.rt.menu_state = 1
        return 0

    def MenuEnd(self, caller: int = -1) -> int:  # noqa: N802
        self.rt.menu_state = 0
        return 0

    def Taunt(self, caller: int, label: str | None, animation: int = 0) -> int:  # noqa: N802
        """A combat taunt (``soundscape.redguard.taunts.present_taunt``): its result word.

        ``label`` None or "" is the zero label (no replacement, no animation).
        """
        label = label_arg("Taunt", label) if label else None
        return present_taunt(self.rt, caller, label, int_arg("Taunt", "animation", animation))

    def WaitOnDialog(self, caller: int = -1) -> int:  # noqa: N802
        return self.rt.dialogue.wait_on_dialog()

    def TaskStop(self, task: NativeTask) -> None:  # noqa: N802
        """Removes the task slot without invoking it: no sample is stopped."""
        self.rt.tasks.stop(task)

    def KillMe(self, caller: int) -> int:  # noqa: N802
        """Killed flag 1, death-state 8, and every channel the object owns stopped."""
        obj = esper.try_component(caller, RgObject) if esper.entity_exists(caller) else None
        if obj is not None:
            obj.killed, obj.death_state = True, 8
        self.rt.stop_matching(owner=caller, reason="KillMe")
        return 0

    def Resurrect(self, caller: int) -> int:  # noqa: N802
        """Clears the killed flag when it is set or the death state is 8; an actor with
        combat state gets it reinitialised (record 0, result 0, no cache reference)."""
        obj = esper.try_component(caller, RgObject) if esper.entity_exists(caller) else None
        if obj is not None and (obj.killed or obj.death_state == 8):
            obj.killed = False
        combat = esper.try_component(caller, RgCombat)
        if combat is not None:
            combat.cache_ref, combat.record, combat.result = None, 0, 0
        return 0
