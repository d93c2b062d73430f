"""The Oni runtime inside the whole plugin: esper processors, walls, the offline mix."""

from __future__ import annotations

import esper
import numpy as np
import pytest

from soundscape import Phase, Settings, SoundscapePlugin
from soundscape.components.occlusion import Occluded, Wall
from soundscape.components.spatial import Listener, Position
from soundscape.laws.oni import occlusion_volume
from soundscape.oni.sound_test import synthesise
from soundscape.systems.placed_ambients import PlacedAmbientSystem
from soundscape.systems.sound_objects import SoundObjectSystem

TOML = """
[groups.hum]
channels = "mono"
permutations = [{ sound = "hum" }]
[ambients.hum]
can_pan = true
base1 = "hum"
distance = [20.0, 60.0]
[groups.line]
permutations = [{ sound = "line" }]
[ambients.line]
priority = 3
interrupt_on_stop = true
play_once = true
base1 = "line"
"""


@pytest.fixture
def plugin():
    p = SoundscapePlugin(Settings(seed=4, backend="offline",
                                  features=("audio", "occlusion", "oni"))).install()
    ctx = p.context
    ctx.sounds.add("hum", synthesise(1.0, 200.0, 0.0), 22050)
    ctx.sounds.add("line", synthesise(0.5, 500.0, 0.0), 22050)
    ctx.oni.loads_toml(TOML)
    esper.create_entity(Listener(heading_rad=0.0), Position(0.0, 0.0, 0.0))
    yield p
    p.uninstall()


def run(n):
    for _ in range(n):
        esper.process(1 / 60)


def test_the_oni_phases_are_installed_in_order(plugin):
    phases = {type(i.processor): (i.phase, i.priority) for i in plugin.installed}
    assert phases[PlacedAmbientSystem][0] == Phase.PLACED_AMBIENTS
    assert phases[SoundObjectSystem][0] == Phase.SOUND_OBJECTS
    assert phases[PlacedAmbientSystem][1] > phases[SoundObjectSystem][1]
    bank = plugin.context.channels["oni"]
    assert len(bank.channels) == 16 and sum(c.kind == 2 for c in bank.channels) == 7


def test_a_placed_ambient_behind_a_wall_and_to_the_east_is_quieter_and_on_the_right(plugin):
    ctx = plugin.context
    esper.create_entity(Wall(10.0, -5.0, 10.0, 5.0))
    run(1)
    index = ctx.oni.placed.start("hum", (30.0, 0.0, 0.0), volume=1.0)
    run(30)
    occ = esper.component_for_entity(ctx.oni.placed.entities[index], Occluded)
    assert occ.walls == 1 and occ.volume == pytest.approx(occlusion_volume(1))
    rec = ctx.oni.placed.get(index)
    assert rec.current_volume == pytest.approx(occlusion_volume(1))
    channel = next(c for c in ctx.channels["oni"].channels if c.playing)
    assert channel.pan > 0  # east of a north-facing listener: the left side is cut
    audio = ctx.mixer.backend.audio()[-48000 // 4:]
    left, right = (float(np.sqrt(np.mean(audio[:, i] ** 2))) for i in (0, 1))
    assert right > left > 0.0


def test_a_dialogue_and_its_end_through_esper(plugin):
    ctx = plugin.context
    assert ctx.oni.scripts.sound_dialog_play("line")
    run(40)
    assert ctx.oni.scripts.dialog_ends == [("line", 30)]
    records = ctx.events.where(source="oni", event="ambient_end")
    assert [r["sound"] for r in records] == ["line"]


def test_a_nan_place_written_into_the_position_goes_out_of_hearing(plugin):
    ctx = plugin.context
    index = ctx.oni.placed.start("hum", (5.0, 0.0, 0.0))
    run(2)
    pos = esper.component_for_entity(ctx.oni.placed.entities[index], Position)
    pos.x_m = float("nan")
    run(2)
    assert ctx.oni.placed.get(index).sound_id == -1
    assert all(np.isfinite(c.volume) for c in ctx.channels["oni"].channels)
    assert not ctx.events.where(source="oni", event="error")  # the phase ran to its end
