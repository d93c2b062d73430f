"""The ambient slot state machine (0x480c20, seed 001 "Ambients"; Bungie's
``SSiPlayingAmbient_Update`` and its ``SSiPAUpdate_*`` stages).

start -> in -> in wait -> base -> body -> end wait -> out -> out wait -> release.
It runs from ``SSrAmbient_Start``, every tick (phase SOUND_OBJECTS) and whenever
one of a slot's channels' sound ends (the bank's ``on_end``), until the slot
waits. ``AmbientSlots`` (``oni_ambients``) builds on it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from soundscape.oni.data import Ambient
from soundscape.oni.slot import AmbientSlot, State, Track

if TYPE_CHECKING:
    from soundscape.oni.sound import OniSound

RETAKE_FADE_S = 0.5
"""The re-take asks for a half-second fade to the ambient's volume."""


class AmbientMachine:
    """The stages of one slot; needs ``sound`` (the ``OniSound``) and ``ids``."""

    sound: OniSound
    ids: dict[int, AmbientSlot]

    @staticmethod
    def fade_track(track: Track, target: float, rate_per_tick: float) -> None:
        """The channel fade: starts only when the target changes (the re-take quirk)."""
        if target == track.fade_target:
            return
        track.fade_target, track.fade_rate, track.fading = target, rate_per_tick, True

    # -- the state machine (0x480c20) ---------------------------------------------------

    def _go(self, slot: AmbientSlot, state: State) -> None:
        if slot.state != state:
            self.sound.emit("ambient_state", sound=slot.ambient.name if slot.ambient else None,
                            id=slot.id, slot=slot.index, old=slot.state.name, new=state.name)
            slot.state = state

    def run(self, slot: AmbientSlot) -> None:
        """Run the slot's state machine until it waits."""
        for _ in range(len(State) + 1):
            before = slot.state
            self._step(slot)
            if slot.state == before or slot.state == State.FREE:
                return

    def _step(self, slot: AmbientSlot) -> None:
        amb, tracks, snd = slot.ambient, slot.tracks, self.sound
        if amb is None:
            return
        state = slot.state
        if state == State.START:
            self._start(slot, amb)
        elif state == State.IN:
            played = amb.in_group is not None and snd.play_track(slot, tracks[0], amb.in_group,
                                                                 loop=False)
            self._go(slot, State.IN_WAIT if played else State.BASE)
        elif state == State.IN_WAIT:
            if not snd.bank.is_playing(tracks[0].handle):
                self._go(slot, State.BASE)
        elif state == State.BASE:
            self._base(slot, amb)
        elif state == State.BODY:
            self._body(slot, amb)
        elif state == State.END_WAIT:
            for track in tracks:  # SSiPAUpdate_BodyStopping: no channel loops any more
                track.looping = False
            if not any(snd.bank.is_playing(t.handle) for t in tracks):
                self._go(slot, State.OUT)
        elif state == State.OUT:
            snd.bank.release(tracks[1].handle)
            tracks[1].handle = None
            played = amb.out_group is not None and snd.play_track(slot, tracks[0], amb.out_group,
                                                                  loop=False)
            self._go(slot, State.OUT_WAIT if played else State.RELEASE)
        elif state == State.OUT_WAIT:
            if not snd.bank.is_playing(tracks[0].handle):
                self._go(slot, State.RELEASE)
        elif state == State.RELEASE:
            self._release(slot, amb)

    def _start(self, slot: AmbientSlot, amb: Ambient) -> None:
        """Channels for base 1 (or the in, or the out group) and base 2, locked."""
        first = amb.base1 or amb.in_group or amb.out_group
        t1, t2 = slot.tracks
        t1.handle = self.sound.acquire(slot, first) if first is not None else None
        t2.handle = self.sound.acquire(slot, amb.base2) if amb.base2 is not None else None
        if t1.handle is None and t2.handle is None:
            if amb.detail is not None:
                slot.details_only = True  # the first detail is due at once (time 0)
                self._go(slot, State.BODY)
            else:
                self._go(slot, State.RELEASE)
            return
        self._go(slot, State.IN)

    def _base(self, slot: AmbientSlot, amb: Ambient) -> None:
        """``SSiPAUpdate_BodyStart``: the base tracks start at the channel volume as it
        stands; a fade asked for during the in sound goes on (``SSiPAUpdate_Volume`` moves
        the ambient's ``channel_volume`` every update, whatever the stage)."""
        loop = not amb.play_once
        for track in slot.tracks:
            if track.group is not None and track.handle is not None:
                self.sound.play_track(slot, track, track.group, loop=loop)
        self._schedule_detail(slot, amb)
        self._go(slot, State.BODY)

    def _body(self, slot: AmbientSlot, amb: Ambient) -> None:
        """``SSiPAUpdate_BodyPlaying``.

        Which channels play is read first. A base track without a channel (lost to
        the quietest-channel rule, or never had one) is taken again at volume 0, not
        looping. Base 1's channel that is not playing plays its group again unless
        the ambient plays once. Base 2's plays again only while its channel loops;
        otherwise (a stop turned its loop off, or it was taken again) base 1's loop
        goes off and the ambient goes to end wait. Then, with the flags read before
        the re-take: nothing was playing, or (play once) base 1's sound has ended ->
        end wait. Else the detail when its time has passed (``detail_time < now``).

        So a lone base track that lost its channel is taken again, silent, and the
        ambient ends after that sound (retail reads the channel as not playing); a
        re-taken base 2 is never played again.
        """
        snd = self.sound
        if slot.details_only:  # ``SSiPAUpdate_DetailOnly``: details until a stop
            self._detail(slot, amb)
            return
        was_playing = [snd.bank.is_playing(t.handle) for t in slot.tracks]
        first, second = slot.tracks
        for track in slot.tracks:
            if track.group is not None and track.handle is None:
                self._retake(slot, track)
        if (first.group is not None and first.handle is not None and not was_playing[0]
                and not amb.play_once):
            snd.play_track(slot, first, first.group, loop=first.looping)
        if (second.group is not None and second.handle is not None and not was_playing[1]
                and not amb.play_once):
            if second.looping:
                snd.play_track(slot, second, second.group, loop=True)
            elif first.handle is not None and first.looping:
                # Bungie: base 2 ended without its loop (a stop, or a re-taken channel):
                # base 1's loop goes off and the ambient moves to end wait
                first.looping = False
                self._go(slot, State.END_WAIT)
                return
        if not any(was_playing) or (amb.play_once and first.group is not None
                                    and first.handle is not None and not was_playing[0]):
            self._go(slot, State.END_WAIT)
            return
        self._detail(slot, amb)

    def _detail(self, slot: AmbientSlot, amb: Ambient) -> None:
        """The detail when its time has passed (``detail_time < now``), then the next time."""
        if amb.detail is not None and slot.next_detail_tick < self.sound.ctx.clock.tick:
            self.sound.play_detail(slot, amb)
            self._schedule_detail(slot, amb)

    def _retake(self, slot: AmbientSlot, track: Track) -> None:
        """``SSiPAUpdate_ReserveChannel`` at volume 0 (not looping), then
        ``SSrAmbient_SetVolume(channel_volume, 0.5 s)``: the fade's target did not change,
        so it never starts and the channel stays silent until the volume is set again."""
        if track.group is None:
            return
        handle = self.sound.acquire(slot, track.group)
        if handle is None:
            return
        track.handle, track.lost, track.looping = handle, False, False
        track.part_volume = 0.0
        ticks = RETAKE_FADE_S * self.sound.ctx.clock.tick_hz
        self.fade_track(track, slot.volume, abs(slot.volume - track.part_volume) / ticks)
        self.sound.emit("ambient_retake", sound=slot.ambient.name if slot.ambient else None,
                        id=slot.id, channel=handle.slot, gain=track.part_volume)

    def _schedule_detail(self, slot: AmbientSlot, amb: Ambient) -> None:
        """``SSiPAUpdate_CalcNextDetailTime``: now + ``(UUtUns32)(uniform(min, max) x 60)``.

        The conversion rounds to the nearest tick (half to even): the retail build
        converts floats to integers by rounding (the seed's 0x485480 ``round``, and
        0x4830c0's 7 stereo channels from ``16 x 0.4 + 0.5``), docs/divergences.md.
        """
        if amb.detail is None:
            return
        wait_s = self.sound.random.uniform(amb.detail_interval_min_s, amb.detail_interval_max_s)
        ticks = max(round(wait_s * self.sound.ctx.clock.tick_hz), 0)
        slot.next_detail_tick = self.sound.ctx.clock.tick + ticks

    def _release(self, slot: AmbientSlot, amb: Ambient) -> None:
        for track in slot.tracks:
            self.sound.bank.release(track.handle)
            track.handle = None
        self.sound.emit("ambient_end", sound=amb.name, id=slot.id, slot=slot.index)
        slot.state, slot.ambient = State.FREE, None
        self.ids.pop(slot.id, None)
