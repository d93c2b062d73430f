"""The AC dat container: header, B-tree directory, block chains, compression, and every
way a file can be bad (each a DataError naming the file, the place and the field)."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from ac_dat_writer import FREE, HEADER, NODE_BYTES, DatWriter

from soundscape.ac.dat_file import DATA_SET_CELL, DatFile
from soundscape.ac.dat_object import DatCursor, DatObject
from soundscape.errors import DataError


def _payload(file_id: int) -> bytes:
    return bytes((file_id * 7 + i) & 0xFF for i in range(file_id % 150))


def _write(tmp_path: Path, data: bytes, name: str = "client_portal.dat") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _many(writer: DatWriter, count: int = 90) -> list[int]:
    ids = [0x0A000000 + 3 * i for i in range(count)]
    for i in ids:
        writer.add(i, _payload(i))
    return ids


def test_header_fields_read_back(tmp_path):
    writer = DatWriter(block_size=48, data_set=DATA_SET_CELL)
    writer.add(0x12340000, b"x" * 10)
    with DatFile(_write(tmp_path, writer.build()), DATA_SET_CELL) as dat:
        h = dat.header
        assert (h.block_size, h.data_set, h.data_subset) == (48, 2, 1)
        assert h.file_size == dat.size_bytes
        assert h.free_blocks > 0 and h.first_free >= HEADER and h.final_free >= h.first_free
        assert (h.engine_version, h.game_version, h.minor_version) == (22, 2072, 982)
        assert h.major_version == bytes(range(16)) and h.version_text == "soundscape test dat"
        assert (h.young_lru, h.old_lru, h.use_lru, h.master_map_id) == (0, 0, 0, 0)


def _depth(dat: DatFile, offset: int) -> int:
    node = dat.node(offset)
    return 1 + (max(_depth(dat, b) for b in node.branches) if node.branches else 0)


@pytest.mark.parametrize(("fanout", "count", "depth"), [(61, 40, 1), (61, 90, 2), (4, 90, 3),
                                                        (2, 90, 5)])
def test_branching_directory_finds_every_file_and_nothing_else(tmp_path, fanout, count, depth):
    writer = DatWriter(block_size=40, fanout=fanout)
    ids = _many(writer, count)
    with DatFile(_write(tmp_path, writer.build())) as dat:
        assert _depth(dat, dat.header.btree_root) == depth
        for i in ids:
            obj = dat.read(i)
            assert obj is not None and obj.data == _payload(i)
        for missing in (0, ids[0] + 1, ids[-1] + 1, 0xFFFFFFFF):
            assert dat.find(missing) is None and dat.read(missing) is None
        assert [e.file_id for e in dat.entries()] == ids


def test_multi_block_chains_map_object_offsets_to_file_offsets(tmp_path):
    writer = DatWriter(block_size=32, scatter=True)
    data = bytes(range(256)) * 3
    writer.add(0x13000000, data, version=7, date=123, iteration=9)
    with DatFile(_write(tmp_path, writer.build())) as dat:
        entry = dat.find(0x13000000)
        assert (entry.size, entry.version, entry.date, entry.iteration) == (768, 7, 123, 9)
        assert not entry.compressed
        obj = dat.read_entry(entry)
        assert obj.data == data and len(obj.blocks) == -(-768 // 28)
        assert list(obj.blocks) != sorted(obj.blocks)  # scattered, not contiguous
        raw = _write(tmp_path, writer.build()).read_bytes()
        for at in (0, 27, 28, 500, 767):  # the mapped file offset holds that byte
            file_offset = int(obj.where(at).split("@0x")[1].rstrip("]"), 16)
            assert raw[file_offset] == data[at]


def test_free_blocks_are_never_visited(tmp_path):
    writer = DatWriter(block_size=36, free_every=1)
    ids = _many(writer, 30)
    raw = bytearray(writer.build())
    header = DatFile(_write(tmp_path, bytes(raw))).header
    at, visited = header.first_free, 0
    while at & ~FREE:  # scribble over every free block's payload
        nxt = struct.unpack_from("<I", raw, at)[0]
        assert nxt & FREE
        raw[at + 4 : at + 36] = b"\xee" * 32
        at, visited = nxt & ~FREE, visited + 1
    assert visited == header.free_blocks > 0
    with DatFile(_write(tmp_path, bytes(raw))) as dat:
        assert all(dat.read(i).data == _payload(i) for i in ids)


def test_compressed_and_empty_files(tmp_path):
    writer = DatWriter(block_size=64)
    writer.add(0x0A000001, b"wind " * 200, compressed=True)
    writer.add(0x0A000002, b"")
    with DatFile(_write(tmp_path, writer.build())) as dat:
        entry = dat.find(0x0A000001)
        assert entry.compressed and entry.size < 1000
        obj = dat.read_entry(entry)
        assert obj.data == b"wind " * 200 and obj.blocks == ()
        assert "@" not in obj.where(5)  # no file offset inside inflated bytes
        assert dat.read(0x0A000002).data == b""


def test_an_empty_root_finds_nothing(tmp_path):
    with DatFile(_write(tmp_path, DatWriter().build())) as dat:
        assert dat.find(0x13000000) is None and list(dat.entries()) == []


def test_closed_file_refuses_reads(tmp_path):
    writer = DatWriter()
    writer.add(1, b"abc")
    dat = DatFile(_write(tmp_path, writer.build()))
    dat.close()
    dat.close()
    with pytest.raises(DataError, match="closed"):
        dat.read(1)


# -- bad files ---------------------------------------------------------------------------


def _bad(tmp_path: Path, data: bytes, match: str, data_set: int | None = None,
         file_id: int | None = None) -> DataError:
    path = _write(tmp_path, data)
    with pytest.raises(DataError, match=match) as info, DatFile(path, data_set) as dat:
        if file_id is not None:
            dat.read(file_id)
        else:
            list(dat.entries())
    assert str(path) in str(info.value)
    return info.value


def _one(block_size: int = 32, size: int = 100, **kw) -> tuple[DatWriter, bytes]:
    writer = DatWriter(block_size=block_size, free_every=0, scatter=False, **kw)
    writer.add(0x13000000, bytes(range(size)))
    return writer, writer.build()


def test_bad_headers(tmp_path):
    _, good = _one()
    err = _bad(tmp_path, good[:300], "shorter than the 400-byte header")
    assert err.record == "header"
    err = _bad(tmp_path, good[:0x140] + b"XXXX" + good[0x144:], "not an AC dat file")
    assert (err.record, err.field) == ("header@0x140", "magic")
    err = _bad(tmp_path, good[:0x144] + struct.pack("<i", 4) + good[0x148:], "over 4")
    assert (err.record, err.field) == ("header@0x144", "block_size")
    err = _bad(tmp_path, good[:-32], "truncated")
    assert err.field == "file_size"
    err = _bad(tmp_path, good, "expected 2 \\(cell\\): the wrong dat file", DATA_SET_CELL)
    assert err.field == "data_set"
    err = _bad(tmp_path, DatWriter(free_every=0).build(root=0), "no directory")
    assert err.field == "btree_root"


def test_not_a_regular_file(tmp_path):
    with pytest.raises(DataError, match="not a regular file"):
        DatFile(tmp_path)
    with pytest.raises(DataError, match="cannot open"):
        DatFile(tmp_path / "missing.dat")


def _set_u32(data: bytes, at: int, value: int) -> bytes:
    return data[:at] + struct.pack("<I", value & 0xFFFFFFFF) + data[at + 4:]


def _follow(data: bytes, start: int, n: int) -> int:
    """The file offset of byte ``n`` of the chain at ``start``."""
    payload = struct.unpack_from("<i", data, 0x144)[0] - 4
    block = start
    for _ in range(n // payload):
        block = struct.unpack_from("<I", data, block)[0]
    return block + 4 + n % payload


def _root(data: bytes) -> int:
    return struct.unpack_from("<i", data, 0x160)[0]


def _entry_block(data: bytes) -> tuple[int, int]:
    """(file offset of the root's first entry, that entry's first data block)."""
    at = _follow(data, _root(data), 62 * 4 + 4)
    return at, struct.unpack_from("<i", data, _follow(data, _root(data), 62 * 4 + 4 + 8))[0]


def test_bad_chains(tmp_path):
    _, good = _one(block_size=64)
    entry_at, first = _entry_block(good)
    second = struct.unpack_from("<I", good, first)[0]
    err = _bad(tmp_path, _set_u32(good, first, second | FREE), "runs into the free list",
               file_id=0x13000000)
    assert (err.record, err.field) == (f"0x13000000 block@0x{first:x}", "next")
    err = _bad(tmp_path, _set_u32(good, first, 0), "ends after 60 of 100 bytes",
               file_id=0x13000000)
    assert err.field == "chain"
    err = _bad(tmp_path, _set_u32(good, second, first), "goes on past its 100 bytes",
               file_id=0x13000000)
    err = _bad(tmp_path, _set_u32(good, first, 0x40), "inside the 400-byte header",
               file_id=0x13000000)
    err = _bad(tmp_path, _set_u32(good, first, len(good) - 8), "run past the end",
               file_id=0x13000000)
    size_at = _follow(good, _root(good), 62 * 4 + 4 + 12)
    err = _bad(tmp_path, _set_u32(good, size_at, 1 << 30), "cannot fit", file_id=0x13000000)
    assert err.field == "size"


def test_bad_nodes(tmp_path):
    writer = DatWriter(block_size=64, fanout=2, free_every=0, scatter=False)
    _many(writer, 12)
    good = writer.build()
    root = _root(good)
    count_at = _follow(good, root, 62 * 4)
    assert struct.unpack_from("<i", good, count_at)[0] == 2
    err = _bad(tmp_path, _set_u32(good, count_at, 62), "62, not 0..61")
    assert (err.record, err.field) == (f"node@0x{root:x}", "entry_count")
    err = _bad(tmp_path, _set_u32(good, root + 8, 0x10), "is not a block of the file")
    assert err.field == "branches[1]"
    err = _bad(tmp_path, _set_u32(good, root + 8, root), "loops back on itself")
    # unsorted: swap the root's two ids
    ids_at = [_follow(good, root, 62 * 4 + 4 + 4 + k * 24) for k in (0, 1)]
    a, b = (struct.unpack_from("<I", good, at)[0] for at in ids_at)
    swapped = _set_u32(_set_u32(good, ids_at[0], b), ids_at[1], a)
    err = _bad(tmp_path, swapped, "must be sorted")
    assert err.field == "entries[1].id"
    assert NODE_BYTES == 1716


def test_bad_compressed(tmp_path):
    for blob, match in ((b"\x10\0\0\0" + b"junkjunkjunkjunk", "bad compressed data"),
                        (b"\x05\0\0\0abc", "at least 16"),
                        (struct.pack("<I", 1 << 30) + bytes(20), "over the"),
                        (struct.pack("<I", 99) + __import__("zlib").compress(b"x" * 50),
                         "inflates to 50"),
                        (struct.pack("<I", 10) + __import__("zlib").compress(b"x" * 50),
                         "holds more")):
        writer = DatWriter()
        writer.add(7, b"")
        writer.files[7].data = blob
        data = writer.build()  # then the entry is marked compressed: flags bit 0
        entry_at, _ = _entry_block(data)
        flags = struct.unpack_from("<I", data, entry_at)[0]
        _bad(tmp_path, _set_u32(data, entry_at, flags | 1), match, file_id=7)


def test_cursor_reports_offsets_and_fields():
    obj = DatObject("x.dat", 0x20000001, b"\x01\x00\x00\x20" + b"\xff\xff" + b"\x09\0\0\0ab",
                    (400, 600, 800), 8)
    c = DatCursor(obj)
    c.object_id()
    assert obj.where(5) == "0x20000001[+0x5 @0x25d]"
    with pytest.raises(DataError, match=r"x.dat: 0x20000001\[\+0xa @0x326\]\.name: truncated: "
                       "needs 9 bytes, 2 left"):
        c.pstring("name")  # 0xFFFF, then a uint32 length: 9 bytes, only 2 there
    bad = DatCursor(DatObject("x.dat", 5, b"\x06\0\0\0", (), 0))
    with pytest.raises(DataError, match=r"0x00000005\[\+0x0\]\.id: the object says 0x00000006"):
        bad.object_id()
