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


PAN_SCALE_RANGE = (1e-150, 1e150)
"""Between these the source's distance on the ground is computed from the offsets'
squares as they are; outside, the offsets are scaled by the larger first (the
squares would underflow or overflow)."""


def bearing_pan(dx_m: float, dz_m: float, heading_rad: float) -> float:
    """Pan -1..1 of a source ``(dx, dz)`` away (x east, z north) for a compass heading.

    The sine of the bearing relative to the facing: ahead 0, right 1, left -1, i.e.
    ``sin(atan2(dx, dz) - heading)``, computed as ``(dx cos h - dz sin h) / r`` (``r``
    the distance on the ground): only correctly rounded operations on the offsets, so
    the array twin (``emitter_hearing.bearing_pans``) gives the same numbers to the bit.

    >>> round(bearing_pan(1.0, 0.0, 0.0), 6), round(bearing_pan(0.0, 1.0, 0.0), 6)
    (1.0, 0.0)
    >>> round(bearing_pan(0.0, 1.0, math.pi / 2), 6), bearing_pan(1e300, 0.0, 0.0)
    (-1.0, 1.0)
    """
    if dx_m == 0.0 and dz_m == 0.0:
        return 0.0
    if not (math.isfinite(dx_m) and math.isfinite(dz_m)):
        return math.nan  # no bearing (a non-finite place is silenced anyway)
    r = math.sqrt(dx_m * dx_m + dz_m * dz_m)
    low, high = PAN_SCALE_RANGE
    if not low < r < high:
        larger = max(abs(dx_m), abs(dz_m))
        dx_m, dz_m = dx_m / larger, dz_m / larger
        r = math.sqrt(dx_m * dx_m + dz_m * dz_m)
    return (dx_m * math.cos(heading_rad) - dz_m * math.sin(heading_rad)) / r
