"""Compass headings as the runtimes receive them from the game."""

from __future__ import annotations

import math


def within_one_turn(heading_rad: float) -> float:
    """``heading_rad`` with whole turns dropped when it is beyond one turn.

    The game writes ``Listener.heading_rad`` freely; a huge finite value (1e308)
    would overflow a runtime's conversion (degrees to inf, an integer yaw product)
    although it is still an angle. Headings within a turn pass unchanged, so
    the retail arithmetic sees the same value it always did; NaN passes through
    for the caller's own check.

    >>> within_one_turn(1.0), within_one_turn(-7.0) == math.fmod(-7.0, math.tau)
    (1.0, True)
    >>> abs(within_one_turn(1e308)) <= math.tau
    True
    """
    if abs(heading_rad) > math.tau:
        return math.fmod(heading_rad, math.tau)
    return heading_rad
