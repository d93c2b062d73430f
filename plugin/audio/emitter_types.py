"""The records of the generic emitters' laws (``soundscape.audio.emitters``): the
listener as heard (``Ears``), a source's laws (``Spatial``), a source as heard
(``Heard``), a ``play_at`` one-shot, a derived velocity's track, and the helpers that
make them."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from soundscape.audio.channel_handles import Handle
from soundscape.components.emitter import Emitter
from soundscape.laws.spatial import DistanceModel
from soundscape.listener import usable

if TYPE_CHECKING:
    from soundscape.context import Context

Vec3 = tuple[float, float, float]
STILL: Vec3 = (0.0, 0.0, 0.0)


@dataclass(slots=True)
class Ears:
    """The listener this tick: where, which way, how fast (``Velocity`` or derived)."""

    xyz: Vec3
    heading_rad: float
    velocity: Vec3


@dataclass(slots=True)
class Spatial:
    """What the laws need of a source besides its place (an ``Emitter`` or a one-shot)."""

    volume: float
    model: DistanceModel
    occlusion: bool = False
    doppler: bool = False
    heading_rad: float = 0.0
    cone: tuple[float, float, float] = (360.0, 360.0, 0.0)


@dataclass(slots=True)
class Heard:
    """A source as heard: the bank's volume, pan, pitch factor and low-pass cutoff."""

    gain: float
    pan: float
    doppler: float = 1.0
    lowpass_hz: float = 0.0


SILENT = Heard(0.0, 0.0)
NOWHERE = Heard(0.0, 0.0)
"""A row not heard this tick (disabled, or a non-finite place): the silence of
``emitter_hearing.hear_rows``."""


@dataclass(slots=True)
class OneShot:
    """A ``play_at`` voice: where it is, its laws, its own pitch and velocity."""

    handle: Handle
    key: int
    position: Vec3
    spatial: Spatial
    pitch: float
    velocity: Vec3 = STILL


@dataclass(slots=True)
class Track:
    """A place seen at a tick, to derive a velocity from the next one."""

    xyz: Vec3
    tick: int
    velocity: Vec3


def listener_pose(ctx: Context) -> tuple[tuple[float, float, float], float] | None:
    """(position, heading) of the first active listener, or None when it is not finite
    (``soundscape.listener.usable``)."""
    found = usable()
    return None if found is None else (found.xyz, found.heading_rad)


def finite_position(position: Any) -> tuple[float, float, float] | None:
    """``position`` as three floats, or None unless it is three finite numbers.

    >>> finite_position((1, 2, 3)), finite_position((0.0, float("nan"), 0.0))
    ((1.0, 2.0, 3.0), None)
    """
    try:
        x, y, z = (float(c) for c in position)
    except (TypeError, ValueError):
        return None
    return (x, y, z) if math.isfinite(x + y + z) else None


def model_of(emitter: Emitter) -> DistanceModel:
    """An ``Emitter``'s distance model."""
    return DistanceModel(emitter.rolloff, emitter.min_distance_m, emitter.max_distance_m,
                         emitter.rolloff_factor, emitter.curve)


def spatial_of(emitter: Emitter) -> Spatial:
    """An ``Emitter``'s laws."""
    return Spatial(emitter.volume, model_of(emitter), emitter.occlusion, emitter.doppler,
                   emitter.heading_rad,
                   (emitter.cone_inner_deg, emitter.cone_outer_deg, emitter.cone_outer_gain))
