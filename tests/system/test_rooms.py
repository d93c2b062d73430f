"""Reverb zones and headphone output through the whole plugin (feature ``rooms``)."""

from __future__ import annotations

import math

import esper
import numpy as np
import pytest

from soundscape import Settings, SoundscapePlugin, synth
from soundscape.audio.emitters import play_at
from soundscape.components import Emitter, Listener, Position, ReverbZone, Wall

RATE = 48_000


def plugin(**kw) -> SoundscapePlugin:
    kw.setdefault("features", ("audio", "rooms"))
    return SoundscapePlugin(Settings(backend="offline", **kw)).install()


def step(seconds: float) -> None:
    for _ in range(int(round(seconds * 60))):
        esper.process(1 / 60)


HOUSE = ((0.0, 0.0), (10.0, 0.0), (10.0, 8.0), (0.0, 8.0))


def house_walls(door: bool) -> None:
    """A 10 x 8 m house's walls; ``door``: a 1.5 m gap in the south wall at x 4..5.5."""
    south = [(0.0, 0.0, 4.0, 0.0), (5.5, 0.0, 10.0, 0.0)] if door else [(0.0, 0.0, 10.0, 0.0)]
    for ax, az, bx, bz in south + [(10.0, 0.0, 10.0, 8.0), (10.0, 8.0, 0.0, 8.0),
                                   (0.0, 8.0, 0.0, 0.0)]:
        esper.create_entity(Wall(ax, az, bx, bz))


def test_zone_membership_circles_polygons_priority_and_area():
    p = plugin()
    forest = esper.create_entity(ReverbZone("forest", center_m=(0.0, 0.0), radius_m=50.0))
    cave = esper.create_entity(ReverbZone("cave", polygon=((10, 10), (20, 10), (20, 20),
                                                           (10, 20))))
    step(1 / 60)
    rooms = p.rooms
    assert rooms.zone_at(0.0, 0.0) == forest
    assert rooms.zone_at(15.0, 15.0) == cave  # inside both: the smaller wins
    assert rooms.zone_at(100.0, 0.0) is None
    esper.component_for_entity(forest, ReverbZone).priority = 1
    step(1 / 60)
    assert rooms.zone_at(15.0, 15.0) == forest


def test_walls_decide_which_room_a_point_is_in():
    p = plugin()
    house_walls(door=False)
    # drawn loosely: the shape reaches 1 m beyond the walls on every side
    zone = esper.create_entity(ReverbZone("room", polygon=((-1, -1), (11, -1), (11, 9), (-1, 9)),
                                          walls=True, anchor_m=(5.0, 4.0)))
    step(1 / 60)
    rooms = p.rooms
    assert rooms.zone_at(5.0, 4.0) == zone and rooms.zone_at(9.5, 7.5) == zone
    assert rooms.zone_at(5.0, -0.5) is None  # inside the shape, outside the wall
    assert rooms.zone_at(10.5, 4.0) is None
    esper.component_for_entity(zone, ReverbZone).walls = False
    step(1 / 60)
    assert rooms.zone_at(5.0, -0.5) == zone  # the shape alone


def test_a_doorway_joins_the_inside_to_the_rest_of_the_shape():
    p = plugin()
    house_walls(door=True)
    zone = esper.create_entity(ReverbZone("room", polygon=((-1, -1), (11, -1), (11, 9), (-1, 9)),
                                          walls=True, anchor_m=(5.0, 4.0)))
    step(1 / 60)
    assert p.rooms.zone_at(5.0, -0.5) == zone


def test_a_door_that_slides_shut_is_heard_once_marked_and_both_features_see_it():
    p = plugin(features=("audio", "rooms", "occlusion"))
    house_walls(door=True)
    door = esper.create_entity(Wall(4.0, -3.0, 5.5, -3.0))  # parked outside the house
    zone = esper.create_entity(ReverbZone("room", polygon=((-1, -1), (11, -1), (11, 9), (-1, 9)),
                                          walls=True, anchor_m=(5.0, 4.0)))
    step(1 / 60)
    assert p.rooms.zone_at(5.0, -0.5) == zone  # through the doorway
    wall = esper.component_for_entity(door, Wall)
    wall.az_m = wall.bz_m = 0.0  # slid into the doorway, edited in place
    step(1 / 60)
    assert p.rooms.zone_at(5.0, -0.5) == zone  # not marked: nothing is compared
    p.context.walls.moved(door)
    step(1 / 60)
    assert p.rooms.zone_at(5.0, -0.5) is None  # the flood fill stops at the shut door
    assert p.context.occlusion.count((4.75, 1.0, 1.0), (4.75, 1.0, -1.0)) == 1


def _hall_scene(zone: bool, profile_bank: str | None = None) -> np.ndarray:
    """A 0.1 s click at 3 m from the listener, then 1.4 s; the whole render."""
    p = plugin()
    ctx = p.context
    synth.add_to(ctx.sounds, "click", synth.tone(400, 0.1, rate_hz=RATE), RATE)
    esper.create_entity(Listener(), Position(0.0, 0.0, 0.0))
    if zone:
        esper.create_entity(ReverbZone("hall", center_m=(0.0, 0.0), radius_m=20.0))
    step(2 / 60)
    play_at(ctx, "click", (0.0, 0.0, 3.0))
    step(1.4)
    return ctx.mixer.backend.audio()


def test_a_voice_in_a_zone_rings_on_after_it_ends():
    dry, wet = _hall_scene(False), _hall_scene(True)
    start = 2 * 800
    end = start + int(0.1 * RATE)
    assert np.abs(dry[end + 800:]).max() == 0.0  # no zone: silence after the click
    tail = wet[end + 800:end + 800 + RATE // 2].astype(np.float64)
    assert np.sqrt((tail ** 2).mean()) > 1e-3  # the hall rings on
    # the direct sound is the same; the reverb is added beside it (after its predelay)
    predelay = int(PRESET_PREDELAY_MS["hall"] * RATE / 1000)
    np.testing.assert_array_equal(wet[:start + predelay], dry[:start + predelay])


PRESET_PREDELAY_MS = {"hall": 20.0}


def test_each_voice_carries_its_zone_and_the_listener_hears_its_own():
    p = plugin()
    ctx = p.context
    synth.add_to(ctx.sounds, "hum", synth.noise_bed(1.0, seed=3), 22_050)
    esper.create_entity(Listener(), Position(0.0, 0.0, 0.0))
    cave = esper.create_entity(ReverbZone("cave", center_m=(30.0, 0.0), radius_m=10.0))
    room = esper.create_entity(ReverbZone("room", center_m=(0.0, 0.0), radius_m=5.0, send=0.5))
    inside = esper.create_entity(Emitter("hum"), Position(1.0, 0.0, 0.0))
    far = esper.create_entity(Emitter("hum"), Position(30.0, 0.0, 2.0))
    step(2 / 60)
    channels = {ch.owner: ch for ch in ctx.channels["modern"].channels if ch.playing}
    assert channels[inside].send == (room, 0.5)
    assert channels[far].send == (cave, 1.0)
    assert p.rooms.listener_zone == room
    assert ctx.mixer.rooms.bus.target == room
    assert [r["reason"] for r in ctx.events.where(source="rooms", event="zone")] == [
        f"listener in {room}"]


def test_retail_banks_send_only_when_asked():
    from soundscape.audio.channels import ensure_bank

    def render(send: bool) -> np.ndarray:
        esper.switch_world(f"retail-{send}")
        p = plugin()
        ctx = p.context
        synth.add_to(ctx.sounds, "hum", synth.noise_bed(1.0, seed=3), 22_050)
        esper.create_entity(Listener(), Position(0.0, 0.0, 0.0))
        esper.create_entity(ReverbZone("cave", center_m=(0.0, 0.0), radius_m=10.0))
        bank = ensure_bank(ctx, "oni", count=4, policy="oni", profile="oni")
        if send:
            p.rooms.send_bank("oni")
        handle = bank.acquire()
        bank.play(handle, "hum", volume=0.5, pan=0.0, position=(1.0, 0.0, 1.0))
        step(0.5)
        out = ctx.mixer.backend.audio().copy()
        p.uninstall()
        return out

    world = esper.current_world
    untouched, sent = render(False), render(True)
    esper.switch_world(world)
    esper.delete_world("retail-False")
    esper.delete_world("retail-True")
    predelay = int(30.0 * RATE / 1000)
    np.testing.assert_array_equal(sent[:predelay], untouched[:predelay])
    assert not np.array_equal(sent, untouched)  # only then does the cave answer


def _ears(output: str, x: float, z: float) -> np.ndarray:
    """(2, frames) of white noise at (x, z) heard by a north-facing listener, in its
    own esper world."""
    world, name = esper.current_world, f"ears-{output}-{x}-{z}"
    esper.switch_world(name)
    p = plugin(output=output)
    ctx = p.context
    noise = synth.white_noise(RATE, seed=5) * np.float32(0.1)
    synth.add_to(ctx.sounds, "noise", noise, RATE)
    esper.create_entity(Listener(heading_rad=0.0), Position(0.0, 0.0, 0.0))
    esper.create_entity(Emitter("noise"), Position(x, 0.0, z))
    step(0.6)
    out = ctx.mixer.backend.audio()[RATE // 10:].T.copy()
    p.uninstall()
    esper.switch_world(world)
    esper.delete_world(name)
    return out


def test_headphones_place_a_source_at_90_degrees_through_the_head():
    from tests.unit.test_binaural import band_db, itd_ms

    ears = _ears("headphones", 5.0, 0.0)  # east of a north-facing listener: 90 degrees right
    assert itd_ms(ears) == pytest.approx(0.66, abs=0.05)
    assert band_db(ears[1], 4000.0) - band_db(ears[0], 4000.0) >= 10.0
    front = _ears("headphones", 0.0, 5.0)
    assert np.array_equal(front[0], front[1])
    speakers = _ears("speakers", 5.0, 0.0)  # the default: equal-power pan, no delay
    assert itd_ms(speakers) == pytest.approx(0.0, abs=0.01)
    assert np.abs(speakers[0]).max() < 1e-6  # hard right


def test_the_output_switches_at_run_time():
    p = plugin()
    ctx = p.context
    synth.add_to(ctx.sounds, "hum", synth.noise_bed(1.0, seed=3), 22_050)
    esper.create_entity(Listener(), Position(0.0, 0.0, 0.0))
    esper.create_entity(Emitter("hum"), Position(3.0, 0.0, 3.0))
    step(2 / 60)
    channel = next(ch for ch in ctx.channels["modern"].channels if ch.playing)
    assert p.rooms.output == "speakers" and channel.ear_rad is None
    assert p.rooms.toggle_output() == "headphones"
    step(1 / 60)
    assert channel.ear_rad == pytest.approx(math.pi / 4)
    with pytest.raises(ValueError, match="output"):
        Settings(output="surround")


def test_a_bad_zone_is_one_event_not_a_crash():
    p = plugin()
    esper.create_entity(ReverbZone("room", polygon=((0, 0), (1, 1))))
    esper.create_entity(ReverbZone("church", center_m=(0, 0), radius_m=3))
    step(0.1)
    bad = p.events.where(source="rooms", event="bad_value")
    assert len(bad) == 2
    assert "polygon" in bad[0]["reason"] and "church" in bad[1]["reason"]
    assert p.rooms.zone_at(0.0, 0.0) is None


def _walk_between_zones(cut: bool) -> tuple[np.ndarray, int]:
    """A 150 Hz hum in a hall; the listener steps from the hall into a cave next door
    at 1 s, keeping her distance and bearing to the hum (the dry sound is unchanged).
    ``cut``: the hall's reverb is also dropped there at once. The render and the frame
    of the step."""
    world, name = esper.current_world, f"walk-{cut}"
    esper.switch_world(name)
    p = plugin()
    ctx = p.context
    hum = synth.tone(150.0, 1.0, rate_hz=RATE, fade_s=0.0)
    synth.add_to(ctx.sounds, "hum", hum, RATE)
    hall = esper.create_entity(ReverbZone("hall", polygon=((0, -10), (20, -10), (20, 2),
                                                           (0, 2))))
    esper.create_entity(ReverbZone("cave", polygon=((0, 2), (20, 2), (20, 14), (0, 14))))
    esper.create_entity(Emitter("hum", volume=0.5), Position(9.0, 0.0, 0.0))
    where = Position(9.0, 0.0, -4.0)  # 4 m south of the hum, facing north
    esper.create_entity(Listener(heading_rad=0.0), where)
    step(1.0)
    switch = ctx.mixer.backend.frames
    where.z_m = 4.0  # 4 m north of it: the same gain, the same (centre) pan
    esper.component_for_entity(next(e for e, _ in esper.get_component(Listener)),
                               Listener).heading_rad = math.pi
    if cut:
        ctx.mixer.rooms.remove(hall)
    step(1.0)
    out = ctx.mixer.backend.audio().copy()
    p.uninstall()
    esper.switch_world(world)
    esper.delete_world(name)
    return out, switch


def test_walking_into_the_next_zone_crossfades_the_reverbs_without_a_click():
    smooth, switch = _walk_between_zones(cut=False)
    hard, _ = _walk_between_zones(cut=True)
    steady = np.abs(np.diff(smooth[switch - RATE // 2:switch], axis=0)).max()
    around = slice(switch - 800, switch + RATE // 2)
    assert np.abs(np.diff(smooth[around], axis=0)).max() < 1.5 * steady
    # cutting the hall's reverb at once (no crossfade) is a step: a click
    assert np.abs(np.diff(hard[around], axis=0)).max() > 2.0 * steady


def test_a_busy_bank_sends_the_rooms_sends_and_ears_as_one_by_one(monkeypatch):
    """Twelve emitters moving through a zone and out of it, heard on headphones: the
    commands a bank with columns sends from its columns (``channel_stream.sets``) are
    those of the per-voice path, rooms' sends and ears included."""
    from soundscape.audio import channel_stream

    def scene(sets_from: int) -> list[str]:
        monkeypatch.setattr(channel_stream, "SETS_FROM", sets_from)
        esper.switch_world(f"rooms-sets-{sets_from}")
        p = plugin(output="headphones")
        synth.add_to(p.context.sounds, "hum", synth.tone(220, 1.0, rate_hz=RATE), RATE)
        esper.create_entity(ReverbZone("hall", polygon=HOUSE))
        esper.create_entity(Listener(), Position(5.0, 1.7, 4.0))
        places = [Position(2.0 + i * 0.7, 1.0, 4.0) for i in range(12)]
        for place in places:
            esper.create_entity(place, Emitter("hum", volume=0.4))
        sent: list[str] = []
        send = p.context.mixer.send
        monkeypatch.setattr(p.context.mixer, "send", lambda commands, tick=None: (
            sent.extend(repr((c.op, c.voice, c.params)) for c in commands),
            send(commands, tick)))
        for tick in range(90):
            for i, place in enumerate(places):
                place.z_m = 4.0 + 0.12 * tick * (1 if i % 2 else -1)  # half leave the house
            esper.process(1 / 60)
        p.uninstall()
        esper.switch_world("default")
        esper.delete_world(f"rooms-sets-{sets_from}")
        return sent

    columns, one_by_one = scene(8), scene(10**9)
    assert any("send=(" in line and "send=None" not in line for line in columns)
    assert any("ear=(" in line for line in columns)
    assert columns == one_by_one
