"""MAIN.SFX, the retail effect bank, read lazily; and the 27-byte audio header RTX shares.

Layout, from the public preservation documentation and readers:

* michidk/redguard-preservation ``docs/formats/SFX.md`` (the format page) and its
  reader ``src/import/sfx.rs`` (``parse_sfx_file``);
* RGUnity/redguard-unity ``Assets/Scripts/RGFileImport/RGGFXImport/RGSFXFile.cs``
  (``SFXSectionHeader``, ``FXHDSection``, ``SoundEffect``);
* UESP ``Mod:SFX File`` (cited by the format page).

``FXHD``: the tag, a big-endian section size (36: what follows the size), a
32-byte description ("SoupFX"), a little-endian effect count (118 shipped).
``FXDT``: the tag, a big-endian section size, then the effects in sequence (no
offset table; scripts name an effect by its 0-based place). ``END `` follows.
An effect is a 27-byte header (``AUDIO_HEADER``, little-endian: type 0 8-bit
mono / 1 16-bit mono / 2 8-bit stereo / 3 16-bit stereo, bit depth 0 8-bit / 1
16-bit, sample rate, the base-volume byte at 0x0C, the signed loop flag at 0x0D,
loop offset, loop end, data length, a pad byte) followed by that many bytes of
PCM (unsigned 8-bit, or signed 16-bit little-endian; stereo interleaved).

Opening reads the two section headers and the 118 effect headers (27 bytes
each, skipping the PCM between them); ``read_pcm`` reads one effect's samples
when it first plays (``EffectBank.attach``). Checks the public readers do not
make, each a ``DataError`` naming the file, the offset and the field: the
bit-depth word must agree with the type (the readers trust the type and ignore
it; which the engine trusts is not documented), the data length must hold whole
frames, effects must end exactly where ``FXDT`` does and ``END `` must follow.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from soundscape.binfile import BinFile
from soundscape.errors import DataError

AUDIO_HEADER = struct.Struct("<IIIBbIIIB")
"""type_id, bit_depth, sample_rate, level (0x0C), loop_flag (0x0D, i8), loop_offset,
loop_end, data_length, reserved (0x1A): 27 bytes."""
TYPE_NAMES = {0: "8-bit mono", 1: "16-bit mono", 2: "8-bit stereo", 3: "16-bit stereo"}
FXHD = struct.Struct(">4sI32s")
FXHD_SIZE = 36
"""The FXHD section size: the description and the count."""
FXDT_AT = 44
SECTION = struct.Struct(">4sI")
EFFECTS_AT = FXDT_AT + SECTION.size
END_TAG = b"END "


@dataclass(frozen=True, slots=True)
class AudioHeader:
    """The 27-byte audio header of an SFX effect or an RTX voice entry.

    Attributes:
        type_id: 0 8-bit mono, 1 16-bit mono, 2 8-bit stereo, 3 16-bit stereo.
        bit_depth: 0 8-bit, 1 16-bit (agrees with ``type_id``).
        sample_rate_hz: the rate the effect starts at before a rate offset.
        level: byte 0x0C (SFX: the base volume FlatSound adds to, 64 shipped;
            RTX: the speech volume, 100 shipped).
        loop_flag: byte 0x0D, signed; any non-zero value loops (0, -1, -31 shipped).
        loop_offset / loop_end: 0 and 0xFFFFFFFF in every shipped header; unused.
        data_length: PCM bytes after the header.
        reserved: byte 0x1A (0 shipped).
    """

    type_id: int
    bit_depth: int
    sample_rate_hz: int
    level: int
    loop_flag: int
    loop_offset: int
    loop_end: int
    data_length: int
    reserved: int

    @property
    def channels(self) -> int:
        return 2 if self.type_id >= 2 else 1

    @property
    def sample_bits(self) -> int:
        return 16 if self.type_id in (1, 3) else 8

    @property
    def frame_bytes(self) -> int:
        return self.channels * self.sample_bits // 8

    @property
    def frames(self) -> int:
        return self.data_length // self.frame_bytes


def parse_audio_header(raw: bytes, source: str, record: str, at: int,
                       types: tuple[int, ...] = (0, 1, 2, 3)) -> AudioHeader:
    """The header in ``raw`` (27 bytes read at file offset ``at``), checked.

    Raises:
        DataError: an unknown type, a bit depth that disagrees with it, a zero
            rate, or a data length that is not whole frames (names ``record``
            and the field's file offset).
    """
    header = AudioHeader(*AUDIO_HEADER.unpack(raw))

    def fail(field: str, offset: int, problem: str) -> DataError:
        return DataError(source, f"{record}@0x{at + offset:x}", field, problem)

    if header.type_id not in types:
        known = ", ".join(f"{t} {TYPE_NAMES[t]}" for t in types)
        raise fail("type_id", 0, f"{header.type_id} is not a known audio type ({known})")
    if header.bit_depth != (1 if header.sample_bits == 16 else 0):
        raise fail("bit_depth", 4, f"{header.bit_depth} disagrees with type {header.type_id} "
                                   f"({TYPE_NAMES[header.type_id]}): which one the engine "
                                   "trusts is not documented")
    if header.sample_rate_hz == 0 or header.sample_rate_hz > 0x7FFFFFFF:
        raise fail("sample_rate", 8, f"{header.sample_rate_hz} Hz is not a playable rate")
    if header.data_length == 0 or header.data_length % header.frame_bytes:
        raise fail("data_length", 22, f"{header.data_length} bytes is not a whole, non-zero "
                                      f"number of {header.frame_bytes}-byte frames")
    return header


def decode_pcm(data: bytes, header: AudioHeader) -> np.ndarray:
    """The PCM as the Miles path keeps it: uint8 or int16, mono 1-D or (frames, 2)."""
    pcm: np.ndarray
    if header.sample_bits == 16:
        pcm = np.frombuffer(data, dtype="<i2").astype(np.int16)
    else:
        pcm = np.frombuffer(data, dtype=np.uint8).copy()
    return pcm.reshape(-1, 2) if header.channels == 2 else pcm


@dataclass(frozen=True, slots=True)
class SfxEntry:
    """One effect's header and where it lies in the file."""

    index: int
    header: AudioHeader
    header_at: int

    @property
    def data_at(self) -> int:
        return self.header_at + AUDIO_HEADER.size


class SfxFile:
    """MAIN.SFX opened: its description, effect headers and lazily read PCM.

    Raises:
        DataError: unreadable, or a bad section or effect header (file, offset, field).
    """

    def __init__(self, path: str | Path) -> None:
        self.file = BinFile(path)
        self.source = self.file.source
        try:
            self.description, self.entries, self.fxdt_size = self._scan()
        except BaseException:
            self.file.close()
            raise

    @property
    def count(self) -> int:
        return len(self.entries)

    def _scan(self) -> tuple[str, tuple[SfxEntry, ...], int]:
        f = self.file
        if f.size_bytes < EFFECTS_AT:
            raise f.fail("FXHD@0x0", None, f"file is {f.size_bytes} bytes, shorter than the "
                                           f"{EFFECTS_AT}-byte FXHD and FXDT headers")
        head = f.read_at(0, EFFECTS_AT, "FXHD@0x0")
        tag, size, text = FXHD.unpack_from(head)
        if tag != b"FXHD":
            raise f.fail("FXHD@0x0", "tag", f"{tag!r}, not b'FXHD': not a Redguard SFX file")
        if size != FXHD_SIZE:
            raise f.fail("FXHD@0x4", "section_size", f"{size}, not {FXHD_SIZE} (big-endian)")
        count = struct.unpack_from("<I", head, 40)[0]
        tag, fxdt_size = SECTION.unpack_from(head, FXDT_AT)
        if tag != b"FXDT":
            raise f.fail(f"FXDT@0x{FXDT_AT:x}", "tag", f"{tag!r}, not b'FXDT'")
        end = EFFECTS_AT + fxdt_size
        if end + len(END_TAG) > f.size_bytes:
            raise f.fail(f"FXDT@0x{FXDT_AT + 4:x}", "section_size",
                         f"{fxdt_size} bytes (big-endian) and the END tag run past the end "
                         f"of the file ({f.size_bytes} bytes)")
        if count > fxdt_size // AUDIO_HEADER.size:
            raise f.fail("FXHD@0x28", "effect_count",
                         f"{count} effects cannot fit in the {fxdt_size}-byte FXDT section")
        entries = []
        at = EFFECTS_AT
        for index in range(count):
            record = f"FXDT.effect[{index}]"
            if at + AUDIO_HEADER.size > end:
                raise f.fail(f"{record}@0x{at:x}", "header",
                             f"27 bytes run past the FXDT section's end at 0x{end:x}")
            raw = f.read_at(at, AUDIO_HEADER.size, f"{record}@0x{at:x}", "header")
            header = parse_audio_header(raw, self.source, record, at)
            if at + AUDIO_HEADER.size + header.data_length > end:
                raise f.fail(f"{record}@0x{at + 22:x}", "data_length",
                             f"{header.data_length} bytes run past the FXDT section's end "
                             f"at 0x{end:x}")
            entries.append(SfxEntry(index, header, at))
            at += AUDIO_HEADER.size + header.data_length
        if at != end:
            raise f.fail(f"FXDT@0x{FXDT_AT + 4:x}", "section_size",
                         f"{fxdt_size} bytes, but the {count} effects end at 0x{at:x}, "
                         f"not 0x{end:x}")
        tail = f.read_at(end, len(END_TAG), f"END@0x{end:x}", "tag")
        if tail != END_TAG:
            raise f.fail(f"END@0x{end:x}", "tag", f"{tail!r}, not b'END '")
        return text.split(b"\0", 1)[0].decode("latin-1"), tuple(entries), fxdt_size

    def read_pcm(self, index: int) -> np.ndarray:
        """Effect ``index``'s samples, read from the file now (``decode_pcm``)."""
        entry = self.entries[index]
        data = self.file.read_at(entry.data_at, entry.header.data_length,
                                 f"FXDT.effect[{index}]@0x{entry.data_at:x}", "pcm")
        return decode_pcm(data, entry.header)

    def close(self) -> None:
        self.file.close()

    def __enter__(self) -> SfxFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["AUDIO_HEADER", "AudioHeader", "SfxEntry", "SfxFile", "decode_pcm",
           "parse_audio_header"]
