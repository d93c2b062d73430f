"""A level's instance files (``levelN_Final.dat`` with its ``.raw`` and, on the Mac,
``.sep``), read lazily: the header, the instance descriptors and the name table.

Layout, as the community's tools and wiki document it:

* OniSplit (``Paradox-01/OniSplit_v0.9.99.2_DX``): ``Oni/InstanceFileHeader.cs``
  (``Read``, ``ValidateHeader``), ``Oni/InstanceDescriptor.cs`` (``Read``,
  ``IsPlaceholder``, ``HasName``, ``DataOffset``), ``Oni/InstanceDescriptorFlags.cs``,
  ``Oni/InstanceFile.cs`` (``Read``, ``ReadNames``, ``RawFilePath``, ``SepFilePath``),
  ``Oni/InstanceFileWriter.cs`` (the tables' order and alignment), and
  ``Oni.Metadata/OniPcMetadata.cs`` / ``OniMacMetadata.cs`` (the ``OSBDInstance``:
  size and offset into the .raw on the PC, the .sep on the Mac; ``SNDDInstance``:
  always the .raw);
* the Oni wiki (OniGalore) ``OBD:OSBD``, ``OBD:SNDD``, ``OBD:SNDD_Mac``.

Header (64 bytes, little-endian): ``u64`` template checksum (``PC_CHECKSUM`` and
``MAC_CHECKSUM``, OniSplit's ``OniPCTemplateChecksum`` / ``OniMacTemplateChecksum``;
OniSplit takes any other value as the Mac's, here it is refused), ``u32`` version
(``VR01`` 0x56523031 for the retail levels; ``VR02``, OniSplit's own ``.oni`` files
with the raw parts inside, is not a retail level and is refused), ``u64`` signature
(0x0008001000140040), then ``int32`` instance count, name count, template count,
data table offset and size, name table offset and size, 16 unused bytes. Then
20-byte descriptors ``{u32 tag (a reversed four-character code), int32 data
offset (in the data table, past the 8-byte instance header), int32 name offset,
int32 data size (the header included), u32 flags (1 no name, 2 placeholder, 8
shared)}``. Names are NUL-terminated in the name table, each holding its tag
first (``OSBDmus_chase.amb``, ``SNDDc17_99_28lull``).

Opening reads the header, the descriptors and the name table. An OSBD's 8 bytes
and chunk, and an SNDD's fields and samples, are read when asked for.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from soundscape.binfile import BinFile
from soundscape.errors import DataError
from soundscape.oni import sndd
from soundscape.oni.data import OniDatabase
from soundscape.oni.osbd import instance_object_name, parse_chunk

HEADER = struct.Struct("<QIQ7i4i")
DESCRIPTOR = struct.Struct("<4siiiI")
PC_CHECKSUM = 1052091763926815
MAC_CHECKSUM = 1052091493724257
VERSION_31 = 0x56523031
VERSION_32 = 0x56523032
SIGNATURE = 2251868534472768
FLAG_PRIVATE, FLAG_PLACEHOLDER = 0x1, 0x2
INSTANCE_HEADER = 8
OSBD_INSTANCE = 8
MAX_SOUND_BYTES = 1 << 28


@dataclass(frozen=True, slots=True)
class Descriptor:
    """One instance descriptor (``InstanceDescriptor``)."""

    index: int
    tag: str
    data_offset: int
    name_offset: int
    data_size: int
    flags: int
    name: str | None

    @property
    def placeholder(self) -> bool:
        """No data here (``IsPlaceholder``: flag 2, or a zero size or offset)."""
        return bool(self.flags & FLAG_PLACEHOLDER) or self.data_size == 0 or self.data_offset == 0

    @property
    def short_name(self) -> str | None:
        """The name without its tag (``InstanceDescriptor.Name``)."""
        if self.name is None:
            return None
        return self.name[4:] if self.name.startswith(self.tag) else self.name


class OniLevelFile:
    """``levelN_Final.dat`` opened, with its ``.raw`` and (Mac) ``.sep`` opened on first use.

    Attributes:
        platform: ``"pc"`` or ``"mac"`` (from the template checksum).
        descriptors: every descriptor; ``osbd`` / ``sndd``: those of the two sound
            templates that hold data, by name without the tag.

    Raises:
        DataError: a bad header, descriptor or name (file, offset, field).
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.file = BinFile(self.path)
        self.source = self.file.source
        self._raw: BinFile | None = None
        self._sep: BinFile | None = None
        self._stems: dict[str, Descriptor | None] | None = None
        try:
            self._read_tables()
        except BaseException:
            self.file.close()
            raise

    def _read_tables(self) -> None:
        f = self.file
        if f.size_bytes < HEADER.size:
            raise f.fail("header@0x0", None, f"file is {f.size_bytes} bytes, shorter than the "
                                             f"{HEADER.size}-byte header")
        h = HEADER.unpack(f.read_at(0, HEADER.size, "header@0x0"))
        checksum, version, signature = h[0], h[1], h[2]
        (count, self.name_count, self.template_count, self.data_at, data_size,
         self.names_at, names_size) = h[3:10]
        if checksum not in (PC_CHECKSUM, MAC_CHECKSUM):
            raise f.fail("header@0x0", "template_checksum",
                         f"0x{checksum:x} is neither the PC (0x{PC_CHECKSUM:x}) nor the Mac "
                         f"(0x{MAC_CHECKSUM:x}) retail checksum: not an Oni level file, or a "
                         "build whose layout is not documented")
        self.platform = "pc" if checksum == PC_CHECKSUM else "mac"
        if version == VERSION_32:
            raise f.fail("header@0x8", "version", "VR02: an OniSplit .oni file, not a retail "
                                                  "level (levelN_Final.dat is VR01)")
        if version != VERSION_31:
            raise f.fail("header@0x8", "version", f"0x{version:08x}, not VR01 (0x{VERSION_31:x})")
        if signature != SIGNATURE:
            raise f.fail("header@0xc", "signature", f"0x{signature:x}, not 0x{SIGNATURE:x}")
        self.version = version
        self.raw_at = 0
        """Where the raw parts' offsets count from in the .raw and .sep (0 in VR01)."""
        tables = HEADER.size + count * DESCRIPTOR.size if count >= 0 else -1
        if not 0 <= tables <= f.size_bytes:
            raise f.fail("header@0x14", "instance_count",
                         f"{count} descriptors cannot fit in a {f.size_bytes}-byte file")
        for table, at, size, where in (("data_table", self.data_at, data_size, 0x20),
                                       ("name_table", self.names_at, names_size, 0x28)):
            if at < tables or size < 0 or at + size > f.size_bytes:
                raise f.fail(f"header@0x{where:x}", f"{table}_offset",
                             f"{size} bytes at 0x{at & 0xFFFFFFFF:x} are not after the "
                             f"descriptors (0x{tables:x}) and within the file")
        self.data_end = self.data_at + data_size
        raw = f.read_at(HEADER.size, count * DESCRIPTOR.size, f"descriptors@0x{HEADER.size:x}")
        names = f.read_at(self.names_at, names_size, f"name_table@0x{self.names_at:x}")
        self.descriptors: list[Descriptor] = []
        self.osbd: dict[str, Descriptor] = {}
        self.sndd: dict[str, Descriptor] = {}
        starts: dict[int, str] = {}  # the table split once; a name starting mid-way is looked up
        at_name = 0
        for part in names.split(b"\0")[:-1]:
            starts[at_name] = part.decode("latin-1")
            at_name += len(part) + 1
        for i, (tag, data_offset, name_offset, size, flags) in enumerate(
                DESCRIPTOR.iter_unpack(raw)):
            at = HEADER.size + i * DESCRIPTOR.size
            code = tag[::-1].decode("latin-1")
            name: str | None = None
            if not flags & FLAG_PRIVATE:
                name = starts.get(name_offset)
                if name is None:
                    name = self._name(names, name_offset, f"descriptors[{i}]@0x{at + 8:x}")
            d = Descriptor(i, code, data_offset, name_offset, size, flags, name)
            if d.placeholder and name is None:
                raise f.fail(f"descriptors[{i}]@0x{at + 16:x}", "flags",
                             "a placeholder must have a name (OniSplit: 'Empty descriptors "
                             "must have names')")
            if not d.placeholder and (size < INSTANCE_HEADER or data_offset < INSTANCE_HEADER
                                      or self.data_at + data_offset - INSTANCE_HEADER + size
                                      > self.data_end):
                raise f.fail(f"descriptors[{i}]@0x{at + 4:x}", "data_offset",
                             f"{size} bytes at data offset 0x{data_offset & 0xFFFFFFFF:x} run "
                             f"outside the data table")
            self.descriptors.append(d)
            kind = {"OSBD": self.osbd, "SNDD": self.sndd}.get(code)
            if kind is not None and not d.placeholder and d.short_name is not None:
                kind.setdefault(d.short_name, d)

    def _name(self, names: bytes, offset: int, record: str) -> str:
        if not 0 <= offset < len(names):
            raise self.file.fail(record, "name_offset",
                                 f"0x{offset & 0xFFFFFFFF:x} is outside the "
                                 f"{len(names)}-byte name table")
        end = names.find(b"\0", offset)
        if end < 0:
            raise self.file.fail(record, "name_offset",
                                 f"the name at 0x{offset:x} has no terminating NUL")
        return names[offset:end].decode("latin-1")

    # -- the companion files ------------------------------------------------------------

    def _companion(self, suffix: str) -> BinFile:
        path = self.path.with_suffix(suffix)
        if not path.exists():  # the shipped names are lower case; match without case
            match = next((p for p in self.path.parent.iterdir()
                          if p.name.lower() == path.name.lower()), None)
            path = match or path
        return BinFile(path)

    @property
    def raw(self) -> BinFile:
        """The ``.raw`` (opened on first use)."""
        if self._raw is None:
            self._raw = self._companion(".raw")
        return self._raw

    @property
    def sep(self) -> BinFile:
        """The ``.sep`` of a Mac level (the ``.raw`` on the PC), opened on first use."""
        if self.platform == "pc":
            return self.raw
        if self._sep is None:
            self._sep = self._companion(".sep")
        return self._sep

    # -- instances ------------------------------------------------------------------------

    def instance_data(self, d: Descriptor, count: int) -> bytes:
        """The first ``count`` bytes of ``d``'s data past its 8-byte instance header."""
        if d.data_size - INSTANCE_HEADER < count:
            raise self.file.fail(f"{d.tag}[{d.short_name}]", "data_size",
                                 f"{d.data_size} bytes; the instance needs "
                                 f"{INSTANCE_HEADER + count}")
        at = self.data_at + d.data_offset
        return self.file.read_at(at, count, f"{d.tag}[{d.short_name}]@0x{at:x}")

    def read_osbd(self, database: OniDatabase | None = None) -> OniDatabase:
        """Every OSBD instance's chunk (``OSiBinaryData_ProcHandler``), resolved."""
        db = database if database is not None else OniDatabase()
        for name, d in self.osbd.items():
            size, offset = struct.unpack("<Ii", self.instance_data(d, OSBD_INSTANCE))
            part = self.sep
            record = f"OSBD[{name}]"
            at = self.raw_at + offset
            if offset < 0 or size > part.size_bytes:
                raise DataError(part.source, record, "size",
                                f"{size} bytes at 0x{offset & 0xFFFFFFFF:x} run past the end "
                                f"of the file ({part.size_bytes} bytes)")
            chunk = part.read_at(at, size, f"{record}@0x{at:x}")
            db.add(parse_chunk(chunk, 0, name=instance_object_name(d.name or name),
                               instance=d.name, source=f"{part.source}@0x{at:x}"))
        db.resolve()
        return db

    def sound_descriptor(self, name: str) -> Descriptor | None:
        """The SNDD a permutation's sound ``name`` names: the instance of that name (tag
        cut), else the only one whose name minus an extension (``.aif``, ``.wav``) is it."""
        d = self.sndd.get(name)
        if d is not None:
            return d
        if self._stems is None:
            stems: dict[str, Descriptor | None] = {}
            for short, found in self.sndd.items():
                if "." in short:
                    stem = short.rsplit(".", 1)[0]
                    stems[stem] = None if stem in stems else found
            self._stems = stems
        return self._stems.get(name)

    def sound_header(self, name: str) -> sndd.SnddHeader | None:
        """The SNDD ``name``'s fields, or None when the level has no such sound."""
        d = self.sound_descriptor(name)
        if d is None:
            return None
        record = f"SNDD[{name}]@0x{self.data_at + d.data_offset:x}"
        if self.platform == "pc":
            return sndd.parse_pc(self.instance_data(d, sndd.PC_SNDD.size), self.source, record)
        return sndd.parse_mac(self.instance_data(d, sndd.MAC_SNDD.size), self.source, record)

    def read_sound(self, name: str) -> tuple[np.ndarray, int] | None:
        """The SNDD ``name`` decoded: (int16 frames x channels, rate), or None if absent."""
        header = self.sound_header(name)
        if header is None:
            return None
        raw = self.raw
        record = f"SNDD[{name}]"
        if header.data_size > MAX_SOUND_BYTES:
            raise DataError(raw.source, record, "data_size",
                            f"{header.data_size} bytes, over the {MAX_SOUND_BYTES} cap")
        at = self.raw_at + header.raw_offset
        data = raw.read_at(at, header.data_size, f"{record}@0x{at:x}", "data")
        pcm = sndd.decode(header, data, raw.source, f"{record}@0x{at:x}")
        if pcm.shape[0] == 0:
            raise DataError(raw.source, record, "data_size",
                            f"{header.data_size} bytes decode to no samples")
        return pcm, header.sample_rate_hz

    def close(self) -> None:
        """Close the .dat, .raw and .sep (idempotent)."""
        for f in (self.file, self._raw, self._sep):
            if f is not None:
                f.close()

    def __enter__(self) -> OniLevelFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["Descriptor", "MAC_CHECKSUM", "OniLevelFile", "PC_CHECKSUM"]
