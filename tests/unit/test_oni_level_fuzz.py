"""Property-based fuzzing of the Oni level readers (the .dat tables, OSBD through the
.raw/.sep, SNDD fields and both ADPCM decoders) and the OSBD XML reader: whatever the
bytes, only DataError or InputError escapes. Deterministic and bounded, like the AC dat
fuzz test."""

from __future__ import annotations

import struct
from datetime import timedelta

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from loader_fuzz import FUZZ as LOADER_FUZZ
from loader_fuzz import mutated as fuzz_mutated
from loader_fuzz import only_loader_errors
from oni_level_writer import LevelWriter, mac_sndd, pc_sndd
from test_oni_osbd import sample_ambient, sample_group
from test_oni_osbd_xml import ambient_xml, group_xml

from soundscape.oni.data import Impulse
from soundscape.oni.level_file import OniLevelFile
from soundscape.oni.osbd import write_chunk
from soundscape.oni.osbd_xml import parse_osbd_xml

FUZZ = settings(LOADER_FUZZ, deadline=timedelta(milliseconds=2000))
TOKENS = [struct.pack("<I", v & 0xFFFFFFFF) for v in
          (0, 1, 2, 3, 7, 8, 20, 32, 64, 512, 0xFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, -8)]
TOKENS += [b"DBSO", b"DDNS", b"VR01", b"\xff\xff", b"\x00" * 20, b"\xff" * 20]
TONE = (np.sin(np.arange(300) / 7) * 8000).astype(np.int16)[:, None]


def _files(mac: bool) -> tuple[bytes, bytes, bytes]:
    w = LevelWriter(mac=mac)
    w.osbd("g.grp", write_chunk(sample_group()))
    w.osbd("i.imp", write_chunk(Impulse("i", group_name="grp", version=6)))
    fields, data = mac_sndd(TONE) if mac else pc_sndd(TONE, block_align=64)
    w.add("SNDD", "ac5lp1.aif", fields, data)
    w.add("TXMP", None, b"\0" * 8)
    w.add("SNDD", "away", placeholder=True)
    return w.build()


SEEDS = {False: _files(False), True: _files(True)}


def mutated(seed: bytes) -> st.SearchStrategy[bytes]:
    """``seed`` mutated by the shared loader fuzz mutator with this format's tokens."""
    return fuzz_mutated(seed, TOKENS)


@FUZZ
@given(data=st.data())
def test_fuzz_level_files(tmp_path, data):
    mac = data.draw(st.booleans())
    which = data.draw(st.sampled_from((0, 1, 2)))
    files = list(SEEDS[mac])
    files[which] = data.draw(mutated(files[which]))
    path = tmp_path / "level1_Final.dat"
    path.write_bytes(files[0])
    path.with_suffix(".raw").write_bytes(files[1])
    path.with_suffix(".sep").write_bytes(files[2])

    def walk() -> None:
        with OniLevelFile(path) as level:
            only_loader_errors(level.read_osbd)
            for name in list(level.sndd) + ["ac5lp1", "none"]:
                only_loader_errors(lambda n=name: level.read_sound(n))

    only_loader_errors(walk)


XML = [group_xml(sample_group()).encode(), ambient_xml(sample_ambient()).encode()]


@FUZZ
@given(data=st.data())
def test_fuzz_osbd_xml(data):
    blob = data.draw(mutated(data.draw(st.sampled_from(XML))))
    only_loader_errors(lambda: parse_osbd_xml(blob.decode("latin-1"), name="OSBDx.grp"))
