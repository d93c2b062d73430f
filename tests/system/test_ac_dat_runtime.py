"""``plugin.ac.load_dat(portal, cell)``: the AC runtime driven by retail-format dats.

The same region and terrain are given twice: once as dat files built by the test
writer, once through the readable path the runtime already had (a region mapping
and ``add_landblock``). A listener walks east across landblocks; both worlds must
make exactly the same ambient decisions, while the dat world loads only the
landblocks its listener's 3 x 3 ring needs.
"""

from __future__ import annotations

import sys
from pathlib import Path

import esper
import numpy as np
import pytest

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

from soundscape import Settings, SoundscapePlugin  # noqa: E402
from soundscape.ac.dat_landblock import landblock_id  # noqa: E402
from soundscape.ac.region import NO_STB  # noqa: E402
from soundscape.components import Listener, Position  # noqa: E402
from soundscape.components.ac import Landblock  # noqa: E402
from soundscape.errors import DataError  # noqa: E402

A, B, MISSING = 0x20000A00, 0x20000B00, 0x20000C00
AMBIENT1, AMBIENT2 = 0x46, 0x47
SOUNDS_A = [(AMBIENT1, 0.8, 0.0, 3.0, 3.0), (AMBIENT2, 0.5, 0.9, 1.0, 2.0)]
SOUNDS_B = [(AMBIENT1, 0.6, 0.0, 2.0, 2.0), (AMBIENT2, 0.5, 1.0, 1.5, 2.5)]
TABLE_A = [(AMBIENT1, [(0x0A000001, 1.0, 1.0, 1.0), (0x0A000002, 1.0, 0.5, 1.0)], []),
           (AMBIENT2, [(0x0A000003, 2.0, 1.0, 1.0)], [])]
TABLE_B = [(AMBIENT1, [(0x0A000004, 1.0, 1.0, 1.0)], []),
           (AMBIENT2, [(0x0A000005, 2.0, 0.8, 1.0)], [])]
HEIGHTS = [1.5 * i for i in range(256)]
BLOCKS = [(bx, by) for bx in range(8, 18) for by in range(9, 12) if (bx, by) != (14, 10)]
START = (2000.0, 2.0, 10 * 192 + 100.0)


def _terrain(bx: int, by: int) -> tuple[list[int], list[int]]:
    """x-major words and height indices: marsh (type 1) east of x = 12, an unknown-table
    patch (type 2) in block 9, rock elsewhere; heights rise to the north-east."""
    words, heights = [], []
    for x in range(9):
        for y in range(9):
            t = 1 if bx >= 12 and (x + y) % 3 else 0
            if (bx, by) == (9, 10) and x >= 6 and 3 <= y <= 4:
                t = 2
            words.append((t << 2) | ((x * y) % 2 << 11))
            heights.append((bx * 9 + x + by * 3 + y) % 6)
    return words, heights


def _spec() -> RegionSpec:
    return RegionSpec(
        stb=[StbDesc(A, SOUNDS_A), StbDesc(B, SOUNDS_B), StbDesc(MISSING, SOUNDS_A)],
        scenes=[(0, []), (1, []), (2, []), (NO_STB, [])],
        terrain=[("rock", 1, [0, 3]), ("marsh", 2, [1, 1]), ("odd", 3, [2, 2])],
        heights=HEIGHTS)


def _dats(tmp_path: Path) -> tuple[Path, Path]:
    portal = DatWriter(block_size=256, data_set=1, fanout=5)
    portal.add(0x13000000, region_bytes(_spec()), compressed=True)
    portal.add(A, sound_table_bytes(A, TABLE_A))
    portal.add(B, sound_table_bytes(B, TABLE_B))
    for i in range(1, 6):
        portal.add(0x0A000000 + i, wave_bytes(0x0A000000 + i, [1000 * i, -1000 * i] * 50))
    cell = DatWriter(block_size=256, data_set=2, fanout=7)
    for bx, by in BLOCKS:
        cell.add(landblock_id(bx, by), landblock_bytes(bx, by, *_terrain(bx, by)))
    cell.add(landblock_id(16, 11), b"\xff\xff\x10\x16")  # corrupt: logged, skipped
    paths = tmp_path / "client_portal.dat", tmp_path / "client_cell_1.dat"
    paths[0].write_bytes(portal.build())
    paths[1].write_bytes(cell.build())
    return paths


def _table_dict(stb_id: int, table: list) -> dict:
    return {"id": stb_id, "entry": [
        {"stype": key, "sound": f"0x{w:08X}", "priority": int(p), "probability": prob,
         "volume": vol} for key, records, _ in table for w, p, prob, vol in records]}


def _mapping() -> dict:
    def sounds(descs):
        return [{"stype": s, "volume": v, "base_chance": c, "min_rate": lo, "max_rate": hi}
                for s, v, c, lo, hi in descs]
    return {
        "terrain": [{"scenes": [0, 3]}, {"scenes": [1, 1]}, {"scenes": [2, 2]}],
        "scene": [{"stb": 0}, {"stb": 1}, {"stb": 2}, {"stb": -1}],
        "stb": [{"id": A, "sounds": sounds(SOUNDS_A)}, {"id": B, "sounds": sounds(SOUNDS_B)},
                {"id": MISSING, "sounds": sounds(SOUNDS_A)}],
        "sound_table": [_table_dict(A, TABLE_A), _table_dict(B, TABLE_B)],
    }


def _walk(world: str, load, features=("ac",)) -> tuple[list, list[int], SoundscapePlugin]:
    esper.switch_world(world)
    plugin = SoundscapePlugin(Settings(seed=11, backend="none", features=features)).install()
    load(plugin.context.ac)
    pos = Position(*START)
    esper.create_entity(Listener(heading_rad=0.3), pos)
    loaded = []
    for _ in range(900):
        esper.process(1 / 60)
        loaded.append(len(esper.get_component(Landblock)))
        pos.x_m += 1.5
    keys = ("event", "sound", "db", "pan", "kind", "ambient", "stype", "pos", "reason")
    events = [tuple(r.get(k) for k in keys) for r in plugin.events.where(source="ac")
              if r["event"] in ("play", "skip", "rebuild")]
    return events, loaded, plugin


def test_dat_world_matches_the_readable_world_and_streams_landblocks(tmp_path, world):
    portal, cell = _dats(tmp_path)

    def from_dat(ac):
        dats = ac.load_dat(portal, cell)
        assert len(esper.get_component(Landblock)) == 0  # nothing loaded before a listener
        assert dats.region.region.terrain_scenes == [[0, 3], [1, 1], [2, 2]]

    def from_mapping(ac):
        ac.load_region(_mapping())
        for bx, by in BLOCKS:
            if (bx, by) == (16, 11):  # corrupt in the cell dat
                continue
            words, heights = _terrain(bx, by)
            ac.add_landblock(bx, by, words, [HEIGHTS[h] for h in heights])

    dat_events, loaded, dat_plugin = _walk("dat-world", from_dat)
    errors = dat_plugin.events.where(source="ac", event="error")
    plugin_blocks = set(dat_plugin.context.ac.landscape.blocks)
    esper.switch_world(world)
    esper.delete_world("dat-world")
    ref_events, _, _ = _walk("ref-world", from_mapping)
    esper.switch_world(world)
    esper.delete_world("ref-world")

    assert sum(e[0] == "play" for e in dat_events) > 8
    assert {e[1] for e in dat_events if e[0] == "play"} >= {"0x0A000001", "0x0A000004"}
    assert dat_events == ref_events
    assert loaded[0] == 9 and loaded[-1] < len(BLOCKS)  # the ring first, then as it walks
    assert (14, 10) not in plugin_blocks and (16, 11) not in plugin_blocks
    bad = [r for r in errors if r.get("block")]
    assert [list(r["block"]) for r in bad] == [[16, 11]]  # logged once, then remembered
    assert "client_cell_1.dat: 0x100BFFFF[+0x0" in bad[0]["error"]


def test_waves_reach_the_sound_bank_when_their_table_is_first_used(tmp_path):
    portal, cell = _dats(tmp_path)
    plugin = SoundscapePlugin(Settings(seed=3, backend="none", features=("audio", "ac"))
                              ).install()
    dats = plugin.context.ac.load_dat(portal, cell)
    bank = plugin.context.sounds
    assert bank.names() == [] and len(dats.sound_tables) == 0
    esper.create_entity(Listener(), Position(*START))
    esper.process(1 / 60)
    assert sorted(dats.sound_tables) == [A]  # only rock around the start
    assert dats.sound_tables.get(MISSING) is None and MISSING in dats.sound_tables.failed
    assert bank.names() == ["0x0A000001", "0x0A000002", "0x0A000003"]
    np.testing.assert_array_equal(bank.get("0x0A000002").samples[:2, 0],
                                  np.array([2000, -2000], dtype=np.float32) / 32768)
    starts = plugin.events.where(source="ac", event="start")
    assert starts and all(r["sound"] in bank.names() for r in starts)


def test_bad_dat_paths_raise_data_error(tmp_path):
    portal, cell = _dats(tmp_path)
    plugin = SoundscapePlugin(Settings(backend="none", features=("ac",))).install()
    with pytest.raises(DataError, match="the wrong dat file"):
        plugin.context.ac.load_dat(cell, portal)
    empty = DatWriter(data_set=1)
    empty.add(0x13000001, b"")
    (tmp_path / "empty.dat").write_bytes(empty.build())
    with pytest.raises(DataError, match="the portal dat has no Region"):
        plugin.context.ac.load_dat(tmp_path / "empty.dat", cell)
    assert plugin.context.ac.dats is None


def test_opening_reads_headers_the_region_path_and_the_region_only(tmp_path, monkeypatch):
    portal, _ = _dats(tmp_path)
    cell = DatWriter(block_size=256, data_set=2, free_every=20)
    for bx in range(32):
        for by in range(32):
            cell.add(landblock_id(bx, by), landblock_bytes(bx, by, *_terrain(bx, by)))
    big = tmp_path / "big_cell.dat"
    big.write_bytes(cell.build())
    from soundscape.ac.dat_file import DatFile

    read, original = [], DatFile._read_at
    monkeypatch.setattr(DatFile, "_read_at", lambda self, offset, count, what:
                        read.append((self.path.name, count)) or original(self, offset, count,
                                                                          what))
    plugin = SoundscapePlugin(Settings(backend="none", features=("ac",))).install()
    plugin.ac.load_dat(portal, big)  # the documented call (plugin.ac is ctx.ac)
    cell_bytes = sum(n for name, n in read if name == "big_cell.dat")
    assert cell_bytes == 400 and big.stat().st_size > 300_000  # its header, nothing more
    assert sum(n for name, n in read if name == "client_portal.dat") < 16_384
    read.clear()
    esper.create_entity(Listener(), Position(5 * 192 + 20.0, 0.0, 7 * 192 + 20.0))
    esper.process(1 / 60)
    assert len(esper.get_component(Landblock)) == 9
    assert sum(n for name, n in read if name == "big_cell.dat") < 9 * 8 * 256 + 8 * 1716 * 2
