"""Issue 13's six causes of undocumented loader errors, and the path rules.

Each cause has a regression test: deep TOML nesting (RecursionError), a NUL in a path
named by data (ValueError), unbounded or blocking reads (/dev/zero, a FIFO, a huge
file), sound names that cannot be file names (ValueError / OSError 36 /
UnicodeEncodeError out of ``esper.process``), a negative packed offset
(struct.error) and a float64 WAV beyond float32 (an overflow warning). Then the
rules: a path named by data stays inside the data file's folder, is a regular file
and is read with ``Settings.max_file_bytes``; the error names file and field.
"""

from __future__ import annotations

import os
import struct
import wave

import esper
import numpy as np
import pytest

from soundscape import Settings, SoundscapePlugin, synth
from soundscape.ac.region import unpack_stb_desc_from
from soundscape.ac.region_toml import load_region
from soundscape.audio.emitters import play_at
from soundscape.audio.sounds import SoundBank
from soundscape.audio.wav import decode_wav, read_wav
from soundscape.components import Emitter, Listener, Position
from soundscape.datafile import MAX_FILE_BYTES, parse_toml, read_file, read_toml
from soundscape.errors import DataError, InputError
from soundscape.names import name_problem, sound_name_problem
from soundscape.oni.toml import load_toml as oni_load_toml
from soundscape.oni.toml import loads_toml as oni_loads_toml
from soundscape.redguard.effects import EffectBank
from soundscape.redguard.rtx import RtxStore

DEEP = "a = " + "[" * 500 + "]" * 500 + "\n"
BAD_NAMES = ["a\0b", "x" * 300, "lone\ud800surrogate", "dir/" + "y" * 256 + "/z"]


def _wav16(path, values=(1, 2, 3)) -> None:
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(22050)
        out.writeframes(np.array(values, dtype="<i2").tobytes())


def _plugin(**settings) -> SoundscapePlugin:
    return SoundscapePlugin(Settings(backend="offline", **settings)).install()


# -- cause 1: deep nesting --------------------------------------------------------------


@pytest.mark.parametrize("depth", [500, 5000])
def test_deep_toml_nesting_is_a_data_error(depth):
    text = "a = " + "[" * depth + "]" * depth
    with pytest.raises(DataError, match="x.toml: malformed TOML: nested too deeply"):
        parse_toml(text, "x.toml")


@pytest.mark.parametrize("loader", ["region", "effects", "rtx", "oni", "oni_text"])
def test_every_toml_loader_refuses_deep_nesting(tmp_path, loader):
    path = tmp_path / "deep.toml"
    path.write_text(DEEP, encoding="utf-8")
    call = {
        "region": lambda: load_region(path),
        "effects": lambda: EffectBank(None).load_toml(path),
        "rtx": lambda: RtxStore(None).load_toml(path),
        "oni": lambda: oni_load_toml(path),
        "oni_text": lambda: oni_loads_toml(DEEP, source=str(path)),
    }[loader]
    with pytest.raises(DataError, match="deep.toml: malformed TOML: nested too deeply"):
        call()


# -- cause 2: a NUL in a path named by data ------------------------------------------------


@pytest.mark.parametrize(("loader", "text", "where"), [
    ("effects", '[[effect]]\nindex = 1\nfile = "a\\u0000b.wav"\n', r"effect\[0\]\.file"),
    ("rtx", '[[line]]\nlabel = "l1"\ntext = "x"\nfile = "a\\u0000b.wav"\n', r"line\[0\]\.file"),
    ("region", '[[stb]]\npacked = "a\\u0000b"\n', r"stb\[0\]\.packed"),
])
def test_nul_in_a_path_named_by_data_is_a_data_error(tmp_path, loader, text, where):
    path = tmp_path / "data.toml"
    path.write_text(text, encoding="utf-8")
    call = {"effects": lambda: EffectBank(None).load_toml(path),
            "rtx": lambda: RtxStore(None).load_toml(path),
            "region": lambda: load_region(path)}[loader]
    with pytest.raises(DataError, match=rf"data.toml: {where}: .*NUL") as caught:
        call()
    assert caught.value.source == str(path)


def test_nul_in_a_file_path_is_a_data_error():
    with pytest.raises(DataError, match="cannot read"):
        read_file("a\0b.wav")
    with pytest.raises(DataError, match="cannot read"):
        read_wav("a\0b.wav")


# -- cause 3: unbounded and blocking reads ---------------------------------------------


def test_devices_and_fifos_are_refused_without_reading(tmp_path):
    with pytest.raises(DataError, match="not a regular file"):
        read_toml("/dev/zero")
    with pytest.raises(DataError, match="not a regular file"):
        read_wav("/dev/zero")
    fifo = tmp_path / "pipe.wav"
    os.mkfifo(fifo)  # no writer: a blocking open would hang here
    with pytest.raises(DataError, match="not a regular file"):
        read_wav(fifo)
    with pytest.raises(DataError, match="not a regular file"):
        read_toml(tmp_path)  # a folder


def test_a_link_to_dev_zero_in_the_data_folder_is_refused(tmp_path):
    (tmp_path / "zero.wav").symlink_to("/dev/zero")
    (tmp_path / "fx.toml").write_text('[[effect]]\nindex = 1\nfile = "zero.wav"\n')
    with pytest.raises(DataError, match=r"fx.toml: effect\[0\]\.file: .*outside"):
        EffectBank(None).load_toml(tmp_path / "fx.toml")


def test_a_fifo_inside_the_data_folder_is_refused(tmp_path):
    os.mkfifo(tmp_path / "pipe.wav")
    (tmp_path / "fx.toml").write_text('[[effect]]\nindex = 1\nfile = "pipe.wav"\n')
    with pytest.raises(DataError, match=r"fx.toml: effect\[0\]\.file: .*not a regular file"):
        EffectBank(None).load_toml(tmp_path / "fx.toml")
    (tmp_path / "l.toml").write_text('[[line]]\nlabel = "a"\ntext = "b"\nfile = "pipe.wav"\n')
    with pytest.raises(DataError, match=r"l.toml: line\[0\]\.file: .*not a regular file"):
        RtxStore(None).load_toml(tmp_path / "l.toml")
    os.mkfifo(tmp_path / "p.stb")
    (tmp_path / "r.toml").write_text('[[stb]]\npacked = "p.stb"\n')
    with pytest.raises(DataError, match=r"r.toml: stb\[0\]\.packed: .*not a regular file"):
        load_region(tmp_path / "r.toml")


def test_files_over_the_size_cap_are_refused_before_reading(tmp_path):
    _wav16(tmp_path / "big.wav", range(1000))
    assert read_wav(tmp_path / "big.wav").samples.shape == (1000, 1)
    with pytest.raises(DataError, match=r"big.wav is 2044 bytes, over the cap of 1000"):
        read_wav(tmp_path / "big.wav", 1000)
    (tmp_path / "fx.toml").write_text('[[effect]]\nindex = 1\nfile = "big.wav"\n')
    with pytest.raises(DataError, match=r"effect\[0\]\.file: .*over the cap of 1000"):
        EffectBank(None, max_file_bytes=1000).load_toml(tmp_path / "fx.toml")
    with pytest.raises(DataError, match="over the cap of 10"):
        read_toml(tmp_path / "fx.toml", 10)
    assert MAX_FILE_BYTES == Settings().max_file_bytes == 64 * 1024 * 1024
    with pytest.raises(ValueError, match="max_file_bytes"):
        Settings(max_file_bytes=0)


def test_the_plugin_passes_its_size_cap_to_every_loader(tmp_path):
    _wav16(tmp_path / "a.wav", range(600))
    (tmp_path / "fx.toml").write_text('[[effect]]\nindex = 1\nfile = "a.wav"\n')
    (tmp_path / "l.toml").write_text('[[line]]\nlabel = "a"\ntext = "b"\nfile = "a.wav"\n')
    plugin = _plugin(max_file_bytes=1000, sound_root=tmp_path)
    ctx = plugin.context
    try:
        with pytest.raises(DataError, match="over the cap of 1000"):
            ctx.redguard.effects.load_toml(tmp_path / "fx.toml")
        with pytest.raises(DataError, match="over the cap of 1000"):
            ctx.redguard.rtx_store.load_toml(tmp_path / "l.toml")
        with pytest.raises(DataError, match="over the cap of 1000"):
            ctx.sounds.get("a")
        (tmp_path / "o.toml").write_text("#" * 2000)
        with pytest.raises(DataError, match="over the cap of 1000"):
            ctx.oni.load_toml(tmp_path / "o.toml")
        with pytest.raises(DataError, match="over the cap of 1000"):
            ctx.ac.load_region(tmp_path / "o.toml")
    finally:
        plugin.uninstall()


# -- the path rules: inside the data file's folder ----------------------------------------


@pytest.mark.parametrize("name", ["../outside.wav", "/etc/passwd", "sub/../../outside.wav"])
def test_paths_named_by_data_stay_in_the_data_folder(tmp_path, name):
    data = tmp_path / "data"
    data.mkdir()
    _wav16(tmp_path / "outside.wav")
    (data / "fx.toml").write_text(f'[[effect]]\nindex = 1\nfile = "{name}"\n')
    with pytest.raises(DataError, match=r"effect\[0\]\.file: .*outside the data file's folder"):
        EffectBank(None).load_toml(data / "fx.toml")
    (data / "l.toml").write_text(f'[[line]]\nlabel = "a"\ntext = "b"\nfile = "{name}"\n')
    with pytest.raises(DataError, match=r"line\[0\]\.file: .*outside the data file's folder"):
        RtxStore(None).load_toml(data / "l.toml")
    (data / "r.toml").write_text(f'[[stb]]\npacked = "{name}"\n')
    with pytest.raises(DataError, match=r"stb\[0\]\.packed: .*outside the data file's folder"):
        load_region(data / "r.toml")


def test_a_file_in_a_subfolder_of_the_data_folder_loads(tmp_path):
    (tmp_path / "sfx").mkdir()
    _wav16(tmp_path / "sfx" / "a.wav")
    (tmp_path / "fx.toml").write_text('[[effect]]\nindex = 1\nfile = "sfx/a.wav"\n')
    bank = EffectBank(None)
    bank.load_toml(tmp_path / "fx.toml")
    assert bank.get(1).pcm.tolist() == [1, 2, 3]


def test_packed_needs_the_region_file_folder():
    with pytest.raises(DataError, match=r"stb\[0\]\.packed: a packed desc needs"):
        load_region({"stb": [{"packed": "meadow.stb"}]})


# -- cause 4: sound names that cannot be file names ---------------------------------------


def test_the_suffix_room_is_the_longest_decoder_suffix():
    from soundscape.audio.decoders import SUFFIXES
    from soundscape.names import LONGEST_SUFFIX

    assert len(LONGEST_SUFFIX) == max(len(suffix) for suffix in SUFFIXES)


def test_name_rules():
    assert name_problem("ambient/wind.wav") is None and name_problem("") is None
    assert name_problem("a\0b") == "contains a NUL character"
    assert "surrogate" in name_problem("\ud800")
    assert name_problem("x" * 255) is None and "256 bytes" in name_problem("x" * 256)
    assert "4096 bytes" in name_problem("a/" * 2048)
    assert sound_name_problem("d" * 250) is None  # "d...d.aiff" is 255 bytes
    assert "256 bytes" in sound_name_problem("d" * 251)
    assert sound_name_problem("d" * 246 + ".ogg") is None


@pytest.mark.parametrize("name", BAD_NAMES)
def test_bad_sound_names_are_input_errors_at_the_api(name):
    plugin = _plugin()
    ctx = plugin.context
    try:
        with pytest.raises(InputError, match="Emitter: sound .* cannot be a file name"):
            Emitter(name)
        with pytest.raises(InputError, match="play_at: sound .* cannot be a file name"):
            play_at(ctx, name, (0.0, 0.0, 0.0))
        with pytest.raises(InputError, match="SoundBank.add"):
            ctx.sounds.add(name, np.zeros(4, dtype=np.float32), 22050)
        scripts = ctx.oni.scripts
        for call in (scripts.sound_music_start, scripts.sound_dialog_play,
                     scripts.sound_dialog_play_block, scripts.sound_dialog_play_interrupt,
                     scripts.sound_impulse_play, ctx.oni.ambient_start, ctx.oni.placed.start):
            with pytest.raises(InputError, match="cannot be a file name"):
                call(name)
        npc = esper.create_entity(Position(0.0, 0.0, 0.0))
        script = ctx.redguard.script
        for rg_call in (script.RTX, script.RTXp, script.AmbientRTX, script.Taunt):
            with pytest.raises(InputError, match="label .* cannot be a file name"):
                rg_call(npc, name)
    finally:
        plugin.uninstall()


@pytest.mark.parametrize("name", BAD_NAMES)
def test_bad_sound_names_from_data_are_one_cached_bad_sound_event(tmp_path, name):
    """An Oni permutation, an emitter renamed by the game, an AC-style channel start:
    each bad name is one ``bad_sound`` per bank, never an exception in esper.process."""
    plugin = _plugin(sound_root=tmp_path, seed=3)
    ctx = plugin.context
    try:
        ctx.oni.loads_toml('[groups.hum]\npermutations = [{ sound = "later" }]\n'
                           '[ambients.cave]\nbase1 = "hum"\n')
        ctx.oni.group("hum").permutations[0].sound = name  # as an OSBD file can hold it
        synth.add_to(ctx.sounds, "ok", synth.tone(300.0, 0.2))
        esper.create_entity(Listener(), Position(0.0, 0.0, 0.0))
        emitter = Emitter("ok")
        esper.create_entity(emitter, Position(1.0, 0.0, 0.0))
        esper.process(1 / 60)
        emitter.sound = name  # the game (or its data) renames it
        bank = ctx.channels["ac"]
        for _ in range(120):
            ctx.oni.scripts.sound_music_start("cave")
            handle = bank.acquire(sound=name)
            assert not bank.play(handle, name, volume=1.0)
            esper.process(1 / 60)  # never raises
        bad = ctx.events.where(event="bad_sound", sound=name)
        assert sorted(r["source"] for r in bad) == ["ac", "modern", "oni"]
        assert all("cannot be a file name" in r["reason"] for r in bad)
        assert name in ctx.sounds.refused and not ctx.events.where(event="error")
    finally:
        plugin.uninstall()


def test_a_fifo_or_device_in_the_sound_root_is_never_opened(tmp_path):
    os.mkfifo(tmp_path / "pipe.wav")  # opening it would block: only regular files are files
    (tmp_path / "zero.wav").symlink_to("/dev/zero")
    (tmp_path / "dev").mkdir()
    (tmp_path / "dev" / "null.wav").symlink_to("/dev/null")
    bank = SoundBank(tmp_path)
    assert bank.get("pipe") is None and bank.missing == {"pipe"}
    with pytest.raises(InputError, match="escapes the sound root"):
        bank.get("zero")
    assert set(bank.refused) == {"zero"}


def test_sound_files_over_the_cap_are_refused_unread(tmp_path):
    _wav16(tmp_path / "big.wav", range(1000))
    bank = SoundBank(tmp_path, max_file_bytes=1000)
    with pytest.raises(DataError, match="big.wav is 2044 bytes, over the cap of 1000"):
        bank.get("big")
    assert "big" in bank.refused and SoundBank(tmp_path).get("big").frames == 1000


# -- cause 5: a negative packed offset ---------------------------------------------------


@pytest.mark.parametrize("offset", [-1, -8, -100, 9, 2**40])
def test_packed_offsets_outside_the_data_are_data_errors(offset):
    with pytest.raises(DataError, match=r"stb\.offset: .* is outside the data's 0\.\.8 bytes"):
        unpack_stb_desc_from(bytes(8), offset)


def test_packed_offset_at_the_end_is_truncated():
    with pytest.raises(DataError, match="truncated"):
        unpack_stb_desc_from(bytes(8), 8)


# -- cause 6: a float64 WAV beyond float32 ------------------------------------------------


def _float64_wav(values) -> bytes:
    raw = np.asarray(values, dtype="<f8").tobytes()
    fmt = struct.pack("<HHIIHH", 3, 1, 22050, 22050 * 8, 8, 64)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt
    body += b"data" + struct.pack("<I", len(raw)) + raw
    return b"RIFF" + struct.pack("<I", len(body)) + body


def test_float64_wav_beyond_float32_decodes_without_overflow():
    # pytest turns RuntimeWarning into an error (pyproject), so the old cast failed here
    wav = decode_wav(_float64_wav([1e300, -1e300, 0.5, np.nan, np.inf]), "big.wav")
    samples = wav.samples[:, 0]
    assert np.isfinite(samples).all()
    assert samples[2] == 0.5 and samples[3] == 0.0 and samples[4] == 1.0
    assert samples[0] == np.finfo(np.float32).max and samples[1] == -np.finfo(np.float32).max


def test_a_float64_wav_beyond_the_sample_limit_is_refused_by_the_bank(tmp_path):
    (tmp_path / "loud.wav").write_bytes(_float64_wav([1e300, 0.0]))
    bank = SoundBank(tmp_path)
    # decoded a piece at a time into the store, a bad piece is a DataError naming the file
    with pytest.raises(DataError, match=r"loud\.wav: data: .*beyond"):
        bank.get("loud")


# -- found by the loader fuzz: a compressed header promising more frames than exist ---------


def _flac_of_unknown_length() -> bytes:
    """A valid FLAC whose STREAMINFO total-samples field (36 bits) says 0, "unknown":
    libsndfile then reports 2**63 - 1 frames."""
    soundfile = pytest.importorskip("soundfile")
    import io

    buffer = io.BytesIO()
    soundfile.write(buffer, np.zeros(4096, dtype=np.float32), 22050, format="FLAC")
    data = bytearray(buffer.getvalue())
    field = int.from_bytes(data[18:26], "big")
    data[18:26] = (field & ~((1 << 36) - 1)).to_bytes(8, "big")
    return bytes(data)


def test_a_header_promising_endless_frames_is_a_data_error(tmp_path):
    from soundscape.audio.decoders import decode_all, open_decoder

    (tmp_path / "endless.flac").write_bytes(_flac_of_unknown_length())
    with open_decoder(tmp_path / "endless.flac") as decoder:
        assert decoder.frames == 2**63 - 1
        with pytest.raises(DataError, match="frames: .* do not fit in memory"):
            decode_all(decoder)  # was ValueError ("array is too big") or MemoryError
    with pytest.raises(DataError, match=r"decode to \d+ bytes, over 8 x Settings.max_file"):
        SoundBank(tmp_path).get("endless.flac")
