"""Oni level instance files (header, descriptors, name table, OSBD into the database) and
SNDD sound data (PC MS ADPCM and PCM, Mac IMA4): every field and variant, hand-computed
decoder vectors, laziness, and every way a file can be bad (file, offset, field)."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from oni_level_writer import (
    COEFFICIENTS,
    LevelWriter,
    encode_ima4,
    encode_ms_adpcm,
    mac_sndd,
    pc_sndd,
)

from soundscape.errors import DataError
from soundscape.oni import sndd
from soundscape.oni.data import Group, Impulse, Permutation
from soundscape.oni.level_file import OniLevelFile
from soundscape.oni.osbd import write_chunk

T = np.arange(2500)
MONO = (np.sin(T / 17) * 11000).astype(np.int16)[:, None]
STEREO = np.stack([np.sin(T / 17) * 11000, np.cos(T / 29) * 7000], 1).astype(np.int16)


def _group(name: str, sound: str) -> Group:
    return Group(name, [Permutation(sound, 2, 0.5, 1.0, 0.875, 1.125)], 0.75, 1.0, 1, 0, 1, 6)


def _writer(mac: bool = False) -> LevelWriter:
    w = LevelWriter(mac=mac)
    w.osbd("hit.grp", write_chunk(_group("hit", "hit_snd")))
    w.osbd("gun.imp", write_chunk(Impulse("gun", group_name="hit", near=2, far=30,
                                          version=6)))
    fields, data = mac_sndd(STEREO) if mac else pc_sndd(STEREO)
    w.add("SNDD", "hit_snd", fields, data)
    w.add("TXMP", None, b"\0" * 12)  # a private instance: no name
    w.add("SNDD", "elsewhere", placeholder=True)
    return w


def _level(tmp_path, mac: bool = False, **build) -> OniLevelFile:
    return OniLevelFile(_writer(mac).write(tmp_path / "level1_Final.dat", **build))


@pytest.mark.parametrize("mac", [False, True])
def test_header_descriptors_and_names_read_back(tmp_path, mac):
    with _level(tmp_path, mac) as level:
        assert level.platform == ("mac" if mac else "pc") and level.version == 0x56523031
        d = level.descriptors
        assert [(x.tag, x.name, x.short_name) for x in d] == [
            ("OSBD", "OSBDhit.grp", "hit.grp"), ("OSBD", "OSBDgun.imp", "gun.imp"),
            ("SNDD", "SNDDhit_snd", "hit_snd"), ("TXMP", None, None),
            ("SNDD", "SNDDelsewhere", "elsewhere")]
        assert [x.placeholder for x in d] == [False, False, False, False, True]
        assert d[0].data_offset == 8 and d[0].data_size == 8 + 8 and d[3].flags == 1
        assert d[4].flags == 2 and level.name_count == 4
        assert sorted(level.osbd) == ["gun.imp", "hit.grp"] and list(level.sndd) == ["hit_snd"]
        assert level._raw is None and level._sep is None  # nothing else opened yet


@pytest.mark.parametrize("mac", [False, True])
def test_osbd_instances_load_and_resolve(tmp_path, mac):
    with _level(tmp_path, mac) as level:
        db = level.read_osbd()
        assert db.groups["hit"] == _group("hit", "hit_snd")
        assert db.impulses["gun"].group is db.groups["hit"] and db.impulses["gun"].far == 30
        assert (level._sep is not None) == mac  # the Mac's OSBD chunks live in the .sep


def test_pc_sndd_fields_and_ms_adpcm_samples(tmp_path):
    with _level(tmp_path) as level:
        h = level.sound_header("hit_snd")
        assert (h.codec, h.channels, h.sample_rate_hz, h.block_align, h.samples_per_block,
                h.bits, h.flags, h.coefficients) == ("ms_adpcm", 2, 22050, 1024, 1012, 4, 8,
                                                     COEFFICIENTS)
        assert h.duration_ticks == 2500 * 60 // 22050 and h.data_size > 0
        pcm, rate = level.read_sound("hit_snd")
        expected = sndd.decode_ms_adpcm(encode_ms_adpcm(STEREO, 1024), 2, 1024, COEFFICIENTS)
        assert rate == 22050 and pcm.dtype == np.int16 and np.array_equal(pcm, expected)
        assert pcm.shape == (2500, 2) and np.abs(pcm.astype(int) - STEREO).max() < 1200
        assert level.read_sound("elsewhere") is None and level.read_sound("none") is None


def test_mac_sndd_fields_and_ima4_samples(tmp_path):
    with _level(tmp_path, mac=True) as level:
        h = level.sound_header("hit_snd")
        assert (h.codec, h.channels, h.sample_rate_hz, h.flags) == ("ima4", 2, 22050, 3)
        assert h.data_size == 34 * 2 * 40
        pcm, rate = level.read_sound("hit_snd")
        assert rate == 22050 and pcm.shape == (2560, 2)
        assert np.array_equal(pcm, sndd.decode_ima4(encode_ima4(STEREO), 2))


def test_pc_pcm_variants(tmp_path):
    w = LevelWriter()
    for bits in (8, 16):
        fields, data = pc_sndd(MONO, 44100, fmt=1, bits=bits)
        w.add("SNDD", f"pcm{bits}", fields, data)
    with OniLevelFile(w.write(tmp_path / "level2_Final.dat")) as level:
        pcm16, rate = level.read_sound("pcm16")
        assert rate == 44100 and np.array_equal(pcm16, MONO)
        pcm8, _ = level.read_sound("pcm8")
        assert np.array_equal(pcm8, ((MONO.astype(np.int32) >> 8) << 8).astype(np.int16))


def test_ms_adpcm_hand_vectors():
    block = bytes([1]) + struct.pack("<hhh", 100, 1000, 500) + bytes([0x7F, 0x88])
    out = sndd.decode_ms_adpcm(block, 1, 64, COEFFICIENTS)
    # 500, 1000 out first; then (1000*512 - 500*256)/256 + 7*100 = 2200 (delta 614*100>>8
    # = 239), 3400 - 239 = 3161 (delta 214), 4122 - 8*214 = 2410 (delta 642),
    # (2410*512 - 3161*256)/256 - 8*642 = 1659 - 5136 = -3477
    assert out[:, 0].tolist() == [500, 1000, 2200, 3161, 2410, -3477]
    # the prediction is truncated toward zero: (-1*192 + 0*64)/256 is 0, not -1
    trunc = bytes([3]) + struct.pack("<hhh", 16, -1, 0) + bytes([0x00])
    assert sndd.decode_ms_adpcm(trunc, 1, 64, COEFFICIENTS)[:, 0].tolist() == [0, -1, 0, 0]
    with pytest.raises(DataError, match=r"block@0x0\.predictor: 7 is outside"):
        sndd.decode_ms_adpcm(bytes([7]) + bytes(6), 1, 64, COEFFICIENTS)


def test_ima4_hand_vectors():
    # the standard tables (the test writer's encoders share them): 89 steps 7..32767
    steps = sndd.IMA_STEPS
    assert (len(steps), steps[0], steps[-1], sum(steps)) == (89, 7, 32767, 360393)
    assert sndd.IMA_INDEX == (-1, -1, -1, -1, 2, 4, 6, 8) * 2
    assert sndd.MS_ADAPTATION == (230, 230, 230, 230, 307, 409, 512, 614,
                                  768, 614, 512, 409, 307, 230, 230, 230)
    packet = struct.pack(">H", 0x0100 | 10) + bytes([0x37]) + bytes(31)
    out = sndd.decode_ima4(packet, 1)[:, 0]
    # step 19, code 7: 2 + 19 + 9 + 4 = 34; step 41, code 3: 5 + 20 + 10 = 35
    assert out.shape == (64,) and out[:2].tolist() == [290, 325] and out[2] == 329
    negative = struct.pack(">H", 0xFF80) + bytes([0x08]) + bytes(31)
    assert sndd.decode_ima4(negative, 1)[0, 0] == -128 - 0  # code 8: -(7 >> 3)
    stereo = packet + struct.pack(">H", 0xFF80) + bytes(32)
    both = sndd.decode_ima4(stereo + b"\x01", 2)  # a partial packet is dropped
    assert both.shape == (64, 2) and both[0].tolist() == [290, -128]


def test_a_sound_named_without_its_extension_finds_the_only_match(tmp_path):
    w = LevelWriter()
    fields, data = pc_sndd(MONO)
    w.add("SNDD", "door.aif", fields, data)
    w.add("SNDD", "twin.aif", fields, data)
    w.add("SNDD", "twin.wav", fields, data)
    with OniLevelFile(w.write(tmp_path / "level3_Final.dat")) as level:
        assert level.sound_descriptor("door").short_name == "door.aif"
        assert level.sound_descriptor("door.aif").short_name == "door.aif"
        assert level.sound_descriptor("twin") is None  # two candidates: not guessed


def _bad(tmp_path, spoil, name="level1_Final.dat"):
    path = tmp_path / name
    _writer().write(path)
    data = bytearray(path.read_bytes())
    spoil(data)
    path.write_bytes(bytes(data))
    return path


BAD_OPEN = [
    (lambda d: d.__delitem__(slice(40, None)), r"header@0x0: file is 40 bytes"),
    (lambda d: d.__setitem__(slice(0, 8), struct.pack("<Q", 5)), r"header@0x0\.template_checksum"),
    (lambda d: d.__setitem__(slice(8, 12), b"VR09"), r"header@0x8\.version: 0x39305256"),
    (lambda d: d.__setitem__(slice(8, 12), b"20RV"), r"header@0x8\.version: VR02: an OniSplit"),
    (lambda d: d.__setitem__(slice(12, 20), b"\0" * 8), r"header@0xc\.signature"),
    (lambda d: d.__setitem__(slice(20, 24), struct.pack("<i", 10 ** 6)),
     r"header@0x14\.instance_count: 1000000"),
    (lambda d: d.__setitem__(slice(32, 36), struct.pack("<i", 10 ** 7)),
     r"header@0x20\.data_table_offset"),
    (lambda d: d.__setitem__(slice(44, 48), struct.pack("<i", 10 ** 7)),
     r"header@0x28\.name_table_offset"),
    (lambda d: d.__setitem__(slice(64 + 8, 68 + 8), struct.pack("<i", 10 ** 6)),
     r"descriptors\[0\]@0x48\.name_offset: 0xf4240 is outside"),
    (lambda d: d.__setitem__(slice(64 + 4, 68 + 4), struct.pack("<i", 10 ** 6)),
     r"descriptors\[0\]@0x44\.data_offset"),
    (lambda d: d.__setitem__(64 + 20 * 4 + 16, 3),
     r"descriptors\[4\]@0xa0\.flags: a placeholder must have a name"),
]


@pytest.mark.parametrize(("spoil", "message"), BAD_OPEN)
def test_bad_level_files_are_refused_naming_file_offset_and_field(tmp_path, spoil, message):
    path = _bad(tmp_path, spoil)
    with pytest.raises(DataError, match=message) as caught:
        OniLevelFile(path)
    assert caught.value.source == str(path)


def test_bad_parts_are_refused_when_read(tmp_path):
    level = _level(tmp_path)
    (tmp_path / "level1_Final.raw").write_bytes(b"\0" * 40)
    with pytest.raises(DataError, match=r"level1_Final\.raw: OSBD\[hit\.grp\]\.size: 84 bytes"
                                        r" at 0x20 run past"):
        level.read_osbd()
    level.close()
    (tmp_path / "level1_Final.raw").unlink()
    with OniLevelFile(tmp_path / "level1_Final.dat") as level, \
            pytest.raises(DataError, match=r"level1_Final\.raw: cannot open"):
        level.read_sound("hit_snd")


@pytest.mark.parametrize(("make", "message"), [
    (lambda: pc_sndd(MONO, fmt=0x11), r"\.format: 17 is neither 1 \(PCM\) nor 2"),
    (lambda: pc_sndd(MONO, fmt=1, bits=12), r"\.bits_per_sample: 12"),
    (lambda: pc_sndd(np.zeros((10, 3), np.int16)), r"\.channels: 3, not 1 or 2"),
    (lambda: pc_sndd(MONO, 0, duration=0), r"\.sample_rate: 0 Hz"),
    (lambda: pc_sndd(MONO, samples_per_block=1000), r"\.samples_per_block: 1000 samples"),
    (lambda: pc_sndd(MONO, coefficients=()), r"\.coefficient_count: 0 coefficients"),
    (lambda: mac_sndd(MONO, flags=2), r"SNDD\[s\]@0x[0-9a-f]+\.flags: 2: neither 1"),
])
def test_bad_sound_fields_are_refused(tmp_path, make, message):
    fields, data = make()
    w = LevelWriter(mac="flags: 2" in message)
    w.add("SNDD", "s", fields, data)
    with OniLevelFile(w.write(tmp_path / "level4_Final.dat")) as level, \
            pytest.raises(DataError, match=message):
        level.read_sound("s")


def test_the_companion_files_are_found_without_regard_to_case(tmp_path):
    path = _writer(mac=True).write(tmp_path / "LEVEL1_FINAL.dat")
    path.with_suffix(".raw").rename(tmp_path / "level1_final.RAW")
    path.with_suffix(".sep").rename(tmp_path / "Level1_Final.Sep")
    with OniLevelFile(path) as level:
        assert level.read_osbd().groups["hit"].permutations[0].sound == "hit_snd"
        assert level.read_sound("hit_snd")[0].shape == (2560, 2)
        assert level.sep.source.endswith("Level1_Final.Sep")
