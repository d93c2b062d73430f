"""``AcRuntime.load_dat``: drive the AC runtime from the retail client's own files.

Opening reads the two dat headers, the portal's directory path to the Region
(0x13000000) and the Region itself; nothing else. Sound tables and their waves
are read when the accumulation first meets their STB desc
(``soundscape.ac.dat_sound``), landblocks when the listener's 3 x 3 ring needs
them (``soundscape.ac.dat_landblock``). Docs: ``docs/game-data.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from soundscape.ac.dat_file import DATA_SET_CELL, DATA_SET_PORTAL, DatFile
from soundscape.ac.dat_landblock import DatLandblocks
from soundscape.ac.dat_region import REGION_ID, DatRegion, parse_region
from soundscape.ac.dat_sound import DatSoundTables
from soundscape.context import Context
from soundscape.errors import DataError


@dataclass(slots=True)
class AcDats:
    """The open dats and what was read from them.

    Attributes:
        portal: ``client_portal.dat``.
        cell: ``client_cell_1.dat``.
        region: the Region (its ``region`` is what the runtime runs on).
        sound_tables: the portal's sound tables, read on first use.
        landblocks: the cell dat's landblocks, loaded around the listener.
    """

    portal: DatFile
    cell: DatFile
    region: DatRegion
    sound_tables: DatSoundTables
    landblocks: DatLandblocks

    def close(self) -> None:
        """Close both files (the runtime then reads no further landblocks or tables)."""
        self.portal.close()
        self.cell.close()


def open_dats(ctx: Context, portal: str | Path, cell: str | Path) -> AcDats:
    """Open the two dats and read the Region.

    Raises:
        DataError: either file is missing, not a dat of the right kind, or the
            Region is absent or malformed (the message names file, offset and field).
    """
    portal_dat = DatFile(portal, DATA_SET_PORTAL)
    try:
        cell_dat = DatFile(cell, DATA_SET_CELL)
    except BaseException:
        portal_dat.close()
        raise
    try:
        obj = portal_dat.read(REGION_ID)
        if obj is None:
            raise DataError(portal_dat.source, f"0x{REGION_ID:08X}", None,
                            "the portal dat has no Region")
        sounds = ctx.sounds if ctx.has("sounds") else None  # waves need the audio feature
        tables = DatSoundTables(portal_dat, sounds, ctx.events)
        region = parse_region(obj, tables)
    except BaseException:
        portal_dat.close()
        cell_dat.close()
        raise
    return AcDats(portal_dat, cell_dat, region, tables,
                  DatLandblocks(cell_dat, region.land_height_m))


__all__ = ["AcDats", "open_dats"]
