"""Oni's sound arithmetic as pure functions (seed 001 and FORMULAS.md, "Oni").

Two groups live here: the channel volume, pan and pitch laws (``to_centibels``,
``distance_volume``, ``far_side_gain``...) and the occlusion and flyby geometry
of ``OSiCalc_PositionAndVolume`` and the flyby step (``occlusion_volume``,
``in_hearing``, ``flyby_point``).
"""

from __future__ import annotations

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
    return max(float(min_occlusion), 0.8 - (n * n) / 12.0)


def in_hearing(distance_sq: float, far: float) -> bool:
    """False when ``far^2 < distance_sq / 9`` (``OSiCalc_PositionAndVolume``, 0x52b134).

    ``distance_sq`` is ``|place - listener|^2`` in Oni units; ``far`` the sound's
    maximum distance. A sound is heard up to three times its far distance.

    >>> in_hearing(30.0 ** 2, 10.0), in_hearing(30.01 ** 2, 10.0)
    (True, False)
    """
    return not (far * far < distance_sq / HEARING_FACTOR_SQ)


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
