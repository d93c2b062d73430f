"""Reading the AC runtime's data from retail-format dats (``AcRuntime.load_dat``).

A synthetic cell dat of 128 x 128 landblocks (16,384 files, 256-byte blocks; its
size is printed as ``ac_dat_cell_mib``) and a portal dat with a Region, 64 sound tables and 256
waves are written by the test writer, then:

* ``ac_dat_open_ms``: median of ``open_dats`` (both headers, the directory path to
  the Region and the Region itself, parsed) on an open that reads nothing else;
* ``ac_dat_open_read_kib``: the bytes that open reads from disk (KiB);
* ``ac_dat_landblock_ms``: median of one landblock read and built (directory
  lookup from a cold node cache, block chain, parse, ``build_landblock``);
* ``ac_dat_ring_ms``: median of a listener's first 3 x 3 ring through
  ``DatLandblocks.prepare`` (nine reads, nine entities, one landscape sync).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import esper

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "unit"))

from ac_dat_writer import (  # noqa: E402
    DatWriter,
    RegionSpec,
    StbDesc,
    landblock_bytes,
    region_bytes,
    sound_table_bytes,
    wave_bytes,
)
from timing import median_seconds  # noqa: E402

from soundscape import Settings, SoundscapePlugin  # noqa: E402
from soundscape.ac.dat_file import DatFile  # noqa: E402
from soundscape.ac.dat_landblock import landblock_id  # noqa: E402
from soundscape.ac.dat_load import open_dats  # noqa: E402
from soundscape.components import Listener, Position  # noqa: E402

SIDE = 128


def _write(folder: Path) -> tuple[Path, Path]:
    portal = DatWriter(block_size=1024, data_set=1, free_every=50)
    stb = [StbDesc(0x20000000 + i, [(0x46, 0.5, 0.0, 3.0, 3.0), (0x47, 0.5, 0.2, 1, 4)])
           for i in range(64)]
    spec = RegionSpec(stb=stb, scenes=[(i, [0x12000000 + i]) for i in range(64)],
                      terrain=[(f"t{t}", t, [2 * t, 2 * t + 1]) for t in range(32)])
    portal.add(0x13000000, region_bytes(spec))
    for i in range(64):
        portal.add(0x20000000 + i, sound_table_bytes(0x20000000 + i, [
            (0x46, [(0x0A000000 + 4 * i + k, 1, 1, 1) for k in range(2)], []),
            (0x47, [(0x0A000002 + 4 * i + k, 1, 1, 1) for k in range(2)], [])]))
    for w in range(256):
        portal.add(0x0A000000 + w, wave_bytes(0x0A000000 + w, [w] * 2000))
    cell = DatWriter(block_size=256, data_set=2, free_every=50)
    for bx in range(SIDE):
        for by in range(SIDE):
            words = [((bx + by + i) % 32) << 2 | (i % 2) << 11 for i in range(81)]
            cell.add(landblock_id(bx, by), landblock_bytes(bx, by, words, [i % 9] * 81))
    paths = folder / "client_portal.dat", folder / "client_cell_1.dat"
    paths[0].write_bytes(portal.build())
    paths[1].write_bytes(cell.build())
    return paths


def run() -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        portal, cell = _write(Path(tmp))
        sizes_mib = (portal.stat().st_size / 2**20, cell.stat().st_size / 2**20)
        plugin = SoundscapePlugin(Settings(backend="none", features=("ac",))).install()
        ctx = plugin.context
        read = [0]
        original = DatFile._read_at

        def counting(self, offset, count, what):
            read[0] += count
            return original(self, offset, count, what)

        DatFile._read_at = counting  # type: ignore[method-assign]
        open_dats(ctx, portal, cell).close()
        DatFile._read_at = original  # type: ignore[method-assign]
        open_ms = median_seconds(lambda: open_dats(ctx, portal, cell).close(), 30, 3) * 1e3

        dats = open_dats(ctx, portal, cell)
        keys = iter([(x, y) for x in range(0, SIDE, 3) for y in range(0, SIDE, 3)])

        def one_block() -> None:
            dats.cell._nodes.clear()
            dats.landblocks.read(*next(keys))

        block_ms = median_seconds(one_block, 200, 5) * 1e3
        centres = iter([(x, y) for x in range(2, SIDE - 2, 4) for y in range(2, SIDE - 2, 4)])

        def ring() -> None:
            esper.switch_world("bench-ac-dat")
            ac = ctx.ac
            ac.sync_landblocks()
            bx, by = next(centres)
            added = dats.landblocks.prepare(ac, Listener(), Position(bx * 192 + 50.0, 0.0,
                                                                     by * 192 + 50.0))
            if added != 9:
                raise RuntimeError(f"bench_ac_dat: the ring loaded {added} blocks, not 9")
            esper.switch_world("default")
            esper.delete_world("bench-ac-dat")

        ring_ms = median_seconds(ring, 60, 3) * 1e3
        dats.close()
        plugin.uninstall()
    return {"ac_dat_open_ms": open_ms, "ac_dat_open_read_kib": read[0] / 1024,
            "ac_dat_landblock_ms": block_ms, "ac_dat_ring_ms": ring_ms,
            "ac_dat_portal_mib": sizes_mib[0], "ac_dat_cell_mib": sizes_mib[1]}


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key}: {value:.4g}")
