"""Redguard effects and RTX lines keep one copy of their integer PCM (in the sound bank's
store, as exact floats) and RTX audio is loaded only while a line needs it: released
with its cache entry, read again when next looked up. An effect of MAIN.SFX unloaded
with ``unload_unused`` is read again when next played, and mixes the same."""

from __future__ import annotations

import sys
from pathlib import Path

import esper
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "unit"))
from rg_retail_writer import Audio, RtxWriter, game_folder, tone  # noqa: E402

from soundscape import Settings, SoundscapePlugin  # noqa: E402
from soundscape.components.redguard import RgObject  # noqa: E402
from soundscape.components.spatial import Listener, Position  # noqa: E402

EFFECTS = [Audio(tone(4000, i)) for i in range(3)]


def _rtx() -> RtxWriter:
    w = RtxWriter()
    for i in range(5):
        w.add(f"l00{i}".encode(), b"Speak.", Audio(tone(8000 + i, 10 + i), sample_rate=11025))
    return w


def _plugin(tmp_path):
    plugin = SoundscapePlugin(Settings(seed=1, backend="offline", features=("audio", "redguard"),
                                       redguard_tick_s=1 / 60)).install()
    esper.create_entity(Listener(heading_rad=0.0), Position())
    opened = plugin.redguard.load_game_folder(game_folder(tmp_path / "rg", EFFECTS, _rtx()))
    return plugin, opened


def rg_sounds(plugin) -> list[str]:
    return [n for n in plugin.sounds.names() if n.startswith("rg.")]


def test_an_rtx_line_holds_audio_only_while_its_cache_entry_does(tmp_path):
    plugin, opened = _plugin(tmp_path)
    rt = plugin.redguard
    try:
        assert rg_sounds(plugin) == []  # attaching reads no audio
        index = rt.rtx.lookup("l002")
        assert rg_sounds(plugin) == ["rg.rtx.l002"]
        clip = rt.rtx.entries[index].clip
        sound = plugin.sounds.get("rg.rtx.l002")
        assert clip.kept is None  # the clip keeps no copy of its own
        assert sound.nbytes == 4 * 8002 and np.shares_memory(sound.samples,
                                                             plugin.sounds.store.data)
        assert np.array_equal(clip.pcm, tone(8002, 12))  # the integers back, exactly
        read = opened.rtx.file.bytes_read
        rt.rtx.release(index)
        assert rg_sounds(plugin) == [] and sound.removed
        rt.rtx.lookup("l002")  # read again from the file
        assert rg_sounds(plugin) == ["rg.rtx.l002"] and opened.rtx.file.bytes_read > read
    finally:
        plugin.uninstall()


def test_a_speaking_line_keeps_its_audio_until_it_ends(tmp_path):
    plugin, _opened = _plugin(tmp_path)
    rt = plugin.redguard
    try:
        index = rt.rtx.lookup("l001")
        assert rt.rtx.speak(index) is not None
        rt.rtx.release_payloads()  # the periodic reset while the line plays
        assert rg_sounds(plugin) == ["rg.rtx.l001"]
        assert not plugin.events.where(event="stop", reason="unloaded")
    finally:
        plugin.uninstall()


def test_an_unloaded_effect_is_read_again_and_mixes_the_same(tmp_path):
    plugin, opened = _plugin(tmp_path)
    rt = plugin.redguard
    try:
        source = esper.create_entity(Position(0.0, 0.0, 0.0), RgObject())

        def play_and_render() -> np.ndarray:
            plugin.mixer.backend.clear()
            rt.script.FlatSound(source, 1, 10, 0)
            for _ in range(6):
                esper.process(1 / 60)
            return plugin.mixer.backend.audio().copy()

        first = play_and_render()
        assert rg_sounds(plugin) == ["rg.sfx.1"]
        for _ in range(30):  # the effect (4000 frames at 22,050 Hz) ends
            esper.process(1 / 60)
        assert plugin.sounds.unload_unused() == ["rg.sfx.1"] and rg_sounds(plugin) == []
        read = opened.sfx.file.bytes_read
        second = play_and_render()
        assert rg_sounds(plugin) == ["rg.sfx.1"] and opened.sfx.file.bytes_read > read
        assert np.abs(first).max() > 0 and np.array_equal(first, second)
    finally:
        plugin.uninstall()


def test_rtx_speech_plays_on_the_dialogue_bus_effects_on_sfx(tmp_path):
    plugin, _opened = _plugin(tmp_path)
    rt = plugin.redguard
    try:
        slot = rt.rtx.speak(rt.rtx.lookup("l001"))
        effect = rt.start(0, 0, 127, 64)
        bank = rt.bank
        assert slot is not None and effect is not None
        assert bank.channels[slot].bus == "dialogue"
        assert bank.channels[effect].bus == "sfx"
    finally:
        plugin.uninstall()
