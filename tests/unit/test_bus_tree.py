"""The bus tree on its own (``soundscape.audio.buses``): names, gains down the tree,
pausing, pause_all/resume_all, fades, and the duck's envelope in dB."""

from __future__ import annotations

import pytest

from soundscape.audio.buses import Buses
from soundscape.errors import InputError


def test_a_bus_hears_its_parents_volume_mute_and_duck():
    buses = Buses()
    steps = buses.add("steps", parent="sfx")
    buses["master"].volume = 0.5
    buses["sfx"].volume = 4.0
    steps.volume = 0.25
    assert buses.gains()[steps.index] == pytest.approx(0.5)
    buses["sfx"].muted = True
    assert buses.gains()[steps.index] == 0.0
    assert buses.gains()[buses.index("music")] == 0.5  # a sibling is untouched


def test_bad_names_and_values_are_input_errors():
    buses = Buses()
    for bad in ("", None, 3):
        with pytest.raises(InputError):
            buses.add(bad)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="no bus"):
        buses.index("nope")
    with pytest.raises(InputError, match="depth_db"):
        buses.duck("music", "dialogue", depth_db=3.0)
    with pytest.raises(InputError, match="attack_s"):
        buses.duck("music", "dialogue", attack_s=float("nan"))
    with pytest.raises(InputError, match="seconds"):
        buses["music"].fade_to(1.0, float("inf"))


def test_pausing_a_parent_holds_its_children_and_pause_all_spares_ui_and_below():
    buses = Buses()
    buses.add("menu_music", parent="ui")
    buses.add("steps", parent="sfx")
    buses["sfx"].paused = True
    assert {"sfx", "steps"} <= buses.paused_names and "music" not in buses.paused_names
    buses["sfx"].paused = False
    buses["dialogue"].paused = True  # the game's own
    buses.pause_all()
    assert buses.paused_names == {"music", "dialogue", "sfx", "steps", "ambience"}
    buses.resume_all()
    assert buses.paused_names == {"dialogue"}  # pause_all's are undone, the game's kept


def test_a_fade_is_a_straight_line_and_setting_the_volume_ends_it():
    buses = Buses()
    music = buses["music"]
    music.fade_to(0.0, 2.0)
    buses.tick(0.5, ())
    assert music.volume == pytest.approx(0.75)
    music.volume = 0.3
    buses.tick(0.5, ())
    assert music.volume == 0.3 and not music.fading


def test_the_duck_moves_in_db_by_its_attack_and_release_and_a_second_rule_replaces():
    buses = Buses()
    buses.duck("music", "dialogue", depth_db=-12.0, attack_s=0.2, release_s=0.6)
    buses.tick(0.1, {"dialogue"})
    assert buses["music"].duck_db == pytest.approx(-6.0)
    buses.tick(0.2, {"dialogue"})
    assert buses["music"].duck_db == -12.0
    buses.tick(0.3, set())
    assert buses["music"].duck_db == pytest.approx(-6.0)
    buses.add("barks", parent="dialogue")
    buses.tick(1.0, {"barks"})  # a bus under ``by`` counts
    assert buses["music"].duck_db == -12.0
    buses.duck("music", "dialogue", depth_db=-3.0, attack_s=0.0)
    assert len(buses.ducks) == 1
    buses.tick(0.1, {"dialogue"})
    assert buses["music"].duck_db == -3.0
    buses.unduck("music", "dialogue")
    assert buses["music"].duck_db == 0.0 and buses.gains()[buses.index("music")] == 1.0


def test_changed_only_when_a_gain_moves():
    buses = Buses()
    assert not buses.changed  # every gain is 1, as the mixer assumes
    buses["ambience"].paused = True
    assert not buses.changed  # a pause reaches the mixer through the voices
    buses["ambience"].volume = 0.5
    assert buses.changed


def test_voice_bus_is_kept_but_sees_every_pause_and_new_bus():
    """``voice_bus`` (what every voice's params read each tick) is cached by name, yet
    a pause, a resume, an ancestor's pause, ``pause_all`` and a bus added after a
    voice asked for its name are all seen at once."""
    buses = Buses()

    def plain(name: str) -> tuple[int, bool]:  # the uncached rule
        return (buses.index(name) if name in buses else 0, name in buses.paused_names)

    names = ["sfx", "music", "ui", "steps", "nope"]
    assert [buses.voice_bus(n) for n in names] == [plain(n) for n in names]
    assert buses.voice_bus("steps") == (0, False)  # no such bus yet
    steps = buses.add("steps", parent="sfx")
    assert buses.voice_bus("steps") == (steps.index, False) != (0, False)
    buses["sfx"].paused = True  # the parent: steps is held too
    assert buses.voice_bus("steps") == (steps.index, True)
    assert buses.voice_bus("sfx")[1] and not buses.voice_bus("music")[1]
    buses["sfx"].paused = False
    assert not buses.voice_bus("steps")[1]
    buses.pause_all()
    assert [buses.voice_bus(n) for n in names] == [plain(n) for n in names]
    assert buses.voice_bus("music")[1] and not buses.voice_bus("ui")[1]
    buses.resume_all()
    assert [buses.voice_bus(n) for n in names] == [plain(n) for n in names]
    assert not buses.voice_bus("music")[1]
