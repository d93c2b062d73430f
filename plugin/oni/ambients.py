"""Ambient slots: ``SSrAmbient_Start`` / ``Stop`` / ``Update`` (seed 001 "Ambients").

``SSrAmbient_Start`` 0x4821f0 takes one of 16 slots and runs the slot's state
machine (0x480c20), which also runs every frame (phase SOUND_OBJECTS) and
whenever one of its channels' sound ends (the bank's ``on_end``, phase CHANNELS):

start -> in -> in wait -> base -> body -> end wait -> out -> out wait -> release
(the stages are ``oni_machine.AmbientMachine``).

Each slot keeps two ``Track``s (the channels of base 1 and base 2). A track's
``part_volume`` is the ambient's share of the channel volume (channel +0x44);
the channel volume is ``part x distance x permutation x overall x group``.
Fades (0x482000, 0x481860) move the part volume by a rate per tick and start
only when their target changes: the re-take quirk falls out of that.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from soundscape.audio.channels import Handle
from soundscape.errors import InputError
from soundscape.oni.data import Ambient
from soundscape.oni.groups import group_kind
from soundscape.oni.machine import AmbientMachine
from soundscape.oni.slot import AmbientSlot, State, Track, fade_step

if TYPE_CHECKING:
    from soundscape.oni.sound import OniSound

SLOTS = 16
SCRIPT_PRIORITY = 3
MAX_PART_VOLUME = 2.0
"""``SSrAmbient_Update`` holds the channels' volume to 0..2."""

Vec3 = tuple[float, float, float]


class AmbientSlots(AmbientMachine):
    """The 16 slots, ``SSrAmbient_Start``/``Stop``/``Update`` and the channel events,
    bound to one ``OniSound``; the state machine itself is ``AmbientMachine``."""

    def __init__(self, sound: OniSound) -> None:
        self.sound = sound
        self.slots = [AmbientSlot(i) for i in range(SLOTS)]
        self.ids: dict[int, AmbientSlot] = {}
        """The active slots by id."""
        self._next_id = 1

    # -- lookups ----------------------------------------------------------------------

    def by_id(self, ambient_id: int | None) -> AmbientSlot | None:
        """The active slot of ``ambient_id``, or None when it has ended."""
        return self.ids.get(ambient_id) if ambient_id is not None else None

    def is_active(self, ambient_id: int | None) -> bool:
        return ambient_id is not None and ambient_id in self.ids

    def active(self) -> list[AmbientSlot]:
        return [s for s in self.slots if s.state != State.FREE]

    def full(self) -> bool:
        """Every slot is taken."""
        return len(self.ids) >= SLOTS

    # -- SSrAmbient_Start / Stop / Update ------------------------------------------------

    def start(self, ambient: Ambient, *, priority: int | None = None, volume: float = 1.0,
              position: Vec3 | None = None, tag: str = "", quiet: bool = False,
              near: float | None = None, far: float | None = None) -> int | None:
        """``SSrAmbient_Start`` 0x4821f0 (with a place) / 0x4823a0 (without one).

        Fails (None) when the ambient already plays ``threshold`` times or when no
        slot is free. A start whose start state found nothing to play (no channel,
        no detail) still returns its id, as Bungie's ``SSrAmbient_Start`` does; the
        slot is free again at once, so the id is no longer active. ``near`` and
        ``far`` replace the ambient's distances for its tracks when it has a place. ``quiet``
        leaves a refusal out of the event log (a placed record retrying each tick).
        """
        snd = self.sound
        _check(ambient.name, volume, position)
        if quiet and len(self.ids) >= SLOTS:
            return None
        playing = sum(1 for s in self.slots if s.ambient is ambient and s.counts_as_playing)
        if playing >= ambient.threshold:
            if not quiet:
                snd.emit("ambient_refused", sound=ambient.name, reason="threshold",
                         playing=playing)
            return None
        slot = next((s for s in self.slots if s.state == State.FREE), None)
        if slot is None:
            if not quiet:
                snd.emit("ambient_refused", sound=ambient.name, reason="no slot")
            return None
        slot.id, self._next_id = self._next_id, self._next_id + 1
        self.ids[slot.id] = slot
        slot.ambient, slot.state = ambient, State.START
        slot.priority = ambient.priority if priority is None else priority
        slot.volume = min(max(volume, 0.0), MAX_PART_VOLUME)
        slot.position, slot.tag = position, tag
        placed = position is not None
        slot.near = near if placed and near is not None else ambient.near
        slot.far = far if placed and far is not None else ambient.far
        v = slot.volume
        slot.tracks = [Track(ambient.base1, part_volume=v, fade_target=v),
                       Track(ambient.base2, part_volume=v, fade_target=v)]
        slot.next_detail_tick, slot.details_only = -1, False
        snd.emit("ambient_start", sound=ambient.name, pos=position, gain=slot.volume,
                 id=slot.id, slot=slot.index, priority=slot.priority)
        ambient_id = slot.id
        self.run(slot)
        return ambient_id

    def stop(self, ambient_id: int | None) -> bool:
        """``SSrAmbient_Stop`` 0x4823c0: loops off, to end wait, so the base plays to its
        end and then the out sound; interrupt-on-stop cuts the channels first.

        As Bungie's ``SSrAmbient_Stop``: while base 2's channel plays, only its loop goes
        off and the slot stays where it is; when that sound ends, the body turns base
        1's loop off and goes to end wait. Otherwise base 1's loop goes off and the slot
        goes to end wait. A slot already in end wait, out or out wait is left alone
        (False). After a cut the end wait finds nothing playing, so the out sound
        follows at once.
        """
        slot = self.by_id(ambient_id)
        if slot is None or slot.ambient is None or slot.state >= State.END_WAIT:
            return False
        self.sound.emit("ambient_stop", sound=slot.ambient.name, id=slot.id,
                        interrupt=slot.ambient.interrupt_on_stop)
        first, second = slot.tracks
        if slot.ambient.interrupt_on_stop:
            for track in slot.tracks:
                self.sound.bank.stop(track.handle, reason="interrupt")
        elif self.sound.bank.is_playing(second.handle):
            second.looping = False
            return True
        else:
            first.looping = False
        self._go(slot, State.END_WAIT)
        self.run(slot)
        return True

    def halt(self, ambient_id: int | None, reason: str = "halt") -> bool:
        """Cut the ambient's channels at once and free its slot."""
        slot = self.by_id(ambient_id)
        if slot is None:
            return False
        for track in slot.tracks:
            self.sound.bank.stop(track.handle, reason=reason)
        self._go(slot, State.RELEASE)
        self.run(slot)
        return True

    def update(self, ambient_id: int | None, position: Vec3 | None, volume: float) -> bool:
        """``SSrAmbient_Update`` 0x4824a0: the place and the channels' volume (held to 0..2)."""
        slot = self.by_id(ambient_id)
        if slot is None:
            return False
        _check(slot.ambient.name if slot.ambient else "?", volume, position)
        slot.position = position
        slot.volume = min(max(volume, 0.0), MAX_PART_VOLUME)
        for track in slot.tracks:
            track.part_volume = slot.volume
        return True

    def fade(self, ambient_id: int | None, target: float, time_s: float) -> bool:
        """``SSrAmbient_SetVolume``: fade both channels to ``target`` (held to 0..1) over
        ``time_s``; at once when ``time_s * 60 <= 0``; nothing when ``target`` is the
        volume already asked for."""
        slot = self.by_id(ambient_id)
        if slot is None:
            return False
        _check(slot.ambient.name if slot.ambient else "?", target, None)
        if not math.isfinite(time_s):
            raise InputError(f"ambient fade: time {time_s!r} is not finite")
        target = min(max(target, 0.0), 1.0)
        if target == slot.volume:
            return True
        slot.volume = target
        ticks = time_s * self.sound.ctx.clock.tick_hz
        for track in slot.tracks:
            if ticks > 0.0:
                self.fade_track(track, target, abs(target - track.part_volume) / ticks)
            else:
                track.part_volume = track.fade_target = target
                track.fading = False
        self.sound.emit("ambient_fade", sound=slot.ambient.name if slot.ambient else None,
                        id=slot.id, gain=target, time_s=time_s)
        return True

    # -- channel events ---------------------------------------------------------------

    def track_of(self, slot_index: int, handle: Handle) -> tuple[AmbientSlot, Track] | None:
        if not 0 <= slot_index < SLOTS:
            return None
        slot = self.slots[slot_index]
        if slot.state == State.FREE:
            return None
        for track in slot.tracks:
            if track.handle == handle:
                return slot, track
        return None

    def on_end(self, slot: AmbientSlot, track: Track, overshoot_frames: float) -> None:
        """A track's sound ended: a looping track plays its group again (a new permutation,
        gapless), then the state machine runs."""
        if track.looping and track.group is not None and slot.state == State.BODY:
            old = track.draw
            seconds = overshoot_frames / (22050.0 * old.pitch) if old and old.pitch > 0 else 0.0
            self.sound.play_track(slot, track, track.group, loop=True, offset_s=seconds)
        self.run(slot)

    def on_steal(self, slot: AmbientSlot, track: Track) -> None:
        """The quietest-channel rule took a channel from this ambient: it is lost."""
        track.handle, track.lost = None, True
        self.sound.emit("ambient_lost", sound=slot.ambient.name if slot.ambient else None,
                        id=slot.id)

    # -- every tick -------------------------------------------------------------------

    def tick(self, ticks: int) -> None:
        """Fades, the state machines, then every track's channel volume and pan."""
        for slot in self.slots:
            if slot.state == State.FREE:
                continue
            for track in slot.tracks:
                if track.fading:
                    fade_step(track, ticks)
            self.run(slot)
            if slot.state != State.FREE:
                self.sound.refresh_tracks(slot)


def _check(name: str, volume: float, position: Vec3 | None) -> None:
    """A NaN volume or place from the game is refused with a clear error."""
    if not math.isfinite(volume):
        raise InputError(f"ambient {name!r}: volume {volume!r} is not finite")
    if position is not None and not all(math.isfinite(v) for v in position):
        raise InputError(f"ambient {name!r}: place {position} is not finite")


__all__ = ["SLOTS", "SCRIPT_PRIORITY", "AmbientSlot", "AmbientSlots", "State", "Track",
           "group_kind"]
