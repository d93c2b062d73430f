"""AC ``Ambient``: the sounds list, the weight total and the min-heap of play deadlines.

Rebuild (``CellManager::ChangePosition``): ``init_sounds`` resets every count,
the landscape adds each audible land cell (``add_sound``), ``update_play_queue``
recomputes volumes and chances and arms what is not armed (an immediate first
play), ``release_sound_tables`` frees the tables nobody used. Every frame
``use_time`` pops the deadlines strictly earlier than now and plays them; a
play re-inserts its sound at ``now + GetPlayInterval()`` or, if the sound can
no longer be heard, drops it from the heap until the next rebuild.
"""

from __future__ import annotations

import heapq

from soundscape.ac.region import AmbientSTBDesc
from soundscape.ac.sound_manager import SOURCE, AcSoundManager
from soundscape.ac.sound_types import sound_type_name
from soundscape.ac.sounds import AmbientSound, Vec3, new_sound
from soundscape.laws.ac import MAX_DIST_SQ, calc_dir, calc_weight, f32, get_offset

_Deadline = tuple[float, int, AmbientSound]
"""A heap node: (absolute deadline seconds, insertion number for ties, sound)."""


class Ambient:
    """``Ambient`` (owned by ``CellManager``): sounds, total weight, deadlines.

    Attributes:
        sounds: every ``(STB desc, index)`` ambient met this session, in creation
            order (it only grows, like retail's ``DArray``).
        total_sound_count: the sum of every audible cell's weight this rebuild.
        player_cell, player_origin: the listener ``init_sounds`` latched.
        enabled: ``SoundManager::ambient_sounds_enabled``.
    """

    def __init__(self, manager: AcSoundManager) -> None:
        self.manager = manager
        self.sounds: list[AmbientSound] = []
        self._by_key: dict[tuple[int, int], AmbientSound] = {}
        self.total_sound_count = 0.0
        self.player_cell = 0
        self.player_origin: Vec3 = (0.0, 0.0, 0.0)
        self.enabled = True
        self._heap: list[_Deadline] = []
        self._seq = 0

    # -- rebuild ---------------------------------------------------------------

    def init_sounds(self, cell: int, origin: Vec3) -> None:
        """``Ambient::InitSounds`` 0x5515d0: latch the listener, zero the total and counts."""
        self.player_cell, self.player_origin = cell, origin
        self.total_sound_count = 0.0
        for sound in self.sounds:
            sound.reset_count()

    def get_sound(self, desc: AmbientSTBDesc, ambient_sound_id: int) -> AmbientSound:
        """``Ambient::GetSound`` 0x5510b0: find the (desc, index) sound or append a new one."""
        key = (id(desc), ambient_sound_id)
        sound = self._by_key.get(key)
        if sound is None:
            sound = self._by_key[key] = new_sound(desc, ambient_sound_id)
            self.sounds.append(sound)
        return sound

    def add_sound(self, desc: AmbientSTBDesc, cell: int, origin: Vec3) -> None:
        """``Ambient::AddSound`` 0x551610: one land cell's contribution (the scalar path).

        The offset is block-corrected; beyond 120 m (3D) nothing is added.
        """
        if not self.enabled:
            return
        off = get_offset(self.player_cell, self.player_origin, cell, origin)
        d2 = f32(f32(f32(off[0] * off[0]) + f32(off[1] * off[1])) + f32(off[2] * off[2]))
        if d2 > MAX_DIST_SQ:
            return
        weight = calc_weight(*off)
        direction = calc_dir(off[0], off[1])
        if weight == 0.0:
            return
        self.total_sound_count = f32(self.total_sound_count + weight)
        for i in range(len(desc.ambient_sounds)):
            self.get_sound(desc, i).add_to(weight, off, direction)

    def update_play_queue(self, now_s: float) -> None:
        """``Ambient::UpdatePlayQueue`` 0x551a50: recompute every sound, arm the unarmed now."""
        if not self.enabled:
            return
        for sound in self.sounds:
            sound.update_sound(self.total_sound_count)
            if not sound.on_queue:
                self.play(sound, now_s)

    def release_sound_tables(self) -> None:
        """``Ambient::ReleaseSoundTables`` 0x455770: free each table no audible sound used."""
        for sound in self.sounds:
            _release_if_unused(sound.desc)

    def flush_sound_tables(self) -> None:
        """``Ambient::FlushSoundTables`` 0x452920 (``CellManager::Reset``).

        Each sound's ``ResetCount`` zeroes its desc's ``play_count`` just before
        the check, so every table is released; the heap is left alone, so stale
        deadlines fire later, cannot be heard and quietly un-arm. A released
        table comes back only through ``CRegionDesc::GetSTBDesc``'s lazy load
        during a later rebuild's accumulation.
        """
        self.total_sound_count = 0.0
        for sound in self.sounds:
            sound.reset_count()
            _release_if_unused(sound.desc)

    # -- playback ----------------------------------------------------------------

    def use_time(self, now_s: float) -> int:
        """``Ambient::UseTime`` 0x551880: play every deadline strictly before now.

        Returns how many deadlines were popped.
        """
        if not self.enabled:
            return 0
        heap, popped = self._heap, 0
        while heap and heap[0][0] < now_s:
            self.play(heapq.heappop(heap)[2], now_s)
            popped += 1
        return popped

    def play(self, sound: AmbientSound, now_s: float) -> None:
        """``Ambient::Play`` 0x5517a0: hear?, roll, place, play, re-insert."""
        manager = self.manager
        if not sound.can_hear():
            if sound.on_queue:  # a popped deadline: it leaves the heap (logged once)
                manager.ctx.events.emit(
                    SOURCE, "unarm", reason="inaudible", kind=sound.kind, ambient=sound.label,
                    stype=sound_type_name(sound.sound_desc.stype),
                )
            sound.on_queue = False
            return
        rng = manager.dice  # every RollDice draws Random::rand (UniformUnit)
        if sound.play_now(rng):
            pos = sound.get_sound_pos(manager.player_origin, rng)
            if pos is None:
                manager.play_from_center(sound, sound.get_volume())
            else:
                manager.play_positioned(sound, pos, sound.get_volume())
        else:
            manager.ctx.events.emit(
                SOURCE, "skip", reason="chance", kind=sound.kind, ambient=sound.label,
                stype=sound_type_name(sound.sound_desc.stype),
            )
        self._seq += 1
        heapq.heappush(self._heap, (now_s + sound.get_play_interval(rng), self._seq, sound))
        sound.on_queue = True

    # -- inspection ----------------------------------------------------------------

    def heap(self) -> list[tuple[float, AmbientSound]]:
        """The armed deadlines, earliest first: (seconds, sound)."""
        return [(d[0], d[2]) for d in sorted(self._heap)]

    def next_deadline_s(self) -> float | None:
        """The earliest armed deadline (``sound_queue``'s root), or None when empty."""
        return self._heap[0][0] if self._heap else None

    def __len__(self) -> int:
        """How many deadlines are in the heap."""
        return len(self._heap)


def _release_if_unused(desc: AmbientSTBDesc) -> None:
    """Release ``desc``'s sound table when no audible sound counted it (``play_count == 0``).

    Shared by ``ReleaseSoundTables`` 0x455770 and ``FlushSoundTables`` 0x452920;
    a constant sound of a released desc cannot be heard until the table reloads.
    """
    if desc.sound_table is not None and desc.play_count == 0:
        desc.sound_table = None
