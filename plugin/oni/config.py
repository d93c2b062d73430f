"""Oni settings: ``Settings.extra["oni_units_per_m"]``, read one way for Oni and its walls.

The Oni runtime (``soundscape.oni``) and the occlusion feature (its walls and
flybys) both turn world metres into Oni units with this scale; both read it here,
so a bad value is refused the same way whichever is installed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from soundscape.errors import DataError

KEY = "oni_units_per_m"


@dataclass(frozen=True, slots=True)
class OniConfig:
    """Oni's settings.

    Attributes:
        units_per_m: Oni units a metre of the shared frame (``extra["oni_units_per_m"]``,
            default 1: one unit a metre). Sound distances (``near``, ``far``) are in
            these units.

    >>> OniConfig.from_settings({"oni_units_per_m": 10}).units_per_m
    10.0
    >>> OniConfig.from_settings({"oni_units_per_m": True})
    Traceback (most recent call last):
    ...
    soundscape.errors.DataError: Settings: extra.oni_units_per_m: must be a positive ... got True
    """

    units_per_m: float = 1.0

    def __post_init__(self) -> None:
        _check_units(self.units_per_m)

    @classmethod
    def from_settings(cls, extra: Mapping[str, object]) -> OniConfig:
        """The config from ``Settings.extra`` (an absent key is the default)."""
        return cls(_check_units(extra.get(KEY, 1.0)))


def _check_units(units: object) -> float:
    if isinstance(units, bool) or not isinstance(units, (int, float)) or not (
            math.isfinite(units) and units > 0):
        raise DataError("Settings", "extra", KEY,
                        f"must be a positive finite number, got {units!r}")
    return float(units)

__all__ = ["KEY", "OniConfig"]
