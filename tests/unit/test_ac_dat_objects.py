"""The objects the AC runtime reads from the dats: the Region (0x13000000), landblocks
(0xXXYYFFFF), sound tables (0x20...) and waves (0x0A...), every field and variant,
and the DataError (file, offset, field) of each bad one."""

from __future__ import annotations

import math
import struct

import numpy as np
import pytest
from ac_dat_writer import (
    RegionSpec,
    StbDesc,
    landblock_bytes,
    region_bytes,
    sound_table_bytes,
    wave_bytes,
)

from soundscape.ac.dat_landblock import landblock_id, parse_landblock
from soundscape.ac.dat_object import DatObject
from soundscape.ac.dat_region import parse_region
from soundscape.ac.dat_sound import parse_sound_table, parse_wave
from soundscape.ac.region import NO_STB
from soundscape.errors import DataError
from soundscape.laws.ac import SQUARE_LENGTH_M, f32

AMBIENT1, AMBIENT2 = 0x46, 0x47


def _obj(data: bytes, file_id: int) -> DatObject:
    return DatObject("client_portal.dat", file_id, data, (), 0)


def _spec(**kw) -> RegionSpec:
    base = dict(
        stb=[StbDesc(0x20000001, [(AMBIENT1, 0.5, 0.0, 2.0, 2.0), (AMBIENT2, 0.4, 0.3, 1, 5)]),
             StbDesc(0x20000002, [])],
        scenes=[(1, [0x120000A1]), (NO_STB, []), (0, [0x120000B1, 0x120000B2])],
        terrain=[("BarrenRock", 0xFF808080, [2, 1]), ("Grassland", 0xFF00FF00, [NO_STB, 0]),
                 ("Water", 0xFF0000FF, [])])
    base.update(kw)
    return RegionSpec(**base)


def _region(spec: RegionSpec):
    return parse_region(_obj(region_bytes(spec), 0x13000000))


def test_region_fields_and_the_seed_walk():
    got = _region(_spec())
    r = got.region
    assert (got.region_number, got.name, got.parts_mask) == (1, "Dereth", 0x213)
    assert got.land_height_m == tuple(2.0 * i for i in range(256))
    assert got.land_defs_words[1] == 255 and got.terrain_names == [
        "BarrenRock", "Grassland", "Water"]
    assert r.terrain_scenes == [[2, 1], [NO_STB, 0], []]
    assert r.scene_stb == [1, NO_STB, 0]
    assert [d.stb_id for d in r.stb_descs] == [0x20000001, 0x20000002]
    sounds = r.stb_descs[0].ambient_sounds
    assert [(s.stype, s.volume, s.is_continuous) for s in sounds] == [
        (AMBIENT1, 0.5, True), (AMBIENT2, f32(0.4), False)]
    # seed 000 section 9: type = (w >> 2) & 0x1F, scene = w >> 11, then the chain
    word = lambda t, s: (s << 11) | (t << 2) | 3  # noqa: E731  (road bits ignored)
    assert r.stb_index(word(0, 0)) == 0   # rock, scene 0 -> scene type 2 -> stb 0
    assert r.stb_index(word(0, 1)) == -1  # rock, scene 1 -> scene type 1 -> NO_STB
    assert r.stb_index(word(1, 0)) == -1  # grass, scene 0 -> null scene type
    assert r.stb_index(word(1, 1)) == 1   # grass, scene 1 -> scene type 0 -> stb 1
    assert r.stb_index(word(1, 2)) == -1  # past NumSceneType
    assert r.stb_index(word(2, 0)) == -1 and r.stb_index(word(9, 0)) == -1
    assert r.source == "client_portal.dat:0x13000000"


@pytest.mark.parametrize("variant", ["no_sky", "no_sound_no_scene", "no_misc", "long_name",
                                     "odd_strings", "empty_sky_group"])
def test_region_variants(variant):
    spec = _spec()
    if variant == "no_sky":
        spec.sky = None
    elif variant == "no_sound_no_scene":
        spec.stb, spec.scenes = None, None
        spec.terrain = [("Rock", 1, [NO_STB])]
    elif variant == "no_misc":
        spec.misc = False
    elif variant == "long_name":
        spec.long_name, spec.name = True, "Dereth" * 3
    elif variant == "odd_strings":
        spec.name, spec.week_days = "A", ["", "ab", "abc", "abcde"]
        spec.terrain = [("X", 5, [0]), ("YZW", 6, [1, 2])]
    else:
        spec.sky = [{"chance": 0.5, "name": "", "objects": 0, "times": []},
                    {"chance": 0.5, "name": "Storm", "objects": 1, "times": [0, 3]}]
    got = _region(spec)
    assert got.name == spec.name
    assert got.region.terrain_scenes == [s for _, _, s in spec.terrain]
    assert len(got.region.stb_descs) == len(spec.stb or [])


def _region_error(spec: RegionSpec, match: str) -> DataError:
    with pytest.raises(DataError, match=match) as info:
        _region(spec)
    assert str(info.value).startswith("client_portal.dat: 0x13000000[+0x")
    return info.value


def test_bad_regions():
    _region_error(_spec(version=4), r"version: 4; the retail client reads only version 3")
    _region_error(_spec(scenes=[(2, [])]), r"scene\[0\]\.stb_index: 2 names an STB desc; "
                  "the sound desc has 2")
    _region_error(_spec(terrain=[("Rock", 0, [7])]), r"terrain\[0\]\.scene_types\[0\]: 7 "
                  "names a scene type")
    _region_error(_spec(stb=None, scenes=[(0, [])]), r"the sound desc has 0")
    _region_error(_spec(stb=[StbDesc(1, [(0xFFFF, 1, 0, 1, 1)])]),
                  r"sound\.stb\[0\]\.ambient_sounds\[0\]\.stype: unknown sound type")
    _region_error(_spec(stb=[StbDesc(1, [(AMBIENT1, math.nan, 0, 1, 1)])]),
                  "volume: must be finite")
    _region_error(_spec(heights=[0.0] * 255 + [math.inf]), r"land_height_table\[255\]: must "
                  "be finite")
    data = region_bytes(_spec())
    with pytest.raises(DataError, match=r"\.id: the object says 0x13000000, the directory "
                       "0x13000001"):
        parse_region(_obj(data, 0x13000001))
    with pytest.raises(DataError, match=r"terrain\[2\].*truncated"):
        parse_region(_obj(data[:-(len(RegionSpec().land_surf) + 24 + 8)], 0x13000000))
    tail = struct.pack("<fI", 0.0, 1) + b"\x08\x00Darktide"
    assert data.count(struct.pack("<I", 2) + tail) == 1
    huge = data.replace(struct.pack("<I", 2) + tail, struct.pack("<I", 0x10000000) + tail)
    with pytest.raises(DataError, match=r"game_time\.times_of_day: 268435456 items need"):
        parse_region(_obj(huge, 0x13000000))


def test_landblock_terrain_and_heights_are_x_major():
    words = [(i * 2654435761) & 0xFFFF for i in range(81)]
    heights = [(i * 7) & 0xFF for i in range(81)]
    table = [f32(0.5 + 1.5 * i) for i in range(256)]
    obj = DatObject("client_cell_1.dat", landblock_id(0xA9, 0xB4),
                    landblock_bytes(0xA9, 0xB4, words, heights, has_objects=0), (), 0)
    got = parse_landblock(obj)
    assert (got.block_x, got.block_y, got.has_objects) == (0xA9, 0xB4, 0)
    assert got.terrain_words == tuple(words) and got.height_indices == tuple(heights)
    block = got.to_landblock(table)
    for x in range(8):
        for y in range(8):
            cell = block.cells[8 * x + y]
            assert cell.terrain_word == words[9 * x + y]
            assert cell.sw_vertex_m == (x * SQUARE_LENGTH_M, y * SQUARE_LENGTH_M,
                                        table[heights[9 * x + y]])
            assert cell.objcell_id == (0xA9B4 << 16) | (8 * x + y + 1)


def test_bad_landblocks():
    good = landblock_bytes(1, 2, [0] * 81, [0] * 81)
    with pytest.raises(DataError, match=r"0x0102FFFF\[\+0x8\]\.terrain/height: truncated"):
        parse_landblock(DatObject("c.dat", 0x0102FFFF, good[:200], (), 0))
    with pytest.raises(DataError, match="a landblock's id ends in 0xFFFF"):
        parse_landblock(DatObject("c.dat", 0x0102FFFE, good, (), 0))
    with pytest.raises(DataError, match="the object says 0x0102FFFF"):
        parse_landblock(DatObject("c.dat", 0x0103FFFF, good, (), 0))


def test_sound_table_children_first_key_wins_and_grandchildren_are_read_past():
    data = sound_table_bytes(0x20000001, [
        (AMBIENT1, [(0x0A000001, 1.0, 1.0, 1.0), (0x0A000002, 2.9, 0.5, 0.7)],
         [(99, [(0x0A0000FF, 0, 1, 1)], [])]),
        (AMBIENT2, [(0x0A000003, -1.5, 0.25, 1.0)], []),
        (AMBIENT1, [(0x0A000009, 1.0, 1.0, 1.0)], []),  # a duplicate key: dropped
    ], root=[(0x0A000077, 0, 1, 1)])
    table = parse_sound_table(_obj(data, 0x20000001))
    assert sorted(table.entries) == [AMBIENT1, AMBIENT2]
    first = table.entries[AMBIENT1]
    assert [(e.sound, e.priority, e.probability, e.volume) for e in first] == [
        ("0x0A000001", 1, 1.0, 1.0), ("0x0A000002", 2, 0.5, f32(0.7))]
    assert [(e.sound, e.priority) for e in table.entries[AMBIENT2]] == [("0x0A000003", -1)]


def test_bad_sound_tables():
    data = sound_table_bytes(0x20000001, [(AMBIENT1, [(1, 0, math.nan, 1)], [])])
    with pytest.raises(DataError, match=r"node\[depth 1\]\.records\[0\]\.probability: must "
                       "be finite"):
        parse_sound_table(_obj(data, 0x20000001))
    data = sound_table_bytes(0x20000001, [(AMBIENT1, [(1, 0, 1, 1)], [])])
    with pytest.raises(DataError, match=r"records: 1 items need at least 16 bytes, 15 left"):
        parse_sound_table(_obj(data[:-5], 0x20000001))
    with pytest.raises(DataError, match=r"children: truncated"):
        parse_sound_table(_obj(data[:-2], 0x20000001))
    deep: list = []
    for _ in range(40):
        deep = [(AMBIENT1, [], deep)]
    with pytest.raises(DataError, match="nested deeper than 32 levels"):
        parse_sound_table(_obj(sound_table_bytes(0x20000001, deep), 0x20000001))


def test_waves_decode_pcm_and_refuse_other_formats():
    wav = parse_wave(_obj(wave_bytes(0x0A000001, [0, 16384, -32768, 32767]), 0x0A000001))
    assert wav.sample_rate_hz == 11025 and wav.bits == 16
    np.testing.assert_array_equal(wav.samples[:, 0], np.array([0, 0.5, -1, 32767 / 32768],
                                                              dtype=np.float32))
    stereo = parse_wave(_obj(wave_bytes(0x0A000002, [128, 255, 0, 128], bits=8, channels=2,
                                        rate=22050), 0x0A000002))
    assert stereo.samples.shape == (2, 2) and stereo.samples[0, 1] == f32(127 / 128)
    odd = parse_wave(_obj(wave_bytes(0x0A000003, [1, 2], extra=b"\0"), 0x0A000003))
    assert odd.samples.shape == (2, 1)  # a 17-byte header (odd) is padded for the RIFF chunk
    with pytest.raises(DataError, match=r"0x0A000004\[\+0xc\]\.header\.wFormatTag: "
                       "format 85 is not PCM"):
        parse_wave(_obj(wave_bytes(0x0A000004, [0, 0], tag=0x55), 0x0A000004))
    with pytest.raises(DataError, match=r"header\.fmt \.wBitsPerSample: 12 bits"):
        parse_wave(_obj(wave_bytes(0x0A000006, [0, 0], bits=12), 0x0A000006))
    with pytest.raises(DataError, match=r"\.data: truncated"):
        parse_wave(_obj(wave_bytes(0x0A000005, [0, 0])[:-1], 0x0A000005))
