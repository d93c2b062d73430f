"""The spatial laws of a generic emitter (``modern`` profile): distance, cones, doppler, walls.

Pure arithmetic, no state. The distance models and the cone follow the OpenAL 1.1
specification (and OpenAL Soft's ``CalcAttnSourceParams``): the "clamped" models,
whose distance is held to ``min_distance_m`` .. ``max_distance_m`` (OpenAL's
``AL_REFERENCE_DISTANCE`` and ``AL_MAX_DISTANCE``). The doppler shift is the
spec's section 3.5.2 formula; walls are this project's own modern law (a
transmission loss per wall and a low-pass that falls with every wall crossed).

>>> model = DistanceModel("inverse", 2.0, 40.0)
>>> distance_gain(8.0, model), distance_gain(1.0, model), distance_gain(80.0, model)
(0.25, 1.0, 0.05)
>>> round(doppler_pitch((0, 0, -10), (0, 0, 30), (0, 0, 0), (0, 0, 0), 343.0, 1.0), 5)
1.09585
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

ROLLOFFS = ("inverse", "linear", "exponential", "none", "custom")
"""Distance models: OpenAL's three clamped ones, none, and a custom curve of points."""

Vec3 = tuple[float, float, float]

DOPPLER_MIN_PITCH = 0.25
DOPPLER_MAX_PITCH = 4.0
"""The doppler factor is held to 0.25 .. 4 (two octaves): a source or listener at
(or past) the speed of sound, or a teleport that looks like one, cannot stall a
voice or run it away."""

ONE_WALL_CUTOFF_HZ = 1500.0
"""The low-pass cutoff behind one wall; it halves with every further wall."""

MIN_CUTOFF_HZ = 250.0
"""The lowest cutoff, however many walls (three walls and more)."""


class DistanceModel(NamedTuple):
    """How a source's gain falls with distance.

    Attributes:
        rolloff: ``"inverse"`` (``min / (min + f (d - min))``), ``"linear"``
            (``1 - f (d - min) / (max - min)``), ``"exponential"``
            (``(d / min) ^ -f``), ``"none"`` (1) or ``"custom"`` (``curve``).
        min_distance_m: OpenAL's reference distance: full gain at or inside it.
        max_distance_m: the distance is held here (the gain stops falling; the
            linear model reaches 0 there with factor 1).
        rolloff_factor: ``f``, how fast it falls (0: never).
        curve: for ``"custom"``: (distance m, gain) points in rising distance,
            joined by straight lines and held flat before the first and after the
            last.
    """

    rolloff: str = "inverse"
    min_distance_m: float = 1.0
    max_distance_m: float = 50.0
    rolloff_factor: float = 1.0
    curve: tuple[tuple[float, float], ...] = ()


def distance_gain(distance_m: float, model: DistanceModel) -> float:
    """The linear gain at ``distance_m`` under ``model`` (OpenAL's clamped models).

    A NaN distance is silent.

    >>> [round(distance_gain(d, DistanceModel("linear", 2.0, 12.0)), 3) for d in (1, 7, 20)]
    [1.0, 0.5, 0.0]
    >>> round(distance_gain(8.0, DistanceModel("exponential", 2.0, 50.0, 0.5)), 3)
    0.5
    >>> distance_gain(25.0, DistanceModel("custom", curve=((0.0, 1.0), (10.0, 0.5), (30.0, 0.0))))
    0.125
    """
    if math.isnan(distance_m):
        return 0.0
    rolloff = model.rolloff
    if rolloff == "none":
        return 1.0
    if rolloff == "custom":
        return curve_gain(distance_m, model.curve)
    ref, far, factor = model.min_distance_m, model.max_distance_m, model.rolloff_factor
    d = min(max(distance_m, ref), far)
    if rolloff == "linear":
        if far <= ref:
            return 1.0
        return min(max(1.0 - factor * (d - ref) / (far - ref), 0.0), 1.0)
    if ref <= 0.0:
        return 1.0  # OpenAL: no reference distance, no attenuation
    if rolloff == "exponential":
        return float((d / ref) ** -factor)
    denominator = ref + factor * (d - ref)
    return ref / denominator if denominator > 0.0 else 1.0


def curve_gain(distance_m: float, points: Sequence[tuple[float, float]]) -> float:
    """Piecewise-linear gain through ``points`` (distance, gain), flat at both ends.

    >>> curve_gain(5.0, ((0.0, 1.0), (10.0, 0.0))), curve_gain(-1.0, ((2.0, 0.8),))
    (0.5, 0.8)
    """
    if not points:
        return 1.0
    if distance_m <= points[0][0]:
        return float(points[0][1])
    for (d0, g0), (d1, g1) in zip(points, points[1:], strict=False):
        if distance_m <= d1:
            if d1 <= d0:
                return float(g1)
            return float(g0 + (g1 - g0) * (distance_m - d0) / (d1 - d0))
    return float(points[-1][1])


def cone_gain(angle_rad: float, inner_deg: float, outer_deg: float, outer_gain: float) -> float:
    """OpenAL's cone: 1 inside half the inner angle, ``outer_gain`` outside half the
    outer angle, a straight line (in degrees) between.

    ``angle_rad`` is the angle between where the source faces and the direction
    from it to the listener (0..pi).

    >>> cone_gain(0.0, 60, 180, 0.2), cone_gain(math.pi, 60, 180, 0.2)
    (1.0, 0.2)
    >>> round(cone_gain(math.radians(60), 60, 180, 0.2), 6)
    0.6
    """
    if inner_deg >= 360.0:
        return 1.0
    angle = math.degrees(abs(angle_rad))
    inner, outer = inner_deg / 2.0, outer_deg / 2.0
    if angle <= inner:
        return 1.0
    if angle >= outer or not outer > inner:  # (the latter: a NaN angle, no line to take)
        return float(outer_gain)
    return 1.0 + (outer_gain - 1.0) * (angle - inner) / (outer - inner)


def facing_angle(heading_rad: float, dx_m: float, dy_m: float, dz_m: float) -> float:
    """Angle (0..pi) between a compass ``heading_rad`` (level) and the direction (dx, dy, dz).

    >>> round(facing_angle(0.0, 0.0, 0.0, 5.0), 6), round(facing_angle(0.0, 3.0, 0.0, 0.0), 6)
    (0.0, 1.570796)
    """
    length = math.sqrt(dx_m * dx_m + dy_m * dy_m + dz_m * dz_m)
    if length == 0.0:
        return 0.0
    cos = (dx_m * math.sin(heading_rad) + dz_m * math.cos(heading_rad)) / length
    return math.acos(min(max(cos, -1.0), 1.0))


def doppler_pitch(source: Vec3, source_velocity: Vec3, listener: Vec3, listener_velocity: Vec3,
                  speed_of_sound_mps: float, doppler_factor: float) -> float:
    """The pitch factor of a moving source heard by a moving listener (OpenAL 1.1, 3.5.2).

    With ``SL`` the line from the source to the listener, ``v_s`` and ``v_l`` the
    velocities' components along it, each held below ``c / DF``:
    ``(c - DF v_l) / (c - DF v_s)``, then held to ``DOPPLER_MIN_PITCH`` ..
    ``DOPPLER_MAX_PITCH``. A source moving toward the listener is higher.
    A doppler factor of 0, a zero distance or a non-finite input gives 1.

    >>> round(doppler_pitch((0, 0, 10), (0, 0, 30), (0, 0, 0), (0, 0, 0), 343.0, 1.0), 5)
    0.91957
    """
    c, factor = speed_of_sound_mps, doppler_factor
    sx, sy, sz = (listener[0] - source[0], listener[1] - source[1], listener[2] - source[2])
    distance = math.sqrt(sx * sx + sy * sy + sz * sz)
    if factor == 0.0 or not (0.0 < distance < math.inf) or not c > 0.0:
        return 1.0
    v_l = (sx * listener_velocity[0] + sy * listener_velocity[1]
           + sz * listener_velocity[2]) / distance
    v_s = (sx * source_velocity[0] + sy * source_velocity[1] + sz * source_velocity[2]) / distance
    if not (math.isfinite(v_l) and math.isfinite(v_s)):
        return 1.0
    limit = c / abs(factor)
    v_l, v_s = min(v_l, limit), min(v_s, limit)
    denominator = c - factor * v_s
    if denominator <= 0.0:
        return DOPPLER_MAX_PITCH
    pitch = (c - factor * v_l) / denominator
    return min(max(pitch, DOPPLER_MIN_PITCH), DOPPLER_MAX_PITCH)


def wall_cutoff_hz(walls: int) -> float:
    """The low-pass cutoff for a sound heard through ``walls`` walls; 0 (no filter) for none.

    ``ONE_WALL_CUTOFF_HZ`` behind one wall, halved with each further wall, never
    below ``MIN_CUTOFF_HZ``.

    >>> [wall_cutoff_hz(n) for n in range(5)]
    [0.0, 1500.0, 750.0, 375.0, 250.0]
    """
    if walls <= 0:
        return 0.0
    return max(ONE_WALL_CUTOFF_HZ / 2.0 ** (walls - 1), MIN_CUTOFF_HZ)


def transmission_gain(transmission_db: float) -> float:
    """The linear gain of a summed transmission loss in dB (0 dB: 1).

    >>> round(transmission_gain(-6.0206), 4), transmission_gain(0.0)
    (0.5, 1.0)
    """
    return 10.0 ** (transmission_db / 20.0) if transmission_db < 0.0 else 1.0
