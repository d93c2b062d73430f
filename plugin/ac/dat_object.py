"""One file read out of a dat (``DatObject``) and a bounds-checked reader over it.

Every failure is a ``DataError`` naming the dat file, the object id, where the
bad field is (its byte offset inside the object and, for an uncompressed object,
the file offset that byte lives at: block offset + 4 + offset within the block)
and the field's name.

The packing rules are the client's ``PackObj`` ones: little-endian, counts are
uint32, and a string is ``AC1Legacy::PStringBase<char>::UnPack`` 0x4FC8C0 (a
uint16 length, 0xFFFF meaning a uint32 length follows, the bytes, then the read
pointer aligned to 4 bytes from the start of the object; ``Mag-nus/acclient-AI-RE``
``2013-09 11.4186/acclient-src/src/PORTAL/chierarchy/cWObjHierNode.c``, matching
``ACEmulator/ACE`` ``Source/ACE.DatLoader/BinaryReaderExtensions.cs``
``ReadPString``/``AlignBoundary`` and ``Chorizite/DatReaderWriter``
``DatReaderWriter/Types/AC1LegacyPStringBase.cs``).
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass

from soundscape.errors import DataError

_U16 = struct.Struct("<H")
_U32 = struct.Struct("<I")
_F32 = struct.Struct("<f")
_F64 = struct.Struct("<d")


@dataclass(frozen=True, slots=True)
class DatObject:
    """The bytes of one dat file entry.

    Attributes:
        source: the dat file, for messages.
        file_id: the entry's id.
        data: the file's bytes (decompressed when the entry was compressed).
        blocks: the block offsets the bytes came from (empty when decompressed).
        block_size: the dat's block size (0 when decompressed).
    """

    source: str
    file_id: int
    data: bytes
    blocks: tuple[int, ...]
    block_size: int

    def where(self, at: int) -> str:
        """``0xID[+0x1a4 @0x4a8a4]``: the object, the byte offset and its file offset."""
        place = f"0x{self.file_id:08X}[+0x{at:x}"
        payload = self.block_size - 4
        if self.blocks and 0 <= at < len(self.data) and at // payload < len(self.blocks):
            place += f" @0x{self.blocks[at // payload] + 4 + at % payload:x}"
        return place + "]"


class DatCursor:
    """Sequential little-endian reads over a ``DatObject``; errors name offset and field."""

    def __init__(self, obj: DatObject) -> None:
        self.obj = obj
        self.data = obj.data
        self.pos = 0

    def fail(self, field: str, problem: str, at: int | None = None) -> DataError:
        """A ``DataError`` for ``field`` at ``at`` (default: the current offset)."""
        return DataError(self.obj.source, self.obj.where(self.pos if at is None else at),
                         field, problem)

    def left(self) -> int:
        return len(self.data) - self.pos

    def need(self, count: int, field: str) -> None:
        if count > self.left():
            raise self.fail(field, f"truncated: needs {count} bytes, {self.left()} left")

    def take(self, count: int, field: str) -> bytes:
        self.need(count, field)
        out = self.data[self.pos : self.pos + count]
        self.pos += count
        return out

    def u16(self, field: str) -> int:
        self.need(2, field)
        value = _U16.unpack_from(self.data, self.pos)[0]
        self.pos += 2
        return int(value)

    def u32(self, field: str) -> int:
        self.need(4, field)
        value = _U32.unpack_from(self.data, self.pos)[0]
        self.pos += 4
        return int(value)

    def f32(self, field: str) -> float:
        self.need(4, field)
        value = _F32.unpack_from(self.data, self.pos)[0]
        self.pos += 4
        return float(value)

    def f64(self, field: str) -> float:
        self.need(8, field)
        value = _F64.unpack_from(self.data, self.pos)[0]
        self.pos += 8
        return float(value)

    def finite_f32(self, field: str) -> float:
        at = self.pos
        value = self.f32(field)
        if not math.isfinite(value):
            raise self.fail(field, f"must be finite, got {value!r}", at)
        return value

    def u32s(self, count: int, field: str) -> tuple[int, ...]:
        self.need(4 * count, field)
        out = struct.unpack_from(f"<{count}I", self.data, self.pos)
        self.pos += 4 * count
        return tuple(int(v) for v in out)

    def count(self, field: str, item_bytes: int) -> int:
        """A uint32 count whose items (``item_bytes`` each, at least) fit in what is left."""
        at = self.pos
        value = self.u32(field)
        if value * item_bytes > self.left():
            raise self.fail(field, f"{value} items need at least {value * item_bytes} bytes, "
                            f"{self.left()} left", at)
        return value

    def align(self) -> None:
        """``PackObj::ALIGN_PTR``: skip to the next multiple of 4 from the object's start."""
        pad = -self.pos % 4
        self.need(pad, "padding")
        self.pos += pad

    def pstring(self, field: str) -> str:
        """``AC1Legacy::PStringBase<char>::UnPack``, then the 4-byte alignment."""
        length = self.u16(f"{field}.length")
        if length == 0xFFFF:
            length = self.u32(f"{field}.length")
        text = self.take(length, field).split(b"\0", 1)[0].decode("latin-1")
        self.align()
        return text

    def object_id(self) -> None:
        """The leading uint32 a dat object repeats its own id in; it must match."""
        at = self.pos
        stored = self.u32("id")
        if stored != self.obj.file_id:
            raise self.fail("id", f"the object says 0x{stored:08X}, the directory "
                            f"0x{self.obj.file_id:08X}", at)
