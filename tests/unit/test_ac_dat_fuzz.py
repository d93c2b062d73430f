"""Property-based fuzzing of the AC dat readers: whatever the bytes, only DataError or
InputError escapes (no struct.error, IndexError, MemoryError, RecursionError, hang or
RuntimeWarning). Deterministic (derandomize, no example database) and bounded.

The settings, mutator and property are issue 13's shared ``loader_fuzz`` helpers, with
tokens of the dat formats. The last test runs the AC runtime on a mutated pair of dats:
``load_dat`` refuses with a loader error or loads, and then a listener walking across
the landblocks (read lazily inside ``esper.process``) never makes ``esper.process`` raise.
"""

from __future__ import annotations

import math
import struct

from ac_dat_writer import (
    DatWriter,
    RegionSpec,
    StbDesc,
    landblock_bytes,
    region_bytes,
    sound_table_bytes,
    wave_bytes,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from loader_fuzz import FUZZ, only_loader_errors
from loader_fuzz import mutated as fuzz_mutated

from soundscape.ac.dat_file import DatFile
from soundscape.ac.dat_landblock import landblock_id, parse_landblock
from soundscape.ac.dat_object import DatObject
from soundscape.ac.dat_region import REGION_ID, parse_region
from soundscape.ac.dat_sound import parse_sound_table, parse_wave
from soundscape.errors import DataError, InputError

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


def mutated(seed: bytes):
    return fuzz_mutated(seed, TOKENS)


_only_loader_errors = only_loader_errors


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


def _runtime_dats() -> tuple[bytes, bytes]:
    portal = DatWriter(block_size=64, data_set=1, fanout=3)
    portal.add(REGION_ID, REGION, compressed=True)
    portal.add(0x20000001, TABLE)
    portal.add(0x0A000001, WAVE)
    cell = DatWriter(block_size=64, data_set=2, fanout=3)
    for bx in range(2, 5):
        for by in range(3, 6):
            cell.add(landblock_id(bx, by), landblock_bytes(bx, by, list(range(81)),
                                                           [(i + bx) % 7 for i in range(81)]))
    return portal.build(), cell.build()


RUNTIME_DATS = _runtime_dats()


@settings(FUZZ, max_examples=min(FUZZ.max_examples, 40))
@given(which=st.integers(0, 1), data=st.data())
def test_fuzz_the_runtime_on_mutated_dats(tmp_path, which, data):
    import esper

    from soundscape import Settings, SoundscapePlugin
    from soundscape.components import Listener, Position

    blobs = list(RUNTIME_DATS)
    blobs[which] = data.draw(mutated(blobs[which]))
    paths = [tmp_path / "client_portal.dat", tmp_path / "client_cell_1.dat"]
    for path, blob in zip(paths, blobs, strict=True):
        path.write_bytes(blob)
    world, previous = f"dat-fuzz-{which}", esper.current_world
    esper.switch_world(world)
    plugin = SoundscapePlugin(Settings(seed=2, backend="none", features=("ac",))).install()
    try:
        try:
            dats = plugin.context.ac.load_dat(*paths)
        except (DataError, InputError):
            return
        pos = Position(3 * 192 + 20.0, 0.0, 4 * 192 + 30.0)
        esper.create_entity(Listener(heading_rad=0.0), pos)
        for _ in range(40):
            esper.process(1 / 60)  # a lazily read landblock that is bad: logged, never raised
            pos.x_m += 9.0
        dats.close()
    finally:
        plugin.uninstall()
        esper.switch_world(previous)
        esper.delete_world(world)


def test_the_runtime_seed_dats_load_and_play(tmp_path):
    """The runtime fuzz starts from good dats: unmutated, they load and play."""
    import esper

    from soundscape import Settings, SoundscapePlugin
    from soundscape.components import Listener, Position
    from soundscape.components.ac import Landblock

    paths = [tmp_path / "client_portal.dat", tmp_path / "client_cell_1.dat"]
    for path, blob in zip(paths, RUNTIME_DATS, strict=True):
        path.write_bytes(blob)
    plugin = SoundscapePlugin(Settings(seed=2, backend="none", features=("ac",))).install()
    plugin.context.ac.load_dat(*paths)
    esper.create_entity(Listener(heading_rad=0.0), Position(3 * 192 + 20.0, 0.0, 4 * 192 + 30.0))
    esper.process(1 / 60)
    assert len(esper.get_component(Landblock)) == 9
    assert plugin.events.where(source="ac", event="play")
    plugin.uninstall()
