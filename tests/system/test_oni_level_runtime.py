"""``plugin.oni.load_level(path)``: the Oni runtime driven by a retail level's instance
files built by the test writer (PC and Mac). The level's OSBD records load at once;
an SNDD is decoded into the sound bank the first time an impulse plays it, and the
rendered mix carries its samples."""

from __future__ import annotations

import sys
from pathlib import Path

import esper
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "unit"))
from oni_level_writer import LevelWriter, mac_sndd, pc_sndd  # noqa: E402

from soundscape import Settings, SoundscapePlugin  # noqa: E402
from soundscape.components.spatial import Listener, Position  # noqa: E402
from soundscape.errors import DataError  # noqa: E402
from soundscape.oni.data import Group, Impulse, Permutation  # noqa: E402
from soundscape.oni.osbd import write_chunk  # noqa: E402
from soundscape.oni.sndd import decode_ima4, decode_ms_adpcm  # noqa: E402

TONE = (np.sin(np.arange(4000) / 9) * 9000).astype(np.int16)[:, None]


CHUNKS = [write_chunk(Group("hit", [Permutation("hit_snd", 1, 1, 1, 1, 1)], 1.0, 1.0, 0, 0,
                            1, 6)),
          write_chunk(Impulse("gun", group_name="hit", near=50, far=100, max_volume_angle=360,
                              min_volume_angle=360, version=6))]


def _level(folder: Path, mac: bool) -> Path:
    w = LevelWriter(mac=mac)
    w.osbd("hit.grp", CHUNKS[0])
    w.osbd("gun.imp", CHUNKS[1])
    fields, data = mac_sndd(TONE) if mac else pc_sndd(TONE)
    w.add("SNDD", "hit_snd", fields, data)
    w.add("SNDD", "unused_snd", fields, data)
    folder.mkdir(parents=True, exist_ok=True)
    return w.write(folder / "level1_Final.dat")


@pytest.fixture
def plugin():
    p = SoundscapePlugin(Settings(seed=2, backend="offline", sample_rate_hz=22050,
                                  features=("audio", "oni"))).install()
    esper.create_entity(Listener(heading_rad=0.0), Position(0.0, 0.0, 0.0))
    yield p
    p.uninstall()


@pytest.mark.parametrize("mac", [False, True])
def test_a_level_loads_its_records_and_decodes_a_sound_when_it_plays(plugin, tmp_path, mac):
    oni = plugin.oni
    level = oni.load_level(_level(tmp_path, mac))
    assert oni.impulse("gun").group is oni.group("hit")
    assert "hit_snd" not in plugin.sounds
    # the PC keeps its OSBD chunks in the .raw, the Mac in the .sep: no sound read yet
    assert (level._raw is None) if mac else (level._raw.bytes_read == sum(map(len, CHUNKS)))
    ev = plugin.events.where(event="level")[0]
    assert ev["platform"] == ("mac" if mac else "pc") and ev["instances"] == 4
    assert oni.play_impulse("gun", (1.0, 0.0, 0.0))
    for _ in range(6):
        esper.process(1 / 60)
    assert "hit_snd" in plugin.sounds and "unused_snd" not in plugin.sounds
    sound = plugin.sounds.get("hit_snd")
    raw = (tmp_path / "level1_Final.raw").read_bytes()
    at = level.sound_header("hit_snd").raw_offset
    encoded = raw[at:at + len(mac_sndd(TONE)[1] if mac else pc_sndd(TONE)[1])]
    expected = decode_ima4(encoded, 1) if mac else \
        decode_ms_adpcm(encoded, 1, 512, level.sound_header("hit_snd").coefficients)
    assert sound.sample_rate_hz == 22050 and np.array_equal(sound.pcm, expected)
    assert np.array_equal(sound.samples, expected.astype(np.float32) / 32768)
    out = plugin.context.mixer.backend.audio()
    assert out.shape[0] == 22050 // 10 and float(np.abs(out).max()) > 0.01


def test_a_second_level_closes_the_first_and_its_sounds(plugin, tmp_path):
    first = plugin.oni.load_level(_level(tmp_path / "a", False))
    second = plugin.oni.load_level(_level(tmp_path / "b", True))
    assert first.file.closed and not second.file.closed
    assert plugin.sounds.loaders[""] == plugin.oni._level_sound
    assert plugin.sounds.get("hit_snd") is not None and plugin.sounds.get("none") is None


def test_a_bad_level_is_refused_and_the_runtime_keeps_its_data(plugin, tmp_path):
    plugin.oni.loads_toml('[groups.keep]\npermutations = [{ sound = "k" }]\n')
    path = _level(tmp_path, False)
    path.write_bytes(path.read_bytes()[:100])
    with pytest.raises(DataError, match=r"level1_Final\.dat: "):
        plugin.oni.load_level(path)
    assert plugin.oni.level is None and plugin.oni.group("keep") is not None


def test_a_corrupt_sound_is_refused_once_and_logged(plugin, tmp_path):
    path = _level(tmp_path, False)
    from soundscape.oni.level_file import OniLevelFile

    with OniLevelFile(path) as level:
        at = level.sound_header("hit_snd").raw_offset
    raw = bytearray(path.with_suffix(".raw").read_bytes())
    raw[at] = 9  # the first block's predictor index: outside the 7 coefficients
    path.with_suffix(".raw").write_bytes(bytes(raw))
    plugin.oni.load_level(path)
    assert not plugin.oni.play_impulse("gun", (1.0, 0.0, 0.0))
    assert not plugin.oni.play_impulse("gun", (1.0, 0.0, 0.0))
    bad = plugin.events.where(event="bad_sound")
    assert len(bad) == 1 and "predictor: 9 is outside" in bad[0]["reason"]
    read = plugin.oni.level.raw.bytes_read
    with pytest.raises(DataError, match="predictor: 9"):
        plugin.sounds.get("hit_snd")
    assert plugin.oni.level.raw.bytes_read == read  # refused without reading again


def test_an_unused_level_sound_is_unloaded_and_decoded_again(plugin, tmp_path):
    level = plugin.oni.load_level(_level(tmp_path, True))
    first = plugin.sounds.get("hit_snd")
    first_pcm = np.array(first.pcm)
    read = level.raw.bytes_read
    assert first.reloadable and plugin.sounds.unload_unused() == ["hit_snd"]
    assert "hit_snd" not in plugin.sounds
    again = plugin.sounds.get("hit_snd")
    assert np.array_equal(again.pcm, first_pcm) and level.raw.bytes_read > read
