"""Property-based fuzzing of the Redguard retail readers (MAIN.SFX, ENGLISH.RTX): whatever
the bytes, only DataError or InputError escapes (no struct.error, IndexError,
MemoryError, hang or RuntimeWarning). Deterministic (derandomize, no example
database) and bounded, like the AC dat fuzz test."""

from __future__ import annotations

import struct

from hypothesis import given, settings
from hypothesis import strategies as st
from loader_fuzz import FUZZ as LOADER_FUZZ
from loader_fuzz import mutated as fuzz_mutated
from loader_fuzz import only_loader_errors
from rg_retail_writer import Audio, RtxWriter, sfx_bytes, tone

from soundscape.audio.sounds import SoundBank
from soundscape.redguard.effects import EffectBank
from soundscape.redguard.rtx import RtxStore
from soundscape.redguard.rtx_file import RtxFile
from soundscape.redguard.sfx_file import SfxFile

FUZZ = settings(LOADER_FUZZ, max_examples=max(LOADER_FUZZ.max_examples, 150))
TOKENS = [struct.pack("<I", v & 0xFFFFFFFF) for v in
          (0, 1, 2, 3, 4, 27, 36, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, -8)]
TOKENS += [struct.pack(">I", v) for v in (0, 36, 0x7FFFFFFF, 0xFFFFFFFF)]
TOKENS += [b"FXHD", b"FXDT", b"END ", b"RNAV", b"\xff\xff", b"\x00" * 27, b"\xff" * 27]

SFX = sfx_bytes([Audio(tone(12, 1, bits=8), sample_rate=11025),
                 Audio(tone(8, 2), loop_flag=-1),
                 Audio(tone(6, 3, bits=8, stereo=True), level=0),
                 Audio(tone(5, 4, stereo=True), loop_flag=-31)])


def _rtx() -> bytes:
    w = RtxWriter()
    w.add(b"#bon", b"Well met.")
    w.add(b"vql1", b"Speak", Audio(tone(9, 5), level=100))
    w.add(b"?vql", b"", Audio(tone(7, 6, bits=8), sample_rate=11025, level=100))
    return w.build()


RTX = _rtx()


def mutated(seed: bytes) -> st.SearchStrategy[bytes]:
    """``seed`` mutated by the shared loader fuzz mutator with this format's tokens."""
    return fuzz_mutated(seed, TOKENS)


@FUZZ
@given(data=st.data())
def test_fuzz_main_sfx(tmp_path, data):
    path = tmp_path / "MAIN.SFX"
    path.write_bytes(data.draw(mutated(SFX)))

    def walk() -> None:
        with SfxFile(path) as sfx:
            bank = EffectBank(SoundBank())
            bank.attach(sfx)
            for index in range(sfx.count):
                only_loader_errors(lambda i=index: bank.get(i))

    only_loader_errors(walk)


@FUZZ
@given(data=st.data())
def test_fuzz_english_rtx(tmp_path, data):
    path = tmp_path / "ENGLISH.RTX"
    path.write_bytes(data.draw(mutated(RTX)))

    def walk() -> None:
        with RtxFile(path) as rtx:
            store = RtxStore(SoundBank())
            store.attach(rtx)
            for label in rtx.labels():
                only_loader_errors(lambda k=label: rtx.read(k))
                store.find(label)

    only_loader_errors(walk)
