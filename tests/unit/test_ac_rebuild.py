"""The vectorised 576-cell rebuild against the straightforward retail per-cell loop."""

from __future__ import annotations

import numpy as np
import pytest

from soundscape import Context, Settings
from soundscape.ac.accumulate import accumulate_reference, accumulate_ring, calc_dir_array
from soundscape.ac.ambient import Ambient
from soundscape.ac.landscape import INDOOR_CELL, Landscape, build_landblock
from soundscape.ac.region import Region
from soundscape.ac.region_toml import region_from_dict
from soundscape.ac.sample import rolling_heights, sample_region, striped_words
from soundscape.ac.sound_manager import AcSoundManager
from soundscape.ac.sounds import AmbientSound, IntermitSound
from soundscape.errors import InputError
from soundscape.laws.ac import block_of, calc_dir, calc_weight, f32
from soundscape.rng import MsvcRand


def _state(ambient: Ambient) -> tuple[object, ...]:
    def one(s: AmbientSound) -> tuple[object, ...]:
        slots = s.slots() if isinstance(s, IntermitSound) else None
        return (s.label, type(s).__name__, s.sound_count, slots)

    return ambient.total_sound_count, [one(s) for s in ambient.sounds]


def _world(seed: int, n_stb: int = 8, missing: int | None = None
           ) -> tuple[Context, Region, Landscape]:
    rng = np.random.default_rng(seed)
    ctx = Context.create(Settings(seed=seed, backend="none", features=("ac",)))
    doc = sample_region(n_stb)
    if missing is not None:
        del doc["sound_table"][missing]
    region = region_from_dict(doc)
    landscape = Landscape()
    landscape.set_region(region)
    blocks = {}
    for bx in range(19, 23):
        for by in range(29, 33):
            words = (rng.integers(0, n_stb + 2, size=(9, 9)) << 2) | (
                rng.integers(0, 2, size=(9, 9)) << 11)
            heights = rng.uniform(-40.0, 60.0, size=(9, 9))
            if (bx + by) % 5 == 0:
                continue  # a hole in the loaded landblocks
            blocks[(bx, by)] = build_landblock(bx, by, words, heights)
    landscape.set_blocks(blocks)
    return ctx, region, landscape


def _ambients(ctx: Context) -> tuple[Ambient, Ambient]:
    manager = AcSoundManager(ctx, MsvcRand(1), (0, 0))
    return Ambient(manager), Ambient(manager)


@pytest.mark.parametrize("seed", range(12))
def test_vectorised_rebuild_equals_the_per_cell_loop(seed: int) -> None:
    ctx, region, landscape = _world(seed, missing=3 if seed % 3 == 0 else None)
    rng = np.random.default_rng(1000 + seed)
    fast, slow = _ambients(ctx)
    for _ in range(6):
        bx, by = int(rng.integers(20, 22)), int(rng.integers(30, 32))
        if (bx, by) not in landscape.blocks:
            continue
        local = (f32(rng.uniform(0, 192)), f32(rng.uniform(0, 192)), f32(rng.uniform(-30, 70)))
        if rng.random() < 0.3:
            local = (f32(float(rng.integers(0, 9)) * 24.0), f32(float(rng.integers(0, 9)) * 24.0),
                     local[2])  # exactly on vertices: in-viewer and axis edge cases
        cell = landscape.derive_objcell(bx * 192 + local[0], local[2], by * 192 + local[1], True)
        assert cell != 0
        fast.init_sounds(cell, local)
        slow.init_sounds(cell, local)
        accumulate_ring(fast, region, landscape.ring(block_of(cell)), local, ctx.events)
        accumulate_reference(slow, region, landscape, block_of(cell), ctx.events)
        assert _state(fast) == _state(slow)
        assert fast.total_sound_count > 0.0


def test_snapshot_weights_match_calc_weight() -> None:
    ctx, region, landscape = _world(4)
    fast, _ = _ambients(ctx)
    origin = (f32(100.0), f32(50.0), f32(3.0))
    cell = landscape.derive_objcell(21 * 192 + 100.0, 3.0, 30 * 192 + 50.0, True)
    fast.init_sounds(cell, origin)
    snap = accumulate_ring(fast, region, landscape.ring((21, 30)), origin, ctx.events)
    for block in landscape.ring_blocks((21, 30)):
        for c in block.cells:
            i = int(np.flatnonzero(snap.cell_ids == c.objcell_id)[0])
            if snap.direction[i] < 0:
                continue
            dx = (block.block_x - 21) * 192.0 + c.sw_vertex_m[0] - origin[0]
            dy = (block.block_y - 30) * 192.0 + c.sw_vertex_m[1] - origin[1]
            dz = c.sw_vertex_m[2] - origin[2]
            assert snap.weight[i] == calc_weight(dx, dy, dz)
            assert snap.direction[i] == calc_dir(dx, dy)
    assert snap.total == fast.total_sound_count
    assert len(snap.cell_weights()) == int((snap.direction >= 0).sum())


def test_calc_dir_array_matches_calc_dir() -> None:
    rng = np.random.default_rng(3)
    x = rng.uniform(-130, 130, 4000).astype(np.float32)
    y = rng.uniform(-130, 130, 4000).astype(np.float32)
    edges = np.array([0, 14.142, 14.143, 20, -20, 40, 40.01, 0.0001, -0.0001, 10, 9.9999],
                     dtype=np.float32)
    gx, gy = np.meshgrid(edges, edges)
    x = np.concatenate([x, gx.ravel(), 2 * gx.ravel()])
    y = np.concatenate([y, gy.ravel(), gy.ravel()])
    got = calc_dir_array(x, y)
    want = [int(calc_dir(float(a), float(b))) for a, b in zip(x, y, strict=True)]
    assert got.tolist() == want


def test_ring_is_3x3_x_major_and_skips_missing_blocks() -> None:
    _, _, landscape = _world(0)
    order = [(b.block_x, b.block_y) for b in landscape.ring_blocks((21, 30))]
    expected = [(x, y) for x in (20, 21, 22) for y in (29, 30, 31) if (x + y) % 5]
    assert order == expected
    ring = landscape.ring((21, 30))
    assert len(ring.x) == 64 * len(expected)
    assert ring.cell_ids[0] == (20 << 24) | (29 << 16) | 1


def test_objcell_derivation() -> None:
    landscape = Landscape(origin_block=(10, 20))
    landscape.set_blocks({(10, 20): build_landblock(10, 20, np.zeros(81, dtype=int))})
    assert landscape.derive_objcell(0.0, 0.0, 0.0, True) == 0x0A140001
    assert landscape.derive_objcell(191.9, 0.0, 191.9, True) == 0x0A140040
    assert landscape.derive_objcell(30.0, 5.0, 50.0, True) == 0x0A14000B  # cell x1 y2
    assert landscape.derive_objcell(30.0, 5.0, 50.0, False) == 0x0A140000 | INDOOR_CELL
    assert landscape.derive_objcell(-0.1, 0.0, 0.0, True) == 0  # not loaded
    assert landscape.derive_objcell(0.0, 0.0, 192.0, True) == 0
    assert landscape.local_origin(0x0A140001, 30.0, 5.0, 50.0) == (30.0, 50.0, 5.0)


def test_build_landblock_cells_and_bad_input() -> None:
    block = build_landblock(3, 4, striped_words(3, 4), rolling_heights(3, 4))
    cell = block.cells[8 * 2 + 5]
    assert cell.objcell_id == (3 << 24) | (4 << 16) | (2 * 8 + 5 + 1)
    assert cell.sw_vertex_m[:2] == (48.0, 120.0)
    assert cell.sw_vertex_m[2] == f32(rolling_heights(3, 4)[2, 5])
    assert cell.terrain_word == int(striped_words(3, 4)[2, 5])
    small = build_landblock(3, 4, np.full((8, 8), 12), np.ones((8, 8)))
    assert small.cells[63].terrain_word == 12 and small.cells[63].sw_vertex_m[2] == 1.0
    with pytest.raises(InputError, match="0..255"):
        build_landblock(256, 0, np.zeros(81, dtype=int))
    with pytest.raises(InputError, match="9x9 vertex or 8x8 cell"):
        build_landblock(1, 1, np.zeros(80, dtype=int))
    with pytest.raises(InputError, match="terrain words must be integers"):
        build_landblock(1, 1, np.full(81, 0x10000))
    with pytest.raises(InputError, match="heights must be finite"):
        build_landblock(1, 1, np.zeros(81, dtype=int), np.full(81, np.nan))
