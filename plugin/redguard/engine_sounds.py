"""Engine-internal starts a game can reuse: animation PlaySound, combat hits,
rope swings and the torch loop (seed 002, "Animation PlaySound" and
"Engine-internal starts").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import esper

from soundscape.components.redguard import RgAnimation, RgObject, RgRope
from soundscape.laws.redguard import START_INDEX_COMBAT, START_INDEX_PLAYER, START_INDEX_SHARED
from soundscape.redguard.args import int_arg, int_args
from soundscape.redguard.emitter import object_state, own_position

if TYPE_CHECKING:
    from soundscape.redguard.runtime import RedguardRuntime

RATE_FIELD_HZ = 64
"""The animation rate field counts 64 Hz steps."""


def signed10(raw: int) -> int:
    """A signed 10-bit field (two's complement in the low ten bits).

    >>> signed10(0x3F8), signed10(25), signed10(-8)
    (-8, 25, -8)
    """
    value = int(raw) & 0x3FF
    return value - 0x400 if value & 0x200 else value


class EngineSounds:
    """Animation opcode 4, combat hits, ropes and the torch, on one runtime."""

    def __init__(self, runtime: RedguardRuntime) -> None:
        self.rt = runtime
        self.torch_burning = False
        self.torch_slot: int | None = None
        self.combat_rng = runtime.ctx.rng.msvc("redguard.combat")

    # -- animation PlaySound / EndAnimation ------------------------------------

    def anim_play_sound(self, entity: int, effect_field: int, rate_field: int,
                        *, player: bool | None = None) -> int | None:
        """Animation opcode 4 (attachment): PlaySound on the animated ``entity``.

        ``effect_field`` and ``rate_field`` are the two signed 10-bit operands
        (raw 10-bit values or plain ints): the effect, remapped through
        SURFACE.INI when the object's surface is non-zero, and the rate offset in
        64 Hz steps. Volume from the curve with off = 0 and pan from the object's
        own position; it starts even when v = 0. The started slot replaces the
        animation's remembered one without stopping the previous channel.
        ``player`` (default: ``entity`` is ``runtime.player``) selects start
        index 0, the player's own animation sounds.

        Returns:
            The channel slot, or None when nothing started.
        """
        if player is None:
            player = self.rt.player is not None and entity == self.rt.player
        effect_field, rate_field = int_args("PlaySound", effect_field=effect_field,
                                            rate_field=rate_field)
        requested = signed10(effect_field)
        effect = requested
        obj = esper.try_component(entity, RgObject) if esper.entity_exists(entity) else None
        if obj is not None and obj.surface != 0:
            remapped = self.rt.surface.lookup(obj.surface, requested)
            if remapped is None:
                self.rt.events.emit("redguard", "skip", sound=requested, owner=entity,
                                    reason=f"surface {obj.surface} has no defined remap",
                                    caller="PlaySound")
                return None
            effect = remapped
        point = own_position(entity, self.rt.units_per_m)
        if point is None:
            self.rt.events.emit("redguard", "skip", sound=requested, owner=entity,
                                reason="no position", caller="PlaySound")
            return None
        volume, pan = self.rt.curve(point, 0)
        start_index = START_INDEX_PLAYER if player else None
        slot = self.rt.start(effect, signed10(rate_field) * RATE_FIELD_HZ, volume, pan, entity,
                             requested=requested, start_index=start_index, caller="PlaySound")
        object_state(entity, RgAnimation).sound_slot = slot
        return slot

    def end_animation(self, entity: int) -> None:
        """EndAnimation (opcode 1): stops only the slot the animation still remembers."""
        animation = esper.try_component(entity, RgAnimation)
        if animation is not None and animation.sound_slot is not None:
            self.rt.stop_slot(animation.sound_slot, "EndAnimation")
            animation.sound_slot = None

    def select_group(self, entity: int, group: int) -> None:
        """A replacement group clears the remembered slot without issuing a stop."""
        animation = esper.try_component(entity, RgAnimation)
        if animation is not None:
            animation.sound_slot, animation.group = None, group

    # -- combat hits ------------------------------------------------------------

    def combat_hit(self, attacker: int, hit_sound: int, *, emitter: int | None = None,
                   message_response: bool = True) -> int | None:
        """A combat hit: rate offset random(0..127) x 16 - 1024 Hz, off 0, never at v = 0.

        Start index 4 for a combat message response (0xd001, 0xd005); the
        weapon-contact service (``message_response=False``) uses the shared index.
        """
        hit_sound = int_arg("combat_hit", "hit_sound", hit_sound)
        rate_offset = (self.combat_rng.rand() % 128) * 16 - 1024
        point = self.rt.emitter(attacker if emitter is None else emitter)
        if point is None:
            return None
        volume, pan = self.rt.curve(point, 0)
        if volume == 0:
            self.rt.events.emit("redguard", "skip", sound=hit_sound, owner=attacker,
                                reason="silent (v = 0)", caller="combat")
            return None
        return self.rt.start(hit_sound, rate_offset, volume, pan, attacker,
                             start_index=START_INDEX_COMBAT if message_response else None,
                             caller="combat")

    # -- ropes ------------------------------------------------------------------

    def rope_update(self, rope_entity: int, velocity: int, speed: int | None = None) -> int | None:
        """A rope's swing step: on a sign change (or zero staying zero) play by speed.

        q = trunc(m / 4): speed >= 3q the third effect, >= 2q the second, >= q the
        first, a zero effect falling through to the next lower; q <= 2 plays nothing.
        """
        rope = esper.try_component(rope_entity, RgRope)
        if rope is None:
            return None
        velocity = int_arg("rope_update", "velocity", velocity)
        if speed is not None:
            speed = int_arg("rope_update", "speed", speed)
        last, rope.last_velocity = rope.last_velocity, velocity
        sign_changed = (last > 0) != (velocity > 0) or (last < 0) != (velocity < 0)
        if not (sign_changed or (last == 0 and velocity == 0)):
            return None
        effect = rope_effect(rope.effects, rope.max_swing_speed,
                             abs(velocity) if speed is None else speed)
        if effect == 0:
            return None
        point = own_position(rope_entity, self.rt.units_per_m)
        if point is None:
            return None
        volume, pan = self.rt.curve(point, 0)
        if volume == 0:
            return None
        return self.rt.start(effect, 0, volume, pan, rope_entity,
                             start_index=START_INDEX_SHARED, caller="rope")

    # -- the torch --------------------------------------------------------------

    def set_torch(self, burning: bool) -> None:
        """Light or put out the player's torch; going out stops its channel."""
        self.torch_burning = bool(burning)
        if not burning and self.torch_slot is not None:
            self.rt.stop_slot(self.torch_slot, "torch out")
            self.torch_slot = None

    def torch_tick(self) -> None:
        """Every tick while it burns: restart when finished, refresh volume and pan."""
        player = self.rt.player
        if not self.torch_burning or player is None:
            return
        point = self.rt.emitter(player)
        if point is None:
            return
        volume, pan = self.rt.curve(point, self.rt.config.torch_volume_offset)
        slot = self.torch_slot
        if slot is not None and self.rt.slot_playing(slot):
            self.rt.set_slot_volume(slot, volume)
            self.rt.set_slot_pan(slot, pan)
            return
        self.torch_slot = self.rt.start(self.rt.config.torch_effect, 0, volume, pan, player,
                                        caller="torch")


def rope_effect(effects: tuple[int, int, int], max_speed: int, speed: int) -> int:
    """The rope effect for ``speed`` (0 = none).

    >>> rope_effect((62, 62, 63), 40, 30), rope_effect((62, 0, 63), 40, 25)
    (63, 62)
    >>> rope_effect((62, 62, 63), 8, 8)
    0
    """
    q = int(max_speed / 4)
    if q <= 2:
        return 0
    level = 3 if speed >= 3 * q else 2 if speed >= 2 * q else 1 if speed >= q else 0
    for index in range(level - 1, -1, -1):
        if effects[index] != 0:
            return effects[index]
    return 0
