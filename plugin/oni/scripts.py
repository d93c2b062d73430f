"""The script commands: music, ambients, dialogue and impulses (seed 001, "Music, dialog
and the scripts"; registered by ``OSiScriptCommands_Initialize`` 0x512cb0).

* ``sound_music_*`` and ``sound_ambient_*`` are the same functions (0x514410,
  0x514500, 0x514550): start an ambient at priority 3 in one of 16 script slots,
  and stop it or fade it by name (compared without case); script volumes are
  held to 0..1.
* ``sound_dialog_play`` (0x514140): one dialogue at a time; while one plays the
  call does nothing. ``sound_dialog_play_block`` (0x5142e0) stalls the script
  thread while a dialogue plays, then starts its own: here the stalled thread is
  a queued call (with an optional ``then`` continuation) that runs on the first
  tick the current dialogue no longer counts as playing.
  ``sound_dialog_play_interrupt`` (0x514300) halts the current dialogue first.
* A dialogue counts as playing until its ambient ends, or sooner once the first
  sound of base track 1 has played its length. Bungie's ``OSiDialog_Start``
  (``Oni_Sound2.c``) counts it in whole game ticks: ``EndTime = now + duration``
  with ``duration`` the base track 1 group's first permutation with sound data
  (``OSiAmbient_GetSimpleDuration``, the sound's integer ``duration_ticks``), and
  ``OSiScriptCommands_Update`` ends it when ``now >= EndTime``. A start refused
  (threshold, no slot) with no such duration counts 120 ticks (2 s); a start
  refused with one counts that duration; a start with no duration that did get
  an id has no end time (0) and so ends at the next update. A name with no
  ambient starts no dialogue at all (``OSiDialog_Start`` returns before it marks
  one playing).
* ``sound_impulse_play`` (0x5145f0) plays the impulse at the listener.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from soundscape.errors import SoundscapeError
from soundscape.names import check_sound_name
from soundscape.oni.ambients import SCRIPT_PRIORITY

if TYPE_CHECKING:
    from soundscape.oni.sound import OniSound

SCRIPT_SLOTS = 16
FAILED_DIALOG_TICKS = 120
"""``OSiDialog_Start``'s duration for a dialogue refused a start whose base track 1
has no duration (2 s of 60 Hz game ticks)."""
BUFFER_HZ = 22050
"""``duration_ticks`` counts the sound's frames on the 22,050 Hz buffer."""


@dataclass(slots=True)
class Dialog:
    """The current dialogue: its name, its ambient id (None: the start was refused) and
    ``end_tick`` (``OSgDialog_EndTime``: it counts as playing while ``tick < end_tick``)."""

    name: str
    ambient_id: int | None
    end_tick: int


@dataclass(slots=True)
class BlockedCall:
    """A ``sound_dialog_play_block`` waiting for the current dialogue."""

    name: str | None
    then: Callable[[], object] | None


DIALOG_ENDS_KEPT = 256
"""How many dialogue ends ``Scripts.dialog_ends`` keeps (issue 13: every per-id table
is bounded)."""


class Scripts:
    """``ctx.oni.scripts``: the BSL sound commands by their retail names."""

    def __init__(self, sound: OniSound) -> None:
        self.sound = sound
        self.slots: list[tuple[str, int] | None] = [None] * SCRIPT_SLOTS
        self.dialog: Dialog | None = None
        self.blocked: deque[BlockedCall] = deque()
        self.dialog_ends: list[tuple[str, int]] = []
        """The latest ``DIALOG_ENDS_KEPT`` dialogues with the tick each stopped counting
        as playing, oldest first (the event log has every ``dialog_end``)."""

    # -- music and ambients -----------------------------------------------------------

    def _find(self, name: str) -> int | None:
        for i, entry in enumerate(self.slots):
            if entry is not None and entry[0].lower() == name.lower():  # NoCase compare
                if self.sound.ambients.is_active(entry[1]):
                    return i
                self.slots[i] = None  # ended on its own: the slot is free again
        return None

    def sound_music_start(self, name: str, volume: float = 1.0) -> bool:
        """Start ``name`` at priority 3 in a free script slot, at ``volume`` held to 0..1
        (``OSiScriptAmbient_Start``)."""
        check_sound_name(name, "oni sound_music_start")
        volume = _unit(volume)
        for i, entry in enumerate(self.slots):
            if entry is not None and not self.sound.ambients.is_active(entry[1]):
                self.slots[i] = None
        free = next((i for i, e in enumerate(self.slots) if e is None), None)
        if free is None:
            self.sound.emit("script_refused", sound=name, reason="no script slot")
            return False
        ambient_id = self.sound.ambient_start(name, volume=volume, priority=SCRIPT_PRIORITY,
                                              tag="script")
        self.sound.emit("script_start", sound=name, gain=volume, slot=free, id=ambient_id)
        if ambient_id is None:
            return False
        self.slots[free] = (name, ambient_id)
        return True

    def sound_music_stop(self, name: str) -> bool:
        """Stop the first script ambient ``name`` (loops off: its segment ends, then its
        out). Its slot stays taken until the ambient has ended (``OSiScriptAmbient_Stop``
        keeps the play id; the update frees it), so a second stop finds the same one."""
        i = self._find(name)
        if i is None:
            return False
        entry = self.slots[i]
        self.sound.emit("script_stop", sound=name, slot=i)
        return entry is not None and self.sound.ambients.stop(entry[1])

    def sound_music_volume(self, name: str, volume: float, time_s: float = 0.0) -> bool:
        """Fade the script ambient ``name`` to ``volume`` over ``time_s``."""
        i = self._find(name)
        entry = self.slots[i] if i is not None else None
        if entry is None:
            return False
        return self.sound.ambients.fade(entry[1], volume, time_s)

    sound_music_fade = sound_music_volume
    sound_ambient_start = sound_music_start
    sound_ambient_stop = sound_music_stop
    sound_ambient_volume = sound_music_volume
    sound_ambient_fade = sound_music_volume

    # -- dialogue ---------------------------------------------------------------------

    def dialog_playing(self) -> bool:
        """Whether the current dialogue still counts as playing
        (``OSiScriptCommands_Update``: its ambient is active and ``now < EndTime``)."""
        d = self.dialog
        if d is None:
            return False
        if d.ambient_id is not None and not self.sound.ambients.is_active(d.ambient_id):
            return False
        return self.sound.ctx.clock.tick < d.end_tick

    def simple_duration_ticks(self, name: str) -> int:
        """``OSiAmbient_GetSimpleDuration``: the duration in whole ticks of the first
        permutation of base track 1 that has sound data, 0 when there is none.

        ``duration_ticks`` is ``(UUtUns16)(bytes x 60 / (channels x 2 x 22,050))``:
        the sound's frames on the 22,050 Hz buffer, in integer ticks.
        """
        amb = self.sound.ambient(name)
        group = amb.base1 if amb is not None else None
        if group is None or not self.sound.ctx.has("sounds"):
            return 0
        sounds = self.sound.ctx.sounds
        for perm in group.permutations:
            try:
                data = sounds.get(perm.sound)
            except SoundscapeError:
                data = None
            if data is not None:
                return (data.frames * 60 // BUFFER_HZ) & 0xFFFF
        return 0

    def _start_dialog(self, name: str) -> bool:
        """``OSiDialog_Start``: an unknown name does nothing (no dialogue, no 2 s)."""
        if self.sound.ambient(name) is None:
            self.sound.emit("missing_ambient", sound=name, reason="dialog")
            return False
        ambient_id = self.sound.ambient_start(name, priority=SCRIPT_PRIORITY, tag="dialog")
        now = self.sound.ctx.clock.tick
        duration = self.simple_duration_ticks(name)
        if duration:
            end_tick = now + duration
        elif ambient_id is None:
            end_tick = now + FAILED_DIALOG_TICKS
        else:
            end_tick = 0  # playing, no duration: no end cue, so the next update ends it
        self.dialog = Dialog(name, ambient_id, end_tick)
        self.sound.emit("dialog_start", sound=name, id=ambient_id, started=ambient_id is not None,
                        end_tick=end_tick)
        return ambient_id is not None

    def sound_dialog_play(self, name: str) -> bool:
        """Start ``name`` as the dialogue; does nothing while one plays."""
        check_sound_name(name, "oni sound_dialog_play")
        self._note_end()
        if self.dialog_playing():
            self.sound.emit("dialog_ignored", sound=name,
                            playing=self.dialog.name if self.dialog else None)
            return False
        return self._start_dialog(name)

    def sound_dialog_play_block(self, name: str | None = None,
                                then: Callable[[], object] | None = None) -> bool:
        """Wait for the current dialogue, then start ``name`` (None: only wait), then ``then``.

        Returns True when it went on at once; False when the call is queued.
        """
        if name is not None:
            check_sound_name(name, "oni sound_dialog_play_block")
        self._note_end()
        if not self.blocked and not self.dialog_playing():
            self._run_blocked(BlockedCall(name, then))
            return True
        self.blocked.append(BlockedCall(name, then))
        self.sound.emit("dialog_block", sound=name, waiting=len(self.blocked))
        return False

    def sound_dialog_play_interrupt(self, name: str) -> bool:
        """Halt the current dialogue, then start ``name``."""
        check_sound_name(name, "oni sound_dialog_play_interrupt")
        self._note_end()
        d = self.dialog
        if d is not None:  # still counts as playing: it is cut and ends now
            self.sound.emit("dialog_interrupt", sound=d.name, by=name)
            self.sound.ambients.halt(d.ambient_id, reason="dialog interrupt")
            self._ended(d.name)
            self.sound.emit("dialog_end", sound=d.name, id=d.ambient_id, reason="interrupt")
            self.dialog = None
        return self._start_dialog(name)

    def _ended(self, name: str) -> None:
        ends = self.dialog_ends
        ends.append((name, self.sound.ctx.clock.tick))
        if len(ends) > DIALOG_ENDS_KEPT:  # bounded: an hours-long game speaks thousands
            del ends[: len(ends) - DIALOG_ENDS_KEPT]

    def _run_blocked(self, call: BlockedCall) -> None:
        if call.name is not None:
            self._start_dialog(call.name)
        if call.then is not None:  # the game's continuation: one that raises is reported once
            self.sound.ctx.events.call("oni", call.then, role="then")

    def _note_end(self) -> None:
        d = self.dialog
        if d is not None and not self.dialog_playing():
            self._ended(d.name)
            self.sound.emit("dialog_end", sound=d.name, id=d.ambient_id)
            self.dialog = None

    def tick(self) -> None:
        """Each tick: note a dialogue that stopped playing; let stalled calls go on."""
        self._note_end()
        while self.blocked and not self.dialog_playing():
            self._run_blocked(self.blocked.popleft())
            self._note_end()

    # -- impulses ---------------------------------------------------------------------

    def sound_impulse_play(self, name: str, volume: float = 1.0) -> bool:
        """Play the impulse at the listener, at ``volume`` held to 0..1."""
        check_sound_name(name, "oni sound_impulse_play")
        return self.sound.play_impulse(name, None, _unit(volume))


def _unit(volume: float) -> float:
    """A script volume held to 0..1 (``UUmPin``); NaN passes on to be refused."""
    return volume if volume != volume else min(max(volume, 0.0), 1.0)
