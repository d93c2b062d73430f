"""Generic emitters in a world (issue 17): walls, cones, doppler and distance models
on the ``modern`` bank, read off the channels the plugin steers."""

from __future__ import annotations

import math

import esper
import pytest

from soundscape import Settings, SoundscapePlugin, synth
from soundscape.audio.emitters import play_at
from soundscape.components import Emitter, Listener, Position, Velocity, Wall
from soundscape.components.occlusion import WALL_TRANSMISSION_DB
from soundscape.errors import InputError
from soundscape.laws.spatial import wall_cutoff_hz

C = 343.0


def install(features=("audio", "occlusion"), **settings):
    plugin = SoundscapePlugin(Settings(backend="none", features=features, **settings)).install()
    synth.add_to(plugin.context.sounds, "hum", synth.tone(220, 1.0))
    esper.create_entity(Listener(), Position(0.0, 0.0, 0.0))
    return plugin


def channel(plugin, entity):
    emitter = esper.component_for_entity(entity, Emitter)
    return plugin.context.channels["modern"].get(emitter.handle)


def test_walls_take_their_transmission_and_close_the_low_pass():
    plugin = install()
    try:
        clear = esper.create_entity(Emitter("hum", min_distance_m=2.0), Position(-4.0, 0.0, 0.0))
        behind = esper.create_entity(Emitter("hum", min_distance_m=2.0, occlusion=True),
                                     Position(4.0, 0.0, 0.0))
        two = esper.create_entity(Emitter("hum", min_distance_m=2.0, occlusion=True),
                                  Position(0.0, 0.0, 4.0))
        deaf = esper.create_entity(Emitter("hum", min_distance_m=2.0), Position(0.0, 0.0, -4.0))
        esper.create_entity(Wall(2.0, -1.0, 2.0, 1.0))  # between the listener and +x
        esper.create_entity(Wall(-1.0, 1.0, 1.0, 1.0, transmission_db=-3.0))  # +z: two walls
        esper.create_entity(Wall(-1.0, 2.0, 1.0, 2.0, transmission_db=-6.0))
        esper.create_entity(Wall(-1.0, -2.0, 1.0, -2.0))  # -z: not occlusion=True
        esper.process(1 / 60)
        assert channel(plugin, clear).volume == pytest.approx(0.5)
        assert channel(plugin, clear).lowpass_hz == 0.0
        one = channel(plugin, behind)
        assert one.volume == pytest.approx(0.5 * 10 ** (WALL_TRANSMISSION_DB / 20))
        assert one.lowpass_hz == wall_cutoff_hz(1)
        both = channel(plugin, two)
        assert both.volume == pytest.approx(0.5 * 10 ** (-9.0 / 20))  # -3 + -6 dB
        assert both.lowpass_hz == wall_cutoff_hz(2) < wall_cutoff_hz(1)
        assert channel(plugin, deaf).volume == pytest.approx(0.5)  # walls only when asked
        rays = plugin.context.occlusion.last_rays
        assert rays[behind].walls == 1 and rays[two].walls == 2  # drawn by the overlay too
    finally:
        plugin.uninstall()


def test_emitters_share_the_records_cache_rule():
    """A count holds until ``rules.cache_due`` (12 ticks, staggered by key mod 12)."""
    plugin = install()
    try:
        ent = esper.create_entity(Emitter("hum", occlusion=True), Position(4.0, 0.0, 0.0))
        esper.process(1 / 60)  # tick 1: counted at once (no walls)
        assert channel(plugin, ent).lowpass_hz == 0.0
        esper.create_entity(Wall(2.0, -1.0, 2.0, 1.0))
        ticks = 1
        while channel(plugin, ent).lowpass_hz == 0.0:
            esper.process(1 / 60)
            ticks += 1
        # counted at tick 1: the next count is at 0 + 12 + ent % 12
        assert plugin.context.clock.tick == 12 + ent % 12
        assert plugin.context.occlusion.heard[ent].walls == 1
    finally:
        plugin.uninstall()


def test_play_at_hears_through_walls_and_without_the_feature_logs_once():
    plugin = install()
    try:
        esper.create_entity(Wall(2.0, -1.0, 2.0, 1.0, transmission_db=-12.0))
        esper.process(1 / 60)
        handle = play_at(plugin.context, "hum", (4.0, 0.0, 0.0), occlusion=True)
        shot = plugin.context.channels["modern"].get(handle)
        assert shot.volume == pytest.approx(0.25 * 10 ** (-12 / 20))
        assert shot.lowpass_hz == wall_cutoff_hz(1)
        open_air = plugin.context.channels["modern"].get(
            play_at(plugin.context, "hum", (4.0, 0.0, 0.0)))
        assert open_air.volume == pytest.approx(0.25) and open_air.lowpass_hz == 0.0
    finally:
        plugin.uninstall()
    plugin = install(features=("audio",))
    try:
        ent = esper.create_entity(Emitter("hum", occlusion=True), Position(4.0, 0.0, 0.0))
        esper.process(1 / 60)
        esper.process(1 / 60)
        assert channel(plugin, ent).volume == pytest.approx(0.25)
        assert len(plugin.events.where(source="emitters", event="no_occlusion")) == 1
    finally:
        plugin.uninstall()


def test_a_cone_faces_the_emitters_heading():
    plugin = install()
    try:
        cone = dict(cone_inner_deg=90.0, cone_outer_deg=180.0, cone_outer_gain=0.2)
        toward = esper.create_entity(Emitter("hum", heading_rad=math.pi, **cone),
                                     Position(0.0, 0.0, 4.0))  # faces south, at the listener
        away = esper.create_entity(Emitter("hum", heading_rad=0.0, **cone),
                                   Position(0.0, 0.0, 4.0))
        side = esper.create_entity(Emitter("hum", heading_rad=math.pi - math.radians(67.5),
                                           **cone), Position(0.0, 0.0, 4.0))
        esper.process(1 / 60)
        assert channel(plugin, toward).volume == pytest.approx(0.25)
        assert channel(plugin, away).volume == pytest.approx(0.25 * 0.2)
        # 67.5 degrees off: halfway from 45 to 90 -> 1 + (0.2 - 1) / 2 = 0.6
        assert channel(plugin, side).volume == pytest.approx(0.25 * 0.6)
    finally:
        plugin.uninstall()


def test_doppler_from_a_velocity_from_a_move_and_from_the_listener():
    plugin = install()
    try:
        given = esper.create_entity(Emitter("hum", pitch=1.5), Position(0.0, 0.0, -20.0),
                                    Velocity(0.0, 0.0, 30.0))  # toward the listener
        moved = esper.create_entity(Emitter("hum"), Position(0.0, 0.0, 20.0))
        fixed = esper.create_entity(Emitter("hum", doppler=False), Position(20.0, 0.0, 0.0))
        esper.process(1 / 60)
        assert channel(plugin, given).pitch == pytest.approx(1.5 * C / (C - 30.0))
        assert channel(plugin, moved).pitch == 1.0  # first tick: no move seen yet
        esper.component_for_entity(moved, Position).z_m += 0.5  # 30 m/s away, north
        esper.process(1 / 60)
        assert channel(plugin, moved).pitch == pytest.approx(C / (C + 30.0))
        esper.component_for_entity(moved, Position).z_m += 100.0  # a teleport: no shift
        esper.process(1 / 60)
        assert channel(plugin, moved).pitch == 1.0
        listener = next(e for e, _ in esper.get_component(Listener))
        esper.add_component(listener, Velocity(20.0, 0.0, 0.0))  # toward the fixed one (east)
        esper.process(1 / 60)
        assert channel(plugin, fixed).pitch == 1.0  # doppler=False
        # the listener moving east, away from the given emitter's line (no part along it)
        assert channel(plugin, given).pitch == pytest.approx(
            1.5 * C / (C - 30.0), rel=1e-3)
    finally:
        plugin.uninstall()


def test_doppler_factor_zero_and_the_speed_of_sound_setting():
    plugin = install(doppler_factor=0.0)
    try:
        ent = esper.create_entity(Emitter("hum"), Position(0.0, 0.0, -20.0),
                                  Velocity(0.0, 0.0, 30.0))
        esper.process(1 / 60)
        assert channel(plugin, ent).pitch == 1.0
    finally:
        plugin.uninstall()
    plugin = install(speed_of_sound_mps=100.0)
    try:
        ent = esper.create_entity(Emitter("hum"), Position(0.0, 0.0, -20.0),
                                  Velocity(0.0, 0.0, 30.0))
        esper.process(1 / 60)
        assert channel(plugin, ent).pitch == pytest.approx(100.0 / 70.0)
    finally:
        plugin.uninstall()
    with pytest.raises(ValueError, match="speed_of_sound_mps"):
        Settings(speed_of_sound_mps=0.0)
    with pytest.raises(ValueError, match="doppler_factor"):
        Settings(doppler_factor=float("nan"))


@pytest.mark.parametrize(("rolloff", "extra", "gain"), [
    ("linear", {}, 1.0 - (10.0 - 2.0) / (20.0 - 2.0)),
    ("exponential", {"rolloff_factor": 2.0}, (10.0 / 2.0) ** -2.0),
    ("none", {}, 1.0),
    ("custom", {"curve": ((0.0, 1.0), (20.0, 0.0))}, 0.5),
])
def test_distance_models_reach_the_channel(rolloff, extra, gain):
    plugin = install()
    try:
        ent = esper.create_entity(Emitter("hum", min_distance_m=2.0, max_distance_m=20.0,
                                          rolloff=rolloff, **extra), Position(10.0, 0.0, 0.0))
        esper.process(1 / 60)
        assert channel(plugin, ent).volume == pytest.approx(gain)
    finally:
        plugin.uninstall()


def test_a_play_at_one_shot_with_a_velocity_is_heard_moving():
    plugin = install()
    try:
        ctx = plugin.context
        coming = ctx.channels["modern"].get(
            play_at(ctx, "hum", (0.0, 0.0, -20.0), velocity=(0.0, 0.0, 25.0)))
        still = ctx.channels["modern"].get(play_at(ctx, "hum", (0.0, 0.0, -20.0), pitch=0.5))
        assert coming.pitch == pytest.approx(C / (C - 25.0))
        assert still.pitch == 0.5
        esper.process(1 / 60)  # steered each tick with the same velocity
        assert coming.pitch == pytest.approx(C / (C - 25.0)) and still.pitch == 0.5
        with pytest.raises(InputError, match="rolloff"):
            play_at(ctx, "hum", (1.0, 0.0, 0.0), rolloff="cubic")
    finally:
        plugin.uninstall()


def test_a_silent_emitter_casts_no_ray():
    plugin = install()
    try:
        esper.create_entity(Wall(2.0, -1.0, 2.0, 1.0))
        far = esper.create_entity(Emitter("hum", occlusion=True, rolloff="linear",
                                          max_distance_m=10.0), Position(30.0, 0.0, 0.0))
        esper.process(1 / 60)
        assert channel(plugin, far).volume == 0.0
        assert far not in plugin.context.occlusion.heard
    finally:
        plugin.uninstall()
