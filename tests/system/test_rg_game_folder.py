"""``plugin.redguard.load_game_folder(path)``: the Redguard runtime driven by the retail
files (SYSTEM.INI, SURFACE.INI, ENGLISH.RTX, SOUND/MAIN.SFX) built by the test writer.

An effect from MAIN.SFX and a line from ENGLISH.RTX play through the runtime; the
rendered mix equals the Miles integer arithmetic over the file's own PCM, and only
what played was read.
"""

from __future__ import annotations

import sys
from pathlib import Path

import esper
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "unit"))
from rg_retail_writer import Audio, RtxWriter, game_folder, system_ini, tone  # noqa: E402

from soundscape import Settings, SoundscapePlugin  # noqa: E402
from soundscape.components.redguard import RgObject  # noqa: E402
from soundscape.components.spatial import Listener, Position  # noqa: E402
from soundscape.errors import DataError  # noqa: E402
from soundscape.laws import redguard as law  # noqa: E402

EFFECTS = [Audio(tone(22050, i), level=64 + i) for i in range(3)]
EFFECTS.append(Audio(tone(22050, 9, bits=8), sample_rate=22050, level=50, loop_flag=-1))


def _rtx() -> RtxWriter:
    w = RtxWriter()
    w.add(b"#bon", b"Well met, Cyrus.")
    w.add(b"vql1", b"Speak.", Audio(tone(11025, 5), sample_rate=11025, level=100))
    return w


def _plugin(backend: str = "none"):
    settings = Settings(seed=1, backend=backend, features=("audio", "redguard"),
                        sample_rate_hz=22050, redguard_tick_s=1 / 60)
    plugin = SoundscapePlugin(settings).install()
    esper.create_entity(Listener(heading_rad=0.0), Position())
    return plugin


def test_the_folder_sets_the_runtime_up_and_reads_only_headers_and_the_index(tmp_path):
    folder = game_folder(tmp_path / "Redguard", EFFECTS, _rtx(), system=system_ini(
        volume=200, sound_distance=32, lines=24, speech=0, print_text=0, distance=900,
        menu_items=301, width=151, delay=0))
    plugin = _plugin()
    rt = plugin.redguard
    opened = rt.load_game_folder(folder)
    c = rt.config
    assert (c.sound_distance, c.master_volume, c.dialog_max_dialog_lines, c.dialog_use_speech,
            c.dialog_print_text, c.dialog_max_distance, c.dialog_max_menu_items,
            c.dialog_max_text_width, c.menu_traverse_delay, c.effect_count) == \
        (32, 200, 24, 0, 0, 900, 301, 151, 0, 4)
    assert rt.radius == 32 * 36 and rt.master == 200 and len(rt.dialogue.records) == 24
    assert len(rt.effects) == 4 and opened.config is c
    assert rt.surface.lookup(6, 4) == 108 and rt.surface.lookup(1, 4) == 69
    assert rt.surface_types.lookup(302, 5) == 1 and rt.surface_types.lookup(302, 9) == 6
    assert opened.sfx.file.bytes_read == 52 + 4 * 27 + 4
    assert opened.rtx.file.bytes_read == 12 + 2 * 12
    assert [n for n in plugin.sounds.names() if n.startswith("rg.")] == []
    ev = plugin.events.where(event="game_folder")[0]
    assert ev["effects"] == 4 and ev["lines"] == 2


def test_an_effect_and_a_line_play_from_the_files_exactly(tmp_path):
    folder = game_folder(tmp_path / "rg", EFFECTS, _rtx())
    plugin = _plugin("offline")
    rt = plugin.redguard
    rt.load_game_folder(folder)
    source = esper.create_entity(Position(0.0, 0.0, 0.0), RgObject())
    rt.script.FlatSound(source, 3, 10, 0)  # base volume 50 from byte 0x0C, + 10
    for _ in range(6):
        esper.process(1 / 60)
    names = [n for n in plugin.sounds.names() if n.startswith("rg.")]
    assert names == ["rg.sfx.3"]
    start = plugin.events.where(event="rg_start")[0]
    assert start["volume"] == 60 and start["loop"] is True and start["rate_hz"] == 22050
    out = plugin.context.mixer.backend.audio()
    expected = law.miles_mix(EFFECTS[3].pcm[: out.shape[0]], (60 * 255) >> 8, 64, 8)
    assert np.array_equal(np.round(out.astype(np.float64) * 32768).astype(np.int64), expected)


def test_speech_and_text_lines_come_from_the_rtx_file(tmp_path):
    folder = game_folder(tmp_path / "rg", EFFECTS, _rtx())
    plugin = _plugin()
    rt = plugin.redguard
    rt.load_game_folder(folder)
    speaker = esper.create_entity(Position(0.0, 0.0, 0.0), RgObject())
    rt.script.RTX(speaker, "VQL1")
    esper.process(1 / 60)
    start = plugin.events.where(event="rg_start", sound="rg.rtx.vql1")[0]
    assert start["volume"] == 100 and start["rate_hz"] == 11025 and start["pan"] == 64
    record = rt.dialogue.records[1]
    assert record.text == "Speak." and record.active
    rt.script.RTX(speaker, "#bon")
    esper.process(1 / 60)
    assert rt.dialogue.records[2].text == "Well met, Cyrus."
    assert "rg.rtx.#bon" not in plugin.sounds.names()


def test_names_match_without_case_and_the_rtx_name_comes_from_system_ini(tmp_path):
    folder = tmp_path / "rg"
    game_folder(folder, EFFECTS, _rtx(), sound_dir="sound",
                system=system_ini(rtx="speech\\French.rtx").replace("[dialog]", "[DIALOG]"))
    (folder / "speech").mkdir()
    (folder / "ENGLISH.RTX").rename(folder / "speech" / "FRENCH.RTX")
    (folder / "SYSTEM.INI").rename(folder / "system.ini")
    plugin = _plugin()
    opened = plugin.redguard.load_game_folder(folder)
    assert opened.rtx.source.endswith("FRENCH.RTX") and opened.sfx.source.endswith("MAIN.SFX")
    assert plugin.redguard.config.dialog_max_distance == 1600


def test_a_second_folder_closes_the_first(tmp_path):
    plugin = _plugin()
    first = plugin.redguard.load_game_folder(game_folder(tmp_path / "a", EFFECTS, _rtx()))
    second = plugin.redguard.load_game_folder(game_folder(tmp_path / "b", EFFECTS[:2], _rtx()))
    assert first.sfx.file.closed and first.rtx.file.closed and not second.sfx.file.closed
    assert len(plugin.redguard.effects) == 2 and plugin.redguard.effects.get(3) is None


@pytest.mark.parametrize(("spoil", "message"), [
    (lambda f: (f / "SYSTEM.INI").unlink(), r"SYSTEM\.INI: missing"),
    (lambda f: (f / "surface.ini").unlink(), r"SURFACE\.INI: missing"),
    (lambda f: (f / "ENGLISH.RTX").unlink(), r"ENGLISH\.RTX: missing"),
    (lambda f: (f / "SOUND" / "MAIN.SFX").unlink(), r"MAIN\.SFX: missing"),
    (lambda f: (f / "SYSTEM.INI").write_text(system_ini(sound_distance="far")),
     r"SYSTEM\.INI: \[system\]\.sound_distance: 'far' is not a whole number"),
    (lambda f: (f / "SYSTEM.INI").write_text(system_ini(sound_distance=3)),
     r"SYSTEM\.INI: \[system\]\.sound_distance: "),
    (lambda f: (f / "SYSTEM.INI").write_text(system_ini(volume=-1)),
     r"SYSTEM\.INI: \[system\]\.volume: must be >= 0"),
    (lambda f: (f / "SYSTEM.INI").write_text("[system\nvolume=1"), r"SYSTEM\.INI: cannot read"),
    (lambda f: (f / "SOUND" / "MAIN.SFX").write_bytes(b"FXHD" + b"\0" * 60),
     r"MAIN\.SFX: FXHD@0x4\.section_size"),
    (lambda f: (f / "ENGLISH.RTX").write_bytes(b"\0" * 12), r"ENGLISH\.RTX: RNAV@0x0\.tag"),
])
def test_a_bad_folder_is_refused_naming_the_file(tmp_path, spoil, message):
    folder = game_folder(tmp_path / "rg", EFFECTS, _rtx())
    spoil(folder)
    plugin = _plugin()
    before = plugin.redguard.config
    with pytest.raises(DataError, match=message):
        plugin.redguard.load_game_folder(folder)
    assert plugin.redguard.config is before and plugin.redguard.game_folder is None


@pytest.mark.parametrize("name", ["..\\outside.rtx", "../outside.rtx", "/etc/passwd",
                                  "link.rtx"])
def test_the_rtx_file_named_by_system_ini_stays_in_the_folder(tmp_path, name):
    """Issue 13's path rule: a path written in data resolves inside the data's folder."""
    (tmp_path / "outside.rtx").write_bytes(_rtx().build())
    folder = game_folder(tmp_path / "rg", EFFECTS, _rtx(), system=system_ini(rtx=name))
    (folder / "link.rtx").symlink_to(tmp_path / "outside.rtx")
    with pytest.raises(DataError, match=r"SYSTEM\.INI: \[system\]\.rtx_filename: .*outside"):
        _plugin().redguard.load_game_folder(folder)


def test_not_a_folder(tmp_path):
    with pytest.raises(DataError, match="not a folder"):
        _plugin().redguard.load_game_folder(tmp_path / "nowhere")
