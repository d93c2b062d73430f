"""AC region data: the TOML schema, the terrain -> scene -> STB chain, packed STB descs."""

from __future__ import annotations

import copy
import struct
from pathlib import Path

import pytest

from soundscape.ac.region import (
    NO_STB,
    AmbientSoundDesc,
    AmbientSTBDesc,
    pack_stb_desc,
    unpack_stb_desc,
    unpack_stb_desc_from,
)
from soundscape.ac.region_toml import load_region, region_from_dict
from soundscape.ac.sample import sample_region, terrain_word
from soundscape.errors import DataError

REGION_TOML = """
[[terrain]]
name = "grass"
scenes = [0, 1]

[[terrain]]
name = "water"
scenes = [2, 9]          # scene type 9 does not exist: skipped at run time

[[scene]]
stb = 0
[[scene]]
stb = -1
[[scene]]
stb = 1

[[stb]]
id = 0x20000001
[[stb.sounds]]
stype = "Ambient1"
volume = 0.6
base_chance = 0.0
min_rate = 4.0
max_rate = 9.0
[[stb.sounds]]
stype = 0x4E
volume = 0.5
base_chance = 0.25
min_rate = 2.0
max_rate = 6.0

[[stb]]
id = 0x20000002

[[sound_table]]
id = 0x20000001
[[sound_table.entry]]
stype = "Ambient1"
sound = "wind_a"
priority = 2
probability = 1.0
volume = 1.0
[[sound_table.entry]]
stype = "Ambient1"
sound = "wind_b"
priority = 2
probability = 0.5
volume = 0.7
"""


@pytest.fixture
def region_file(tmp_path: Path) -> Path:
    path = tmp_path / "region.toml"
    path.write_text(REGION_TOML, encoding="utf-8")
    return path


def test_load_region_from_toml(region_file: Path) -> None:
    region = load_region(region_file)
    assert region.terrain_scenes == [[0, 1], [2, 9]]
    assert region.scene_stb == [0, NO_STB, 1]
    first = region.stb_descs[0]
    assert first.stb_id == 0x20000001 and first.index == 0
    assert [s.stype for s in first.ambient_sounds] == [0x46, 0x4E]
    assert first.ambient_sounds[0].is_continuous
    assert not first.ambient_sounds[1].is_continuous
    table = region.sound_tables[0x20000001]
    assert [e.sound for e in table.entries[0x46]] == ["wind_a", "wind_b"]
    assert table.entries[0x46][1].probability == 0.5


def test_terrain_chain_and_out_of_range_skips(region_file: Path) -> None:
    region = load_region(region_file)
    assert region.stb_index(terrain_word(0, 0)) == 0
    assert region.stb_index(terrain_word(0, 1)) == -1  # scene type 1 has no STB
    assert region.stb_index(terrain_word(1, 0)) == 1
    assert region.stb_index(terrain_word(1, 1)) == -1  # scene type 9 out of range
    assert region.stb_index(terrain_word(1, 2)) == -1  # scene index >= NumSceneType
    assert region.stb_index(terrain_word(5, 0)) == -1  # terrain type out of range
    assert region.num_scene_type(5) == 0


def test_lazy_load_and_negative_cache(region_file: Path) -> None:
    region = load_region(region_file)
    found, missing = region.stb_descs
    assert found.sound_table is None
    assert region.init_sound_table(found) and found.sound_table is not None
    assert not region.init_sound_table(missing) and missing.stb_not_found
    region.sound_tables[missing.stb_id] = region.sound_tables[found.stb_id]
    assert not region.init_sound_table(missing)  # never retried
    assert missing.sound_table is None


def test_region_from_dict_matches_toml(region_file: Path) -> None:
    region = region_from_dict(sample_region(3))
    assert len(region.stb_descs) == 3
    assert region.source == "<dict>"
    assert load_region(sample_region(2)).source == "<dict>"


# -- bad TOML data ----------------------------------------------------------------------


def _bad(tmp_path: Path, text: str) -> DataError:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_region(path)
    assert str(path) in str(info.value)
    return info.value


def test_malformed_toml(tmp_path: Path) -> None:
    error = _bad(tmp_path, "[[terrain]\nscenes = [")
    assert "malformed TOML" in str(error)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="cannot read"):
        load_region(tmp_path / "nope.toml")


@pytest.mark.parametrize(
    ("old", "new", "where"),
    [
        ("min_rate = 2.0", "min_rate = -2.0", "stb[0].sounds[1].min_rate: must not be negative"),
        ("max_rate = 9.0", "max_rate = nan", "stb[0].sounds[0].max_rate: must be finite"),
        ("volume = 0.5\n", "volume = -0.5\n", "stb[0].sounds[1].volume"),
        ('stype = "Ambient1"\nvolume', 'stype = "Wind"\nvolume', "stb[0].sounds[0].stype: unknown"),
        ("stype = 0x4E", "stype = 0xCD", "stb[0].sounds[1].stype: unknown sound type"),
        ("base_chance = 0.25", "base_chance = '0.25'", "stb[0].sounds[1].base_chance"),
        ("stb = 1", "stb = 2", "scene[2].stb: 2 is outside 0..1"),
        ("scenes = [2, 9]", "scenes = [2, -9]", "terrain[1].scenes[1]"),
        ("scenes = [0, 1]", "scenes = 3", "terrain[0].scenes"),
        ('sound = "wind_b"', "sound = 7", "sound_table[0].entry[1].sound"),
        ('sound = "wind_b"', 'sound = "wind_b"\nloudness = 2', "sound_table[0].entry[1].loudness"),
        ("probability = 0.5", "probability = -1.0", "sound_table[0].entry[1].probability"),
        ("priority = 2\nprobability = 0.5", "probability = 0.5", "entry[1].priority: missing"),
        ("id = 0x20000002", "id = -2", "stb[1].id"),
    ],
)
def test_bad_fields_name_file_record_field(tmp_path: Path, old: str, new: str, where: str) -> None:
    assert old in REGION_TOML
    error = _bad(tmp_path, REGION_TOML.replace(old, new, 1))
    assert where in str(error)


def test_too_many_terrain_types_and_duplicate_tables() -> None:
    doc = sample_region(1)
    doc["terrain"] = doc["terrain"] * 33
    with pytest.raises(DataError, match="terrain: 33 terrain types"):
        region_from_dict(doc)
    doc = sample_region(1)
    doc["sound_table"] = doc["sound_table"] * 2
    with pytest.raises(DataError, match=r"sound_table\[1\]\.id: duplicate"):
        region_from_dict(doc)


def test_scene_stb_without_descs() -> None:
    doc = copy.deepcopy(sample_region(1))
    doc["stb"] = []
    with pytest.raises(DataError, match=r"scene\[0\]\.stb: 0 names an STB desc"):
        region_from_dict(doc)


def test_unknown_top_level_field() -> None:
    with pytest.raises(DataError, match=r"<dict>: region\.terrains: unknown field"):
        region_from_dict({"terrains": []})


# -- packed AmbientSTBDesc ---------------------------------------------------------------------


def _desc() -> AmbientSTBDesc:
    return AmbientSTBDesc(0x20000005, [
        AmbientSoundDesc(0x46, 0.75, 0.0, 3.0, 3.0),
        AmbientSoundDesc(0x4E, 0.5, 0.125, 2.0, 8.0),
    ])


def test_packed_round_trip_and_is_continuous_derived() -> None:
    data = pack_stb_desc(_desc())
    assert len(data) == 8 + 2 * 20
    assert data[:8] == struct.pack("<II", 0x20000005, 2)
    desc = unpack_stb_desc(data)
    assert desc.stb_id == 0x20000005
    assert [s.is_continuous for s in desc.ambient_sounds] == [True, False]
    assert desc.ambient_sounds[1].max_rate_s == 8.0


def test_packed_negative_zero_chance_is_continuous() -> None:
    data = struct.pack("<II", 1, 1) + struct.pack("<Iffff", 0x46, 1.0, -0.0, 1.0, 1.0)
    assert unpack_stb_desc(data).ambient_sounds[0].is_continuous


def test_packed_stream_offsets() -> None:
    a, b = pack_stb_desc(_desc()), pack_stb_desc(AmbientSTBDesc(9, []))
    first, at = unpack_stb_desc_from(a + b)
    second, end = unpack_stb_desc_from(a + b, at)
    assert (first.stb_id, second.stb_id, end) == (0x20000005, 9, len(a + b))


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d[:5], "stb.header: truncated: 5 bytes"),
        (lambda d: d[:-1], "stb.ambient_sounds: truncated: 2 sounds need 48 bytes, 47 left"),
        (lambda d: d + b"\0", "stb.pack_size: oversized: 49 bytes"),
        (lambda d: d[:4] + struct.pack("<I", 0x7FFFFFFF) + d[8:], "truncated"),
        (lambda d: d[:8] + struct.pack("<I", 0xCD) + d[12:], "ambient_sounds[0].stype: unknown"),
        (lambda d: d[:20] + struct.pack("<f", -1.0) + d[24:], "ambient_sounds[0].min_rate_s"),
        (lambda d: d[:12] + struct.pack("<f", float("nan")) + d[16:], "[0].volume: must be finite"),
        (lambda d: d[:36] + struct.pack("<f", float("inf")) + d[40:], "[1].base_chance"),
    ],
)
def test_packed_bad_bytes(mutate, message: str) -> None:
    data = mutate(pack_stb_desc(_desc()))
    with pytest.raises(DataError) as info:
        unpack_stb_desc(data, "meadow.stb")
    assert str(info.value).startswith("meadow.stb: ")
    assert message in str(info.value)


def test_toml_packed_desc(tmp_path: Path) -> None:
    (tmp_path / "meadow.stb").write_bytes(pack_stb_desc(_desc()))
    path = tmp_path / "r.toml"
    path.write_text(
        '[[terrain]]\nscenes = [0]\n[[scene]]\nstb = 0\n[[stb]]\npacked = "meadow.stb"\n',
        encoding="utf-8",
    )
    region = load_region(path)
    assert region.stb_descs[0].stb_id == 0x20000005
    path.write_text('[[stb]]\npacked = "gone.stb"\n', encoding="utf-8")
    with pytest.raises(DataError, match=r"stb\[0\]\.packed: cannot read"):
        load_region(path)
    (tmp_path / "short.stb").write_bytes(pack_stb_desc(_desc())[:-3])
    path.write_text('[[stb]]\npacked = "short.stb"\n', encoding="utf-8")
    with pytest.raises(DataError, match=r"short\.stb: stb\[0\]\.ambient_sounds: truncated"):
        load_region(path)
