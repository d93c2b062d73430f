"""docs/ac.md's region example loads, and the packed layout table matches the packer."""

from __future__ import annotations

import re
import struct
from pathlib import Path

from soundscape.ac.region import AmbientSoundDesc, AmbientSTBDesc, pack_stb_desc
from soundscape.ac.region_toml import load_region
from soundscape.ac.sound_types import SOUND_TYPES
from soundscape.laws.ac import f32

DOC = Path(__file__).resolve().parents[2] / "docs" / "ac.md"


def _toml_example() -> str:
    blocks = re.findall(r"```toml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 1
    return blocks[0]


def test_the_region_example_loads(tmp_path: Path) -> None:
    lake = AmbientSTBDesc(0x20000002, [AmbientSoundDesc(SOUND_TYPES["Waterfall"], 0.7, 0.0, 2, 2)])
    (tmp_path / "lake.stb").write_bytes(pack_stb_desc(lake))
    path = tmp_path / "region.toml"
    path.write_text(_toml_example(), encoding="utf-8")
    region = load_region(path)
    assert region.terrain_scenes == [[0, 1], [2]]
    assert [region.stb_index(w) for w in (0, 1 << 11, 1 << 2)] == [0, -1, 1]
    first, second = region.stb_descs
    assert [s.is_continuous for s in first.ambient_sounds] == [True, False]
    assert second.stb_id == 0x20000002 and second.ambient_sounds[0].volume == f32(0.7)
    table = region.sound_tables[0x20000001]
    assert [e.sound for e in table.entries[SOUND_TYPES["Ambient2"]]] == ["bird"]


def test_packed_layout_offsets() -> None:
    desc = AmbientSTBDesc(7, [AmbientSoundDesc(70, 0.5, 0.25, 2.0, 6.0),
                              AmbientSoundDesc(71, 1.0, 0.0, 3.0, 3.0)])
    data = pack_stb_desc(desc)
    assert len(data) == 8 + 20 * 2
    assert struct.unpack_from("<II", data, 0) == (7, 2)
    assert struct.unpack_from("<Iffff", data, 8 + 20) == (71, 1.0, 0.0, 3.0, 3.0)
