"""The emitters as arrays (issue 18): the vectorised laws give the per-emitter law's
numbers to the bit, for random emitters, NaN and infinite places included, and a
still scene sends the audio side nothing."""

from __future__ import annotations

import math
import random

import esper
import numpy as np
import pytest

from soundscape import Settings, SoundscapePlugin, synth
from soundscape.audio import channel_laws, channel_stream
from soundscape.audio.commands import SET
from soundscape.audio.emitter_rows import bearing_pans, py_max, py_min
from soundscape.audio.emitters import Heard, spatial_of
from soundscape.audio.profiles import apply_law, apply_modern_laws
from soundscape.components import Emitter, Listener, Position, Velocity
from soundscape.laws.modern import bearing_pan

ODD = [float("nan"), float("inf"), -float("inf"), 1e308, -1e308, 0.0, -0.0]


def install(**settings):
    plugin = SoundscapePlugin(Settings(backend="none", features=("audio",), **settings)).install()
    synth.add_to(plugin.context.sounds, "hum", synth.tone(220, 1.0))
    synth.add_to(plugin.context.sounds, "buzz", synth.tone(330, 0.05))
    return plugin


def random_emitter(rng: random.Random) -> Emitter:
    rolloff = rng.choice(["inverse", "inverse", "linear", "exponential", "none", "custom"])
    near = rng.choice([0.0, 0.5, 2.0, rng.uniform(0.0, 10.0)])
    far = rng.choice([near, near + 1.0, rng.uniform(near, 80.0), math.inf])
    inner = rng.choice([360.0, 360.0, rng.uniform(0.0, 180.0)])
    return Emitter("hum", volume=rng.choice([0.0, 1.0, rng.uniform(0.0, 2.0)]),
                   min_distance_m=near, max_distance_m=far, rolloff=rolloff,
                   rolloff_factor=rng.choice([0.0, 1.0, rng.uniform(0.0, 3.0)]),
                   curve=((0.0, 1.0), (rng.uniform(1.0, 40.0), rng.uniform(0.0, 1.0))),
                   pitch=rng.choice([1.0, rng.uniform(0.5, 2.0)]),
                   heading_rad=rng.uniform(-4.0, 4.0), cone_inner_deg=inner,
                   cone_outer_deg=rng.uniform(inner, 360.0),
                   cone_outer_gain=rng.uniform(0.0, 1.0), doppler=rng.random() < 0.8)


def coordinate(rng: random.Random) -> float:
    return rng.choice(ODD) if rng.random() < 0.05 else rng.uniform(-60.0, 60.0)


def test_py_min_max_keep_pythons_choice():
    values = [float("nan"), -0.0, 0.0, 1.0, -1.0, math.inf]
    for a in values:
        for b in values:
            got_max = py_max(np.array([a]), np.array([b]))[0]
            got_min = py_min(np.array([a]), np.array([b]))[0]
            for got, want in ((got_max, max(a, b)), (got_min, min(a, b))):
                assert repr(float(got)) == repr(want)


def test_bearing_pans_equal_the_law_to_the_bit():
    rng = np.random.default_rng(18)
    dx, dz = rng.uniform(-80, 80, 5000), rng.uniform(-80, 80, 5000)
    dx[:7], dz[:7] = ODD, ODD[::-1]
    dx[7], dz[7] = 0.0, 0.0
    for heading in (0.0, 1.3, -2.9):
        want = [bearing_pan(a, b, heading) for a, b in zip(dx.tolist(), dz.tolist(), strict=True)]
        got = bearing_pans(dx, dz, heading).tolist()
        assert [repr(v) for v in got] == [repr(v) for v in want]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_voice_gets_the_per_emitter_law(seed):
    """Random emitters (every rolloff, cones, doppler by ``Velocity`` or derived), a moving and
    turning listener, places turning NaN and infinite and back: after each tick every
    playing voice's volume, pan, pitch and cutoff equal ``EmitterService.hear`` of
    that emitter, exactly."""
    rng = random.Random(seed)
    plugin = install()
    try:
        service = plugin.context.emitters
        listener = esper.create_entity(Listener(), Position(0.0, 1.7, 0.0),
                                       Velocity(1.0, 0.0, -2.0))
        entities = []
        for _ in range(120):
            parts = [random_emitter(rng), Position(coordinate(rng), coordinate(rng),
                                                   coordinate(rng))]
            if rng.random() < 0.9:
                parts.append(Velocity(rng.uniform(-40, 40), 0.0, rng.uniform(-40, 40)))
            entities.append(esper.create_entity(*parts))
        bank = plugin.context.channels["modern"]
        checked = 0
        for _ in range(25):
            pos = esper.component_for_entity(listener, Position)
            pos.x_m, pos.z_m = rng.uniform(-20, 20), rng.uniform(-20, 20)
            esper.component_for_entity(listener, Listener).heading_rad = rng.uniform(-4, 4)
            for ent in rng.sample(entities, 15):
                place = esper.component_for_entity(ent, Position)
                place.x_m, place.y_m, place.z_m = (coordinate(rng) for _ in range(3))
            emitter = esper.component_for_entity(rng.choice(entities), Emitter)
            emitter.volume = rng.uniform(0.0, 1.5)  # a setting written between ticks
            esper.process(1 / 60)
            ears = service.ears()
            for ent in entities:
                emitter = esper.component_for_entity(ent, Emitter)
                place = esper.component_for_entity(ent, Position).as_tuple()
                channel = bank.get(emitter.handle)
                assert channel is not None and channel.playing
                if math.isfinite(place[0] + place[1] + place[2]):
                    found = esper.try_component(ent, Velocity)
                    if found is not None:
                        velocity = found.as_tuple()
                    else:  # derived from its moves: a reference track of its own
                        velocity = service.velocity_of(-ent, place)
                    heard = service.hear(ent, place, spatial_of(emitter), velocity, ears)
                else:
                    heard = Heard(0.0, 0.0)
                want = (heard.gain, heard.pan, emitter.pitch * heard.doppler, heard.lowpass_hz)
                got = (channel.volume, channel.pan, channel.pitch, channel.lowpass_hz)
                assert [repr(v) for v in got] == [repr(float(v)) for v in want]
                assert channel.position == place or not math.isfinite(sum(place))
                checked += 1
        assert checked == 25 * 120
        bad = [e for e in plugin.context.events.where(event="bad_value") if "entity" in e]
        assert bad  # some places went NaN or infinite: logged, the tick went on
    finally:
        plugin.uninstall()


@pytest.mark.parametrize("jumps", [(0.3, 0.3, 0.3, 50.0, float("nan")), (0.3, 0.3, 50.0)])
def test_derived_velocities_follow_the_per_emitter_track(jumps):
    """Without a ``Velocity``, the doppler shift comes from the move since the last
    tick (teleports and NaN places give 0): the same pitch as ``velocity_of`` (with
    every place finite, the tracks move as whole arrays)."""
    rng = random.Random(7)
    plugin = install()
    try:
        service = plugin.context.emitters
        esper.create_entity(Listener(), Position(0.0, 0.0, 0.0))
        entities = [esper.create_entity(Emitter("hum"), Position(rng.uniform(-30, 30), 0.0,
                                                                 rng.uniform(-30, 30)))
                    for _ in range(60)]
        bank = plugin.context.channels["modern"]
        for tick in range(30):
            for ent in rng.sample(entities, 40):
                place = esper.component_for_entity(ent, Position)
                jump = rng.choice(jumps) if tick else 0.0
                axis = rng.choice(["x_m", "y_m", "z_m"])
                setattr(place, axis, getattr(place, axis) + jump * rng.uniform(-1, 1))
                if not math.isfinite(getattr(place, axis)) and rng.random() < 0.5:
                    setattr(place, axis, rng.uniform(-30, 30))
            esper.process(1 / 60)
            ears = service.ears()
            for ent in entities:
                emitter = esper.component_for_entity(ent, Emitter)
                place = esper.component_for_entity(ent, Position).as_tuple()
                if not math.isfinite(sum(place)):
                    continue  # no track step for a non-finite place
                velocity = service.velocity_of(-ent, place)  # a reference track of its own
                heard = service.hear(ent, place, spatial_of(emitter), velocity, ears)
                assert bank.get(emitter.handle).pitch == emitter.pitch * heard.doppler
    finally:
        plugin.uninstall()


def test_a_still_scene_sends_nothing_and_runs_no_law(monkeypatch):
    plugin = SoundscapePlugin(Settings(backend="offline", features=("audio",))).install()
    try:
        synth.add_to(plugin.context.sounds, "hum", synth.tone(220, 1.0))
        esper.create_entity(Listener(), Position(0.0, 0.0, 0.0))
        for i in range(40):
            esper.create_entity(Emitter("hum", volume=0.5), Position(3.0 + i, 0.0, i % 7))
        sent = []
        mixer = plugin.context.mixer
        send = mixer.send
        monkeypatch.setattr(mixer, "send", lambda commands, **kw: (sent.append(commands),
                                                                     send(commands, **kw)))
        laws: list[int] = []  # the channels whose law runs, one by one or as arrays
        for module in (channel_laws, channel_stream):  # the law step; a replay's freeze
            monkeypatch.setattr(module, "apply_law",
                                lambda bank, channel, *args: laws.append(channel.index)
                                or apply_law(bank, channel, *args))
        monkeypatch.setattr(channel_laws, "apply_modern_laws",
                            lambda overall, chans, *args: laws.extend(c.index for c in chans)
                            or apply_modern_laws(overall, chans, *args))
        for _ in range(3):
            esper.process(1 / 60)
        sent.clear()
        laws.clear()
        for _ in range(10):
            esper.process(1 / 60)
        assert [c for commands in sent for c in commands if c.op == SET] == []
        assert laws == []
        esper.create_entity(Position(0.0, 0.0, 0.0))  # esper rebuilds its query lists
        first = next(e for e, _ in esper.get_components(Emitter, Position))
        esper.component_for_entity(first, Position).x_m += 1.0  # the loudest one moves
        esper.process(1 / 60)
        moved = esper.component_for_entity(first, Emitter).handle
        assert [(c.op, c.voice) for commands in sent for c in commands] == [
            (SET, plugin.context.channels["modern"].get(moved).voice_id)]
        assert laws == [moved.slot]
    finally:
        plugin.uninstall()
