"""WAV decoding: every supported layout, and each kind of bad file."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from soundscape.audio.sounds import SoundBank
from soundscape.audio.wav import decode_wav, encode_wav, read_wav
from soundscape.clock import Clock
from soundscape.errors import DataError, InputError
from soundscape.events import EventLog

RAMP = np.linspace(-0.5, 0.5, 64, dtype=np.float32)


@pytest.mark.parametrize("bits", [8, 16])
@pytest.mark.parametrize("channels", [1, 2])
def test_pcm_round_trip_keeps_integer_samples(bits, channels):
    frames = np.stack([RAMP] * channels, axis=1) if channels == 2 else RAMP
    wav = decode_wav(encode_wav(frames, 11025, bits=bits), "ramp.wav")
    assert wav.sample_rate_hz == 11025 and wav.bits == bits
    assert wav.samples.shape == (64, channels) and wav.samples.dtype == np.float32
    tolerance = 1 / 128 if bits == 8 else 1 / 32768
    assert np.abs(wav.samples[:, 0] - RAMP).max() <= tolerance
    assert wav.pcm is not None
    assert wav.pcm.dtype == (np.uint8 if bits == 8 else np.int16)
    if bits == 16:
        assert wav.pcm[0, 0] == -16384  # -0.5 x 32768, exactly
    else:
        assert wav.pcm[0, 0] == 64  # 128 - 0.5 x 128


def test_float32_and_extensible_decode():
    stereo = np.stack([RAMP, -RAMP], axis=1)
    for extensible in (False, True):
        wav = decode_wav(encode_wav(stereo, 96000, is_float=True, extensible=extensible), "f.wav")
        assert wav.is_float and wav.bits == 32 and wav.pcm is None
        assert wav.sample_rate_hz == 96000
        assert np.array_equal(wav.samples, stereo)
    pcm = decode_wav(encode_wav(stereo, 8000, bits=16, extensible=True), "x.wav")
    assert pcm.bits == 16 and pcm.pcm is not None and pcm.samples.shape == (64, 2)


def _error(data: bytes) -> DataError:
    with pytest.raises(DataError) as info:
        decode_wav(data, "bad.wav")
    assert str(info.value).startswith("bad.wav: ")
    return info.value


def test_zero_length_file():
    err = _error(b"")
    assert err.record == "RIFF" and "empty" in err.problem


def test_non_riff_file():
    err = _error(b"OggS" + b"\x00" * 40)
    assert err.record == "RIFF" and err.field == "id"


def test_truncated_data_chunk():
    good = encode_wav(RAMP, 22050, bits=16)
    err = _error(good[:-20])
    assert err.field == "size"
    assert "truncated" in err.problem


def test_oversized_header_chunk():
    good = bytearray(encode_wav(RAMP, 22050, bits=16))
    struct.pack_into("<I", good, 16, 0x7FFF0000)  # the fmt chunk claims 2 GB
    err = _error(bytes(good))
    assert err.record == "fmt " and err.field == "size"


def test_unsupported_format_and_bad_block_align():
    good = bytearray(encode_wav(RAMP, 22050, bits=16))
    bad_tag = bytearray(good)
    struct.pack_into("<H", bad_tag, 20, 0x0055)  # MP3
    assert _error(bytes(bad_tag)).field == "wFormatTag"
    struct.pack_into("<H", good, 32, 7)
    assert _error(bytes(good)).field == "nBlockAlign"


def test_read_wav_names_the_file(tmp_path):
    path = tmp_path / "broken.wav"
    path.write_bytes(b"RIFF")
    with pytest.raises(DataError, match="broken.wav"):
        read_wav(path)


def test_bank_loads_from_root_and_refuses_escapes(tmp_path):
    root = tmp_path / "sounds"
    root.mkdir()
    (root / "wind.wav").write_bytes(encode_wav(RAMP, 44100, bits=16))
    (tmp_path / "secret.wav").write_bytes(encode_wav(RAMP, 44100, bits=16))
    bank = SoundBank(root)
    wind = bank.get("wind")
    assert wind is not None and wind.sample_rate_hz == 44100 and wind.bits == 16
    assert bank.get("wind.wav") is not None
    for name in ("../secret.wav", "../secret", str(tmp_path / "secret.wav")):
        with pytest.raises(InputError, match="escapes"):
            bank.get(name)


def test_missing_sound_is_negatively_cached_and_logged_once(tmp_path):
    log = EventLog(Clock())
    bank = SoundBank(tmp_path, events=log)
    assert bank.get("nothing") is None
    (tmp_path / "nothing.wav").write_bytes(encode_wav(RAMP, 8000, bits=8))
    assert bank.get("nothing") is None  # cached: the file is not looked for again
    assert len(log.where(event="missing", sound="nothing")) == 1
    bank.add("nothing", RAMP, 8000)
    assert bank.get("nothing") is not None


def test_corrupt_file_in_bank_raises_data_error(tmp_path):
    (tmp_path / "cut.wav").write_bytes(encode_wav(RAMP, 8000, bits=16)[:30])
    with pytest.raises(DataError, match="cut.wav"):
        SoundBank(tmp_path).get("cut")


def test_corrupt_file_is_read_once_and_a_channel_start_fails_cleanly(tmp_path):
    from soundscape import Context, Settings
    from soundscape.audio.channels import ensure_bank

    cut = tmp_path / "cut.wav"
    cut.write_bytes(encode_wav(RAMP, 8000, bits=16)[:30])
    ctx = Context.create(Settings(backend="none"))
    ctx.sounds = SoundBank(tmp_path, events=ctx.events)
    bank = ensure_bank(ctx, "fx", count=2, policy="redguard", profile="redguard")
    for _attempt in range(3):
        h = bank.acquire(sound="cut")
        assert bank.play(h, "cut", volume=100, rate_hz=8000) is False
        assert bank.play(h, "../outside", volume=100, rate_hz=8000) is False
        cut.write_bytes(b"junk")  # never read: the name is refused from the cache
    bad = ctx.events.where(event="bad_sound")
    assert [r["sound"] for r in bad] == ["cut", "../outside"]  # once each
    assert "cut.wav" in bad[0]["reason"] and "truncated" in bad[0]["reason"]
    assert "escapes" in bad[1]["reason"]
    assert not any(c.playing for c in bank.channels)
    with pytest.raises(DataError, match="truncated"):
        ctx.sounds.get("cut")  # the first error again


def test_a_symlink_out_of_the_root_is_an_escape_too(tmp_path):
    root = tmp_path / "sounds"
    root.mkdir()
    (tmp_path / "secret.wav").write_bytes(encode_wav(RAMP, 44100, bits=16))
    (root / "link.wav").symlink_to(tmp_path / "secret.wav")
    with pytest.raises(InputError, match="escapes"):
        SoundBank(root).get("link")


def test_the_bank_refuses_huge_float_samples_and_a_nan_rate_by_name():
    # Fuzzing: eight voices of a float sound holding 1e38 overflowed the float32
    # mix to inf; a NaN rate raised "cannot convert float NaN to integer".
    bank = SoundBank(None)
    with pytest.raises(InputError, match="'loud': samples beyond"):
        bank.add("loud", np.full(100, 1e38, dtype=np.float32), 22050)
    with pytest.raises(InputError, match="'r': sample rate must be positive, got nan"):
        bank.add("r", np.zeros(100, dtype=np.float32), float("nan"))
    assert bank.add("ok", np.full(100, 0.5, dtype=np.float32), 22050).sample_rate_hz == 22050
