"""Occlusion and flyby components (Oni, seed 001: "The placed ambients and the walls", "Flybys").

Walls live on the game's 2D floor plan (x east, z north, metres); the occlusion
feature mirrors them into one pymunk space and casts rays through it from a
sound's place to the listener.
"""

from __future__ import annotations

from dataclasses import dataclass

WALL_SKIPPED_FLAGS = 0x8044800
"""Quads with any of these flags are skipped by the occlusion rays (0x511a00)."""

WALL_DOOR_PANEL = 0x1000000
"""A door's panel: a run of these from the place counts as one object."""

WALL_TWO_SIDED = 0x200
"""A two-sided quad never "faces" the listener."""

WALL_TRANSMISSION_DB = -9.0
"""What a ``Wall`` lets through by default for a modern emitter: -9 dB (about a
third of the amplitude), a light interior wall as games hear it (real walls lose
30-50 dB, which a player would hear as silence)."""


@dataclass(slots=True)
class Wall:
    """One occluding quad of the floor plan (an Oni ``AKrCollision`` quad seen from above).

    Attributes:
        ax_m, az_m, bx_m, bz_m: the end points on the floor plan (x east, z north).
        flags: the quad's Oni flags: ``WALL_SKIPPED_FLAGS`` (never hit),
            ``WALL_DOOR_PANEL``, ``WALL_TWO_SIDED``.
        object_id: the quad's object (AGQG +0x34), -1 for none.
        normal_x, normal_z: the side the quad faces. Both 0 (the default) mean the
            right-hand side of a->b seen from above: ``(bz - az, -(bx - ax))``.
        transmission_db: what the wall lets through (dB, 0 or less) for an
            ``Emitter(occlusion=True)`` or ``play_at(occlusion=True)``: the losses of
            every wall crossed add up (``WALL_TRANSMISSION_DB``, -9, by default). Oni
            sounds ignore it: they keep Oni's own wall-count law.
    """

    ax_m: float = 0.0
    az_m: float = 0.0
    bx_m: float = 0.0
    bz_m: float = 0.0
    flags: int = 0
    object_id: int = -1
    normal_x: float = 0.0
    normal_z: float = 0.0
    transmission_db: float = WALL_TRANSMISSION_DB


@dataclass(slots=True)
class Occluded:
    """A placed record the occlusion phase hears through the walls every tick.

    The Oni runtime attaches it, with a ``Position`` (the record's place), to each
    placed-ambient record; the OCCLUSION phase fills ``volume``, ``walls`` and
    ``in_hearing`` before the PLACED_AMBIENTS phase reads them
    (``OSiCalc_PositionAndVolume`` 0x511a00).

    Attributes:
        far: the sound's maximum distance, Oni units (record +0x24).
        min_occlusion: the ambient's minimum occlusion (+0x40).
        cache_index: the record's index; ``cache_index % 12`` staggers the rays (+0x2c).
        cache_tick: the tick of the last count (+0x30), -1 before the first.
        volume: the occlusion volume (+0x34), 1 at first.
        walls: the walls counted (at most 3 matter).
        in_hearing: False when ``far^2 < |place - listener|^2 / 9``.
    """

    far: float = 0.0
    min_occlusion: float = 0.0
    cache_index: int = 0
    cache_tick: int = -1
    volume: float = 1.0
    walls: int = 0
    in_hearing: bool = True


@dataclass(slots=True)
class Flyby:
    """A projectile whose flyby impulse plays where it passes the listener (flyby 0x5156f0).

    Give it to an entity with a ``Position``; the flyby phase takes one of the 24
    records for it on the first tick it sees it. Before deleting the entity, call
    ``ctx.occlusion.flybys.projectile_dies(entity)`` so its last move is stepped
    (the retail deletion callback 0x508e90); an entity that vanishes without it is
    freed without a last step.

    Attributes:
        impulse: the class's flyby impulse (``mb_flyby``...).
        far: the impulse's maximum distance, Oni units, used when the Oni runtime
            does not know the impulse.
        min_occlusion: the impulse's minimum occlusion, same fallback.
    """

    impulse: str = ""
    far: float = 30.0
    min_occlusion: float = 0.0
