"""Property-based fuzzing of every loader (issue 13): whatever the bytes or the TOML,
only ``DataError`` or ``InputError`` escapes, and each case finishes well inside the
1 s deadline. Deterministic (derandomize, no database) and bounded (``loader_fuzz``).

Loaders: the WAV decoder (bytes, the streaming ``WavDecoder`` and the sound bank), the
libsndfile decoders (FLAC, OGG), OSBD chunks, Oni TOML, AC region TOML (text and
parsed), packed STB descs (whole and at an offset), Redguard effect and RTX TOML with
their WAV files. The AC dat readers are fuzzed in ``test_ac_dat_fuzz.py`` and the
Redguard retail files in ``test_rg_retail_fuzz.py``, with the same helpers.
"""

from __future__ import annotations

import io
import struct
import tomllib

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from loader_fuzz import FUZZ, mutated, mutated_doc, mutated_text, only_loader_errors, to_toml

from soundscape.ac.region import (
    AmbientSoundDesc,
    AmbientSTBDesc,
    pack_stb_desc,
    unpack_stb_desc,
    unpack_stb_desc_from,
)
from soundscape.ac.region_toml import load_region, region_from_dict
from soundscape.ac.sample import sample_region
from soundscape.audio.decoders import decode_all, decode_pcm, open_decoder
from soundscape.audio.sounds import SoundBank
from soundscape.audio.wav import decode_wav, encode_wav
from soundscape.oni.osbd import load_osbd, write_osbd
from soundscape.oni.sound_test import SOUND_TEST_TOML
from soundscape.oni.toml import loads_toml
from soundscape.redguard.effects import EffectBank
from soundscape.redguard.rtx import RtxStore

RAMP = np.linspace(-0.9, 0.9, 24, dtype=np.float32)
STEREO = np.stack([RAMP, RAMP[::-1]], axis=1)


def _pcm_wav(bits: int, channels: int) -> bytes:
    """A hand-built PCM WAV (24- and 32-bit are not ``encode_wav``'s)."""
    ints = (RAMP * (2 ** (bits - 1) - 1)).astype(np.int64)
    frames = np.repeat(ints[:, None], channels, axis=1).reshape(-1)
    raw = b"".join(int(v).to_bytes(bits // 8, "little", signed=True) for v in frames)
    align = channels * bits // 8
    fmt = struct.pack("<HHIIHH", 1, channels, 22050, 22050 * align, align, bits)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt
    body += b"data" + struct.pack("<I", len(raw)) + raw
    return b"RIFF" + struct.pack("<I", len(body)) + body


def _float64_wav() -> bytes:
    raw = np.asarray(RAMP, dtype="<f8").tobytes()
    fmt = struct.pack("<HHIIHH", 3, 1, 22050, 22050 * 8, 8, 64)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt
    body += b"data" + struct.pack("<I", len(raw)) + raw
    return b"RIFF" + struct.pack("<I", len(body)) + body


WAVS = [encode_wav(RAMP, 22050, bits=8), encode_wav(STEREO, 11025, bits=16),
        encode_wav(RAMP, 22050, is_float=True), encode_wav(STEREO, 44100, bits=16,
                                                               extensible=True),
        _pcm_wav(24, 1), _pcm_wav(32, 2), _float64_wav()]
PCM_WAVS = WAVS[:2]


def _wav_bytes():
    return st.sampled_from(WAVS).flatmap(mutated)


# -- WAV --------------------------------------------------------------------------------


@FUZZ
@given(blob=_wav_bytes())
def test_fuzz_wav_bytes(blob):
    only_loader_errors(lambda: decode_wav(blob, "f.wav"))


@FUZZ
@given(blob=_wav_bytes(), at=st.integers(0, 64))
def test_fuzz_the_streaming_wav_decoder(tmp_path, blob, at):
    path = tmp_path / "s.wav"
    path.write_bytes(blob)

    def stream() -> None:
        with open_decoder(path) as decoder:
            decode_all(decoder)
            if decoder.bits:
                decoder.seek(0)
                decode_pcm(decoder)
            decoder.seek(min(at, decoder.frames))
            decoder.read(8, np.zeros((8, decoder.channels), dtype=np.float32))

    only_loader_errors(stream)


@FUZZ
@given(blob=_wav_bytes(), cap=st.sampled_from([None, 64, 4096]))
def test_fuzz_the_sound_bank(tmp_path, blob, cap):
    (tmp_path / "s.wav").write_bytes(blob)
    bank = SoundBank(tmp_path, max_file_bytes=cap)
    for _ in range(2):  # the second get is answered from the caches
        only_loader_errors(lambda: bank.get("s"))


def _encoded(fmt: str, subtype: str | None) -> bytes:
    soundfile = pytest.importorskip("soundfile")
    buffer = io.BytesIO()
    tone = np.sin(np.arange(2048) * 0.05).astype(np.float32) * 0.5
    soundfile.write(buffer, tone, 22050, format=fmt, subtype=subtype)
    return buffer.getvalue()


@FUZZ
@given(data=st.data())
def test_fuzz_the_libsndfile_decoders(tmp_path, data):
    suffix, fmt, subtype = data.draw(st.sampled_from([(".flac", "FLAC", "PCM_16"),
                                                       (".ogg", "OGG", "VORBIS")]))
    blob = data.draw(mutated(_ENCODED[fmt]))
    path = tmp_path / f"s{suffix}"
    path.write_bytes(blob)

    def decode() -> None:
        with open_decoder(path) as decoder:
            decode_all(decoder)

    only_loader_errors(decode)


_ENCODED: dict[str, bytes] = {}


@pytest.fixture(autouse=True, scope="module")
def _encoded_seeds():
    for fmt, subtype in (("FLAC", "PCM_16"), ("OGG", "VORBIS")):
        try:
            _ENCODED[fmt] = _encoded(fmt, subtype)
        except pytest.skip.Exception:
            _ENCODED[fmt] = b""


# -- Oni: OSBD and TOML --------------------------------------------------------------------

ONI_DB = loads_toml(SOUND_TEST_TOML + """
[ambients.cave]
base1 = "gun_fire"
in = "mus_chase_in"
distance = [5.0, 20.0]
detail = "gun_fire"
detail_range = 4.0
detail_interval_s = [1.0, 2.0]
""")
ONI_RECORDS = [*ONI_DB.groups.values(), *ONI_DB.ambients.values(), *ONI_DB.impulses.values()]
OSBD_INSTANCES, OSBD_RAW = write_osbd(ONI_RECORDS)
ONI_DOC = tomllib.loads(SOUND_TEST_TOML)


@FUZZ
@given(raw=mutated(OSBD_RAW), index=st.integers(0, len(OSBD_INSTANCES) - 1),
       instance=st.binary(min_size=0, max_size=10), mutate_instance=st.booleans())
def test_fuzz_osbd(raw, index, instance, mutate_instance):
    instances = list(OSBD_INSTANCES)
    if mutate_instance:
        instances[index] = (instances[index][0], instance)
    only_loader_errors(lambda: load_osbd(instances, raw, source="fuzz.raw"))


@FUZZ
@given(text=mutated_text(SOUND_TEST_TOML))
def test_fuzz_oni_toml_text(text):
    only_loader_errors(lambda: loads_toml(text, source="fuzz.toml"))


@FUZZ
@given(doc=mutated_doc(ONI_DOC))
def test_fuzz_oni_toml_values(doc):
    only_loader_errors(lambda: loads_toml(to_toml(doc), source="fuzz.toml"))


# -- AC: region TOML and packed STB descs ----------------------------------------------------

REGION = sample_region(2, 2)
PACKED = pack_stb_desc(AmbientSTBDesc(0x20000001, [AmbientSoundDesc(0x46, 0.5, 0.0, 2.0, 2.0),
                                                   AmbientSoundDesc(0x47, 0.4, 0.3, 1.0, 5.0)]))


@FUZZ
@given(doc=mutated_doc(REGION))
def test_fuzz_ac_region_values(doc):
    only_loader_errors(lambda: region_from_dict(doc, "fuzz.toml"))


@FUZZ
@given(text=mutated_text(to_toml(REGION) + '[[stb]]\npacked = "p.stb"\n'),
       packed=mutated(PACKED))
def test_fuzz_ac_region_files(tmp_path, text, packed):
    (tmp_path / "p.stb").write_bytes(packed)
    path = tmp_path / "region.toml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    only_loader_errors(lambda: load_region(path))


@FUZZ
@given(blob=mutated(PACKED + PACKED), offset=st.integers(-40, 120))
def test_fuzz_packed_stb_descs(blob, offset):
    only_loader_errors(lambda: unpack_stb_desc(blob, "p.stb"))
    only_loader_errors(lambda: unpack_stb_desc_from(blob, offset, "p.stb"))


# -- Redguard: effect and RTX TOML with their WAV files -------------------------------------

EFFECTS_TOML = ('count = 118\n[[effect]]\nindex = 25\nfile = "a.wav"\nbase_volume = 100\n'
                'loop_flag = 255\n[[effect]]\nindex = 62\nfile = "b.wav"\nsample_rate_hz = 0\n')
RTX_TOML = ('[[line]]\nlabel = "L001"\ntext = "Greetings."\nfile = "a.wav"\n'
            'header_volume = 90\n[[line]]\nlabel = "T001"\ntext = "Text only"\n')


def _rg_folder(tmp_path, text: str, wav: bytes, name: str):
    (tmp_path / "a.wav").write_bytes(wav)
    (tmp_path / "b.wav").write_bytes(PCM_WAVS[0])
    path = tmp_path / name
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return path


@FUZZ
@given(text=st.one_of(mutated_text(EFFECTS_TOML),
                      mutated_doc(tomllib.loads(EFFECTS_TOML)).map(to_toml)),
       wav=st.one_of(st.sampled_from(PCM_WAVS), st.sampled_from(PCM_WAVS).flatmap(mutated)))
def test_fuzz_redguard_effects(tmp_path, text, wav):
    path = _rg_folder(tmp_path, text, wav, "fx.toml")
    only_loader_errors(lambda: EffectBank(SoundBank()).load_toml(path))


@FUZZ
@given(text=st.one_of(mutated_text(RTX_TOML), mutated_doc(tomllib.loads(RTX_TOML)).map(to_toml)),
       wav=st.one_of(st.sampled_from(PCM_WAVS), st.sampled_from(PCM_WAVS).flatmap(mutated)))
def test_fuzz_redguard_rtx(tmp_path, text, wav):
    path = _rg_folder(tmp_path, text, wav, "english.toml")
    only_loader_errors(lambda: RtxStore(SoundBank()).load_toml(path))


def test_the_seeds_load_unmutated(tmp_path):
    """The fuzzers start from good data: every seed loads without an error."""
    for blob in WAVS:
        assert decode_wav(blob).samples.shape[0] == 24
    assert len(load_osbd(OSBD_INSTANCES, OSBD_RAW).ambients) == len(ONI_DB.ambients)
    assert region_from_dict(REGION).stb_descs[0].ambient_sounds
    assert unpack_stb_desc(PACKED).stb_id == 0x20000001
    bank = EffectBank(SoundBank())
    bank.load_toml(_rg_folder(tmp_path, EFFECTS_TOML, PCM_WAVS[1], "fx.toml"))
    assert bank.get(25) is not None and bank.get(62) is not None
    store = RtxStore(SoundBank())
    store.load_toml(_rg_folder(tmp_path, RTX_TOML, PCM_WAVS[1], "english.toml"))
    assert store.find("l001").voiced
    assert all(_ENCODED.values()) or not _ENCODED
