"""SNDD instances: Oni's sound data, decoded to 16-bit samples (PC MS ADPCM, Mac IMA4).

Layouts, as the community documents them:

* OniSplit (``Paradox-01/OniSplit_v0.9.99.2_DX``): ``Oni.Metadata/OniPcMetadata.cs``
  and ``OniMacMetadata.cs`` (the ``SNDDInstance`` structs), ``Oni.Sound/SoundData.cs``
  (``SoundData.Read``), ``Oni.Sound/WavExporter.cs`` and ``Oni/InstanceFileWriter.cs``
  (``ConvertSNDDHack``, a Mac SNDD rewritten as a PC one);
* the Oni wiki (OniGalore) ``OBD:SNDD`` and ``OBD:SNDD_Mac``: PC sounds are
  Microsoft ADPCM (FFmpeg ``adpcm_ms``), Mac sounds QuickTime IMA4
  (``adpcm_ima_qt``), both described at wiki.multimedia.cx.

PC retail (after the 8-byte instance header, 64 bytes): ``int32`` header size (8
shipped), then a ``WAVEFORMATEX`` without its tag (format, channels, rate, bytes a
second, block align, bits a sample, extra size), the MS ADPCM extra (samples a
block, coefficient count, 7 coefficient pairs), ``int16`` duration (1/60 s),
``int32`` data size, ``int32`` offset in the .raw. Mac (16 bytes): ``int32``
flags (1 mono, 3 stereo: channels ``(flags >> 1) + 1``), ``int32`` duration (1/60
s), ``int32`` data size, ``int32`` offset in the .raw; no rate is stored and
OniSplit takes 22,050 Hz.

MS ADPCM: a block per ``block_align`` bytes; per channel a predictor index, a
16-bit delta and two 16-bit history samples (the second-older first out), then
4-bit codes, high nibble first, channels interleaved; the prediction is
``(s1 x c1 + s2 x c2) / 256`` truncated toward zero as in C. IMA4: 34-byte packets per
channel (stereo alternates left and right packets), a big-endian word whose top
9 bits are the predictor and low 7 bits the step index, then 64 codes, low
nibble first.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

import numpy as np

from soundscape.errors import DataError

PC_SNDD = struct.Struct("<iHHIIHHHHH28shiI")
"""header size, format, channels, rate, bytes/s, block align, bits, extra size,
samples/block, coefficient count, 7 coefficient pairs, duration, data size, raw offset."""
MAC_SNDD = struct.Struct("<iiiI")
"""flags, duration, data size, raw offset."""
FORMAT_PCM, FORMAT_MS_ADPCM = 1, 2
MAC_RATE_HZ = 22050
MS_ADAPTATION = (230, 230, 230, 230, 307, 409, 512, 614, 768, 614, 512, 409, 307, 230, 230, 230)
IMA_INDEX = (-1, -1, -1, -1, 2, 4, 6, 8, -1, -1, -1, -1, 2, 4, 6, 8)
IMA_STEPS = (
    7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 19, 21, 23, 25, 28, 31, 34, 37, 41, 45, 50, 55, 60,
    66, 73, 80, 88, 97, 107, 118, 130, 143, 157, 173, 190, 209, 230, 253, 279, 307, 337, 371,
    408, 449, 494, 544, 598, 658, 724, 796, 876, 963, 1060, 1166, 1282, 1411, 1552, 1707,
    1878, 2066, 2272, 2499, 2749, 3024, 3327, 3660, 4026, 4428, 4871, 5358, 5894, 6484, 7132,
    7845, 8630, 9493, 10442, 11487, 12635, 13899, 15289, 16818, 18500, 20350, 22385, 24623,
    27086, 29794, 32767)
IMA4_PACKET = 34
IMA4_SAMPLES = 64


@dataclass(frozen=True, slots=True)
class SnddHeader:
    """One SNDD instance's fields (PC or Mac) and where its data lies in the .raw.

    Attributes:
        codec: ``"pcm"``, ``"ms_adpcm"`` (PC) or ``"ima4"`` (Mac).
        channels / sample_rate_hz: 1 or 2; the rate (22,050 on the Mac).
        duration_ticks: the stored duration in 1/60 s.
        data_size / raw_offset: the encoded bytes in the .raw.
        block_align / samples_per_block / bits / coefficients: PC only.
        flags: the Mac flags word (PC: the header-size word).
    """

    codec: str
    channels: int
    sample_rate_hz: int
    duration_ticks: int
    data_size: int
    raw_offset: int
    flags: int = 0
    block_align: int = 0
    samples_per_block: int = 0
    bits: int = 16
    coefficients: tuple[tuple[int, int], ...] = ()


def parse_pc(data: bytes, source: str, record: str) -> SnddHeader:
    """A PC retail SNDD (the 64 bytes after the instance header).

    Raises:
        DataError: too short, a format other than PCM or MS ADPCM, bad channels,
            rate, block or coefficients (names the field).
    """
    if len(data) < PC_SNDD.size:
        raise DataError(source, record, "size", f"{len(data)} bytes; a PC SNDD has {PC_SNDD.size}")
    (flags, fmt, channels, rate, _bps, align, bits, extra, spb, ncoef, coefs, duration,
     size, offset) = PC_SNDD.unpack_from(data)
    if channels not in (1, 2):
        raise DataError(source, record, "channels", f"{channels}, not 1 or 2")
    if not 0 < rate <= 192000:
        raise DataError(source, record, "sample_rate", f"{rate} Hz is not a playable rate")
    if size < 0:
        raise DataError(source, record, "data_size", f"{size} is negative")
    if fmt == FORMAT_PCM:
        if bits not in (8, 16):
            raise DataError(source, record, "bits_per_sample", f"{bits}: PCM must be 8 or 16")
        return SnddHeader("pcm", channels, rate, duration, size, offset, flags, align, 0, bits)
    if fmt != FORMAT_MS_ADPCM:
        raise DataError(source, record, "format", f"{fmt} is neither 1 (PCM) nor 2 (MS ADPCM); "
                                                  "other WAVE formats are not documented for Oni")
    if extra < 4 or not 1 <= ncoef <= 7:
        raise DataError(source, record, "coefficient_count",
                        f"{ncoef} coefficients ({extra} extra bytes): MS ADPCM needs 1..7")
    if align < 7 * channels or spb != 2 + (align - 7 * channels) * 2 // channels:
        raise DataError(source, record, "samples_per_block",
                        f"{spb} samples in a {align}-byte block of {channels} channel(s) "
                        f"(MS ADPCM has {2 + (max(align - 7 * channels, 0)) * 2 // channels})")
    pairs = struct.unpack_from(f"<{2 * ncoef}h", coefs)
    coefficients = tuple(zip(pairs[0::2], pairs[1::2], strict=True))
    return SnddHeader("ms_adpcm", channels, rate, duration, size, offset, flags, align, spb, 4,
                      coefficients)


def parse_mac(data: bytes, source: str, record: str) -> SnddHeader:
    """A Mac SNDD (the 16 bytes after the instance header).

    Raises:
        DataError: too short, or flags other than 1 (mono) and 3 (stereo).
    """
    if len(data) < MAC_SNDD.size:
        raise DataError(source, record, "size",
                        f"{len(data)} bytes; a Mac SNDD has {MAC_SNDD.size}")
    flags, duration, size, offset = MAC_SNDD.unpack_from(data)
    if flags not in (1, 3):
        raise DataError(source, record, "flags", f"{flags}: neither 1 (mono) nor 3 (stereo); "
                                                 "other values are not documented")
    if size < 0:
        raise DataError(source, record, "data_size", f"{size} is negative")
    return SnddHeader("ima4", (flags >> 1) + 1, MAC_RATE_HZ, duration, size, offset, flags)


def decode(header: SnddHeader, data: bytes, source: str, record: str) -> np.ndarray:
    """The samples as int16, shape (frames, channels)."""
    if header.codec == "pcm":
        if header.bits == 16:
            usable = len(data) - len(data) % (2 * header.channels)
            pcm = np.frombuffer(data[:usable], dtype="<i2").astype(np.int16)
        else:
            usable = len(data) - len(data) % header.channels
            pcm = ((np.frombuffer(data[:usable], dtype=np.uint8).astype(np.int16) - 128) << 8)
            pcm = pcm.astype(np.int16)
        return pcm.reshape(-1, header.channels)
    if header.codec == "ms_adpcm":
        return decode_ms_adpcm(data, header.channels, header.block_align,
                               header.coefficients, source, record)
    return decode_ima4(data, header.channels, source, record)


def _clamp16(value: int) -> int:
    return -32768 if value < -32768 else 32767 if value > 32767 else value


def decode_ms_adpcm(data: bytes, channels: int, block_align: int,
                    coefficients: tuple[tuple[int, int], ...], source: str = "SNDD",
                    record: str = "data") -> np.ndarray:
    """Microsoft ADPCM blocks to int16 frames (a short last block decodes what it holds).

    Raises:
        DataError: a block's predictor index is outside the coefficient table.
    """
    out: list[int] = []
    head = 7 * channels
    for start in range(0, len(data), block_align):
        block = data[start:start + block_align]
        if len(block) < head:
            break  # a tail too short for a block header holds no samples
        coef1, coef2, delta, s1, s2 = [], [], [], [], []
        for c in range(channels):
            index = block[c]
            if index >= len(coefficients):
                raise DataError(source, record, f"block@0x{start:x}.predictor",
                                f"{index} is outside the {len(coefficients)} coefficients")
            coef1.append(coefficients[index][0])
            coef2.append(coefficients[index][1])
        delta = list(struct.unpack_from(f"<{channels}h", block, channels))
        s1 = list(struct.unpack_from(f"<{channels}h", block, 3 * channels))
        s2 = list(struct.unpack_from(f"<{channels}h", block, 5 * channels))
        out.extend(s2)
        out.extend(s1)
        c = 0
        for byte in block[head:]:
            for code in (byte >> 4, byte & 0x0F):
                total = s1[c] * coef1[c] + s2[c] * coef2[c]
                predictor = total >> 8 if total >= 0 else -((-total) >> 8)  # C's / 256
                signed = code - 16 if code & 8 else code
                sample = _clamp16(predictor + signed * delta[c])
                s2[c], s1[c] = s1[c], sample
                delta[c] = max(16, (MS_ADAPTATION[code] * delta[c]) >> 8)
                out.append(sample)
                c = (c + 1) % channels
    frames = len(out) // channels
    return np.array(out[: frames * channels], dtype=np.int16).reshape(frames, channels)


def decode_ima4(data: bytes, channels: int, source: str = "SNDD",
                record: str = "data") -> np.ndarray:
    """QuickTime IMA4 packets to int16 frames (whole packets only; a partial tail is dropped)."""
    stride = IMA4_PACKET * channels
    groups = len(data) // stride
    out = np.zeros((groups * IMA4_SAMPLES, channels), dtype=np.int16)
    for g in range(groups):
        for c in range(channels):
            at = g * stride + c * IMA4_PACKET
            word = (data[at] << 8) | data[at + 1]
            predictor = word & 0xFF80
            predictor = predictor - 0x10000 if predictor & 0x8000 else predictor
            index = min(word & 0x7F, 88)
            row = g * IMA4_SAMPLES
            for i, byte in enumerate(data[at + 2: at + IMA4_PACKET]):
                for k, code in enumerate((byte & 0x0F, byte >> 4)):
                    step = IMA_STEPS[index]
                    diff = step >> 3
                    if code & 4:
                        diff += step
                    if code & 2:
                        diff += step >> 1
                    if code & 1:
                        diff += step >> 2
                    predictor = _clamp16(predictor - diff if code & 8 else predictor + diff)
                    index = min(max(index + IMA_INDEX[code], 0), 88)
                    out[row + 2 * i + k, c] = predictor
    return out


__all__ = ["SnddHeader", "decode", "decode_ima4", "decode_ms_adpcm", "parse_mac", "parse_pc"]
