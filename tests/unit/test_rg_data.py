"""Redguard data: the effect bank (TOML + WAV), SURFACE.INI and the settings."""

from __future__ import annotations

import wave

import numpy as np
import pytest

from soundscape.audio.sounds import SoundBank
from soundscape.errors import DataError
from soundscape.redguard.config import RgConfig
from soundscape.redguard.effects import EffectBank
from soundscape.redguard.surface import SurfaceRemap


def write_wav(path, data: np.ndarray, rate: int, width: int) -> None:
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(width)
        wav.setframerate(rate)
        wav.writeframes(data.tobytes())


def test_effect_bank_keeps_one_copy_of_the_int_pcm_as_exact_floats():
    sounds = SoundBank()
    bank = EffectBank(sounds, 118)
    pcm = np.array([0, 1, -1, 32767, -32768], dtype=np.int16)
    effect = bank.add(5, pcm, 22050, base_volume=90, loop_flag=0xE1)
    assert effect.loops and effect.sample_bits == 16 and len(bank) == 118
    data = sounds.get("rg.sfx.5").samples[:, 0]
    assert np.array_equal(np.round(data * 32768).astype(np.int64), pcm.astype(np.int64))
    got, bits = bank.pcm_for("rg.sfx.5")  # the integers back from the one copy, exactly
    assert bits == 16 and got.dtype == np.int16 and np.array_equal(got, pcm)
    assert effect.kept is None and np.array_equal(effect.pcm, pcm)  # no copy of its own
    alone = EffectBank(None).add(5, pcm, 22050)  # no sound bank: the effect keeps it
    assert alone.pcm is alone.kept and np.array_equal(alone.pcm, pcm)
    u8 = bank.add(6, np.array([128, 255, 0], dtype=np.uint8), 11025)
    assert u8.sample_bits == 8 and not u8.loops
    f = sounds.get("rg.sfx.6").samples[:, 0]
    assert np.round(f * 32768).astype(int).tolist() == [0, 127 * 256, -128 * 256]
    assert bank.get(118) is None and bank.get(-1) is None and bank.get(7) is None


def test_effect_bank_refuses_bad_data():
    bank = EffectBank(None)
    with pytest.raises(DataError, match=r"effect\[3\]\.pcm"):
        bank.add(3, np.zeros(4, dtype=np.float32), 22050)
    with pytest.raises(DataError, match="sample_rate_hz"):
        bank.add(3, np.zeros(4, dtype=np.int16), 0)
    with pytest.raises(DataError, match="no frames"):
        bank.add(3, np.zeros(0, dtype=np.int16), 22050)
    with pytest.raises(DataError, match="index"):
        bank.add(-2, np.zeros(4, dtype=np.int16), 22050)
    with pytest.raises(DataError, match=r"effect\[3\]\.base_volume"):
        bank.add(3, np.zeros(4, dtype=np.int16), 22050, base_volume="loud")
    with pytest.raises(DataError, match=r"effect\[3\]\.sample_rate_hz"):
        bank.add(3, np.zeros(4, dtype=np.int16), float("nan"))
    assert bank.get(3) is None  # nothing half-registered


def test_rtx_store_refuses_bad_clips():
    from soundscape.redguard.rtx import RtxStore

    store = RtxStore(None)
    with pytest.raises(DataError, match="RTX: label"):
        store.add("", "text")
    with pytest.raises(DataError, match="RTX: l001.text"):
        store.add("L001", None)
    with pytest.raises(DataError, match="l001.header_volume"):
        store.add("L001", "hi", header_volume=1.5)
    with pytest.raises(DataError, match="l001.pcm"):
        store.add("L001", "hi", np.zeros(3, dtype=np.float32))
    assert store.find("L001") is None
    clip = store.add("L001", "hi", np.zeros(3, dtype=np.int16), header_volume=np.int64(90))
    assert store.find("l001") is clip and clip.header_volume == 90


def test_effect_bank_loads_toml_and_wav(tmp_path):
    write_wav(tmp_path / "a.wav", np.array([1, 2, 3], dtype="<i2"), 22050, 2)
    write_wav(tmp_path / "b.wav", np.array([128, 200], dtype=np.uint8), 11025, 1)
    (tmp_path / "main.toml").write_text(
        'count = 118\n'
        '[[effect]]\nindex = 25\nfile = "a.wav"\nbase_volume = 100\nloop_flag = 255\n'
        '[[effect]]\nindex = 62\nfile = "b.wav"\n'
    )
    bank = EffectBank(SoundBank())
    bank.load_toml(tmp_path / "main.toml")
    assert len(bank) == 118
    torch = bank.get(25)
    assert torch.base_volume == 100 and torch.loops and torch.pcm.tolist() == [1, 2, 3]
    assert bank.get(62).sample_rate_hz == 11025 and bank.get(62).sample_bits == 8


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ('[[effect]]\nfile = "a.wav"\n', r"effect\[0\]\.index: is missing"),
        ('[[effect]]\nindex = "x"\nfile = "a.wav"\n', r"effect\[0\]\.index"),
        ('[[effect]]\nindex = 1\nfile = "nope.wav"\n', r"effect\[0\]\.file"),
        ("effect = 3\n", "array of tables"),
        ("count = [\n", "malformed TOML"),
    ],
)
def test_effect_bank_toml_errors_name_the_field(tmp_path, text, match):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(DataError, match=match):
        EffectBank(None).load_toml(path)


def test_surface_ini_sections_in_table_order(tmp_path):
    ini = tmp_path / "SURFACE.INI"
    ini.write_text("[water]\n40 = 41\n40 = 42\n[Rock]\n3 = 0x10000\n[other]\n1 = 2\n")
    remap = SurfaceRemap()
    remap.load_ini(ini)
    assert remap.lookup(1, 40) == 42  # repeated entries overwrite
    assert remap.lookup(10, 3) == 0  # unsigned 16-bit target
    assert remap.lookup(2, 40) == 40  # missing sections keep identity


def test_surface_ini_errors(tmp_path):
    ini = tmp_path / "SURFACE.INI"
    ini.write_text("[water]\nabc = 4\n")
    with pytest.raises(DataError, match="water.abc"):
        SurfaceRemap().load_ini(ini)
    ini.write_text("[water]\n300 = 4\n")
    with pytest.raises(DataError, match="0..255"):
        SurfaceRemap().load_ini(ini)


def test_config_from_settings():
    config = RgConfig.from_settings({"redguard": {"sound_distance": 32, "units_per_m": 10}})
    assert config.radius == 1152 and config.units_per_m == 10.0
    assert RgConfig.from_settings({}).radius == 2304
    with pytest.raises(DataError, match="must be an integer"):
        RgConfig.from_settings({"redguard": {"master_volume": 1.5}})
    with pytest.raises(DataError, match="dict"):
        RgConfig.from_settings({"redguard": 5})


def test_dialogue_menu_settings_floors():
    config = RgConfig.from_settings({"redguard": {
        "dialog_max_menu_items": 10, "dialog_max_text_width": 400, "menu_traverse_delay": 0}})
    assert config.menu_capacity == 300 and config.text_width == 400
    assert config.traverse_delay == 1
    assert RgConfig(menu_traverse_delay=5).traverse_delay == 5


def test_rtx_store_loads_toml_lines(tmp_path):
    from soundscape.redguard.rtx import RtxStore

    write_wav(tmp_path / "l001.wav", np.array([5, -5, 7], dtype="<i2"), 11025, 2)
    (tmp_path / "english.toml").write_text(
        '[[line]]\nlabel = "L001"\ntext = "Greetings."\nfile = "l001.wav"\n'
        'header_volume = 90\n'
        '[[line]]\nlabel = "T001"\ntext = "Text only"\n'
    )
    store = RtxStore(SoundBank())
    store.load_toml(tmp_path / "english.toml")
    voiced = store.find("l001")
    assert voiced.voiced and voiced.sample_rate_hz == 11025 and voiced.header_volume == 90
    assert voiced.pcm.tolist() == [5, -5, 7] and voiced.duration_256() == (6 << 8) // 22050
    assert not store.find("t001").voiced and store.find("T001").text == "Text only"


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ('[[line]]\ntext = "x"\n', r"line\[0\]\.label: must be a string"),
        ('[[line]]\nlabel = "A"\ntext = 3\n', r"line\[0\]\.text"),
        ('[[line]]\nlabel = "A"\ntext = "x"\nfile = "no.wav"\n', r"line\[0\]\.file"),
        ('[[line]]\nlabel = "A"\ntext = "x"\nheader_volume = "y"\n',
         r"line\[0\]\.header_volume"),
        ("line = 2\n", "array of tables"),
        ("[[line]\n", "malformed TOML"),
    ],
)
def test_rtx_toml_errors_name_the_field(tmp_path, text, match):
    from soundscape.redguard.rtx import RtxStore

    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(DataError, match=match):
        RtxStore(None).load_toml(path)
