"""Impulses: a group played once at a place (``SSrImpulse_Play`` 0x480440, seed 001).

An impulse plays its group once at a place, at its priority, on a channel of the
group's kind (not locked). When as many plays of it as its alternate threshold
already sound, its alternate impulse plays instead. The volume is the caller's
(e.g. the occlusion volume) x the distance volume x the permutation's x the group's.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from soundscape.channels import Handle
from soundscape.oni_data import Impulse
from soundscape.oni_groups import draw_group

if TYPE_CHECKING:
    from soundscape.oni_sound import OniSound

MAX_ALTERNATES = 8
"""How far a chain of alternates is followed."""

Vec3 = tuple[float, float, float]


class Impulses:
    """``ctx.oni.impulses``: plays impulses and counts the ones sounding."""

    def __init__(self, sound: OniSound) -> None:
        self.sound = sound
        self.plays: list[tuple[Impulse, Handle]] = []

    def prune(self) -> None:
        """Forget the plays that have ended (each tick)."""
        if self.plays:
            bank = self.sound.bank
            self.plays = [(i, h) for i, h in self.plays if bank.is_playing(h)]

    def count(self, impulse: Impulse) -> int:
        """How many plays of ``impulse`` are sounding now."""
        bank = self.sound.bank
        return sum(1 for imp, h in self.plays if imp is impulse and bank.is_playing(h))

    def play(self, name: str, pos: Vec3 | None, volume: float = 1.0) -> bool:
        """``SSrImpulse_Play`` 0x480440: the impulse once at ``pos`` (world metres; None at
        the listener); the alternate plays when as many as the threshold already play."""
        snd = self.sound
        imp = snd.db.impulses.get(name)
        if imp is None:
            snd.emit("missing_impulse", sound=name)
            return False
        for _ in range(MAX_ALTERNATES):
            alt = imp.alternate
            if alt is None or self.count(imp) < imp.alternate_threshold:
                break
            snd.emit("impulse_alternate", sound=imp.name, alternate=alt.name,
                     playing=self.count(imp))
            imp = alt
        if imp.group is None:
            snd.emit("impulse_no_group", sound=imp.name)
            return False
        if pos is not None and not all(math.isfinite(v) for v in pos):
            snd.emit("impulse_bad_place", sound=imp.name, pos=pos)
            return False
        dist, pan = snd.spatial(pos, imp.near, imp.far)
        if dist <= 0.0:
            snd.emit("impulse_inaudible", sound=imp.name, pos=pos)
            return False
        draw = draw_group(imp.group, snd.local, snd.random)
        if draw is None:
            return False
        handle = snd.bank.acquire(priority=imp.priority, kind=draw.kind, sound=draw.sound)
        if handle is None:
            return False
        gain = volume * dist * draw.volume * snd.product_overall
        played = snd.bank.play(handle, draw.sound, volume=gain, pan=pan, pitch=draw.pitch,
                               can_pan=pos is not None, position=pos)
        if played:
            self.plays.append((imp, handle))
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
        if snd.ctx.occlusion is not None:
            result = snd.ctx.occlusion.query(pos, imp.far, imp.min_occlusion,
                                             listener_xyz=snd.ears.xyz)
            if not result.in_hearing:
                return False
            volume *= result.volume
        elif imp.far ** 2 < snd.distance_units(pos) ** 2 / 9.0:
            return False
        return self.play(name, pos, volume)
