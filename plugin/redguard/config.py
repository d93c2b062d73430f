"""Redguard runtime settings: the SYSTEM.INI values sound uses, plus the unit scale.

A game passes them as ``Settings(extra={"redguard": {...}})``; unknown keys and
bad values are refused with a ``DataError`` naming the key.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

from soundscape.errors import DataError
from soundscape.laws import redguard as law

SOURCE = "Settings.extra['redguard']"


@dataclass(frozen=True, slots=True)
class RgConfig:
    """Redguard's sound settings.

    Attributes:
        sound_distance: SYSTEM.INI [system] sound_distance (R = 36 x this).
        master_volume: SYSTEM.INI [system] volume (shipped 255) or the Sound slider.
        units_per_m: Redguard world units a metre of the shared frame. The default
            20 makes the shipped R = 2304 world units about 115 m, a demo-sized area.
        dialog_max_distance: SYSTEM.INI [dialog] dialog_max_distance, world units
            (shipped 1600).
        dialog_max_dialog_lines: [dialog] dialog_max_dialog_lines (shipped 20; at
            least 16 used).
        dialog_use_speech: [dialog] dialog_use_speech (1 plays RTX audio).
        dialog_print_text: [dialog] dialog_print_text.
        dialog_max_menu_items / dialog_max_text_width / menu_traverse_delay: the
            topic-menu settings (see ``menu_capacity``, ``text_width``, ``traverse_delay``).
        effect_count: effects in MAIN.SFX when no bank is loaded (118 shipped).
        torch_effect: the torch loop's effect (25) and ``torch_volume_offset`` (-40).
        reset_ticks: the periodic sound reset fires above this many ticks (1400).
    """

    sound_distance: int = law.SOUND_DISTANCE
    master_volume: int = law.MASTER_SHIPPED
    units_per_m: float = 20.0
    dialog_max_distance: int = 1600
    dialog_max_dialog_lines: int = 20
    dialog_use_speech: int = 1
    dialog_print_text: int = 1
    dialog_max_menu_items: int = 300
    dialog_max_text_width: int = 150
    menu_traverse_delay: int = 1
    effect_count: int = 118
    torch_effect: int = 25
    torch_volume_offset: int = -40
    reset_ticks: int = 1400

    def __post_init__(self) -> None:
        try:
            law.divisor(self.sound_distance)
        except ValueError as error:
            raise DataError(SOURCE, None, "sound_distance", str(error)) from None
        if not (math.isfinite(self.units_per_m) and self.units_per_m > 0):
            raise DataError(SOURCE, None, "units_per_m", "must be a positive finite number")
        if self.master_volume < 0:
            raise DataError(SOURCE, None, "master_volume", "must be >= 0")

    @property
    def radius(self) -> int:
        return law.radius(self.sound_distance)

    @property
    def dialogue_records(self) -> int:
        """max(dialog_max_dialog_lines, 16) records are allocated."""
        return max(self.dialog_max_dialog_lines, 16)

    @property
    def menu_capacity(self) -> int:
        """Topic-menu capacity: max(dialog_max_menu_items, 300)."""
        return max(self.dialog_max_menu_items, 300)

    @property
    def text_width(self) -> int:
        """Text width: max(dialog_max_text_width, 150)."""
        return max(self.dialog_max_text_width, 150)

    @property
    def traverse_delay(self) -> int:
        """menu_traverse_delay in BIOS ticks; a configured zero becomes one."""
        return 1 if self.menu_traverse_delay == 0 else self.menu_traverse_delay

    @classmethod
    def from_settings(cls, extra: dict[str, Any]) -> RgConfig:
        """The config from ``Settings.extra['redguard']`` (a dict; absent = defaults)."""
        raw = extra.get("redguard", {}) or {}
        if isinstance(raw, RgConfig):
            return raw
        if not isinstance(raw, dict):
            raise DataError(SOURCE, None, None, "must be a dict of Redguard settings")
        known = {f.name: f.type for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in raw.items():
            if key not in known:
                raise DataError(SOURCE, None, str(key), f"unknown setting; known: {sorted(known)}")
            if key == "units_per_m":
                if isinstance(value, bool) or not isinstance(value, (int, float)):
                    raise DataError(SOURCE, None, key, "must be a number")
                values[key] = float(value)
            else:
                if isinstance(value, bool) or not isinstance(value, int):
                    raise DataError(SOURCE, None, key, "must be an integer")
                values[key] = value
        return cls(**values)
