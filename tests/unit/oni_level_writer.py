"""A small writer of Oni level instance files (``.dat`` + ``.raw`` + ``.sep``) and the
two ADPCM encodings, for tests and benches.

It lays files out as OniSplit's ``InstanceFileWriter`` does for ``VR01`` (header,
20-byte descriptors, the name index and template tables, the data table aligned
to 32 bytes with each instance's 8-byte header, the name table after it), with
OSBD chunks in the .raw (PC) or .sep (Mac) and SNDD data in the .raw. The
encoders are plain MS ADPCM (predictor 0, as simple encoders do) and QuickTime
IMA4, enough to give the decoders real streams; they step through the decoder's own
tables (``soundscape.oni.sndd``), which the hand vectors in ``test_oni_level`` pin.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from soundscape.oni.sndd import IMA_INDEX, IMA_STEPS, MS_ADAPTATION

PC_CHECKSUM = 1052091763926815
MAC_CHECKSUM = 1052091493724257
VR01 = 0x56523031
SIGNATURE = 2251868534472768
COEFFICIENTS = ((256, 0), (512, -256), (0, 0), (192, 64), (240, 0), (460, -208), (392, -232))


def _clamp(v: int) -> int:
    return max(-32768, min(32767, v))


def encode_ms_adpcm(frames: np.ndarray, block_align: int = 512) -> bytes:
    """int16 (frames, channels) as MS ADPCM blocks (predictor 0, initial delta 16)."""
    channels = frames.shape[1]
    per_block = 2 + (block_align - 7 * channels) * 2 // channels
    out = bytearray()
    for start in range(0, frames.shape[0], per_block):
        chunk = frames[start:start + per_block]
        if chunk.shape[0] < 2:
            break
        s2 = [int(v) for v in chunk[0]]
        s1 = [int(v) for v in chunk[1]]
        delta = [16] * channels
        head = bytes([0] * channels) + struct.pack(f"<{channels}h", *delta)
        head += struct.pack(f"<{channels}h", *s1) + struct.pack(f"<{channels}h", *s2)
        codes = []
        for row in chunk[2:]:
            for c in range(channels):
                predictor = s1[c]  # coefficients (256, 0)
                code = max(-8, min(7, round((int(row[c]) - predictor) / delta[c])))
                sample = _clamp(predictor + code * delta[c])
                s2[c], s1[c] = s1[c], sample
                delta[c] = max(16, (MS_ADAPTATION[code & 0xF] * delta[c]) >> 8)
                codes.append(code & 0xF)
        if len(codes) % 2:
            codes.append(0)
        body = bytes((codes[i] << 4) | codes[i + 1] for i in range(0, len(codes), 2))
        out += (head + body).ljust(block_align, b"\0") if start + per_block < frames.shape[0] \
            else head + body
    return bytes(out)


def encode_ima4(frames: np.ndarray) -> bytes:
    """int16 (frames, channels) as QuickTime IMA4 packets (zero-padded to 64 frames)."""
    channels = frames.shape[1]
    pad = -frames.shape[0] % 64
    frames = np.vstack([frames, np.zeros((pad, channels), np.int16)])
    out = bytearray()
    state = [(0, 0)] * channels
    for start in range(0, frames.shape[0], 64):
        for c in range(channels):
            predictor, index = state[c]
            predictor &= ~0x7F
            out += struct.pack(">H", (predictor & 0xFF80) | index)
            codes = []
            for sample in frames[start:start + 64, c]:
                step = IMA_STEPS[index]
                diff = int(sample) - predictor
                code = 8 if diff < 0 else 0
                diff = abs(diff)
                if diff >= step:
                    code |= 4
                    diff -= step
                if diff >= step >> 1:
                    code |= 2
                    diff -= step >> 1
                if diff >= step >> 2:
                    code |= 1
                delta = step >> 3
                if code & 4:
                    delta += step
                if code & 2:
                    delta += step >> 1
                if code & 1:
                    delta += step >> 2
                predictor = _clamp(predictor - delta if code & 8 else predictor + delta)
                index = min(max(index + IMA_INDEX[code], 0), 88)
                codes.append(code)
            out += bytes(codes[i] | (codes[i + 1] << 4) for i in range(0, 64, 2))
            state[c] = (predictor, index)
    return bytes(out)


def pc_sndd(frames: np.ndarray, rate: int = 22050, *, block_align: int | None = None,
            fmt: int = 2, bits: int = 4, duration: int | None = None, flags: int = 8,
            coefficients: tuple[tuple[int, int], ...] = COEFFICIENTS,
            samples_per_block: int | None = None) -> tuple[bytes, bytes]:
    """(instance fields without the raw offset, encoded data) of a PC SNDD."""
    channels = frames.shape[1]
    if fmt == 1:
        data = frames.astype("<i2").tobytes() if bits == 16 else \
            ((frames.astype(np.int32) >> 8) + 128).astype(np.uint8).tobytes()
        align, spb, extra, coef = channels * bits // 8, 0, 0, b"\0" * 28
    else:
        align = block_align or 512 * channels
        spb = samples_per_block if samples_per_block is not None else \
            2 + (align - 7 * channels) * 2 // channels
        data = encode_ms_adpcm(frames, align)
        extra = 32
        coef = b"".join(struct.pack("<hh", *p) for p in coefficients).ljust(28, b"\0")
    ticks = duration if duration is not None else frames.shape[0] * 60 // rate
    per_second = rate * align // max(spb, 1) if rate else 0
    head = struct.pack("<iHHIIHHHHH28sh", flags, fmt, channels, rate, per_second,
                       align, bits, extra, spb, len(coefficients), coef, ticks)
    return head + struct.pack("<i", len(data)), data


def mac_sndd(frames: np.ndarray, *, flags: int | None = None,
             duration: int | None = None) -> tuple[bytes, bytes]:
    """(instance fields without the raw offset, encoded data) of a Mac SNDD."""
    data = encode_ima4(frames)
    f = (3 if frames.shape[1] == 2 else 1) if flags is None else flags
    ticks = duration if duration is not None else frames.shape[0] * 60 // 22050
    return struct.pack("<iii", f, ticks, len(data)), data


@dataclass
class Instance:
    tag: str
    name: str | None
    fields: bytes = b""
    raw: bytes | None = None
    """A part in the .raw (PC, or any SNDD) or .sep (a Mac OSBD), its offset appended."""
    placeholder: bool = False


@dataclass
class LevelWriter:
    """Collects instances, then ``write(path)`` writes the .dat, .raw and (Mac) .sep."""

    mac: bool = False
    instances: list[Instance] = field(default_factory=list)

    def add(self, tag: str, name: str | None, fields: bytes = b"", raw: bytes | None = None,
            **kw: object) -> Instance:
        inst = Instance(tag, name, fields, raw, **kw)  # type: ignore[arg-type]
        self.instances.append(inst)
        return inst

    def osbd(self, name: str, chunk: bytes) -> Instance:
        """An OSBD instance: size and offset of ``chunk`` in the .raw / .sep."""
        return self.add("OSBD", name, struct.pack("<I", len(chunk)), chunk)

    def build(self, *, checksum: int | None = None, version: int = VR01,
              signature: int = SIGNATURE, name_table_delta: int = 0,
              descriptor_patch: dict[int, tuple[int, int]] | None = None
              ) -> tuple[bytes, bytes, bytes]:
        """(.dat, .raw, .sep) bytes."""
        raw, sep = bytearray(b"\0" * 32), bytearray(b"\0" * 32)
        datas, names, name_at = [], bytearray(), {}
        for inst in self.instances:
            body = inst.fields
            if inst.raw is not None:
                part = sep if (self.mac and inst.tag == "OSBD") else raw
                part += b"\0" * (-len(part) % 32)
                body += struct.pack("<I", len(part))
                part += inst.raw
            datas.append(body)
            if inst.name is not None:
                name_at[id(inst)] = len(names)
                names += (inst.tag + inst.name).encode("latin-1") + b"\0"
        count = len(self.instances)
        tables = 64 + 20 * count
        data_at = -(-tables // 32) * 32
        data = bytearray()
        offsets = []
        for inst, body in zip(self.instances, datas, strict=True):
            if inst.placeholder:
                offsets.append((0, 0))
                continue
            data += b"\0" * (-len(data) % 32)
            offsets.append((len(data) + 8, len(body) + 8))
            data += struct.pack("<ii", 0x1000 + len(offsets), 1) + body
        names_at = -(-(data_at + len(data)) // 32) * 32
        descs = bytearray()
        for i, inst in enumerate(self.instances):
            flags = (0 if inst.name is not None else 1) | (2 if inst.placeholder else 0)
            at, size = offsets[i]
            if descriptor_patch and i in descriptor_patch:
                at, size = descriptor_patch[i]
            descs += struct.pack("<4siiiI", inst.tag.encode()[::-1], at,
                                 name_at.get(id(inst), 0), size, flags)
        chk = (MAC_CHECKSUM if self.mac else PC_CHECKSUM) if checksum is None else checksum
        header = struct.pack("<QIQ7i4i", chk, version, signature, count,
                             len(name_at), 0, data_at, len(data), names_at,
                             len(names) + name_table_delta, 0, 0, 0, 0)
        dat = bytearray(header + descs)
        dat += b"\0" * (data_at - len(dat)) + data
        dat += b"\0" * (names_at - len(dat)) + names
        return bytes(dat), bytes(raw), bytes(sep)

    def write(self, path: Path, **kw: object) -> Path:
        dat, raw, sep = self.build(**kw)  # type: ignore[arg-type]
        path.write_bytes(dat)
        path.with_suffix(".raw").write_bytes(raw)
        if self.mac:
            path.with_suffix(".sep").write_bytes(sep)
        return path
