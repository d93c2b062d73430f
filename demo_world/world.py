"""The demo's terrain: a seeded generator of AC terrain words on a grid of landblocks.

The world is ``LANDBLOCKS_X x LANDBLOCKS_Z`` AC landblocks of 192 m (8 x 8 land
cells of 24 m) in soundscape's shared frame (x east, z north, metres), with the
south-west corner of landblock (0, 0) at the origin. Every land cell takes the
terrain of its south-west vertex, as AC's ``CLandBlock::add_ambient_sounds``
reads it, so the generator fills the vertex grid (``8 n + 1`` vertices a side).

The layout is fixed (so the tour's route always crosses every terrain) and the
seed only moves the borders: each terrain has a site, a vertex takes the terrain
of the nearest site with a seeded value-noise wobble added to the distances.

>>> terrain = generate_terrain(seed=3)
>>> terrain.cell_terrain(384.0, 384.0) == TERRAIN_IDS["grassland"]
True
>>> terrain.cell_terrain(650.0, 390.0) == TERRAIN_IDS["water"]
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

LANDBLOCK_M = 192.0
"""AC landblock side (8 land cells)."""
CELL_M = 24.0
"""``LandDefs::square_length`` 0x799128."""
CELLS_PER_BLOCK = 8
LANDBLOCKS_X = 4
LANDBLOCKS_Z = 4
WORLD_X_M = LANDBLOCKS_X * LANDBLOCK_M
WORLD_Z_M = LANDBLOCKS_Z * LANDBLOCK_M

TERRAIN_IDS: dict[str, int] = {
    "grassland": 1,
    "forest": 3,
    "shore": 10,
    "water": 17,
    "desert": 12,
    "snow": 15,
}
"""Terrain type indices (the 5-bit ``terrainType`` of a terrain word), AC's own where
one fits: Grassland 1, LushGrass 3 (our forest floor), SandYellow 10 (lake shore),
SandRockStrewn 12 (desert), Snow 15, WaterStandingFresh 17."""

TERRAIN_NAMES = {index: name for name, index in TERRAIN_IDS.items()}

VILLAGE_CENTRE_M = (384.0, 384.0)
LAKE_CENTRE_M = (640.0, 384.0)
LAKE_WATER_RADIUS_M = 80.0
LAKE_SHORE_RADIUS_M = 124.0

SITES: tuple[tuple[str, float, float], ...] = (
    ("grassland", 384.0, 384.0),
    ("grassland", 200.0, 330.0),
    ("grassland", 250.0, 500.0),
    ("grassland", 540.0, 560.0),
    ("forest", 360.0, 700.0),
    ("forest", 90.0, 620.0),
    ("forest", 80.0, 110.0),
    ("snow", 700.0, 720.0),
    ("desert", 384.0, 60.0),
    ("desert", 650.0, 80.0),
)
"""Terrain sites (name, x, z); the lake is drawn over them by radius."""

NOISE_AMPLITUDE_M = 40.0
NOISE_GRID_M = 96.0


def terrain_word(terrain_type: int, scene: int = 0) -> int:
    """An AC terrain word: ``terrainType`` in bits 2..6, the scene index in bits 11..15.

    >>> hex(terrain_word(15, 1))
    '0x83c'
    """
    if not (0 <= terrain_type < 32 and 0 <= scene < 32):
        raise ValueError(f"terrain word fields out of range: type {terrain_type}, scene {scene}")
    return (terrain_type << 2) | (scene << 11)


def _value_noise(seed: int, xs: np.ndarray, zs: np.ndarray) -> np.ndarray:
    """Smooth seeded noise in -1..1 on a ``NOISE_GRID_M`` lattice (bilinear, smoothstep)."""
    generator = np.random.default_rng(seed)
    nx = int(math.ceil(WORLD_X_M / NOISE_GRID_M)) + 2
    nz = int(math.ceil(WORLD_Z_M / NOISE_GRID_M)) + 2
    lattice = generator.uniform(-1.0, 1.0, size=(nx, nz))
    gx, gz = xs / NOISE_GRID_M, zs / NOISE_GRID_M
    ix, iz = np.floor(gx).astype(int), np.floor(gz).astype(int)
    fx, fz = gx - ix, gz - iz
    fx, fz = fx * fx * (3 - 2 * fx), fz * fz * (3 - 2 * fz)
    a = lattice[ix, iz] * (1 - fx) + lattice[ix + 1, iz] * fx
    b = lattice[ix, iz + 1] * (1 - fx) + lattice[ix + 1, iz + 1] * fx
    result: np.ndarray = a * (1 - fz) + b * fz
    return result


@dataclass(slots=True)
class Terrain:
    """The generated vertex grid: terrain type, scene and height per vertex.

    Attributes:
        types: terrain type per vertex, shape ``(vx, vz)`` (x index first).
        scenes: scene index per vertex (0..1: a little variety for the sound tables).
        heights_m: vertex height, metres (y up).
    """

    types: np.ndarray
    scenes: np.ndarray
    heights_m: np.ndarray

    @property
    def cells_x(self) -> int:
        return int(self.types.shape[0]) - 1

    @property
    def cells_z(self) -> int:
        return int(self.types.shape[1]) - 1

    def words(self) -> np.ndarray:
        """AC terrain words per vertex (uint16)."""
        return ((self.types << 2) | (self.scenes << 11)).astype(np.uint16)

    def cell_index(self, x_m: float, z_m: float) -> tuple[int, int] | None:
        """The land cell (ix, iz) holding the point, or None outside the world."""
        if not (math.isfinite(x_m) and math.isfinite(z_m)):
            return None
        ix, iz = int(math.floor(x_m / CELL_M)), int(math.floor(z_m / CELL_M))
        if 0 <= ix < self.cells_x and 0 <= iz < self.cells_z:
            return ix, iz
        return None

    def cell_terrain(self, x_m: float, z_m: float) -> int | None:
        """The terrain type of the land cell under the point (its SW vertex)."""
        cell = self.cell_index(x_m, z_m)
        return None if cell is None else int(self.types[cell])

    def terrain_name(self, x_m: float, z_m: float) -> str | None:
        terrain = self.cell_terrain(x_m, z_m)
        return None if terrain is None else TERRAIN_NAMES.get(terrain)

    def height_m(self, x_m: float, z_m: float) -> float:
        """Bilinear height at a point (clamped to the world)."""
        gx = min(max(x_m / CELL_M, 0.0), self.cells_x - 1e-6)
        gz = min(max(z_m / CELL_M, 0.0), self.cells_z - 1e-6)
        ix, iz = int(gx), int(gz)
        fx, fz = gx - ix, gz - iz
        h = self.heights_m
        a = h[ix, iz] * (1 - fx) + h[ix + 1, iz] * fx
        b = h[ix, iz + 1] * (1 - fx) + h[ix + 1, iz + 1] * fx
        return float(a * (1 - fz) + b * fz)

    def block_words(self, bx: int, bz: int) -> np.ndarray:
        """The 9 x 9 vertex terrain words of landblock (bx, bz), x index first."""
        n = CELLS_PER_BLOCK
        return self.words()[bx * n: bx * n + n + 1, bz * n: bz * n + n + 1].copy()

    def block_heights(self, bx: int, bz: int) -> np.ndarray:
        n = CELLS_PER_BLOCK
        return self.heights_m[bx * n: bx * n + n + 1, bz * n: bz * n + n + 1].copy()


def generate_terrain(
    seed: int, blocks_x: int = LANDBLOCKS_X, blocks_z: int = LANDBLOCKS_Z
) -> Terrain:
    """The seeded terrain of the demo world (same seed, same terrain).

    Raises:
        ValueError: a negative seed, or fewer than 4 x 4 landblocks.
    """
    if seed < 0:
        raise ValueError(f"the demo world's seed must be 0 or more, got {seed}")
    if blocks_x < 4 or blocks_z < 4:
        raise ValueError("the demo world needs at least 4 x 4 landblocks")
    vx, vz = blocks_x * CELLS_PER_BLOCK + 1, blocks_z * CELLS_PER_BLOCK + 1
    xs, zs = np.meshgrid(np.arange(vx) * CELL_M, np.arange(vz) * CELL_M, indexing="ij")
    best = np.full(xs.shape, np.inf)
    types = np.zeros(xs.shape, dtype=np.int64)
    for index, (name, sx, sz) in enumerate(SITES):
        wobble = NOISE_AMPLITUDE_M * _value_noise(seed * 31 + index, xs, zs)
        distance = np.hypot(xs - sx, zs - sz) + wobble
        closer = distance < best
        best = np.where(closer, distance, best)
        types = np.where(closer, TERRAIN_IDS[name], types)
    lake = np.hypot(xs - LAKE_CENTRE_M[0], zs - LAKE_CENTRE_M[1])
    lake = lake + 0.5 * NOISE_AMPLITUDE_M * _value_noise(seed * 31 + 97, xs, zs)
    types = np.where(lake < LAKE_SHORE_RADIUS_M, TERRAIN_IDS["shore"], types)
    types = np.where(lake < LAKE_WATER_RADIUS_M, TERRAIN_IDS["water"], types)
    # The village plaza is grassland whatever the noise does.
    village = np.hypot(xs - VILLAGE_CENTRE_M[0], zs - VILLAGE_CENTRE_M[1]) < 90.0
    types = np.where(village, TERRAIN_IDS["grassland"], types)
    scenes = (_value_noise(seed * 31 + 211, xs, zs) > 0.35).astype(np.int64)
    heights = np.where(types == TERRAIN_IDS["snow"], 12.0, 0.0)
    heights = heights + np.where(types == TERRAIN_IDS["water"], -2.0, 0.0)
    heights = heights + 2.0 * (_value_noise(seed * 31 + 307, xs, zs) + 1.0)
    return Terrain(types=types, scenes=scenes, heights_m=heights.astype(np.float64))
