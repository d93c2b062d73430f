"""ENGLISH.RTX: the index, text and voiced lines (every field, both sample widths),
lines read lazily into the RTX store, and every way a file can be bad (each a
DataError naming the file, the offset and the field)."""

from __future__ import annotations

import numpy as np
import pytest
from rg_retail_writer import Audio, RtxWriter, tone

from soundscape.audio.sounds import SoundBank
from soundscape.clock import Clock
from soundscape.errors import DataError
from soundscape.events import EventLog
from soundscape.redguard.rtx import RtxStore
from soundscape.redguard.rtx_file import RtxFile


def _writer() -> RtxWriter:
    w = RtxWriter()
    w.add(b"#bon", b"Well met.")
    w.add(b"vQl1", b"Cyrus speaks", Audio(tone(30, 1), sample_rate=22050, level=100))
    w.add(b"?vql", b"", Audio(tone(25, 2, bits=8), sample_rate=11025, level=90, loop_flag=-1,
                              loop_offset=3, loop_end=7, reserved=5))
    w.add(b"t\xe9xt", bytes(range(32, 256)))
    return w


def _file(tmp_path, data: bytes):
    path = tmp_path / "ENGLISH.RTX"
    path.write_bytes(data)
    return path


def test_index_and_every_payload_field_read_back(tmp_path):
    data = _writer().build()
    with RtxFile(_file(tmp_path, data)) as rtx:
        assert len(rtx) == 4 and rtx.labels() == ["t\xe9xt", "?vql", "vql1", "#bon"]
        assert rtx.index_at == len(data) - 12 - 4 * 12
        entries = [rtx.index[k] for k in ("#bon", "vql1", "?vql", "t\xe9xt")]
        assert [e.position for e in entries] == [3, 2, 1, 0]  # descending offsets
        assert entries[0].payload_at == 8 and entries[0].payload_size == 6 + 9
        text = rtx.read("#BON")
        assert (text.label, text.text, text.header, text.pcm) == ("#bon", "Well met.", None, None)
        voiced = rtx.read("VQL1")
        h = voiced.header
        assert (voiced.label, voiced.text) == ("vQl1", "Cyrus speaks")
        assert (h.type_id, h.bit_depth, h.sample_rate_hz, h.level, h.loop_flag, h.loop_offset,
                h.loop_end, h.data_length, h.reserved) == (1, 1, 22050, 100, 0, 0, 0xFFFFFFFF,
                                                           60, 0)
        assert voiced.pcm.dtype == np.int16 and np.array_equal(voiced.pcm, tone(30, 1))
        narrow = rtx.read("?vql")
        h = narrow.header
        assert narrow.text == "" and (h.type_id, h.bit_depth, h.sample_rate_hz, h.level,
                                      h.loop_flag, h.loop_offset, h.loop_end, h.reserved) == \
            (0, 0, 11025, 90, -1, 3, 7, 5)
        assert narrow.pcm.dtype == np.uint8 and np.array_equal(narrow.pcm, tone(25, 2, bits=8))
        assert rtx.read("t\xe9xt").text == bytes(range(32, 256)).decode("latin-1")
        assert rtx.read("none") is None


def test_an_ascending_index_reads_the_same(tmp_path):
    w = _writer()
    w.descending = False
    with RtxFile(_file(tmp_path, w.build())) as rtx:
        assert rtx.labels() == ["#bon", "vql1", "?vql", "t\xe9xt"]
        assert rtx.read("vql1").text == "Cyrus speaks"


def test_the_store_reads_a_line_when_it_is_first_looked_up(tmp_path):
    w = _writer()
    w.add(b"big1", b"long", Audio(tone(100_000, 3)))
    rtx = RtxFile(_file(tmp_path, w.build()))
    assert rtx.file.bytes_read == 12 + 5 * 12  # the footer and the index
    sounds = SoundBank()
    store = RtxStore(sounds, EventLog(Clock()))
    store.add("#bon", "code line wins")
    store.attach(rtx)
    assert store.find("#BON").text == "code line wins" and sounds.names() == []
    clip = store.find("Big1")
    assert clip.voiced and clip.sample_rate_hz == 22050 and clip.header_volume == 64
    assert sounds.names() == ["rg.rtx.big1"] and clip.duration_256() == (200_000 << 8) // 44100
    read = rtx.file.bytes_read
    assert store.find("big1") is clip and rtx.file.bytes_read == read
    assert store.find("?VQL").header_volume == 90 and store.find("?vql").sample_bits == 8
    assert store.find("t\xe9xt").voiced is False and store.find("nope") is None
    pcm, bits = store.pcm_for("rg.rtx.big1")
    assert bits == 16 and np.array_equal(pcm, tone(100_000, 3))


def test_a_corrupt_line_is_logged_once_and_absent(tmp_path):
    w = _writer()
    data = bytearray(w.build())
    data[8 + 6 + 9 + 8 + 1] = 7  # vQl1's subtype
    events = EventLog(Clock())
    store = RtxStore(SoundBank(), events)
    store.attach(RtxFile(_file(tmp_path, bytes(data))))
    assert store.find("vql1") is None and store.find("vql1") is None
    assert store.find("#bon").text == "Well met."
    errors = [e for e in events.records if e["event"] == "error"]
    assert len(errors) == 1 and "subtype: 7" in errors[0]["error"]


BAD_OPEN = [
    (lambda: b"RNAV", r"RNAV@0x0: file is 4 bytes"),
    (lambda: _writer().build(footer=b"RNAX"), r"RNAV@0x[0-9a-f]+\.tag: b'RNAX'"),
    (lambda: _writer().build(index_offset_delta=-1), r"RNAV@0x[0-9a-f]+\.index_offset"),
    (lambda: _writer().build(count_delta=1 << 28), r"index_offset: an index of 268435460"),
    (lambda: _writer().build(index_size_delta={b"#bon": 10 ** 6}),
     r"index\[3\]@0x[0-9a-f]+\.payload_offset: 1000015 bytes"),
    (lambda: _writer().build(index_size_delta={b"#bon": -10}),
     r"index\[3\]@0x[0-9a-f]+\.payload_size: 5 bytes"),
]


@pytest.mark.parametrize(("build", "message"), BAD_OPEN)
def test_bad_files_are_refused_at_open(tmp_path, build, message):
    path = _file(tmp_path, build())
    with pytest.raises(DataError, match=message) as caught:
        RtxFile(path)
    assert caught.value.source == str(path)


def test_labels_equal_but_for_case_are_refused(tmp_path):
    w = _writer()
    w.add(b"#BON", b"again")
    with pytest.raises(DataError, match=r"index\[4\]@0x[0-9a-f]+\.label: b'#bon' repeats "
                                        r"index\[0\]'s label b'#BON'"):
        RtxFile(_file(tmp_path, w.build()))


def _line(tmp_path, label: str, **build):
    with RtxFile(_file(tmp_path, _writer().build(**build))) as rtx:
        return rtx.read(label)


def test_a_chunk_header_must_repeat_the_index(tmp_path):
    with pytest.raises(DataError, match=r"chunk\[vQl1\]@0x17\.tag: b'vQlX', but index\[2\]"):
        _line(tmp_path, "vql1", chunk_tag={b"vQl1": b"vQlX"})
    with pytest.raises(DataError, match=r"chunk\[#bon\]@0x4\.payload_size: 16 \(big-endian\)"):
        _line(tmp_path, "#bon", size_delta={b"#bon": 1})


BAD_LINES = [
    (lambda w: setattr(w.lines[0], "kind", 1), "#bon", r"chunk\[#bon\]@0x8\.kind: 1, not 0"),
    (lambda w: setattr(w.lines[0], "subtype", 2), "#bon", r"@0x9\.subtype: 2: neither"),
    (lambda w: setattr(w.lines[0], "reserved", 1), "#bon", r"@0xc\.reserved: 1, not 0"),
    (lambda w: setattr(w.lines[0], "string_len", 40), "#bon", r"@0xa\.string_len: 40 bytes"),
    (lambda w: setattr(w.lines[0], "string_len", 3), "#bon",
     r"chunk\[#bon\]@0x4\.payload_size: 15, but a text line of 3 bytes has 9"),
    (lambda w: setattr(w.lines[0], "subtype", 1), "#bon", r"string_len: 9 bytes of text \(and"),
    (lambda w: setattr(w.lines[1].audio, "data_length", 58), "vql1",
     r"chunk\[vQl1\]\.audio@0x[0-9a-f]+\.audio_length: 58 bytes, but the payload holds 60"),
    (lambda w: setattr(w.lines[1].audio, "type_id", 3), "vql1",
     r"chunk\[vQl1\]\.audio@0x31\.type_id: 3 is not a known audio type \(0 8-bit mono, 1 16"),
    (lambda w: setattr(w.lines[1].audio, "bit_depth", 0), "vql1", r"\.bit_depth: 0 disagrees"),
    (lambda w: setattr(w.lines[1].audio, "sample_rate", 0), "vql1", r"\.sample_rate: 0 Hz"),
]


@pytest.mark.parametrize(("spoil", "label", "message"), BAD_LINES)
def test_bad_lines_are_refused_when_read(tmp_path, spoil, label, message):
    w = _writer()
    spoil(w)
    with RtxFile(_file(tmp_path, w.build())) as rtx, pytest.raises(DataError, match=message):
        rtx.read(label)
