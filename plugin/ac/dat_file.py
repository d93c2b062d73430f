"""The retail dat container (``client_portal.dat``, ``client_cell_1.dat``), read lazily.

A dat file is a 400-byte header, a B-tree directory of 24-byte entries keyed by
file id, and the files themselves stored as chains of fixed-size blocks. Opening
reads the header and nothing else; ``find`` walks the directory from the root
(nodes are cached, at most ``NODE_CACHE`` of them), ``read`` follows one file's
block chain. Memory grows only with what is looked up.

Layout (little-endian), each structure verified against the retail client's own
reader and two public readers:

* the Hex-Rays decompile of ``acclient.exe`` 11.4186, split by module, in
  ``Mag-nus/acclient-AI-RE`` under ``2013-09 11.4186/acclient-src/src/ENGINE/diskcon/``:
  ``DiskDev.c`` (``DiskDev::Open_File`` 0x676D20: the 0x190-byte header),
  ``DiskCon.c`` (``DiskFileInfo_t::DiskFileInfo_t`` 0x670440: magic 0x5442;
  ``DiskController::LoadDataEx`` 0x670BC0 and ``Decompress`` 0x670A80),
  ``BTree.c`` (``BTree::LoadTree`` 0x672150, ``Lookup`` 0x673800, ``Search``
  0x6731C0, ``HasEntry`` 0x671D80) and ``BlkAlloc.c``
  (``CLBlockAllocator::Load_Data`` 0x6744E0; ``DeleteBlocks`` 0x673FB0 and
  ``ExpandFile`` 0x6740A0 mark free blocks with the high bit);
* ``ACEmulator/ACE`` ``Source/ACE.DatLoader/``: ``DatDatabase.cs`` (header at
  0x140), ``DatDatabaseHeader.cs``, ``DatDirectoryHeader.cs``, ``DatDirectory.cs``,
  ``DatFile.cs``, ``DatReader.cs``;
* ``Chorizite/DatReaderWriter`` ``DatReaderWriter/Lib/IO/``: ``DatHeader.cs``,
  ``DatBTree/DatBTreeNode.cs``, ``DatBTree/DatBTreeFile.cs``,
  ``DatBTree/DatBTreeReaderWriter.cs`` (``TryGetFileInternal``),
  ``BlockAllocators/StreamBlockAllocator.cs`` (``ReadBlock``), and
  ``DatReaderWriter/DatDatabase.cs`` (``Decompress``: uint32 size + zlib).

Header (offset 0): 256-byte version text, 64-byte transaction record, then at
0x140 ``DiskFileInfo_t``: magic, block size, file size, data set (1 portal, 2
cell), subset, first free, last free, free count, directory root, two LRU links,
use-LRU, master map id, engine and game pack versions, a 16-byte GUID and a minor
version. A directory node: 62 int32 branch offsets, an int32 entry count (at most
61), 61 entries of ``{uint32 flags (bit 0 compressed, bits 16-31 version), uint32
id, int32 offset, uint32 size, uint32 date, int32 iteration}``; a node whose first
branch is 0 is a leaf. A block: int32 next-block offset, then ``block_size - 4``
payload bytes; the chain of a file ends with next 0, and a next with the high bit
set marks a free block (retail's ``Load_Data`` fails on one). Free blocks are
never visited here: only chains reached from the directory are read.
"""

from __future__ import annotations

import struct
import zlib
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from soundscape.ac.dat_object import DatObject
from soundscape.binfile import BinFile
from soundscape.errors import DataError

HEADER_BYTES = 0x190
"""``DiskHeaderBlock_t``: read whole by ``DiskDev::Open_File``; no block starts inside it."""
FILE_INFO_AT = 0x140
FILE_INFO = struct.Struct("<I i i I I i i i i i i i I i i 16s I")
MAGIC = 0x5442
"""``DiskFileInfo_t::magic_`` (21570, "BT")."""
DATA_SET_PORTAL = 1
DATA_SET_CELL = 2
DATA_SET_NAMES = {DATA_SET_PORTAL: "portal", DATA_SET_CELL: "cell"}
BRANCHES = 62
ENTRIES = 61
ENTRY = struct.Struct("<I I i I I i")
NODE_HEAD = struct.Struct(f"<{BRANCHES}i i")
NODE_BYTES = NODE_HEAD.size + ENTRIES * ENTRY.size
"""1716: ``BTree::FindNode`` loads 0x6B8 bytes, the first 4 being its own offset slot."""
FREE_BIT = 0x80000000
COMPRESSED = 0x1
MAX_DEPTH = 32
"""Deeper than any real tree (61 entries a node); a deeper walk is a cycle."""
NODE_CACHE = 256
"""Directory nodes kept (retail keeps 100, ``BTree::LoadTree``)."""
MAX_UNCOMPRESSED_BYTES = 1 << 28
"""256 MiB: a compressed file declaring more is refused before inflating."""


@dataclass(frozen=True, slots=True)
class DatHeader:
    """``DiskFileInfo_t`` (at 0x140) and the version text before it."""

    block_size: int
    file_size: int
    data_set: int
    data_subset: int
    first_free: int
    final_free: int
    free_blocks: int
    btree_root: int
    young_lru: int
    old_lru: int
    use_lru: int
    master_map_id: int
    engine_version: int
    game_version: int
    major_version: bytes
    minor_version: int
    version_text: str


@dataclass(frozen=True, slots=True)
class DatEntry:
    """A directory entry (``BTEntry``, 24 bytes)."""

    file_id: int
    offset: int
    size: int
    flags: int
    date: int
    iteration: int

    @property
    def compressed(self) -> bool:
        """Bit 0 of the flags word (``DiskController::GetIsCompressed``)."""
        return bool(self.flags & COMPRESSED)

    @property
    def version(self) -> int:
        """Bits 16-31 of the flags word (``DiskController::GetVersion``)."""
        return self.flags >> 16


@dataclass(frozen=True, slots=True)
class DatNode:
    """A directory node: sorted entries and, unless a leaf, one more branch than entries."""

    offset: int
    branches: tuple[int, ...]
    entries: tuple[DatEntry, ...]

    @property
    def is_leaf(self) -> bool:
        return not self.branches


class DatFile:
    """One open dat file. Use as a context manager or ``close`` it.

    Args:
        path: the dat file.
        data_set: the expected ``DiskFileInfo_t`` data set (``DATA_SET_PORTAL`` or
            ``DATA_SET_CELL``), or None to accept either.

    Raises:
        DataError: unreadable, not a regular file, a bad header, or the wrong data set.
    """

    def __init__(self, path: str | Path, data_set: int | None = None) -> None:
        self.path = Path(path)
        self._file = BinFile(self.path)
        self.source = self._file.source
        self.size_bytes = self._file.size_bytes
        self._nodes: OrderedDict[int, DatNode] = OrderedDict()
        try:
            self.header = self._read_header(data_set)
        except BaseException:
            self.close()
            raise

    # -- reading bytes ---------------------------------------------------------------

    def _read_at(self, offset: int, count: int, what: str) -> bytes:
        return self._file.read_at(offset, count, what)

    def _read_header(self, data_set: int | None) -> DatHeader:
        if self.size_bytes < HEADER_BYTES:
            raise DataError(self.source, "header", None,
                            f"file is {self.size_bytes} bytes, shorter than the "
                            f"{HEADER_BYTES}-byte header")
        raw = self._read_at(0, HEADER_BYTES, "header")
        f = FILE_INFO.unpack_from(raw, FILE_INFO_AT)
        where = f"header@0x{FILE_INFO_AT:x}"
        if f[0] != MAGIC:
            raise DataError(self.source, where, "magic",
                            f"0x{f[0]:08x}, not 0x{MAGIC:04x}: not an AC dat file")
        block_size = f[1]
        if not 4 < block_size <= self.size_bytes:
            raise DataError(self.source, f"header@0x{FILE_INFO_AT + 4:x}", "block_size",
                            f"{block_size} must be over 4 and within the file")
        if f[2] > self.size_bytes:
            raise DataError(self.source, f"header@0x{FILE_INFO_AT + 8:x}", "file_size",
                            f"header says {f[2]} bytes, the file has {self.size_bytes} "
                            "(truncated)")
        if data_set is not None and f[3] != data_set:
            raise DataError(self.source, f"header@0x{FILE_INFO_AT + 12:x}", "data_set",
                            f"{f[3]} ({DATA_SET_NAMES.get(f[3], 'unknown')}), expected "
                            f"{data_set} ({DATA_SET_NAMES[data_set]}): the wrong dat file?")
        text = raw[:256].split(b"\0", 1)[0].decode("latin-1")
        return DatHeader(block_size, f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10],
                         f[11], f[12], f[13], f[14], f[15], f[16], text)

    def _chain(self, offset: int, size: int, what: str) -> tuple[bytes, tuple[int, ...]]:
        """``CLBlockAllocator::Load_Data``: ``size`` payload bytes from the chain at ``offset``."""
        payload = self.header.block_size - 4
        blocks_in_file = self.size_bytes // self.header.block_size + 1
        if size > blocks_in_file * payload:
            raise DataError(self.source, what, "size",
                            f"{size} bytes cannot fit in a {self.size_bytes}-byte file")
        parts: list[bytes] = []
        blocks: list[int] = []
        at, left = offset, size
        while left:
            if at == 0:
                raise DataError(self.source, what, "chain",
                                f"ends after {size - left} of {size} bytes")
            if at < HEADER_BYTES:
                raise DataError(self.source, what, "chain",
                                f"block at 0x{at:x} lies inside the {HEADER_BYTES}-byte header")
            chunk = min(payload, left)
            raw = self._read_at(at, 4 + chunk, f"{what} block@0x{at:x}")
            blocks.append(at)
            parts.append(raw[4:])
            left -= chunk
            nxt = struct.unpack_from("<I", raw)[0]
            if nxt & FREE_BIT:
                raise DataError(self.source, f"{what} block@0x{at:x}", "next",
                                f"0x{nxt:08x} marks a free block: the chain runs into the "
                                "free list")
            at = nxt
        if at != 0:
            raise DataError(self.source, f"{what} block@0x{blocks[-1]:x}", "next",
                            f"0x{at:x}: the chain goes on past its {size} bytes")
        return b"".join(parts), tuple(blocks)

    # -- the directory -----------------------------------------------------------------

    def node(self, offset: int) -> DatNode:
        """The directory node at ``offset`` (cached)."""
        cached = self._nodes.get(offset)
        if cached is not None:
            self._nodes.move_to_end(offset)
            return cached
        what = f"node@0x{offset:x}"
        data, _ = self._chain(offset, NODE_BYTES, what)
        head = NODE_HEAD.unpack_from(data)
        count = head[BRANCHES]
        if not 0 <= count <= ENTRIES:
            raise DataError(self.source, what, "entry_count", f"{count}, not 0..{ENTRIES}")
        entries: list[DatEntry] = []
        for i in range(count):
            flags, file_id, at, size, date, iteration = ENTRY.unpack_from(
                data, NODE_HEAD.size + i * ENTRY.size)
            if entries and file_id <= entries[-1].file_id:
                raise DataError(self.source, what, f"entries[{i}].id",
                                f"0x{file_id:08x} is not above 0x{entries[-1].file_id:08x} "
                                "(the directory must be sorted)")
            entries.append(DatEntry(file_id, at, size, flags, date, iteration))
        branches: tuple[int, ...] = ()
        if head[0] != 0:  # BTree::Search: NextNode_[0] == 0 is a leaf
            branches = tuple(head[: count + 1])
            for i, branch in enumerate(branches):
                if not HEADER_BYTES <= branch < self.size_bytes:
                    raise DataError(self.source, what, f"branches[{i}]",
                                    f"0x{branch & 0xFFFFFFFF:x} is not a block of the file")
        node = DatNode(offset, branches, tuple(entries))
        self._nodes[offset] = node
        if len(self._nodes) > NODE_CACHE:
            self._nodes.popitem(last=False)
        return node

    def find(self, file_id: int) -> DatEntry | None:
        """The entry of ``file_id``, or None (``BTree::Lookup``: an empty root finds nothing)."""
        offset, seen = self._root(), set[int]()
        while True:
            if offset in seen or len(seen) >= MAX_DEPTH:
                raise DataError(self.source, f"node@0x{offset:x}", "branches",
                                "the directory loops back on itself")
            seen.add(offset)
            node = self.node(offset)
            if not node.entries:
                return None
            lo, hi = 0, len(node.entries)
            while lo < hi:  # BTree::HasEntry: binary search on unsigned ids
                mid = (lo + hi) // 2
                if node.entries[mid].file_id < file_id:
                    lo = mid + 1
                else:
                    hi = mid
            if lo < len(node.entries) and node.entries[lo].file_id == file_id:
                return node.entries[lo]
            if node.is_leaf:
                return None
            offset = node.branches[lo]

    def entries(self) -> Iterator[DatEntry]:
        """Every directory entry in id order (walks the whole tree: for tools and tests)."""
        yield from self._walk(self._root(), set(), 0)

    def _root(self) -> int:
        if self.header.btree_root == 0:  # BTree::LoadTree fails to load it
            raise DataError(self.source, f"header@0x{FILE_INFO_AT + 32:x}", "btree_root",
                            "0: the file has no directory")
        return self.header.btree_root

    def _walk(self, offset: int, seen: set[int], depth: int) -> Iterator[DatEntry]:
        if offset in seen or depth >= MAX_DEPTH:
            raise DataError(self.source, f"node@0x{offset:x}", "branches",
                            "the directory loops back on itself")
        seen.add(offset)
        node = self.node(offset)
        for i, entry in enumerate(node.entries):
            if not node.is_leaf:
                yield from self._walk(node.branches[i], seen, depth + 1)
            yield entry
        if not node.is_leaf:
            yield from self._walk(node.branches[-1], seen, depth + 1)

    # -- files ---------------------------------------------------------------------------

    def read(self, file_id: int) -> DatObject | None:
        """The bytes of ``file_id`` (decompressed), or None when the directory lacks it."""
        entry = self.find(file_id)
        return None if entry is None else self.read_entry(entry)

    def read_entry(self, entry: DatEntry) -> DatObject:
        """Follow ``entry``'s block chain (``DiskController::LoadDataEx``)."""
        what = f"0x{entry.file_id:08X}"
        data, blocks = self._chain(entry.offset, entry.size, what)
        if not entry.compressed:
            return DatObject(self.source, entry.file_id, data, blocks, self.header.block_size)
        return DatObject(self.source, entry.file_id, self._inflate(data, what), (), 0)

    def _inflate(self, data: bytes, what: str) -> bytes:
        """``DiskController::Decompress``: uint32 uncompressed size, then a zlib stream."""
        if len(data) < 16:
            raise DataError(self.source, what, "compressed",
                            f"{len(data)} bytes; a compressed file has at least 16")
        declared = struct.unpack_from("<I", data)[0]
        if declared > MAX_UNCOMPRESSED_BYTES:
            raise DataError(self.source, what, "uncompressed_size",
                            f"{declared} bytes, over the {MAX_UNCOMPRESSED_BYTES} cap")
        inflater = zlib.decompressobj()
        try:
            out = inflater.decompress(data[4:], declared + 1)
        except zlib.error as error:
            raise DataError(self.source, what, "zlib", f"bad compressed data: {error}") from None
        if len(out) > declared or (len(out) == declared and not inflater.eof):
            raise DataError(self.source, what, "uncompressed_size",
                            f"declares {declared} bytes, the stream holds more")
        if len(out) < declared:
            raise DataError(self.source, what, "uncompressed_size",
                            f"declares {declared} bytes, the stream inflates to {len(out)}")
        return out

    # -- lifetime ------------------------------------------------------------------------

    def close(self) -> None:
        """Close the file (idempotent)."""
        self._file.close()

    def __enter__(self) -> DatFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["DatEntry", "DatFile", "DatHeader", "DatNode", "DATA_SET_CELL", "DATA_SET_PORTAL"]
