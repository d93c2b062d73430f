"""Impulses: a group played once at a place (``SSrImpulse_Play`` 0x480440, seed 001).

An impulse plays its group once at a place, at its priority, on a channel of its
permutation's sound's kind (not locked). When as many channels as its alternate threshold
already play its group, its alternate impulse plays instead (nothing when it
has none; a threshold of 0 never alternates). The volume is the caller's
(e.g. the occlusion volume) x the distance volume x the permutation's x the group's.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from soundscape.errors import InputError
from soundscape.laws.oni import in_hearing
from soundscape.oni.groups import play_permutation, select_permutation

if TYPE_CHECKING:
    from soundscape.oni.sound import OniSound

MAX_ALTERNATES = 8
"""How far a chain of alternates is followed."""

Vec3 = tuple[float, float, float]


class Impulses:
    """``ctx.oni.impulses``: plays impulses (the alternate for crowds)."""

    def __init__(self, sound: OniSound) -> None:
        self.sound = sound

    def play(self, name: str, pos: Vec3 | None, volume: float = 1.0) -> bool:
        """``SSrImpulse_Play`` 0x480440: the impulse once at ``pos`` (world metres; None at
        the listener).

        With an alternate threshold above 0, when as many channels as the threshold
        already play the impulse's group, its alternate plays instead (the same test
        again for the alternate), or nothing when it has none. An impulse with no
        group plays nothing.
        """
        snd = self.sound
        if not math.isfinite(volume):
            raise InputError(f"impulse {name!r}: volume {volume!r} is not finite")
        imp = snd.db.impulses.get(name)
        if imp is None:
            snd.emit("missing_impulse", sound=name)
            return False
        for _ in range(MAX_ALTERNATES):
            if imp.group is None:
                snd.emit("impulse_no_group", sound=imp.name)
                return False
            threshold = imp.alternate_threshold
            if threshold <= 0:
                break
            playing = snd.playing_group_count(imp.group, threshold)
            if playing < threshold:
                break
            if imp.alternate is None:
                snd.emit("impulse_crowded", sound=imp.name, playing=playing)
                return False
            snd.emit("impulse_alternate", sound=imp.name, alternate=imp.alternate.name,
                     playing=playing)
            imp = imp.alternate
        group = imp.group
        if group is None:
            return False
        if pos is not None and not all(math.isfinite(v) for v in pos):
            snd.emit("impulse_bad_place", sound=imp.name, pos=pos)
            return False
        # SSiGroup_PlaySpatialized: the permutation first (an inaudible or unplayable
        # impulse still advances the group's don't-repeat memory), then a channel of
        # the permutation's sound's kind, then the spatialising, and only then the
        # volume and pitch draws (seed l.96, SSrPermutation_Play).
        index = select_permutation(group, snd.local)
        if index is None:
            return False
        sound = group.permutations[index].sound
        kind = snd.sound_kind(sound)
        if kind is None:
            return False
        dist, pan = snd.spatial(pos, imp.near, imp.far)
        if dist <= 0.0:
            snd.emit("impulse_inaudible", sound=imp.name, pos=pos)
            return False
        handle = snd.bank.acquire(priority=imp.priority, kind=kind, sound=sound)
        if handle is None:
            return False
        draw = play_permutation(group, index, snd.random)
        gain = volume * dist * draw.volume
        played = snd.bank.play(handle, draw.sound, volume=gain, pan=pan, pitch=draw.pitch,
                               can_pan=pos is not None, position=pos)
        if played:
            snd.channel_groups[handle] = group
        snd.emit("impulse", sound=imp.name, pos=pos, gain=gain, pan=pan, channel=handle.slot,
                 played=played)
        return played

    def at(self, name: str, pos: Vec3, volume: float = 1.0) -> bool:
        """An impulse at a place heard through the walls (``ctx.occlusion.query``) when the
        occlusion feature is installed; not at all from three times its far distance."""
        snd = self.sound
        imp = snd.db.impulses.get(name)
        if imp is None:
            snd.emit("missing_impulse", sound=name)
            return False
        occlusion = snd.occlusion()
        if occlusion is not None:
            result = occlusion.query(pos, imp.far, imp.min_occlusion, listener_xyz=snd.ears.xyz)
            if not result.in_hearing:
                return False
            volume *= result.volume
        elif not in_hearing(snd.distance_units(pos) ** 2, imp.far):
            return False
        return self.play(name, pos, volume)
