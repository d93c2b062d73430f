"""AC landscape: loaded landblocks, the 3x3 ring around the listener, objcell ids.

``LScape::add_ambient_sounds`` 0x505810 visits the landblocks of ring <= 1
(``get_block_orient`` 0x504f90: lod 1) around the viewer's landblock, x-major
(west to east, south to north within a column), and ``CLandBlock::add_ambient_sounds``
0x530310 their 8 x 8 cells, x-major. ``Ring`` keeps that sequence as numpy
arrays (block-corrected SW vertex, STB index, objcell id), cached per centre.

World <-> AC: AC x = world x_m, AC y = world z_m, AC z = world y_m, shifted by
``origin_block`` landblocks (world (0, 0) is that landblock's SW corner).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from soundscape.ac.region import Region
from soundscape.components.ac import Landblock, LandCell
from soundscape.errors import InputError
from soundscape.laws.ac import (
    BLOCK_LENGTH_M,
    SIDE_CELL_COUNT,
    SIDE_VERTEX_COUNT,
    SQUARE_LENGTH_M,
    block_of,
    f32,
    outdoor_cell_id,
)

INDOOR_CELL = 0x0100
"""Low 16 bits of the objcell derived for a listener that is not outdoors (first EnvCell)."""


def _grid(values: object, name: str, block: str) -> np.ndarray:
    array = np.asarray(values, dtype=np.float64)
    if array.size == SIDE_VERTEX_COUNT**2:
        return array.reshape(SIDE_VERTEX_COUNT, SIDE_VERTEX_COUNT)
    if array.size == SIDE_CELL_COUNT**2:
        full = np.zeros((SIDE_VERTEX_COUNT, SIDE_VERTEX_COUNT))
        full[:SIDE_CELL_COUNT, :SIDE_CELL_COUNT] = array.reshape(SIDE_CELL_COUNT, SIDE_CELL_COUNT)
        return full
    raise InputError(f"landblock {block}: {name} needs 9x9 vertex or 8x8 cell values, "
                     f"got {array.size}")


def build_landblock(
    block_x: int,
    block_y: int,
    terrain_words: Sequence[int] | Sequence[Sequence[int]] | np.ndarray,
    heights_m: Sequence[float] | Sequence[Sequence[float]] | np.ndarray | None = None,
) -> Landblock:
    """A validated ``Landblock`` from x-major terrain words and heights.

    ``terrain_words`` and ``heights_m`` are 9x9 per vertex (``[x][y]``) or 8x8 per
    cell (the SW vertices only); heights default to 0.

    Raises:
        InputError: block outside 0..255, wrong sizes, words outside 0..0xFFFF,
            non-finite heights.
    """
    if not (isinstance(block_x, int) and isinstance(block_y, int)
            and 0 <= block_x <= 0xFF and 0 <= block_y <= 0xFF):
        raise InputError(f"landblock ({block_x!r}, {block_y!r}): x and y must be 0..255")
    name = f"{block_x:#04x}{block_y:02x}"
    words = _grid(terrain_words, "terrain_words", name)
    if not np.all((words >= 0) & (words <= 0xFFFF) & (words == np.floor(words))):
        raise InputError(f"landblock {name}: terrain words must be integers 0..0xFFFF")
    heights = _grid(np.zeros(81) if heights_m is None else heights_m, "heights_m", name)
    if not np.all(np.isfinite(heights)):
        raise InputError(f"landblock {name}: heights must be finite")
    word_rows: list[list[int]] = words.astype(np.int64).tolist()
    height_rows: list[list[float]] = heights.tolist()
    cells = tuple(
        LandCell(
            outdoor_cell_id(block_x, block_y, x, y),
            word_rows[x][y],
            (x * SQUARE_LENGTH_M, y * SQUARE_LENGTH_M, f32(height_rows[x][y])),
        )
        for x in range(SIDE_CELL_COUNT)
        for y in range(SIDE_CELL_COUNT)
    )
    return Landblock(block_x, block_y, tuple(w for row in word_rows for w in row),
                     tuple(h for row in height_rows for h in row), cells)


@dataclass(slots=True)
class Ring:
    """The land cells of a 3x3 ring in retail visiting order, block-corrected to the centre.

    ``x/y/z`` are ``block_offset + sw_vertex`` (float32, metres, AC frame relative
    to the centre landblock's origin); ``stb`` is the STB desc index (-1: none).
    """

    blocks: list[Landblock]
    x: np.ndarray
    y: np.ndarray
    z: np.ndarray
    stb: np.ndarray
    cell_ids: np.ndarray
    stb_present: list[int]


class Landscape:
    """The loaded landblocks by (x, y), with ring caches and objcell derivation."""

    def __init__(self, origin_block: tuple[int, int] = (0, 0)) -> None:
        self.origin_block = origin_block
        self.blocks: dict[tuple[int, int], Landblock] = {}
        self.region: Region | None = None
        self._rings: dict[tuple[int, int], Ring] = {}
        self._stb_cache: dict[int, tuple[Landblock, np.ndarray]] = {}

    def set_blocks(self, blocks: dict[tuple[int, int], Landblock]) -> None:
        """Replace the loaded landblocks (and forget every cached ring)."""
        self.blocks = blocks
        self._rings.clear()
        live = {id(b) for b in blocks.values()}
        self._stb_cache = {k: v for k, v in self._stb_cache.items() if k in live}

    def put_block(self, key: tuple[int, int], block: Landblock) -> None:
        """Load ``block`` at ``key``; only the rings that hold ``key`` are forgotten."""
        old = self.blocks.get(key)
        if old is block:
            return
        self.blocks[key] = block
        self._forget(key, old)

    def drop_block(self, key: tuple[int, int]) -> None:
        """Unload the landblock at ``key`` (and the rings that held it)."""
        self._forget(key, self.blocks.pop(key, None))

    def _forget(self, key: tuple[int, int], old: Landblock | None) -> None:
        if old is not None:
            self._stb_cache.pop(id(old), None)
        x, y = key
        for centre in [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]:
            self._rings.pop(centre, None)

    def set_region(self, region: Region | None) -> None:
        self.region = region
        self._rings.clear()
        self._stb_cache.clear()

    def cell_stb(self, block: Landblock) -> np.ndarray:
        """Per cell, the STB desc index its terrain word selects (-1: none)."""
        cached = self._stb_cache.get(id(block))
        if cached is not None and cached[0] is block:
            return cached[1]
        region = self.region
        stb = np.array(
            [region.stb_index(c.terrain_word) if region else -1 for c in block.cells],
            dtype=np.int32,
        )
        self._stb_cache[id(block)] = (block, stb)
        return stb

    def ring_blocks(self, centre: tuple[int, int]) -> list[Landblock]:
        """Loaded landblocks of ring <= 1 around ``centre``, x-major."""
        cx, cy = centre
        found = []
        for bx in range(cx - 1, cx + 2):
            for by in range(cy - 1, cy + 2):
                block = self.blocks.get((bx, by))
                if block is not None:
                    found.append(block)
        return found

    def ring(self, centre: tuple[int, int]) -> Ring:
        """The ring arrays around ``centre`` (cached until the blocks or region change)."""
        ring = self._rings.get(centre)
        if ring is None:
            ring = self._rings[centre] = self._build_ring(centre)
        return ring

    def _build_ring(self, centre: tuple[int, int]) -> Ring:
        blocks = self.ring_blocks(centre)
        xs, ys, zs, stbs, ids = [], [], [], [], []
        for block in blocks:
            # LandDefs::get_block_offset: landblock difference x 8 cells x 24 m, in float.
            ox = np.float32((block.block_x - centre[0]) * SIDE_CELL_COUNT * SQUARE_LENGTH_M)
            oy = np.float32((block.block_y - centre[1]) * SIDE_CELL_COUNT * SQUARE_LENGTH_M)
            verts = np.array([c.sw_vertex_m for c in block.cells], dtype=np.float32)
            xs.append(ox + verts[:, 0])
            ys.append(oy + verts[:, 1])
            zs.append(np.float32(0.0) + verts[:, 2])
            stbs.append(self.cell_stb(block))
            ids.append(np.array([c.objcell_id for c in block.cells], dtype=np.uint32))
        if not blocks:
            empty = np.zeros(0, dtype=np.float32)
            return Ring([], empty, empty, empty, np.zeros(0, np.int32), np.zeros(0, np.uint32), [])
        stb = np.concatenate(stbs)
        present = [int(s) for s in np.unique(stb) if s >= 0]
        return Ring(blocks, np.concatenate(xs), np.concatenate(ys), np.concatenate(zs), stb,
                    np.concatenate(ids), present)

    # -- world <-> AC ---------------------------------------------------------------

    def ac_global(self, x_m: float, y_m: float, z_m: float) -> tuple[float, float, float]:
        """World frame -> global AC metres (x east, y north, z up)."""
        return (
            x_m + self.origin_block[0] * BLOCK_LENGTH_M,
            z_m + self.origin_block[1] * BLOCK_LENGTH_M,
            y_m,
        )

    def derive_objcell(self, x_m: float, y_m: float, z_m: float, outdoors: bool) -> int:
        """The objcell of a world position: 0 off the loaded landblocks.

        Outdoors: the land cell under the point. Not outdoors: the landblock's
        first EnvCell id (``0x0100``), so stepping in or out is an objcell change.
        """
        gx, gy, _ = self.ac_global(x_m, y_m, z_m)
        bx, by = math.floor(gx / BLOCK_LENGTH_M), math.floor(gy / BLOCK_LENGTH_M)
        if (bx, by) not in self.blocks:
            return 0
        if not outdoors:
            return (bx << 24) | (by << 16) | INDOOR_CELL
        cx = min(max(int((gx - bx * BLOCK_LENGTH_M) // SQUARE_LENGTH_M), 0), 7)
        cy = min(max(int((gy - by * BLOCK_LENGTH_M) // SQUARE_LENGTH_M), 0), 7)
        return outdoor_cell_id(bx, by, cx, cy)

    def local_origin(self, cell: int, x_m: float, y_m: float,
                     z_m: float) -> tuple[float, float, float]:
        """The world position in ``cell``'s landblock-local AC frame, float32."""
        gx, gy, gz = self.ac_global(x_m, y_m, z_m)
        bx, by = block_of(cell)
        return (f32(gx - bx * BLOCK_LENGTH_M), f32(gy - by * BLOCK_LENGTH_M), f32(gz))

    def has_cell(self, cell: int) -> bool:
        """``curr_cell != null``: an outdoor cell needs its landblock; an EnvCell always exists."""
        if (cell & 0xFFFF) >= INDOOR_CELL:
            return True
        return block_of(cell) in self.blocks
