"""MAIN.SFX: every header field and type read back, PCM read lazily, and every way a file
can be bad (each a DataError naming the file, the offset and the field)."""

from __future__ import annotations

import numpy as np
import pytest
from rg_retail_writer import Audio, sfx_bytes, tone

from soundscape.audio.sounds import SoundBank
from soundscape.clock import Clock
from soundscape.errors import DataError
from soundscape.events import EventLog
from soundscape.redguard.effects import EffectBank
from soundscape.redguard.sfx_file import SfxFile

EFFECTS = [
    Audio(tone(40, 1, bits=8), sample_rate=11025, level=64, loop_flag=0),
    Audio(tone(30, 2), sample_rate=22050, level=70, loop_flag=-1, loop_offset=5,
          loop_end=1234, reserved=9),
    Audio(tone(20, 3, bits=8, stereo=True), sample_rate=8000, level=0, loop_flag=-31),
    Audio(tone(10, 4, stereo=True), sample_rate=44100, level=127, loop_flag=1),
]


def _file(tmp_path, data: bytes, name: str = "MAIN.SFX"):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_every_header_field_and_type_reads_back(tmp_path):
    with SfxFile(_file(tmp_path, sfx_bytes(EFFECTS, description=b"SoupFX 1.0"))) as sfx:
        assert sfx.description == "SoupFX 1.0" and sfx.count == 4
        got = [(e.header.type_id, e.header.bit_depth, e.header.sample_rate_hz, e.header.level,
                e.header.loop_flag, e.header.loop_offset, e.header.loop_end,
                e.header.data_length, e.header.reserved) for e in sfx.entries]
        assert got == [(0, 0, 11025, 64, 0, 0, 0xFFFFFFFF, 40, 0),
                       (1, 1, 22050, 70, -1, 5, 1234, 60, 9),
                       (2, 0, 8000, 0, -31, 0, 0xFFFFFFFF, 40, 0),
                       (3, 1, 44100, 127, 1, 0, 0xFFFFFFFF, 40, 0)]
        assert [(e.header.channels, e.header.sample_bits, e.header.frames)
                for e in sfx.entries] == [(1, 8, 40), (1, 16, 30), (2, 8, 20), (2, 16, 10)]
        assert [e.header_at for e in sfx.entries] == [52, 52 + 27 + 40, 52 + 2 * 27 + 100,
                                                      52 + 3 * 27 + 140]
        for i, effect in enumerate(EFFECTS):
            pcm = sfx.read_pcm(i)
            assert pcm.dtype == effect.pcm.dtype and np.array_equal(pcm, effect.pcm)


def test_opening_reads_headers_only_and_an_effect_when_it_is_asked_for(tmp_path):
    big = [Audio(tone(50_000, i)) for i in range(6)]
    sfx = SfxFile(_file(tmp_path, sfx_bytes(big)))
    assert sfx.file.bytes_read == 52 + 6 * 27 + 4  # sections, six headers, END
    sounds, events = SoundBank(), EventLog(Clock())
    bank = EffectBank(sounds, 0, events)
    bank.attach(sfx)
    assert len(bank) == 6 and sounds.names() == []
    effect = bank.get(4)
    assert effect is not None and np.array_equal(effect.pcm, big[4].pcm)
    assert sounds.names() == ["rg.sfx.4"] and sfx.file.bytes_read == 52 + 6 * 27 + 4 + 100_000
    assert bank.get(4) is effect and sfx.file.bytes_read == 52 + 6 * 27 + 4 + 100_000
    assert bank.get(6) is None and bank.get(-1) is None
    got, bits = bank.pcm_for("rg.sfx.4")
    assert bits == 16 and np.array_equal(got, big[4].pcm)


def test_header_fields_reach_the_effect(tmp_path):
    bank = EffectBank(SoundBank())
    bank.add(1, tone(5), 100)  # replaced by the file's effect 1
    bank.attach(SfxFile(_file(tmp_path, sfx_bytes(EFFECTS))))
    e = [bank.get(i) for i in range(4)]
    assert [(x.sample_rate_hz, x.base_volume, x.loop_flag, x.loops, x.sample_bits)
            for x in e] == [(11025, 64, 0, False, 8), (22050, 70, 0xFF, True, 16),
                            (8000, 0, 0xE1, True, 8), (44100, 127, 1, True, 16)]
    assert e[2].pcm.shape == (20, 2) and e[3].pcm.shape == (10, 2)
    floats = bank.sounds.get("rg.sfx.2").samples
    assert floats[0, 1] == (int(EFFECTS[2].pcm[0, 1]) - 128) / 128


def test_a_read_that_fails_later_is_logged_once_and_silent(tmp_path):
    path = _file(tmp_path, sfx_bytes(EFFECTS))
    events = EventLog(Clock())
    bank = EffectBank(SoundBank(), 0, events)
    sfx = SfxFile(path)
    bank.attach(sfx)
    sfx.close()
    assert bank.get(1) is None and bank.get(1) is None
    errors = [e for e in events.records if e["event"] == "error"]
    assert len(errors) == 1 and "the file is closed" in errors[0]["error"]


BAD = [
    (lambda: b"FXHD", r"FXHD@0x0: file is 4 bytes"),
    (lambda: sfx_bytes(EFFECTS, tags=(b"FXHX", b"FXDT")), r"FXHD@0x0\.tag: b'FXHX'"),
    (lambda: sfx_bytes(EFFECTS, fxhd_size=0x24000000), r"FXHD@0x4\.section_size: 603979776"),
    (lambda: sfx_bytes(EFFECTS, tags=(b"FXHD", b"FXDX")), r"FXDT@0x2c\.tag"),
    (lambda: sfx_bytes(EFFECTS, fxdt_size_delta=1000), r"FXDT@0x30\.section_size: .* run past"),
    (lambda: sfx_bytes(EFFECTS, fxdt_size_delta=4, end=b"\0" * 4 + b"END "),
     r"FXDT@0x30\.section_size: .* end at"),
    (lambda: sfx_bytes(EFFECTS, end=b"END!"), r"END@0x[0-9a-f]+\.tag: b'END!'"),
    (lambda: sfx_bytes(EFFECTS, count=5), r"FXDT\.effect\[4\]@0x[0-9a-f]+\.header: 27 bytes"),
    (lambda: sfx_bytes(EFFECTS, count=2 ** 31), r"FXHD@0x28\.effect_count: 2147483648"),
    (lambda: sfx_bytes([Audio(tone(4), type_id=4)]), r"effect\[0\]@0x34\.type_id: 4 is not"),
    (lambda: sfx_bytes([Audio(tone(4), bit_depth=0)]),
     r"effect\[0\]@0x38\.bit_depth: 0 disagrees with type 1"),
    (lambda: sfx_bytes([Audio(tone(4), sample_rate=0)]), r"effect\[0\]@0x3c\.sample_rate: 0 Hz"),
    (lambda: sfx_bytes([Audio(tone(4), sample_rate=2 ** 31)]), r"sample_rate: 2147483648 Hz"),
    (lambda: sfx_bytes([Audio(tone(4), data_length=7)], fxdt_size_delta=-1),
     r"effect\[0\]@0x4a\.data_length: 7 bytes is not a whole"),
    (lambda: sfx_bytes([Audio(tone(0, stereo=True))]),
     r"data_length: 0 bytes"),
    (lambda: sfx_bytes([Audio(tone(4), data_length=10)]),
     r"effect\[0\]@0x4a\.data_length: 10 bytes run past"),
]


@pytest.mark.parametrize(("build", "message"), BAD)
def test_bad_files_are_refused_naming_file_offset_and_field(tmp_path, build, message):
    path = _file(tmp_path, build())
    with pytest.raises(DataError, match=message) as caught:
        SfxFile(path)
    assert caught.value.source == str(path)


def test_not_a_file(tmp_path):
    with pytest.raises(DataError, match="cannot open"):
        SfxFile(tmp_path / "absent.sfx")
    with pytest.raises(DataError, match="not a regular file"):
        SfxFile(tmp_path)
