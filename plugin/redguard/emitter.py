"""Where a Redguard sound comes from, in engine units (world units x 256).

The shared frame is metres, y up, x east, z north; Redguard's engine point is
``round(metres x units_per_m x 256)`` on the same axes (heading 0 along +Z, 512
along +X, so compass headings carry over). The emitter rules of seed 002:

* an object whose ``attr_slave`` attribute is set and that has an
  ``RgAttachment`` emits from its master's position plus its own offset rotated
  by the master;
* otherwise an object with an ``RgLink`` to a positioned record emits from that
  record's position;
* animation PlaySound always uses the object's own position (``own_position``).

``object_state`` fetches (or adds) a per-object state component such as
``RgAnimation`` or ``RgCombat``.
"""

from __future__ import annotations

import math
from typing import TypeVar

import esper

from soundscape.components.redguard import RgAttachment, RgLink, RgObject
from soundscape.components.spatial import Position

EnginePoint = tuple[int, int, int]
TWO_PI_OVER_2048 = 2.0 * math.pi / 2048.0
T = TypeVar("T")


def object_state(entity: int, kind: type[T]) -> T:
    """The entity's ``kind`` component, added fresh when it has none.

    A plain id that is no entity (a code object) gets a detached fresh one, so
    the caller's bookkeeping still works for that call.
    """
    state = esper.try_component(entity, kind)
    if state is None:
        state = kind()
        if esper.entity_exists(entity):
            esper.add_component(entity, state)
    return state


def engine_point(x_m: float, y_m: float, z_m: float, units_per_m: float) -> EnginePoint | None:
    """A metre point as engine units, or None when it is not finite.

    >>> engine_point(1.0, 0.0, -0.5, 20.0)
    (5120, 0, -2560)
    """
    scale = units_per_m * 256.0
    x, y, z = x_m * scale, y_m * scale, z_m * scale
    if not (math.isfinite(x) and math.isfinite(y) and math.isfinite(z)):
        return None
    return round(x), round(y), round(z)


def own_position(entity: int, units_per_m: float) -> EnginePoint | None:
    """The object's own position (animation PlaySound), None without a finite one."""
    position = esper.try_component(entity, Position)  # None for a deleted entity too
    if position is None:
        return None
    return engine_point(position.x_m, position.y_m, position.z_m, units_per_m)


def attached_position(attachment: RgAttachment, units_per_m: float) -> EnginePoint | None:
    """Master position plus the offset rotated by the master's yaw (compass, clockwise)."""
    master = attachment.master
    base = esper.try_component(master, Position)
    if base is None:
        return None
    master_object = esper.try_component(master, RgObject)
    yaw = master_object.yaw_units if master_object is not None else 0
    angle = (yaw % 2048) * TWO_PI_OVER_2048
    cos_a, sin_a = math.cos(angle), math.sin(angle)
    ox, oz = attachment.offset_x_m, attachment.offset_z_m
    x = base.x_m + ox * cos_a + oz * sin_a
    z = base.z_m - ox * sin_a + oz * cos_a
    return engine_point(x, base.y_m + attachment.offset_y_m, z, units_per_m)


def emitter_position(entity: int, units_per_m: float) -> EnginePoint | None:
    """Where ``entity``'s script sounds come from (the seed's emitter rules)."""
    obj = esper.try_component(entity, RgObject)
    if obj is not None and obj.attr_slave:
        attachment = esper.try_component(entity, RgAttachment)
        if attachment is not None:
            return attached_position(attachment, units_per_m)
    link = esper.try_component(entity, RgLink)
    if link is not None:
        target = esper.try_component(link.target, Position)
        if target is not None:
            return engine_point(target.x_m, target.y_m, target.z_m, units_per_m)
    return own_position(entity, units_per_m)
