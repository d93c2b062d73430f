"""Placed ambients: the 1024-record table (``OSrAmbient_Start`` 0x511730,
``OSiAmbient_Update`` 0x511f00, ``OSrAmbient_Update`` 0x511ec0)."""

from __future__ import annotations

import esper
import pytest
from test_oni_harness import OniHarness

from soundscape.components.occlusion import Occluded, Wall
from soundscape.components.oni import PlacedAmbient
from soundscape.components.spatial import Position
from soundscape.errors import InputError
from soundscape.laws.oni import occlusion_volume
from soundscape.oni.placed import RECORDS

TOML = """
[groups.hum]
permutations = [{ sound = "hum" }]
[groups.speech]
permutations = [{ sound = "speech" }]
[ambients.hum]
base1 = "hum"
distance = [5.0, 10.0]
threshold = 2000
[ambients.speech]
play_once = true
base1 = "speech"
distance = [5.0, 10.0]
min_occlusion = 0.2
"""
SOUNDS = {"hum": 1.0, "speech": 1.0}


@pytest.fixture
def h():
    return OniHarness(TOML, SOUNDS)


def test_start_without_a_place_plays_without_one(h):
    index = h.placed.start("hum", volume=0.5)
    assert index == 0 and h.placed.is_playing(index)
    rec = h.placed.get(index)
    assert rec.sound_id > 0 and not rec.placed
    entity = h.placed.entities[index]
    assert esper.has_component(entity, PlacedAmbient)
    assert not esper.has_component(entity, Position)
    assert h.oni.ambients.by_id(rec.sound_id).position is None


def test_start_in_hearing_gets_position_occluded_and_its_distances(h):
    index = h.placed.start("hum", (0.0, 0.0, 12.0), volume=0.8, far=20.0)
    rec = h.placed.get(index)
    entity = h.placed.entities[index]
    occ = esper.component_for_entity(entity, Occluded)
    assert (occ.far, occ.min_occlusion, occ.cache_index) == (20.0, 0.0, index)
    assert esper.component_for_entity(entity, Position).as_tuple() == (0.0, 0.0, 12.0)
    assert (rec.near, rec.far) == (5.0, 20.0)  # near is the ambient's own
    slot = h.oni.ambients.by_id(rec.sound_id)
    assert slot.volume == pytest.approx(0.8) and slot.position == (0.0, 0.0, 12.0)
    # the record's distances are the playing ambient's: 12 m is sound distance 4 < 5
    assert (slot.near, slot.far) == (5.0, 20.0)


def test_the_records_distances_set_the_tracks_distance_volume(h):
    # 30 m = sound distance 10: the ambient's own far (10) is silent, the record's 20 is not
    index = h.placed.start("hum", (0.0, 0.0, 30.0), far=20.0)
    h.step(1)
    slot = h.oni.ambients.by_id(h.placed.get(index).sound_id)
    channel = h.channel(slot.tracks[0].handle)
    assert channel.volume == pytest.approx(slot.tracks[0].part_volume * (20 - 10) / (20 - 5))


def test_out_of_hearing_a_play_once_is_dropped_and_another_waits(h):
    assert h.placed.start("speech", (0.0, 0.0, 31.0)) is None  # far 10: heard up to 30
    assert h.events("placed_end")[0]["reason"] == "out of hearing"
    index = h.placed.start("hum", (0.0, 0.0, 31.0))
    assert index is not None and h.placed.get(index).sound_id == -1
    h.step(5)
    assert h.placed.get(index).sound_id == -1
    h.move_listener(0.0, 0.0, 2.0)
    h.step(1)
    assert h.placed.get(index).sound_id > 0
    assert h.events("placed_play")[-1]["tick"] == 6


def test_a_playing_volume_moves_by_at_most_0_05_a_frame_held_to_0_1(h):
    index = h.placed.start("hum", (0.0, 0.0, 1.0), volume=1.0)
    h.placed.update(index, volume=0.8)
    h.step(1)
    rec = h.placed.get(index)
    assert rec.current_volume == pytest.approx(0.95)
    h.step(3)
    assert rec.current_volume == pytest.approx(0.8)
    h.placed.update(index, volume=1.7)
    h.step(10)
    assert rec.current_volume == 1.0
    assert h.oni.ambients.by_id(rec.sound_id).volume == 1.0


def test_update_moves_the_place_and_the_ambient_follows(h):
    index = h.placed.start("hum", (0.0, 0.0, 1.0))
    h.placed.update(index, (3.0, 0.0, 4.0))
    h.step(1)
    assert h.oni.ambients.by_id(h.placed.get(index).sound_id).position == (3.0, 0.0, 4.0)


def test_out_of_hearing_a_looping_one_goes_silent_stops_and_waits(h):
    index = h.placed.start("hum", (0.0, 0.0, 1.0))
    first = h.placed.get(index).sound_id
    h.placed.update(index, (0.0, 0.0, 40.0))
    h.step(1)
    rec = h.placed.get(index)
    assert rec.sound_id == -1
    assert not h.oni.ambients.is_active(first)
    cut = h.ctx.events.where(source="oni", event="stop")
    assert [r["reason"] for r in cut] == ["out of hearing"]
    assert h.events("placed_wait")
    h.placed.update(index, (0.0, 0.0, 1.0))
    h.step(1)
    assert h.placed.get(index).sound_id not in (-1, first)


def test_out_of_hearing_a_play_once_goes_silent_plays_on_and_goes_when_ended(h):
    index = h.placed.start("speech", (0.0, 0.0, 1.0))
    sid, entity = h.placed.get(index).sound_id, h.placed.entities[index]
    h.step(10)
    h.placed.update(index, (0.0, 0.0, 40.0))
    h.step(1)
    assert h.oni.ambients.is_active(sid) and h.placed.is_playing(index)
    assert h.oni.ambients.by_id(sid).volume == 0.0
    h.step(60)
    assert not h.placed.is_playing(index)
    assert h.events("placed_end")[-1]["reason"] == "ended"
    h.step(1)
    assert not esper.entity_exists(entity)


def test_a_play_once_back_in_hearing_slews_on_from_its_old_volume(h):
    # OSiAmbient_Update returns before storing the 0 it sent out of hearing
    index = h.placed.start("speech", (0.0, 0.0, 1.0), volume=0.8)
    sid = h.placed.get(index).sound_id
    h.step(2)
    h.placed.update(index, (0.0, 0.0, 40.0))
    h.step(1)
    assert h.oni.ambients.by_id(sid).volume == 0.0
    assert h.placed.get(index).current_volume == pytest.approx(0.8)
    h.placed.update(index, (0.0, 0.0, 1.0))
    h.step(1)
    assert h.oni.ambients.by_id(sid).volume == pytest.approx(0.8)


def test_a_play_once_in_hearing_whose_start_is_refused_waits_and_retries(h):
    playing = [h.oni.ambient_start("speech") for _ in range(3)]  # its threshold: 3
    index = h.placed.start("speech", (0.0, 0.0, 1.0))
    assert index is not None and h.placed.get(index).sound_id == -1
    h.step(1)
    assert h.placed.get(index).sound_id == -1  # still refused: it waits
    h.oni.ambient_halt(playing[0])
    h.step(1)
    assert h.placed.get(index).sound_id > 0


def test_speech_counts_as_playing_while_its_record_is_there(h):
    index = h.placed.start("speech", None)
    h.step(59)
    assert h.placed.is_playing(index)
    h.step(2)
    assert not h.placed.is_playing(index)


def test_stop_frees_the_record(h):
    index = h.placed.start("hum", (0.0, 0.0, 1.0))
    assert h.placed.stop(index) and not h.placed.is_playing(index)
    assert not h.placed.stop(index)


def test_halt_cuts_at_once_and_frees_the_record(h):
    index = h.placed.start("hum", (0.0, 0.0, 1.0))
    sid = h.placed.get(index).sound_id
    assert h.placed.halt(index)
    assert not h.oni.ambients.is_active(sid) and h.placed.get(index) is None
    assert h.ctx.events.where(source="oni", event="stop")[0]["reason"] == "placed halt"
    assert not h.placed.halt(index)


def test_the_table_holds_1024_records(h):
    for _ in range(RECORDS):
        assert h.placed.start("hum", (0.0, 0.0, 200.0)) is not None  # all waiting
    assert h.placed.start("hum", (0.0, 0.0, 200.0)) is None
    assert h.events("placed_refused")[0]["reason"] == "table full"


def test_bad_input_is_refused_clearly(h):
    with pytest.raises(InputError, match="not finite"):
        h.placed.start("hum", (float("nan"), 0.0, 0.0))
    with pytest.raises(InputError, match="outside"):
        h.placed.update(RECORDS, (0.0, 0.0, 0.0))
    index = h.placed.start("hum", None)
    with pytest.raises(InputError, match="without a place"):
        h.placed.update(index, (1.0, 0.0, 0.0))
    assert h.placed.start("nothing") is None and h.events("missing_ambient")


def test_with_the_occlusion_feature_walls_set_the_volume():
    h = OniHarness(TOML, SOUNDS, occlusion=True)
    esper.create_entity(Wall(-5.0, 5.0, 5.0, 5.0))
    h.step(1)
    index = h.placed.start("hum", (0.0, 0.0, 10.0), volume=1.0)
    rec = h.placed.get(index)
    expected = occlusion_volume(1)
    assert rec.current_volume == pytest.approx(expected)  # the start asked the walls at once
    h.step(2)
    assert rec.current_volume == pytest.approx(expected)
    occ = esper.component_for_entity(h.placed.entities[index], Occluded)
    assert occ.walls == 1 and occ.in_hearing
    h.placed.update(index, (0.0, 0.0, 40.0))  # beyond 3 x far (10): out of hearing
    h.step(1)
    assert not occ.in_hearing and rec.sound_id == -1
