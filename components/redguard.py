"""Redguard world-object components: what scripts run on and sounds come from.

An entity with ``Position`` and ``RgObject`` is a Redguard object. Its emitter
position follows the seed's rules (``soundscape.redguard.emitter``): an ``attr_slave``
object with an ``RgAttachment`` emits from its master's position plus its own
offset rotated by the master's yaw; otherwise an ``RgLink`` to a positioned record
emits from that record; otherwise the object's own position.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class RgObject:
    """A Redguard object (the SOUP386.DEF attributes sound uses).

    Attributes:
        yaw_units: facing in 2048-unit engine angles (0 north/+Z, 512 east/+X);
            rotates the offset of objects attached to this one.
        surface: the SURFACE.INI code of the face it stands on (0 = no remap).
        attr_slave: SOUP386.DEF attribute 26: emit from the attached position.
        killed: the killed flag KillMe sets and Resurrect clears.
        dialogue_inhibit: the dialogue-inhibition attribute active lines set to 1.
        death_state: the runtime death-state selector (KillMe sets 8).
    """

    yaw_units: int = 0
    surface: int = 0
    attr_slave: bool = False
    killed: bool = False
    dialogue_inhibit: int = 0
    death_state: int = 0


@dataclass(slots=True)
class RgAttachment:
    """Attached to ``master`` (an entity) at an offset in the master's frame, metres.

    The offset is rotated by the master's ``RgObject.yaw_units``: +z is the
    master's forward, +x its right.
    """

    master: int
    offset_x_m: float = 0.0
    offset_y_m: float = 0.0
    offset_z_m: float = 0.0


@dataclass(slots=True)
class RgLink:
    """Links to another positioned record (an entity): the sound comes from there."""

    target: int


@dataclass(slots=True)
class RgAnimation:
    """An animation's remembered sample handle (animation opcode 4 / EndAnimation).

    ``sound_slot`` names a channel slot, not a start (retail handle semantics);
    None when the animation remembers no sample.
    """

    sound_slot: int | None = None
    group: int = 0
    """The current animation group (the game's animation system moves it on)."""
    loop_countdown: int = 0
    """Loops left before the group ends (dialogue requests set 1)."""


@dataclass(slots=True)
class RgCombat:
    """An actor's combat taunt state (combat construction: record 0, result 0, no cache ref).

    ``cache_ref`` is the RTX cache entry the last taunt holds; ``record`` the
    retained dialogue record index; ``result`` the last presentation's result.
    """

    cache_ref: int | None = None
    record: int = 0
    result: int = 0


@dataclass(slots=True)
class RgRope:
    """An MPRP rope record: three effects and the maximum swing speed ``m``.

    ``last_velocity`` is the swing velocity seen at the previous update (the
    sign-change test).
    """

    effects: tuple[int, int, int] = (0, 0, 0)
    max_swing_speed: int = 0
    last_velocity: int = 0
