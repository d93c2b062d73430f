"""The decoder layer: WAV through soundscape's reader, OGG/Opus/FLAC/MP3/AIFF/W64
through soundfile, suffix order for bare names, and corrupt files as DataError.

Every compressed file is written at test time by soundfile (libsndfile).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from soundscape.audio.channels import ensure_bank
from soundscape.audio.decoders import (
    SUFFIXES,
    Decoder,
    SoundfileDecoder,
    WavDecoder,
    decode_all,
    open_decoder,
)
from soundscape.audio.sounds import SoundBank
from soundscape.audio.wav import decode_wav, encode_wav, write_wav
from soundscape.errors import DataError

sf = pytest.importorskip("soundfile")

RATE = 48_000
FORMATS = {  # suffix: (libsndfile format, subtype, lossless)
    ".ogg": ("OGG", "VORBIS", False),
    ".opus": ("OGG", "OPUS", False),
    ".flac": ("FLAC", "PCM_16", True),
    ".mp3": ("MP3", "MPEG_LAYER_III", False),
    ".aif": ("AIFF", "PCM_16", True),
    ".w64": ("W64", "PCM_16", True),
}


def sine(freq_hz: float, frames: int = RATE // 2, channels: int = 2) -> np.ndarray:
    t = np.arange(frames) / RATE
    left = 0.4 * np.sin(2 * np.pi * freq_hz * t)
    mono = left.astype(np.float32)
    return mono if channels == 1 else np.stack([mono, -mono], axis=1)


def write(path: Path, samples: np.ndarray) -> Path:
    fmt, subtype, _lossless = FORMATS[path.suffix]
    sf.write(str(path), samples, RATE, format=fmt, subtype=subtype)
    return path


@pytest.mark.parametrize("suffix", sorted(FORMATS))
def test_each_format_loads_through_the_bank(tmp_path, suffix):
    original = sine(440.0)
    write(tmp_path / f"music{suffix}", original)
    bank = SoundBank(tmp_path)
    sound = bank.get(f"music{suffix}")
    assert sound is not None and sound.sample_rate_hz == RATE and sound.channels == 2
    assert sound.samples.dtype == np.float32
    if FORMATS[suffix][2]:  # lossless 16-bit: every sample within half a step
        assert sound.frames == original.shape[0]
        assert np.abs(sound.samples - original).max() <= 1 / 32768
    else:  # lossy: the same tone, in both channels, with the right sign
        assert abs(sound.frames - original.shape[0]) < RATE // 10
        middle = slice(RATE // 8, RATE // 4)
        rms = float(np.sqrt(np.mean(sound.samples[middle, 0] ** 2)))
        assert 0.2 < rms < 0.4  # 0.4 / sqrt(2) = 0.28
        assert np.corrcoef(sound.samples[middle, 0], sound.samples[middle, 1])[0, 1] < -0.9


def test_decoders_follow_the_protocol_and_read_in_pieces(tmp_path):
    original = sine(300.0, frames=10_000)
    paths = [write_wav(tmp_path / "a.wav", original, RATE), write(tmp_path / "a.flac", original)]
    for path in paths:
        with open_decoder(path) as decoder:
            assert isinstance(decoder, Decoder)
            whole = decode_all(decoder)
            assert whole.shape == (10_000, 2)
            decoder.seek(1234)
            out = np.zeros((777, 2), dtype=np.float32)
            assert decoder.read(777, out) == 777
            assert np.array_equal(out, whole[1234:2011])
            decoder.seek(9_990)
            assert decoder.read(777, out) == 10  # the end
            assert decoder.read(777, out) == 0
    assert isinstance(open_decoder(paths[0]), WavDecoder)
    assert isinstance(open_decoder(paths[1]), SoundfileDecoder)


def test_wav_decoder_keeps_the_integer_pcm(tmp_path):
    path = write_wav(tmp_path / "torch.wav", sine(500.0, 2000, channels=1), 22050, bits=16)
    sound = SoundBank(tmp_path).get("torch")
    assert sound is not None and sound.bits == 16 and sound.pcm is not None
    assert np.array_equal(sound.pcm, decode_wav(path.read_bytes()).pcm)
    path8 = write_wav(tmp_path / "old.wav", sine(500.0, 2000, channels=1), 11025, bits=8)
    with WavDecoder(path8) as decoder:
        assert decoder.bits == 8 and decoder.read_pcm(5).dtype == np.uint8


@pytest.mark.parametrize("data", [
    b"", b"RIFF", b"OggS" + b"\0" * 40,
    encode_wav(np.zeros(8, np.float32), 8000)[:30],
    encode_wav(np.zeros(8, np.float32), 8000).replace(b"fmt ", b"fmx "),
])
def test_wav_decoder_gives_decode_wavs_exact_errors(tmp_path, data):
    path = tmp_path / "bad.wav"
    path.write_bytes(data)
    with pytest.raises(DataError) as expected:
        decode_wav(data, str(path))
    with pytest.raises(DataError) as got:
        WavDecoder(path)
    assert str(got.value) == str(expected.value)
    with pytest.raises(DataError) as through_bank:
        SoundBank(tmp_path).get("bad")
    if not data.startswith(b"OggS"):  # an OGG header in a .wav goes to soundfile
        assert str(through_bank.value) == str(expected.value)
    assert str(path) in str(through_bank.value)


def test_bare_names_try_the_suffixes_in_order(tmp_path):
    assert SUFFIXES[0] == ".wav" and SUFFIXES.index(".ogg") < SUFFIXES.index(".mp3")
    write(tmp_path / "door.ogg", sine(200.0))
    write_wav(tmp_path / "door.wav", sine(200.0, 100), RATE)
    write(tmp_path / "wind.flac", sine(100.0, 300))
    write(tmp_path / "wind.mp3", sine(100.0, 5000))
    bank = SoundBank(tmp_path)
    assert bank.find("door") == (tmp_path / "door.wav").resolve()
    assert bank.get("door").frames == 100
    assert bank.get("wind").frames == 300  # .flac before .mp3
    assert bank.get("nothing") is None


def test_a_wav_name_holding_another_format_decodes_as_it_is(tmp_path):
    write(tmp_path / "x.ogg", sine(440.0, 4800)).rename(tmp_path / "real_ogg.wav")
    sound = SoundBank(tmp_path).get("real_ogg.wav")
    assert sound is not None and sound.channels == 2


@pytest.mark.parametrize("suffix", [".ogg", ".flac", ".opus"])
def test_a_corrupt_compressed_file_is_a_data_error_naming_it(tmp_path, suffix):
    good = write(tmp_path / f"good{suffix}", sine(440.0)).read_bytes()
    bad = tmp_path / f"broken{suffix}"
    bad.write_bytes(good[: len(good) // 2])  # cut in the middle
    bank = SoundBank(tmp_path)
    with pytest.raises(DataError) as info:
        bank.get(f"broken{suffix}")
    assert str(bad) in str(info.value)
    with pytest.raises(DataError):  # remembered: raised again without reading
        bank.get(f"broken{suffix}")
    garbage = tmp_path / f"noise{suffix}"
    garbage.write_bytes(b"OggS" + bytes(range(256)) * 4)
    with pytest.raises(DataError, match="noise"):
        bank.get(f"noise{suffix}")


def test_a_corrupt_file_fails_the_start_with_one_bad_sound_event(tmp_path):
    from soundscape import Settings, SoundscapePlugin

    (tmp_path / "music.ogg").write_bytes(b"OggS" + b"\x01" * 300)
    plugin = SoundscapePlugin(Settings(features=("audio",), backend="offline",
                                       sound_root=tmp_path)).install()
    try:
        bank = ensure_bank(plugin.context, "modern")
        for _ in range(3):
            assert not bank.play(bank.acquire(sound="music.ogg"), "music.ogg", volume=1.0)
        bad = [e for e in plugin.context.events.records if e.get("event") == "bad_sound"]
        assert len(bad) == 1 and "music.ogg" in bad[0]["reason"]
    finally:
        plugin.uninstall()
