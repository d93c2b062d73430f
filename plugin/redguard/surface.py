"""The SURFACE.INI sound remap: [surface 0..11][sound 0..255] -> effect.

Only animation PlaySound uses it. The table is one flat run of 12 x 256
unsigned 16-bit entries, each row the identity until SURFACE.INI overwrites it,
so the lookup helper's missing source-ID bounds check reads a neighbouring row
exactly as the original's pointer arithmetic does.
"""

from __future__ import annotations

from pathlib import Path

from soundscape.errors import DataError
from soundscape.redguard.ini import read_ini

SURFACE_NAMES = (
    "unknown", "water", "deepwater", "scapewater", "scapedeepwater", "lava",
    "sand", "wood", "tile", "scape", "rock", "gloop",
)
"""SURFACE.INI sound sections in table order (codes 0..11)."""
ROWS = len(SURFACE_NAMES)
SOUNDS_PER_ROW = 256
UNDEFINED_SURFACE = 12
"""Accepted by the lookup (``<= 12``) but beyond the table: no defined remap."""


class SurfaceRemap:
    """The remap table. ``lookup(surface, effect)`` is the engine's helper.

    >>> remap = SurfaceRemap()
    >>> remap.set(1, 40, 41); remap.lookup(1, 40), remap.lookup(0, 40), remap.lookup(13, 40)
    (41, 40, 40)
    >>> remap.lookup(0, 40) == remap.lookup(2, 40) == 40
    True
    """

    def __init__(self) -> None:
        self.table: list[int] | None = [i for _ in range(ROWS) for i in range(SOUNDS_PER_ROW)]

    def set(self, surface: int, sound: int, effect: int) -> None:
        """Overwrite one entry (a repeated entry overwrites the earlier one)."""
        if self.table is None:
            raise DataError("SURFACE.INI", None, None, "no remap table")
        if not 0 <= surface < ROWS or not 0 <= sound < SOUNDS_PER_ROW:
            raise DataError("SURFACE.INI", SURFACE_NAMES[surface] if 0 <= surface < ROWS
                            else str(surface), str(sound), "outside the 12 x 256 table")
        self.table[surface * SOUNDS_PER_ROW + sound] = int(effect) & 0xFFFF

    def lookup(self, surface: int, effect: int) -> int | None:
        """The remapped effect, or None where the original reads outside its table.

        Surface 0, codes above 12 and an absent table return ``effect``. Codes
        1..11 read ``table[surface * 256 + effect]`` with no source-ID check, so an
        ID outside 0..255 reads a neighbouring row; a read outside the whole
        table (surface 12, negative codes, far IDs) has no defined remap: None.
        """
        if self.table is None or surface == 0 or surface > UNDEFINED_SURFACE:
            return effect
        flat = surface * SOUNDS_PER_ROW + effect
        if surface < 0 or surface == UNDEFINED_SURFACE or not 0 <= flat < len(self.table):
            return None
        return self.table[flat]

    def load_ini(self, path: str | Path) -> None:
        """Read SURFACE.INI sound sections ``[<surface name>]`` with ``sound = effect`` lines.

        Sections are applied in table order; missing sections keep the identity.
        The ``[surfaces]`` section is ``SurfaceTypes.load_ini``'s
        (``soundscape.redguard.surface_value``).
        """
        source = str(path)
        parser, sections = read_ini(path)
        for code, name in enumerate(SURFACE_NAMES):
            section = sections.get(name)
            if section is None:
                continue
            for key, value in parser.items(section):
                if value is None:
                    raise DataError(source, name, key, "expected 'sound = effect'")
                try:
                    sound, effect = int(key, 0), int(value.split(";")[0].strip(), 0)
                except ValueError:
                    raise DataError(source, name, key, f"not an integer entry: {value!r}") from None
                if not 0 <= sound < SOUNDS_PER_ROW:
                    raise DataError(source, name, key, "sound ID outside 0..255")
                self.set(code, sound, effect)
