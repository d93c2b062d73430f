"""Asheron's Call terrain components: landblocks and their 8x8 land cells.

AC frame: x east, y north, z up, metres; the world frame's (x_m, z_m, y_m). A
landblock is 192 m square (8 x 8 land cells of 24 m); its id puts the landblock
x in bits 24-31 and y in bits 16-23, and an outdoor cell's low 16 bits are
``cell_x * 8 + cell_y + 1`` (1..64). Arrays are x-major like retail's
(``vertices[9 * x + y]``, ``lcell[8 * x + y]``).

Build them with ``soundscape.ac.landscape.build_landblock`` (it validates);
treat them as immutable: to change terrain, replace the component.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True, frozen=True)
class LandCell:
    """One 24 m land cell: its objcell id, terrain word and SW vertex.

    Attributes:
        objcell_id: AC objcell id of the cell (low 16 bits 1..64).
        terrain_word: the SW vertex's 16-bit terrain word (type bits 2-6, scene bits 11-15).
        sw_vertex_m: the SW vertex in landblock-local AC metres, z = terrain height.
    """

    objcell_id: int
    terrain_word: int
    sw_vertex_m: tuple[float, float, float]


@dataclass(slots=True)
class Landblock:
    """A loaded landblock (``CLandBlock``): 9 x 9 vertices, 8 x 8 land cells.

    Attributes:
        block_x: landblock x (0..255, east).
        block_y: landblock y (0..255, north).
        terrain_words: 81 vertex terrain words, x-major.
        heights_m: 81 vertex heights in metres, x-major.
        cells: the 64 land cells, x-major (``cells[8 * x + y]``).
    """

    block_x: int
    block_y: int
    terrain_words: tuple[int, ...]
    heights_m: tuple[float, ...]
    cells: tuple[LandCell, ...] = field(default=())

    @property
    def landblock_id(self) -> int:
        """The landblock's id: ``block_x << 24 | block_y << 16 | 0xFFFF``."""
        return (self.block_x << 24) | (self.block_y << 16) | 0xFFFF
