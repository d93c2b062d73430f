"""The ``modern`` profile: float gains, equal-power pan, and the spatial laws.

No quantisation and no retail quirks; the mixer ramps its gains across a block
so volume and pan changes never click. The spatial laws of a generic emitter
live in ``soundscape.laws.spatial`` (distance models, cones, doppler, walls).

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
