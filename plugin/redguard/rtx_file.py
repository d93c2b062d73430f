"""ENGLISH.RTX, the retail dialogue file, read lazily: the index at open, a line when asked.

Layout, from the public preservation documentation and readers:

* michidk/redguard-preservation ``docs/formats/RTX.md`` (the format page, checked
  against the shipped ``ENGLISH.RTX``: 4,866 entries) and its reader
  ``src/import/rtx.rs`` (``parse_footer``, ``parse_index_table``, ``parse_payload``);
* Dillonn241/redguard-mod-manager ``src/redguard/RtxDatabase.java`` (``readFile``,
  ``writeFile``) and ``RtxEntry.java``;
* RGUnity/redguard-unity ``Assets/Scripts/RGFileImport/RGGFXImport/RGRTXFile.cs``.

Chunks, each a 4-byte label, a big-endian payload size and the payload; ``END ``
after the last (the mod manager writes it, RGUnity stops on it); then the index,
12-byte entries ``{label, u32 payload offset, u32 payload size}`` (little-endian;
the offset is the payload's, 8 bytes after its chunk header); then the 12-byte
footer ``{"RNAV", u32 index offset, u32 entry count}`` ending the file.

A payload: ``u8 kind`` (0), ``u8 subtype`` (0 text, 1 voiced), ``u16 string
length``, ``u16`` 0, the string (the line's text: RGUnity and the mod manager call
it the subtitle; the format page's audio table calls it the label), and, when
voiced, the 27-byte audio header SFX effects use (``sfx_file.AudioHeader``; byte
0x0C is the speech volume, 100 shipped) and the PCM.

Opening reads the footer and the index (12 bytes an entry); ``read`` reads one
payload with its chunk header. Checks, each a ``DataError`` naming the file, the
offset and the field: the chunk header must repeat the index's label and size;
the kind byte must be 0 and the word after the length 0 (the readers disagree
on both: the mod manager reads the kind and subtype as one big-endian short
and the length as a 32-bit word); a payload's size must be exactly its parts;
the audio must be mono (the format page lists types 0 and 1 only); two labels
the same but for ASCII case are refused (the engine lowercases labels to look
them up; which of two it would find is not documented). The string's bytes
are read as Latin-1 (the code page is not documented; the shipped text is ASCII).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from soundscape.binfile import BinFile
from soundscape.redguard.sfx_file import AUDIO_HEADER, AudioHeader, decode_pcm, parse_audio_header

FOOTER = struct.Struct("<4sII")
INDEX_ENTRY = struct.Struct("<4sII")
CHUNK = struct.Struct(">4sI")
PREFIX = struct.Struct("<BBHH")
FOOTER_TAG = b"RNAV"
TEXT, VOICED = 0, 1
_ASCII_LOWER = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")
_STR_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def label_key(tag: bytes) -> str:
    """The lookup key of a 4-byte label: ASCII letters lowercased, Latin-1 text.

    >>> label_key(b"#BoN")
    '#bon'
    """
    return tag.translate(_ASCII_LOWER).decode("latin-1")


@dataclass(frozen=True, slots=True)
class RtxIndexEntry:
    """One index entry: the label as stored, its payload's offset and size."""

    position: int
    tag: bytes
    payload_at: int
    payload_size: int

    @property
    def label(self) -> str:
        return self.tag.decode("latin-1")


@dataclass(frozen=True, slots=True)
class RtxLine:
    """One payload read: the text and, for a voiced line, its audio header and PCM."""

    label: str
    text: str
    header: AudioHeader | None = None
    pcm: np.ndarray | None = None


class RtxFile:
    """ENGLISH.RTX opened: the index by lowercased label; payloads read on ``read``.

    Raises:
        DataError: unreadable, a bad footer or index (file, offset, field).
    """

    def __init__(self, path: str | Path) -> None:
        self.file = BinFile(path)
        self.source = self.file.source
        try:
            self.index_at, self.index = self._read_index()
        except BaseException:
            self.file.close()
            raise

    def __len__(self) -> int:
        return len(self.index)

    def __contains__(self, label: object) -> bool:
        return isinstance(label, str) and label in self.index

    def labels(self) -> list[str]:
        """Every lookup key, in index order."""
        return list(self.index)

    def _read_index(self) -> tuple[int, dict[str, RtxIndexEntry]]:
        f = self.file
        end = f.size_bytes - FOOTER.size
        if end < 0:
            raise f.fail("RNAV@0x0", None, f"file is {f.size_bytes} bytes, shorter than the "
                                           f"{FOOTER.size}-byte footer")
        tag, index_at, count = FOOTER.unpack(f.read_at(end, FOOTER.size, f"RNAV@0x{end:x}"))
        if tag != FOOTER_TAG:
            raise f.fail(f"RNAV@0x{end:x}", "tag",
                         f"{tag!r}, not b'RNAV': not a Redguard RTX file")
        if index_at + count * INDEX_ENTRY.size != end:
            raise f.fail(f"RNAV@0x{end + 4:x}", "index_offset",
                         f"an index of {count} entries at 0x{index_at:x} does not end at the "
                         f"footer (0x{end:x})")
        raw = f.read_at(index_at, count * INDEX_ENTRY.size, f"index@0x{index_at:x}")
        index: dict[str, RtxIndexEntry] = {}
        for i in range(count):
            at = index_at + i * INDEX_ENTRY.size
            label, payload_at, size = INDEX_ENTRY.unpack_from(raw, i * INDEX_ENTRY.size)
            record = f"index[{i}]@0x{at:x}"
            if payload_at < CHUNK.size or payload_at + size > index_at:
                raise f.fail(record, "payload_offset",
                             f"{size} bytes at 0x{payload_at:x} are not between the first "
                             f"chunk header and the index (0x{index_at:x})")
            if size < PREFIX.size:
                raise f.fail(record, "payload_size",
                             f"{size} bytes, fewer than the {PREFIX.size}-byte payload prefix")
            key = label_key(label)
            if key in index:
                raise f.fail(record, "label",
                             f"{label!r} repeats index[{index[key].position}]'s label "
                             f"{index[key].tag!r} (labels are looked up lowercased)")
            index[key] = RtxIndexEntry(i, label, payload_at, size)
        return index_at, index

    def read(self, label: str) -> RtxLine | None:
        """The line ``label`` (any ASCII case) read from the file now, or None if absent."""
        entry = self.index.get(label.translate(_STR_LOWER))
        return None if entry is None else self.read_entry(entry)

    def read_entry(self, entry: RtxIndexEntry) -> RtxLine:
        """The payload of ``entry`` and its chunk header, checked against the index."""
        f = self.file
        head_at = entry.payload_at - CHUNK.size
        name = f"chunk[{entry.label}]"
        data = f.read_at(head_at, CHUNK.size + entry.payload_size, f"{name}@0x{head_at:x}")
        tag, size = CHUNK.unpack_from(data)
        if tag != entry.tag:
            raise f.fail(f"{name}@0x{head_at:x}", "tag",
                         f"{tag!r}, but index[{entry.position}] names {entry.tag!r}")
        if size != entry.payload_size:
            raise f.fail(f"{name}@0x{head_at + 4:x}", "payload_size",
                         f"{size} (big-endian), but index[{entry.position}] says "
                         f"{entry.payload_size}")
        return self._payload(entry, memoryview(data)[CHUNK.size:])

    def _payload(self, entry: RtxIndexEntry, payload: memoryview) -> RtxLine:
        at = entry.payload_at
        name = f"chunk[{entry.label}]"
        kind, subtype, length, reserved = PREFIX.unpack_from(payload)
        if kind != 0:
            raise self.file.fail(f"{name}@0x{at:x}", "kind", f"{kind}, not 0")
        if subtype not in (TEXT, VOICED):
            raise self.file.fail(f"{name}@0x{at + 1:x}", "subtype",
                                 f"{subtype}: neither 0 (text) nor 1 (voiced)")
        if reserved != 0:
            raise self.file.fail(f"{name}@0x{at + 4:x}", "reserved",
                                 f"{reserved}, not 0 (a reader taking the length as 32 bits "
                                 "would read another length)")
        text_end = PREFIX.size + length
        need = text_end + (AUDIO_HEADER.size if subtype == VOICED else 0)
        if need > entry.payload_size:
            raise self.file.fail(f"{name}@0x{at + 2:x}", "string_len",
                                 f"{length} bytes of text (and the audio header) run past "
                                 f"the {entry.payload_size}-byte payload")
        text = bytes(payload[PREFIX.size:text_end]).decode("latin-1")
        if subtype == TEXT:
            if entry.payload_size != text_end:
                raise self.file.fail(f"{name}@0x{at - 4:x}", "payload_size",
                                     f"{entry.payload_size}, but a text line of {length} bytes "
                                     f"has {text_end}")
            return RtxLine(entry.label, text)
        header_at = at + text_end
        header = parse_audio_header(bytes(payload[text_end:need]), self.source,
                                    f"{name}.audio", header_at, types=(0, 1))
        if need + header.data_length != entry.payload_size:
            raise self.file.fail(f"{name}.audio@0x{header_at + 22:x}", "audio_length",
                                 f"{header.data_length} bytes, but the payload holds "
                                 f"{entry.payload_size - need} after the header")
        pcm = decode_pcm(bytes(payload[need:]), header)
        return RtxLine(entry.label, text, header, pcm)

    def close(self) -> None:
        self.file.close()

    def __enter__(self) -> RtxFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["RtxFile", "RtxIndexEntry", "RtxLine", "label_key"]
