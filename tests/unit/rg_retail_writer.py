"""A small writer of Redguard's retail files, for tests and benches.

It writes the layouts ``soundscape.redguard.sfx_file`` and ``rtx_file`` document:
MAIN.SFX (FXHD, FXDT with 27-byte effect headers and PCM, END), ENGLISH.RTX
(big-endian chunks, END, the index in descending payload order as the shipped
file has it, the RNAV footer), and SYSTEM.INI / SURFACE.INI text. Every header
field can be set, so tests reach each variant and each refusal.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

AUDIO = struct.Struct("<IIIBbIIIB")


@dataclass
class Audio:
    """One effect or voice: PCM plus every header field (defaults as shipped)."""

    pcm: np.ndarray
    sample_rate: int = 22050
    level: int = 64
    loop_flag: int = 0
    loop_offset: int = 0
    loop_end: int = 0xFFFFFFFF
    reserved: int = 0
    type_id: int | None = None
    bit_depth: int | None = None
    data_length: int | None = None

    def pcm_bytes(self) -> bytes:
        if self.pcm.dtype == np.int16:
            return self.pcm.astype("<i2").tobytes()
        return self.pcm.astype(np.uint8).tobytes()

    def header(self) -> bytes:
        stereo = self.pcm.ndim == 2
        wide = self.pcm.dtype == np.int16
        type_id = (2 if stereo else 0) + (1 if wide else 0)
        return AUDIO.pack(
            type_id if self.type_id is None else self.type_id,
            int(wide) if self.bit_depth is None else self.bit_depth,
            self.sample_rate, self.level, self.loop_flag, self.loop_offset, self.loop_end,
            len(self.pcm_bytes()) if self.data_length is None else self.data_length,
            self.reserved)

    def bytes(self) -> bytes:
        return self.header() + self.pcm_bytes()


def tone(frames: int, seed: int = 0, *, bits: int = 16, stereo: bool = False) -> np.ndarray:
    """Deterministic PCM: a ramp with a seed offset (int16 or uint8, mono or stereo)."""
    base = (np.arange(frames * (2 if stereo else 1)) * 37 + seed * 101)
    pcm = (base % 65536 - 32768).astype(np.int16) if bits == 16 else (base % 256).astype(np.uint8)
    return pcm.reshape(-1, 2) if stereo else pcm


def sfx_bytes(effects: list[Audio], *, description: bytes = b"SoupFX", count: int | None = None,
              fxhd_size: int = 36, fxdt_size_delta: int = 0, end: bytes = b"END ",
              tags: tuple[bytes, bytes] = (b"FXHD", b"FXDT")) -> bytes:
    body = b"".join(e.bytes() for e in effects)
    out = tags[0] + struct.pack(">I", fxhd_size) + description.ljust(32, b"\0")[:32]
    out += struct.pack("<I", len(effects) if count is None else count)
    out += tags[1] + struct.pack(">I", len(body) + fxdt_size_delta) + body
    return out + end


@dataclass
class Line:
    """One RTX entry: a 4-byte label, its text, and audio for a voiced line."""

    label: bytes
    text: bytes
    audio: Audio | None = None
    kind: int = 0
    subtype: int | None = None
    reserved: int = 0
    string_len: int | None = None

    def payload(self) -> bytes:
        subtype = (1 if self.audio is not None else 0) if self.subtype is None else self.subtype
        length = len(self.text) if self.string_len is None else self.string_len
        out = struct.pack("<BBHH", self.kind, subtype, length, self.reserved) + self.text
        return out + (self.audio.bytes() if self.audio is not None else b"")


@dataclass
class RtxWriter:
    """Collects lines, then ``build()`` returns the whole file."""

    lines: list[Line] = field(default_factory=list)
    descending: bool = True
    """Index entries by descending payload offset, as in the shipped file."""

    def add(self, label: bytes, text: bytes, audio: Audio | None = None, **kw: object) -> Line:
        line = Line(label, text, audio, **kw)  # type: ignore[arg-type]
        self.lines.append(line)
        return line

    def build(self, *, size_delta: dict[bytes, int] | None = None,
              index_size_delta: dict[bytes, int] | None = None,
              chunk_tag: dict[bytes, bytes] | None = None, footer: bytes = b"RNAV",
              index_offset_delta: int = 0, count_delta: int = 0) -> bytes:
        out = bytearray()
        index = []
        for line in self.lines:
            payload = line.payload()
            size = len(payload) + (size_delta or {}).get(line.label, 0)
            tag = (chunk_tag or {}).get(line.label, line.label)
            out += tag + struct.pack(">I", size)
            index.append((line.label, len(out),
                          len(payload) + (index_size_delta or {}).get(line.label, 0)))
            out += payload
        out += b"END "
        index_at = len(out)
        for label, at, size in (reversed(index) if self.descending else index):
            out += label + struct.pack("<II", at, size)
        out += footer + struct.pack("<II", index_at + index_offset_delta,
                                    len(index) + count_delta)
        return bytes(out)


SYSTEM_INI = """[screen]
candle_mode=2

[system]
volume={volume}
sound=1
sound_distance={sound_distance}
rtx_filename={rtx}
animation_drive=D:\\
world_ini=WORLD.INI

[debug]
final_version=1

[dialog]
menu_start_x=35
dialog_max_menu_items={menu_items}
dialog_max_dialog_lines={lines}
dialog_max_text_width={width}
dialog_print_text={print_text}
dialog_use_speech={speech}
dialog_max_distance={distance}
menu_traverse_delay={delay}
"""


def system_ini(**values: object) -> str:
    """SYSTEM.INI text with the sound and dialogue keys (shipped values by default)."""
    defaults: dict[str, object] = dict(volume=255, sound_distance=64, rtx="ENGLISH.RTX",
                                       menu_items=20, lines=20, width=500, print_text=1,
                                       speech=1, distance=1600, delay=4)
    return SYSTEM_INI.format(**{**defaults, **values})


SURFACE_INI = """[surfaces]
302, all, SAND
302, 5, WATER

[unknown]

[water]
4 = 69

[sand]
4 = 108

[wood]
4 = 89
"""


def game_folder(root: Path, effects: list[Audio], rtx: RtxWriter, *, system: str | None = None,
                surface: str = SURFACE_INI, sound_dir: str = "SOUND") -> Path:
    """A folder laid out as the retail game's: SYSTEM.INI, SURFACE.INI, ENGLISH.RTX,
    SOUND/MAIN.SFX."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "SYSTEM.INI").write_text(system if system is not None else system_ini(),
                                     encoding="latin-1")
    (root / "surface.ini").write_text(surface, encoding="latin-1")
    (root / "ENGLISH.RTX").write_bytes(rtx.build())
    (root / sound_dir).mkdir(exist_ok=True)
    (root / sound_dir / "MAIN.SFX").write_bytes(sfx_bytes(effects))
    return root
