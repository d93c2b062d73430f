"""AC settings: the ``Settings.extra`` keys the Asheron's Call runtime reads.

A game passes them as ``Settings(extra={"ac_origin_block": (x, y),
"ac_ambient_enabled": False})``; a bad value is refused with an ``InputError``
naming the key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from soundscape.errors import InputError

KEYS = ("ac_origin_block", "ac_ambient_enabled")
"""The ``Settings.extra`` keys of this config."""


@dataclass(frozen=True, slots=True)
class AcConfig:
    """The AC runtime's settings.

    Attributes:
        origin_block: the landblock ``(x, y)`` whose south-west corner is world
            ``(0, 0)`` (``extra["ac_origin_block"]``, default ``(0, 0)``).
        ambient_enabled: ``extra["ac_ambient_enabled"]`` (default True): False starts
            the runtime with the terrain ambience off (``AcRuntime.enabled``).

    >>> AcConfig.from_settings({"ac_origin_block": (3, 4)})
    AcConfig(origin_block=(3, 4), ambient_enabled=True)
    """

    origin_block: tuple[int, int] = (0, 0)
    ambient_enabled: bool = True

    def __post_init__(self) -> None:
        origin = self.origin_block
        if not (isinstance(origin, tuple) and len(origin) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in origin)):
            raise InputError(
                f"Settings.extra['ac_origin_block'] must be (x, y) integers, got {origin!r}")
        if not isinstance(self.ambient_enabled, bool):
            raise InputError(f"Settings.extra['ac_ambient_enabled'] must be True or False, "
                             f"got {self.ambient_enabled!r}")

    @classmethod
    def from_settings(cls, extra: Mapping[str, object]) -> AcConfig:
        """The config from ``Settings.extra`` (absent keys are the defaults)."""
        return cls(origin_block=extra.get("ac_origin_block", (0, 0)),  # type: ignore[arg-type]
                   ambient_enabled=extra.get("ac_ambient_enabled", True))  # type: ignore[arg-type]


__all__ = ["KEYS", "AcConfig"]
