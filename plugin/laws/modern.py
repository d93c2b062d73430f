"""The ``modern`` profile: float gains, equal-power pan, inverse-distance attenuation.

No quantisation and no retail quirks; the mixer ramps its gains across a block
so volume and pan changes never click.

>>> l, r = equal_power(1.0, 0.0)
>>> round(l, 4), round(r, 4)
(0.7071, 0.7071)
>>> equal_power(1.0, -1.0)
(1.0, 0.0)
"""

from __future__ import annotations

import math


def equal_power(gain: float, pan: float) -> tuple[float, float]:
    """(left, right) of a linear ``gain`` panned by ``pan`` in -1 (left)..1 (right).

    The angle ``(pan + 1) pi / 4`` splits the power: left^2 + right^2 = gain^2.
    """
    if not math.isfinite(gain) or not math.isfinite(pan):
        return 0.0, 0.0
    p = min(max(pan, -1.0), 1.0)
    theta = (p + 1.0) * math.pi / 4.0
    g = max(gain, 0.0)
    left, right = g * math.cos(theta), g * math.sin(theta)
    return (0.0 if abs(left) < 1e-12 else left), (0.0 if abs(right) < 1e-12 else right)


def inverse_distance(distance_m: float, min_distance_m: float, max_distance_m: float) -> float:
    """Inverse-distance-clamped attenuation: 1 inside ``min``, ``min/d`` out to ``max``, 0 beyond.

    >>> inverse_distance(1.0, 2.0, 50.0), inverse_distance(8.0, 2.0, 50.0)
    (1.0, 0.25)
    >>> inverse_distance(60.0, 2.0, 50.0)
    0.0
    """
    if not math.isfinite(distance_m) or distance_m > max_distance_m:
        return 0.0
    if distance_m <= min_distance_m:
        return 1.0
    return min_distance_m / distance_m


def bearing_pan(dx_m: float, dz_m: float, heading_rad: float) -> float:
    """Pan -1..1 of a source ``(dx, dz)`` away (x east, z north) for a compass heading.

    The sine of the bearing relative to the facing: ahead 0, right 1, left -1.

    >>> round(bearing_pan(1.0, 0.0, 0.0), 6), round(bearing_pan(0.0, 1.0, 0.0), 6)
    (1.0, 0.0)
    """
    if dx_m == 0.0 and dz_m == 0.0:
        return 0.0
    bearing = math.atan2(dx_m, dz_m)  # compass: 0 north, clockwise
    return math.sin(bearing - heading_rad)
