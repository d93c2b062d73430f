"""The plugin core: clock, random streams, event log, phases and install order."""

from __future__ import annotations

import json
import math

import esper
import pytest

from soundscape import Clock, EventLog, Phase, Rng, Settings, SoundscapePlugin, phase_priority
from soundscape.events import REQUIRED_FIELDS
from soundscape.rng import MsvcRand


def test_clock_steps_whole_ticks_and_carries_the_remainder():
    clock = Clock()
    assert clock.advance(1 / 120) == 0
    assert clock.advance(1 / 120) == 1
    assert clock.tick == 1
    for _ in range(59):
        clock.advance(1 / 60)
    assert clock.tick == 60
    assert clock.now_s == pytest.approx(1.0)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -0.1])
def test_clock_refuses_bad_dt(bad):
    with pytest.raises(ValueError, match="dt"):
        Clock().advance(bad)


def test_msvc_rand_matches_the_crt_sequence():
    # The first draws of MSVC rand() after srand(1).
    r = MsvcRand(1)
    assert [r.rand() for _ in range(5)] == [41, 18467, 6334, 26500, 19169]


def test_rng_streams_are_seeded_and_independent():
    a, b = Rng(3), Rng(3)
    a.msvc("other").rand()  # drawing from one stream leaves another alone
    assert a.msvc("ac").rand() == b.msvc("ac").rand()
    assert Rng(3).oni("x").draw() != Rng(4).oni("x").draw()


def test_event_log_records_have_every_field_and_stream_as_json(tmp_path):
    clock = Clock()
    clock.step(3)
    path = tmp_path / "events.jsonl"
    log = EventLog(clock, path)
    log.emit("ac", "play", sound="wind", pos=(1.0, 2.0, math.nan), gain=0.25, db=-12)
    log.close()
    record = json.loads(path.read_text().splitlines()[0])
    assert set(REQUIRED_FIELDS) <= set(record)
    assert record["tick"] == 3 and record["t"] == pytest.approx(0.05)
    assert record["pos"] == [1.0, 2.0, None]
    assert record["channel"] is None


def test_phases_follow_the_design_order():
    order = [p.name for p in sorted(Phase)]
    assert order == [
        "CLOCK", "CELL_REBUILD", "OBJECT_UPDATE", "AMBIENT_PLAYBACK", "OCCLUSION",
        "PLACED_AMBIENTS", "FLYBYS", "SOUND_OBJECTS", "CHANNELS", "PUBLISH",
    ]
    priorities = [phase_priority(p, -100) for p in sorted(Phase)]
    assert priorities == sorted(priorities, reverse=True)
    assert max(priorities) < 0  # below a game's default processors


def test_install_adds_processors_in_phase_order_below_the_game():
    class GameMover(esper.Processor):
        def process(self, *args):
            pass

    esper.add_processor(GameMover())
    plugin = SoundscapePlugin(Settings(seed=5, backend="none")).install()
    processors = esper._processors  # esper keeps them sorted by priority, highest first
    assert isinstance(processors[0], GameMover)
    phases = [item.phase for item in sorted(plugin.installed, key=lambda i: -i.priority)]
    assert phases == sorted(phases)
    ours = [p for p in processors if not isinstance(p, GameMover)]
    assert ours == [i.processor for i in sorted(plugin.installed, key=lambda i: -i.priority)]
    plugin.uninstall()
    assert esper._processors == [processors[0]]


def test_a_bad_dt_is_logged_and_the_loop_goes_on():
    plugin = SoundscapePlugin(Settings(backend="none")).install()
    esper.process(math.nan)
    esper.process(1 / 60)
    assert plugin.clock.tick == 1
    assert plugin.events.where(source="clock", event="error")
    plugin.uninstall()


def test_settings_refuse_unknown_profiles_and_features():
    with pytest.raises(ValueError, match="profile"):
        Settings(profile="doom")
    with pytest.raises(ValueError, match="features"):
        Settings(features=("ac", "quake"))


def test_the_plugin_hands_out_each_installed_runtime_and_names_a_missing_one():
    plugin = SoundscapePlugin(Settings(backend="none", features=("audio", "ac"))).install()
    assert plugin.ac is plugin.context.ac
    assert plugin.sounds is plugin.context.sounds
    assert "ac" in plugin.channels
    with pytest.raises(RuntimeError, match="'oni' is not installed"):
        _ = plugin.oni
    plugin.uninstall()
