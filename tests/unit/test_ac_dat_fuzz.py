"""Property-based fuzzing of the AC dat readers: whatever the bytes, only DataError or
InputError escapes (no struct.error, IndexError, MemoryError, RecursionError, hang or
RuntimeWarning). Deterministic (derandomize, no example database) and bounded.

The mutator is a small local one; issue 13's shared ``loader_fuzz`` helpers can
replace it once they land.
"""

from __future__ import annotations

import contextlib
import math
import struct
from datetime import timedelta

from ac_dat_writer import (
    DatWriter,
    RegionSpec,
    StbDesc,
    landblock_bytes,
    region_bytes,
    sound_table_bytes,
    wave_bytes,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from soundscape.ac.dat_file import DatFile
from soundscape.ac.dat_landblock import landblock_id, parse_landblock
from soundscape.ac.dat_object import DatObject
from soundscape.ac.dat_region import REGION_ID, parse_region
from soundscape.ac.dat_sound import parse_sound_table, parse_wave
from soundscape.errors import DataError, InputError

FUZZ = settings(max_examples=120, derandomize=True, database=None,
                deadline=timedelta(milliseconds=1000),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])
TOKENS = [struct.pack("<I", v & 0xFFFFFFFF) for v in
          (0, 1, 2, 4, 61, 62, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, -8,
           0x190, 0x13000000)]
TOKENS += [struct.pack("<f", v) for v in (math.nan, math.inf, -1.0, 3.4e38)]
TOKENS += [b"\xff\xff", b"\x00" * 32, b"\xff" * 32, b"\xcd" * 8]

REGION = region_bytes(RegionSpec(
    stb=[StbDesc(0x20000001, [(0x46, 0.5, 0.0, 2.0, 2.0), (0x47, 0.4, 0.3, 1.0, 5.0)])],
    scenes=[(0, [0x12000001]), (0xFFFFFFFF, [])],
    terrain=[("Rock", 1, [0, 1]), ("Grass", 2, [0xFFFFFFFF])]))
TABLE = sound_table_bytes(0x20000001, [(0x46, [(0x0A000001, 1, 1, 1)], [(9, [], [])])])
WAVE = wave_bytes(0x0A000001, [0, 1000, -1000, 20])
BLOCK = landblock_bytes(3, 4, list(range(81)), [i % 7 for i in range(81)])
PARSERS = {REGION_ID: parse_region, 0x20000001: parse_sound_table, 0x0A000001: parse_wave,
           landblock_id(3, 4): parse_landblock}


@st.composite
def mutated(draw, seed: bytes) -> bytes:
    data = bytearray(seed)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(("flip", "token", "token", "insert", "delete",
                                     "truncate")))
        at = draw(st.integers(0, len(data)))
        if kind == "flip" and data:
            data[min(at, len(data) - 1)] ^= 1 << draw(st.integers(0, 7))
        elif kind == "token":
            token = draw(st.sampled_from(TOKENS))
            if draw(st.booleans()):
                data[at : at + len(token)] = token
            else:
                data[at:at] = token
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=16))
        elif kind == "delete":
            del data[at : at + draw(st.integers(1, 32))]
        else:
            del data[at:]
    return bytes(data)


def _only_loader_errors(call) -> None:
    """Run ``call``; a loader error is fine, anything else fails the example."""
    with contextlib.suppress(DataError, InputError):
        call()


def _objects():
    return st.sampled_from([(REGION_ID, REGION), (0x20000001, TABLE), (0x0A000001, WAVE),
                            (landblock_id(3, 4), BLOCK)])


@FUZZ
@given(data=st.data())
def test_fuzz_objects(data):
    file_id, seed = data.draw(_objects())
    blob = data.draw(mutated(seed))
    _only_loader_errors(lambda: PARSERS[file_id](DatObject("f.dat", file_id, blob, (), 0)))


def _dat(compressed: bool) -> bytes:
    writer = DatWriter(block_size=48, fanout=2, free_every=2)
    writer.add(REGION_ID, REGION, compressed=compressed)
    writer.add(0x20000001, TABLE)
    writer.add(0x0A000001, WAVE)
    writer.add(landblock_id(3, 4), BLOCK)
    return writer.build()


DATS = [_dat(False), _dat(True)]


@FUZZ
@given(data=st.data())
def test_fuzz_whole_dat_files(tmp_path, data):
    blob = data.draw(mutated(data.draw(st.sampled_from(DATS))))
    path = tmp_path / "client_portal.dat"
    path.write_bytes(blob)

    def walk() -> None:
        with DatFile(path) as dat:
            for entry in dat.entries():
                obj = dat.read_entry(entry)
                parse = PARSERS.get(entry.file_id)
                if parse is not None:
                    _only_loader_errors(lambda p=parse, o=obj: p(o))
            for file_id in PARSERS:
                dat.find(file_id)

    _only_loader_errors(walk)
