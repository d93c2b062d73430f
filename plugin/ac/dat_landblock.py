"""Landblocks from ``client_cell_1.dat`` (file 0xXXYYFFFF), loaded as the listener needs them.

``parse_landblock`` follows ``CLandBlock::UnPack`` 0x52F310 and
``CLandBlockStruct::UnPack`` 0x531FD0 (``Mag-nus/acclient-AI-RE``
``2013-09 11.4186/acclient-src/src/PORTAL/ccell/CLandBlock.c`` and
``CLandBlockStruct.c``), cross-checked with ``ACEmulator/ACE``
``Source/ACE.DatLoader/FileTypes/CellLandblock.cs`` and ``Chorizite/DatReaderWriter``
``DatReaderWriter/DBObjs/LandBlock.cs``::

    uint32 id, uint32 has_objects, uint16 terrain[81], uint8 height[81], pad to 4

Both arrays are x-major (``[9 * x + y]``). A vertex's height in metres is
``LandDefs::Land_Height_Table[height]``, the Region's table
(``CLandBlockStruct::ConstructVertices`` 0x5328D0).

``DatLandblocks`` is the streaming source ``AcRuntime.load_dat`` installs: before
each listener update it makes sure the 3 x 3 ring around the listener's landblock
(the only blocks the ambient accumulation reads, ``LScape::add_ambient_sounds``
0x505810) is loaded, as ``Landblock`` entities. A block the game already added is
left alone; a block the dat lacks, or a corrupt one (logged once as an ``ac``
``error`` event), is remembered and not read again. Loaded blocks stay loaded.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import esper

from soundscape.ac.dat_file import DatFile
from soundscape.ac.dat_object import DatCursor, DatObject
from soundscape.ac.landscape import build_landblock
from soundscape.components.ac import Landblock
from soundscape.components.spatial import Listener, Position
from soundscape.errors import DataError
from soundscape.laws.ac import BLOCK_LENGTH_M, block_of

if TYPE_CHECKING:
    from soundscape.ac.runtime import AcRuntime

VERTICES = 81
LANDBLOCK_BYTES = 4 + 4 + 2 * VERTICES + VERTICES
"""251: id, has_objects, terrain words, heights (retail pads the pointer to 252)."""


def landblock_id(block_x: int, block_y: int) -> int:
    """The cell-dat id of a landblock: ``x << 24 | y << 16 | 0xFFFF``.

    >>> hex(landblock_id(0xA9, 0xB4))
    '0xa9b4ffff'
    """
    return (block_x << 24) | (block_y << 16) | 0xFFFF


@dataclass(frozen=True, slots=True)
class DatLandblock:
    """A landblock as stored: terrain words and height-table indices, x-major."""

    block_x: int
    block_y: int
    has_objects: int
    terrain_words: tuple[int, ...]
    height_indices: tuple[int, ...]

    def to_landblock(self, land_height_m: Sequence[float]) -> Landblock:
        """The runtime's ``Landblock``, heights looked up in the Region's table."""
        heights = [land_height_m[i] for i in self.height_indices]
        return build_landblock(self.block_x, self.block_y, self.terrain_words, heights)


def parse_landblock(obj: DatObject) -> DatLandblock:
    """The landblock in ``obj`` (an 0xXXYYFFFF file).

    Raises:
        DataError: not a landblock id, the stored id differs, or truncated.
    """
    c = DatCursor(obj)
    if obj.file_id & 0xFFFF != 0xFFFF:
        raise c.fail("id", "a landblock's id ends in 0xFFFF")
    c.object_id()
    has_objects = c.u32("has_objects")
    c.need(2 * VERTICES + VERTICES, "terrain/height")
    words = struct.unpack_from(f"<{VERTICES}H", c.data, c.pos)
    heights = tuple(c.data[c.pos + 2 * VERTICES : c.pos + 3 * VERTICES])
    return DatLandblock(obj.file_id >> 24, (obj.file_id >> 16) & 0xFF, has_objects,
                        tuple(int(w) for w in words), heights)


class DatLandblocks:
    """Landblocks read from the cell dat on demand (see the module docstring)."""

    def __init__(self, cell: DatFile, land_height_m: Sequence[float]) -> None:
        self.cell = cell
        self.land_height_m = tuple(land_height_m)
        self.absent: set[tuple[int, int]] = set()
        self.loaded: set[tuple[int, int]] = set()
        self._centre: tuple[int, int] | None = None

    def read(self, block_x: int, block_y: int) -> Landblock | None:
        """The landblock at (x, y) from the dat, or None when the dat has none.

        Raises:
            DataError: the file is corrupt.
        """
        obj = self.cell.read(landblock_id(block_x, block_y))
        if obj is None:
            return None
        return parse_landblock(obj).to_landblock(self.land_height_m)

    def listener_block(self, runtime: AcRuntime, listener: Listener,
                       pos: Position) -> tuple[int, int] | None:
        """The landblock the listener is in (its objcell, else its position), or None."""
        cell = listener.objcell_id
        if isinstance(cell, int) and not isinstance(cell, bool) and 0 < cell <= 0xFFFFFFFF:
            return block_of(cell)
        if not pos.is_finite():
            return None
        gx, gy, _ = runtime.landscape.ac_global(pos.x_m, pos.y_m, pos.z_m)
        if not (math.isfinite(gx) and math.isfinite(gy)):
            return None
        return math.floor(gx / BLOCK_LENGTH_M), math.floor(gy / BLOCK_LENGTH_M)

    def prepare(self, runtime: AcRuntime, listener: Listener, pos: Position) -> int:
        """Load the missing blocks of the listener's 3 x 3 ring; how many were added."""
        centre = self.listener_block(runtime, listener, pos)
        if centre is None or centre == self._centre:
            return 0
        self._centre = centre
        added = 0
        have = runtime.landscape.blocks
        for bx in range(centre[0] - 1, centre[0] + 2):
            for by in range(centre[1] - 1, centre[1] + 2):
                key = (bx, by)
                if not (0 <= bx <= 0xFF and 0 <= by <= 0xFF) or key in have \
                        or key in self.absent:
                    continue
                try:
                    block = self.read(bx, by)
                except DataError as error:
                    runtime.ctx.events.emit("ac", "error", block=key,
                                            error=f"landblock skipped: {error}")
                    block = None
                if block is None:
                    self.absent.add(key)
                    continue
                esper.create_entity(block)
                self.loaded.add(key)
                added += 1
        if added:
            runtime.sync_landblocks()
        return added


__all__ = ["DatLandblock", "DatLandblocks", "landblock_id", "parse_landblock"]
