"""The emitters as arrays (issue 18): the vectorised laws give the per-emitter law's
numbers to the bit, for random emitters, NaN and infinite places included, and a
still scene sends the audio side nothing. Each runs on both paths of
``EmitterService.update`` (the arrays, and one row at a time below
``ARRAY_EMITTERS``), and the two leave the same voices, tracks and events."""

from __future__ import annotations

import math
import random

import esper
import numpy as np
import pytest

from soundscape import Settings, SoundscapePlugin, synth
from soundscape.audio import channel_laws, channel_stream, emitters
from soundscape.audio.commands import SET
from soundscape.audio.emitter_hearing import bearing_pans
from soundscape.audio.emitters import Heard, spatial_of
from soundscape.audio.profiles import apply_law, modern_law_arrays
from soundscape.audio.pymath import positive_max, positive_min, py_max, py_min
from soundscape.components import Emitter, Listener, Position, Velocity, Wall
from soundscape.laws.modern import bearing_pan
from soundscape.laws.spatial import cone_gain, facing_angle

ODD = [float("nan"), float("inf"), -float("inf"), 1e308, -1e308, 0.0, -0.0]


@pytest.fixture(params=["arrays", "one_by_one"])
def path(request, monkeypatch):
    """``EmitterService.update``'s array path for every row count, or the per-row path."""
    monkeypatch.setattr(emitters, "ARRAY_EMITTERS", 1 if request.param == "arrays" else 10**9)
    return request.param


def install(features=("audio",), **settings):
    plugin = SoundscapePlugin(Settings(backend="none", features=features, **settings)).install()
    synth.add_to(plugin.context.sounds, "hum", synth.tone(220, 1.0))
    synth.add_to(plugin.context.sounds, "buzz", synth.tone(330, 0.05))
    return plugin


def random_emitter(rng: random.Random, plain: bool = False, walled: bool = False) -> Emitter:
    """Any emitter; ``plain``: the inverse model with a near distance above 0 (the
    rows' one-division path, ``EmitterRows.plain_inverse``); ``walled``: most heard
    through the walls (``occlusion=True``)."""
    rolloff = rng.choice(["inverse", "inverse", "linear", "exponential", "none", "custom"])
    near = rng.choice([0.0, 0.5, 2.0, rng.uniform(0.0, 10.0)])
    factor = rng.choice([0.0, 1.0, rng.uniform(0.0, 3.0)])
    if plain:
        rolloff, near = "inverse", rng.choice([0.5, 2.0, rng.uniform(0.01, 10.0)])
        factor = rng.choice([1.0, rng.uniform(0.01, 3.0)])
    far = rng.choice([near, near + 1.0, rng.uniform(near, 80.0), math.inf])
    inner = rng.choice([360.0, 360.0, rng.uniform(0.0, 180.0)])
    return Emitter("hum", volume=rng.choice([0.0, 1.0, rng.uniform(0.0, 2.0)]),
                   min_distance_m=near, max_distance_m=far, rolloff=rolloff,
                   rolloff_factor=factor,
                   curve=((0.0, 1.0), (rng.uniform(1.0, 40.0), rng.uniform(0.0, 1.0))),
                   pitch=rng.choice([1.0, rng.uniform(0.5, 2.0)]),
                   heading_rad=rng.uniform(-4.0, 4.0), cone_inner_deg=inner,
                   cone_outer_deg=rng.uniform(inner, 360.0),
                   cone_outer_gain=rng.uniform(0.0, 1.0), doppler=rng.random() < 0.8,
                   occlusion=walled and rng.random() < 0.8)


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


def test_positive_bounds_give_pythons_choice_in_one_pass():
    """Against a bound above 0 (or +inf for the minimum), np.maximum/np.minimum give
    Python's max/min to the bit: no NaN bound, no signed-zero tie."""
    values = np.array([float("nan"), -0.0, 0.0, 1e-300, 0.25, 1.0, 4.0, -1.0, math.inf,
                       -math.inf])
    for bound in (1e-300, 0.25, 1.0, 4.0, 343.0):
        for a in values.tolist():
            got_max = positive_max(np.array([a]), bound)[0]
            assert repr(float(got_max)) == repr(max(a, bound))
            got_min = positive_min(np.array([a]), np.array([bound]))[0]
            assert repr(float(got_min)) == repr(min(a, bound))
    for a in values.tolist():
        assert repr(float(positive_min(np.array([a]), math.inf)[0])) == repr(min(a, math.inf))


def test_bearing_pans_equal_the_law_to_the_bit():
    rng = np.random.default_rng(18)
    dx, dz = rng.uniform(-80, 80, 5000), rng.uniform(-80, 80, 5000)
    dx[:7], dz[:7] = ODD, ODD[::-1]
    dx[7], dz[7] = 0.0, 0.0
    for heading in (0.0, 1.3, -2.9):
        want = [bearing_pan(a, b, heading) for a, b in zip(dx.tolist(), dz.tolist(), strict=True)]
        got = bearing_pans(dx, dz, heading).tolist()
        assert [repr(v) for v in got] == [repr(v) for v in want]
        with np.errstate(all="ignore"):
            given_squares = bearing_pans(dx, dz, heading, dx * dx + dz * dz).tolist()
        assert [repr(v) for v in given_squares] == [repr(v) for v in want]


@pytest.mark.parametrize(("seed", "plain", "walled"),
                         [(1, False, False), (2, False, False), (3, False, False),
                          (4, True, False), (5, False, True), (6, True, True)])
def test_every_voice_gets_the_per_emitter_law(seed, plain, walled, path):
    """Random emitters (every rolloff, cones, doppler by ``Velocity`` or derived), a moving and
    turning listener, places turning NaN and infinite and back: after each tick every
    playing voice's volume, pan, pitch and cutoff equal ``EmitterService.hear`` of
    that emitter, exactly."""
    rng = random.Random(seed)
    plugin = install(("audio", "occlusion") if walled else ("audio",))
    try:
        service = plugin.context.emitters
        listener = esper.create_entity(Listener(), Position(0.0, 1.7, 0.0),
                                       Velocity(1.0, 0.0, -2.0))
        for _ in range(25 if walled else 0):  # walls among the emitters
            x, z = rng.uniform(-50, 50), rng.uniform(-50, 50)
            esper.create_entity(Wall(x, z, x + rng.uniform(-15, 15), z + rng.uniform(-15, 15)))
        entities = []
        for _ in range(120):
            parts = [random_emitter(rng, plain, walled), Position(coordinate(rng), coordinate(rng),
                                                   coordinate(rng))]
            if rng.random() < 0.9:
                parts.append(Velocity(rng.uniform(-40, 40), 0.0, rng.uniform(-40, 40)))
            entities.append(esper.create_entity(*parts))
        bank = plugin.context.channels["modern"]
        checked = behind_walls = 0
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
            assert service._rows.plain_inverse == plain  # the one-division gains, or not
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
                behind_walls += channel.lowpass_hz > 0.0
        assert checked == 25 * 120
        assert bool(behind_walls) == walled  # the walls were heard through, or none exist
        bad = [e for e in plugin.context.events.where(event="bad_value") if "entity" in e]
        assert bad  # some places went NaN or infinite: logged, the tick went on
    finally:
        plugin.uninstall()


@pytest.mark.parametrize("jumps", [(0.3, 0.3, 0.3, 50.0, float("nan")), (0.3, 0.3, 50.0)])
def test_derived_velocities_follow_the_per_emitter_track(jumps, path):
    """Without a ``Velocity``, the doppler shift comes from the move since the last
    tick (teleports and NaN places give 0): the same pitch as ``velocity_of`` (with
    every place finite, the tracks move as whole arrays; with none moved, at once)."""
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
            # every fourth tick nothing moves (the tracks' still pass)
            for ent in rng.sample(entities, 40 if tick % 4 else 0):
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


def test_a_still_scene_sends_nothing_and_runs_no_law(monkeypatch, path):
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
        laws: list[float] = []  # the volumes of the laws run, one by one or as arrays
        for module in (channel_laws, channel_stream):  # the law step; a replay's freeze
            monkeypatch.setattr(module, "apply_law",
                                lambda bank, channel, *args: laws.append(channel.volume)
                                or apply_law(bank, channel, *args))
        monkeypatch.setattr(channel_laws, "modern_law_arrays",
                            lambda overall, inputs, *args: laws.extend(inputs[0].tolist())
                            or modern_law_arrays(overall, inputs, *args))
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
        assert laws == [plugin.context.channels["modern"].get(moved).volume]
    finally:
        plugin.uninstall()


def _churn(seed: int) -> list[object]:
    """A random game with a few emitters: moves (NaN and infinite too), settings and
    sounds written, emitters disabled and enabled, ``Velocity`` added and removed,
    entities created and deleted, a listener that moves, turns and sometimes has an
    emitter of its own. Every channel's state, every track and every event after
    each tick."""
    rng = random.Random(seed)
    plugin = install(doppler_factor=1.0)
    try:
        service = plugin.context.emitters
        bank = plugin.context.channels["modern"]
        listener = esper.create_entity(Listener(), Position(0.0, 1.7, 0.0))
        entities = [esper.create_entity(random_emitter(rng), Position(
            coordinate(rng), 0.0, coordinate(rng))) for _ in range(10)]
        seen: list[object] = []
        for tick in range(120):
            place = esper.component_for_entity(listener, Position)
            place.x_m += rng.uniform(-0.5, 0.5)
            esper.component_for_entity(listener, Listener).heading_rad = rng.uniform(-4, 4)
            for ent in rng.sample(entities, min(4, len(entities))):
                pos = esper.component_for_entity(ent, Position)
                pos.x_m, pos.z_m = (coordinate(rng) if rng.random() < 0.3
                                    else pos.x_m + rng.uniform(-1, 1)), coordinate(rng)
                emitter = esper.component_for_entity(ent, Emitter)
                roll = rng.random()
                if roll < 0.1:
                    emitter.enabled = not emitter.enabled
                elif roll < 0.15:
                    emitter.sound = rng.choice(["hum", "buzz"])
                elif roll < 0.2:
                    emitter.loop = not emitter.loop
                elif roll < 0.3:
                    emitter.volume = rng.uniform(0.0, 1.5)
                elif roll < 0.35:
                    if esper.has_component(ent, Velocity):
                        esper.remove_component(ent, Velocity)
                    else:
                        esper.add_component(ent, Velocity(rng.uniform(-50, 50), 0.0, 0.0))
            if rng.random() < 0.1 and entities:
                esper.delete_entity(entities.pop(rng.randrange(len(entities))), immediate=True)
            if rng.random() < 0.12:
                entities.append(esper.create_entity(random_emitter(rng), Position(
                    coordinate(rng), 0.0, coordinate(rng))))
            if tick == 60:
                esper.add_component(listener, Emitter("hum", doppler=True))
            esper.process(1 / 60)
            seen.append([repr((c.index, c.generation, c.sound, c.flags, c.volume, c.pan,
                               c.pitch, c.lowpass_hz, c.position, c.cursor_frames))
                         for c in bank.channels])
            rows = service._rows
            seen.append(repr((rows.xyz.tolist(), rows.tracked.tolist(),
                              rows.track_xyz.tolist(), rows.track_tick.tolist(),
                              rows.track_velocity.tolist(), sorted(service._tracks.items()),
                              sorted(service._bad_positions), sorted(service.by_entity))))
        seen.append([repr(e) for e in plugin.context.events.where()])
        return seen
    finally:
        plugin.uninstall()


@pytest.mark.parametrize("seed", [5, 6])
def test_both_paths_leave_the_same_voices_tracks_and_events(seed, monkeypatch):
    """The per-row path (few emitters) and the array path play the same game to the
    bit: every channel, every track, every event, tick after tick."""
    runs = {}
    for path, crossover in (("arrays", 1), ("one_by_one", 10**9)):
        monkeypatch.setattr(emitters, "ARRAY_EMITTERS", crossover)
        previous, name = esper.current_world, f"both-paths-{path}"
        esper.switch_world(name)
        try:
            runs[path] = _churn(seed)
        finally:
            esper.switch_world(previous)
            esper.delete_world(name)
    arrays, one_by_one = runs["arrays"], runs["one_by_one"]
    assert len(arrays) == len(one_by_one) == 241
    for tick, (a, b) in enumerate(zip(arrays, one_by_one, strict=True)):
        assert a == b, f"tick {tick // 2}"
    assert any("bad_value" in e for e in arrays[-1])  # the odd places were logged


def test_rows_stand_while_other_entities_come_and_go(path):
    """esper hands out a new query list after any create or delete; the rows are
    rebuilt only when an emitter's entity, ``Emitter``, ``Position`` or ``Velocity``
    changed, and then the doppler shift uses the new ``Velocity``."""
    plugin = install()
    try:
        service = plugin.context.emitters
        esper.create_entity(Listener(), Position(0.0, 0.0, 0.0))
        ents = [esper.create_entity(Emitter("hum", doppler=True), Position(5.0 + i, 0.0, 0.0))
                for i in range(3)]
        esper.process(1 / 60)
        rows = service._rows
        for _ in range(3):
            gone = esper.create_entity(Position(1.0, 0.0, 0.0))  # not an emitter
            esper.process(1 / 60)
            esper.delete_entity(gone, immediate=True)
            esper.process(1 / 60)
            assert service._rows is rows
            assert service._rows.query is esper.get_components(Emitter, Position)
        esper.add_component(ents[1], Velocity(-100.0, 0.0, 0.0))  # towards the listener
        esper.process(1 / 60)
        assert service._rows is not rows
        channel = plugin.context.channels["modern"].get(
            esper.component_for_entity(ents[1], Emitter).handle)
        assert channel.pitch > 1.0
        rows = service._rows
        esper.add_component(ents[2], Position(9.0, 0.0, 0.0))  # a new Position object
        esper.process(1 / 60)
        assert service._rows is not rows and service._rows.positions[2].x_m == 9.0
    finally:
        plugin.uninstall()


def test_cone_gains_equal_the_per_source_cone_law_to_the_bit():
    """``EmitterRows.cone_gains`` (arrays, ``math.acos`` per row) against
    ``cone_gain(facing_angle(...))`` per row: random cones (equal inner and outer
    angles among them), offsets odd and plain, a source at the listener."""
    rng = random.Random(41)
    plugin = install()
    try:
        for _ in range(60):
            inner = rng.choice([0.0, 90.0, rng.uniform(0.0, 359.0)])
            outer = rng.choice([inner, rng.uniform(inner, 360.0)])
            esper.create_entity(Emitter("hum", heading_rad=rng.uniform(-7.0, 7.0),
                                        cone_inner_deg=inner, cone_outer_deg=outer,
                                        cone_outer_gain=rng.uniform(0.0, 1.0)),
                                Position(0.0, 0.0, 0.0))
        esper.create_entity(Listener(), Position(0.0, 0.0, 0.0))
        esper.process(1 / 60)
        rows = plugin.context.emitters._rows
        assert rows.coned_rows == list(range(60))
        for _ in range(20):
            dx, dy, dz = (np.array([rng.choice(ODD) if rng.random() < 0.1 else
                                    rng.uniform(-50.0, 50.0) for _ in range(60)])
                          for _ in range(3))
            dx[0] = dy[0] = dz[0] = 0.0  # at the listener
            with np.errstate(all="ignore"):
                got = rows.cone_gains(dx, dy, dz).tolist()
            want = []
            for row in range(60):
                heading, inner, outer, outer_gain = rows.cones[row]
                want.append(cone_gain(facing_angle(heading, -float(dx[row]), -float(dy[row]),
                                                   -float(dz[row])), inner, outer, outer_gain))
            assert [repr(v) for v in got] == [repr(v) for v in want]
    finally:
        plugin.uninstall()
