"""The starter meadow shipped with soundscape: a region, its sounds and a landblock."""

from __future__ import annotations

import esper
import numpy as np

from soundscape import Settings, SoundscapePlugin, synth
from soundscape.ac.starter import starter_region, starter_region_text, starter_sounds
from soundscape.components import Listener, Position
from soundscape.components.ac import Landblock


def plugin(**extra) -> SoundscapePlugin:
    return SoundscapePlugin(Settings(seed=3, backend="offline", features=("audio", "ac"),
                                     extra=extra)).install()


def test_the_region_parses_and_names_only_the_sounds_it_ships():
    region = starter_region()
    names = {e.sound for table in region.sound_tables.values()
             for entries in table.entries.values() for e in entries}
    assert names == set(starter_sounds()) == {"meadow_wind", "meadow_bird", "meadow_cricket"}
    assert "[[sound_table]]" in starter_region_text()
    for name, samples in starter_sounds().items():
        assert samples.dtype == np.float32 and np.abs(samples).max() > 0.1, name


def test_the_listener_on_the_origin_block_hears_the_meadow():
    p = plugin()
    entity = p.ac.load_starter()
    esper.create_entity(Listener(heading_rad=0.0), Position(96.0, 0.0, 96.0))
    for _ in range(600):
        esper.process(1 / 60)
    plays = p.events.where(source="ac", event="play")
    kinds = {r["sound"] for r in plays}
    assert kinds == {"meadow_wind", "meadow_bird", "meadow_cricket"}
    assert any(r["pan"] not in (0, None) for r in plays)  # intermittents placed around
    assert np.abs(p.mixer.backend.audio()).max() > 0.01
    assert esper.entity_exists(entity)
    p.uninstall()


def test_the_block_follows_the_origin_setting_and_the_games_sounds_win():
    p = plugin(ac_origin_block=(3, 4))
    mine = synth.tone(300.0, 4.0)
    synth.add_to(p.sounds, "meadow_wind", mine)
    entity = p.ac.load_starter()
    block = esper.component_for_entity(entity, Landblock)
    assert (block.block_x, block.block_y) == (3, 4)
    assert np.array_equal(p.sounds.get("meadow_wind").samples[:, 0], mine)
    p.uninstall()
