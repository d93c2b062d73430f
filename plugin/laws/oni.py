"""Oni's sound arithmetic as pure functions (seed 001 and FORMULAS.md, "Oni").

Two groups live here: the channel volume, pan and pitch laws (``to_centibels``,
``distance_volume``, ``far_side_gain``...) and the occlusion and flyby geometry
of ``OSiCalc_PositionAndVolume`` and the flyby step (``occlusion_volume``,
``in_hearing``, ``flyby_point``).
"""

from __future__ import annotations

import math

# --- Occlusion and flyby geometry (OSiCalc_PositionAndVolume 0x511a00, flyby step 0x5157c0) ---

OCCLUSION_MAX_WALLS = 3
"""``OSiCalc_PositionAndVolume`` counts at most three walls."""

OCCLUSION_NO_OCCLUSION_ABOVE = 0.99
"""A minimum occlusion above this (0x52a03c) makes the volume 1."""

HEARING_FACTOR_SQ = 9.0
"""Out of hearing when ``far^2 < |d|^2 / 9`` (0x52b134): three times the far distance."""

FLYBY_MIDDLE_EPSILON = 1e-6
"""The flyby step takes the middle of the move when ``|d1 - d0| <= 1e-6``."""


def occlusion_volume(walls: int, min_occlusion: float = 0.0) -> float:
    """The volume ``walls`` counted walls leave (``OSiCalc_PositionAndVolume`` 0x511a00).

    No wall gives 1; ``n`` walls, at most 3, give ``max(min_occlusion, 0.8 - n^2/12)``
    (0x5296d8, 0x52b888); a minimum occlusion above 0.99 (0x52a03c) gives 1. The
    retail "no level" case is counted as 3 walls by the caller.

    >>> [round(occlusion_volume(n), 4) for n in range(5)]
    [1.0, 0.7167, 0.4667, 0.05, 0.05]
    >>> occlusion_volume(3, 0.3), occlusion_volume(2, 0.995)
    (0.3, 1.0)
    """
    if min_occlusion > OCCLUSION_NO_OCCLUSION_ABOVE:
        return 1.0
    n = min(int(walls), OCCLUSION_MAX_WALLS)
    if n <= 0:
        return 1.0
    # The formula first: max() keeps it when a bad min_occlusion is NaN.
    return max(0.8 - (n * n) / 12.0, float(min_occlusion))


def in_hearing(distance_sq: float, far: float) -> bool:
    """False when ``far^2 < distance_sq / 9`` (``OSiCalc_PositionAndVolume``, 0x52b134).

    ``distance_sq`` is ``|place - listener|^2`` in Oni units; ``far`` the sound's
    maximum distance. A sound is heard up to three times its far distance. Every
    hearing test of the Oni and occlusion features is this one; a NaN distance or
    far distance is out of hearing.

    >>> in_hearing(30.0 ** 2, 10.0), in_hearing(30.01 ** 2, 10.0)
    (True, False)
    >>> in_hearing(math.nan, 10.0), in_hearing(1.0, math.nan), in_hearing(math.inf, 10.0)
    (False, False, False)
    """
    return far * far >= distance_sq / HEARING_FACTOR_SQ


def flyby_point(
    p_before: tuple[float, float, float],
    p_now: tuple[float, float, float],
    listener: tuple[float, float, float],
) -> tuple[float, float, float] | None:
    """Where a flyby's impulse plays, or None when this move does not pass the listener.

    The flyby step (0x5157c0): with ``m = p_now - p_before`` and ``a``, ``b`` the
    places before and now less the listener's, ``d0 = a.m`` and ``d1 = b.m``; when
    ``d0 * d1 < 0`` the point nearest the listener lies on the move, at
    ``(d1 p_before - d0 p_now) / (d1 - d0)``, or the middle of the move when
    ``|d1 - d0| <= 1e-6``.

    >>> flyby_point((-5.0, 0.0, 2.0), (5.0, 0.0, 2.0), (1.0, 0.0, 0.0))
    (1.0, 0.0, 2.0)
    >>> flyby_point((-5.0, 0.0, 2.0), (-1.0, 0.0, 2.0), (1.0, 0.0, 0.0)) is None
    True
    """
    mx, my, mz = p_now[0] - p_before[0], p_now[1] - p_before[1], p_now[2] - p_before[2]
    d0 = (
        (p_before[0] - listener[0]) * mx
        + (p_before[1] - listener[1]) * my
        + (p_before[2] - listener[2]) * mz
    )
    d1 = (
        (p_now[0] - listener[0]) * mx
        + (p_now[1] - listener[1]) * my
        + (p_now[2] - listener[2]) * mz
    )
    if not d0 * d1 < 0.0:
        return None
    den = d1 - d0
    if abs(den) <= FLYBY_MIDDLE_EPSILON:
        return (
            (p_before[0] + p_now[0]) * 0.5,
            (p_before[1] + p_now[1]) * 0.5,
            (p_before[2] + p_now[2]) * 0.5,
        )
    return (
        (d1 * p_before[0] - d0 * p_now[0]) / den,
        (d1 * p_before[1] - d0 * p_now[1]) / den,
        (d1 * p_before[2] - d0 * p_now[2]) / den,
    )


# --- Channel laws (seed 001 "Channels", FORMULAS.md "Oni") ---

ONI_SILENCE_CB = -10000
"""DirectSound silence, hundredths of a dB."""

ONI_AUDIBLE_ABOVE = 0.05
"""A channel volume at or below this is written as silence (0x485480)."""

ONI_CB_SCALE = 3333
"""The buffer volume is ``round(3333 v) - 3333`` (0x485480)."""

ONI_BUFFER_HZ = 22050.0
"""Every channel is a 22,050 Hz buffer; the pitch multiplies it (0x485460)."""

ONI_PAN_MIN_DISTANCE = 7.0
"""Only sounds more than 7 units away in the horizontal plane pan (0x4853b0;
``SScNoPanDistanceSquared`` 49)."""


def to_centibels(v: float) -> int:
    """Oni's channel volume in hundredths of a dB (0x485480).

    Above 0.05: ``round(3333 v) - 3333``; at or below: -10,000 (silence). Values
    above 1 give a positive number, out of DirectSound's range (the mixer keeps the
    previous volume, as the failed call did).

    >>> to_centibels(1.0), to_centibels(0.5), to_centibels(0.05), to_centibels(0.051)
    (0, -1667, -10000, -3163)
    """
    if not v > ONI_AUDIBLE_ABOVE:
        return ONI_SILENCE_CB
    return round(ONI_CB_SCALE * v) - ONI_CB_SCALE


def distance_volume(d: float, near: float, far: float) -> float:
    """Full volume up to ``near``, a straight line to zero at ``far`` (FORMULAS.md).

    ``d`` is the sound distance (world distance / 3, Oni units).

    >>> distance_volume(5.0, 10.0, 20.0), distance_volume(15.0, 10.0, 20.0)
    (1.0, 0.5)
    >>> distance_volume(20.0, 10.0, 20.0), distance_volume(25.0, 10.0, 10.0)
    (0.0, 0.0)
    """
    if d <= near:
        return 1.0
    if d >= far or far <= near:
        return 0.0
    return (far - d) / (far - near)


def far_side_gain(theta: float) -> float:
    """The far side's gain for angle ``theta`` in [0, pi] between facing and the sound.

    ``0.5 + |theta - pi/2| / pi``: 0.5 abeam, 1 ahead or behind (0x4853b0).

    >>> far_side_gain(0.0), far_side_gain(math.pi / 2), far_side_gain(math.pi)
    (1.0, 0.5, 1.0)
    """
    return 0.5 + abs(theta - math.pi / 2) / math.pi


def pan_centibels(dx: float, dz: float, heading_rad: float) -> int:
    """Signed pan in hundredths of a dB for a sound ``(dx, dz)`` from the listener (0x4853b0).

    ``SSiSoundChannel_Spatialize``: only the horizontal plane counts, and only a
    sound more than 7 units away in that plane pans (``dx^2 + dz^2 <= 49`` gives
    none; Oni units, not divided by 3). ``heading_rad`` is the listener's compass
    heading (0 faces +z, clockwise). The far side is attenuated by
    ``3333 - round(3333 x far_side_gain)``; positive attenuates the left side
    (the sound is on the right).

    >>> pan_centibels(10.0, 0.0, 0.0), pan_centibels(-10.0, 0.0, 0.0)
    (1667, -1667)
    >>> pan_centibels(0.0, 10.0, 0.0), pan_centibels(7.0, 0.0, 0.0), pan_centibels(7.01, 0.0, 0.0)
    (0, 0, 1667)
    """
    if not dx * dx + dz * dz > ONI_PAN_MIN_DISTANCE * ONI_PAN_MIN_DISTANCE:
        return 0
    rel = math.atan2(dx, dz) - heading_rad
    rel = math.atan2(math.sin(rel), math.cos(rel))
    attenuation = ONI_CB_SCALE - round(ONI_CB_SCALE * far_side_gain(abs(rel)))
    return attenuation if rel > 0.0 else -attenuation


def buffer_frequency(pitch: float) -> float:
    """The channel buffer's frequency, ``22,050 x pitch`` Hz (0x485460).

    >>> buffer_frequency(1.0), buffer_frequency(0.5)
    (22050.0, 11025.0)
    """
    return ONI_BUFFER_HZ * pitch
