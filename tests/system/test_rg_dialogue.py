"""RTX cache, dialogue records, RTX/RTXp tasks and their resets (seed 002)."""

from __future__ import annotations

import esper
import pytest
from rg_world import RgWorld, tone

from soundscape.components.redguard import RgObject
from soundscape.laws import redguard as law
from soundscape.redguard.dialogue import ABSENT_HANDLE, NULL_HANDLE
from soundscape.redguard.rtx import ENTRY_AGE_TICKS


def make(extra=None):
    w = RgWorld(extra=extra)
    w.player = w.obj(0, 0)
    w.rt.player = w.player
    w.rt.rtx_store.add("L001", "Greetings, Cyrus.", tone(22050), header_volume=100)
    w.rt.rtx_store.add("L002", "Another line", tone(44100))
    w.rt.rtx_store.add("T001", "Text only line")  # 14 bytes
    for i in range(30):
        w.rt.rtx_store.add(f"c{i:03d}", f"cache {i}")
    w.add_effect(2, seconds=2.0, loop_flag=1)
    return w


@pytest.fixture
def w():
    return make()


# -- RTX cache -------------------------------------------------------------------


def test_cache_reuses_by_label_and_takes_the_first_unused_entry(w):
    cache = w.rt.rtx
    assert cache.lookup("c000") == 0 and cache.lookup("c001") == 1
    cache.entries[0].age = 3
    assert cache.lookup("c000") == 0 and cache.entries[0].age == ENTRY_AGE_TICKS
    cache.entries[0].used = False  # unused but still holding c000's payload
    assert cache.lookup("c005") == 0
    assert cache.entries[0].label == "c005" and cache.entries[0].text == "cache 5"
    assert cache.lookup("nope") is None and w.events("rtx_missing", sound="nope")


def test_cache_exhaustion_is_an_error_not_an_eviction(w):
    cache = w.rt.rtx
    for i in range(20):
        assert cache.lookup(f"c{i:03d}") == i
    assert cache.lookup("c020") is None
    errors = w.events("error", reason="rtx cache exhausted")
    assert len(errors) == 1
    assert [e.label for e in cache.entries] == [f"c{i:03d}" for i in range(20)]


def test_cache_update_ages_and_releases_strictly_below_the_tick_count(w):
    cache = w.rt.rtx
    cache.lookup("c000")
    entry = cache.entries[0]
    cache.update(1)  # used since the last update: used cleared, age 8
    assert not entry.used and entry.age == 8 and entry.occupied
    cache.update(8)  # 8 < 8 is false: subtracts to zero and keeps the payload
    assert entry.age == 0 and entry.text == "cache 0"
    cache.update(1)  # 0 < 1: released
    assert entry.label is None and entry.text is None and not entry.occupied


def test_cache_keeps_an_entry_whose_sample_plays(w):
    cache = w.rt.rtx
    index = cache.lookup("L001")
    slot = cache.speak(index)
    entry = cache.entries[index]
    entry.used, entry.age = False, 0
    cache.update(5)
    assert entry.sample == slot and entry.occupied and entry.age == 0  # unchanged
    w.rt.stop_slot(slot)
    cache.update(5)
    assert entry.sample is None and not entry.occupied


def test_file_lookup_lowercases_ascii(w):
    assert w.rt.rtx.lookup("l001") is not None
    assert w.rt.rtx_store.find("L001") is w.rt.rtx_store.find("l001")


# -- speech starts -----------------------------------------------------------------


def test_speech_start_pan_volume_and_start_index(w):
    w.rt.start_index = 6
    speaker = w.obj(0, 1000)
    task = w.rt.script.RTX(speaker, "L001")
    w.step(1)
    ev = w.events("rg_start", sound="rg.rtx.l001")[0]
    assert ev["channel"] == 0 and ev["start_index"] == 0 and ev["pan"] == 64
    assert ev["volume"] == 100 and ev["gain"] == law.miles_volume(100)
    assert ev["owner"] == -1 and ev["rate_hz"] == 22050
    assert w.rt.start_index == 6
    w.rt.script.Sound(speaker, 2, 0, 0)
    assert w.events("rg_start", sound="rg.sfx.2")[0]["channel"] == 6
    assert task.record == 1
    # the next dialogue update refreshed the volume from the speaker's distance
    assert w.bank.channels[0].volume == law.miles_volume(law.volume(1000))
    assert w.bank.channels[0].pan == 64


def test_header_volume_is_clamped(w):
    w.rt.rtx_store.add("LOUD", "x", tone(100), header_volume=200)
    w.rt.rtx.speak(w.rt.rtx.lookup("LOUD"))
    assert w.events("rg_start", sound="rg.rtx.loud")[0]["volume"] == 127


# -- records -----------------------------------------------------------------------


def test_records_minimum_16_and_configurable():
    assert len(make({"dialog_max_dialog_lines": 4}).rt.dialogue.records) == 16
    assert len(make({"dialog_max_dialog_lines": 20}).rt.dialogue.records) == 20


def test_creation_from_one_full_table_and_absent_records(w):
    table = w.rt.dialogue
    entry = w.rt.rtx.entries[w.rt.rtx.lookup("T001")]
    indices = [table.create(7, entry) for _ in range(20)]  # 20 records (SYSTEM.INI)
    assert indices == list(range(1, 20)) + [-1]
    assert not table.is_active(-1) and not table.is_active(None) and not table.is_active(99)
    assert table.records[0].active == 0  # record 0 reserved for the player
    table.clear(3)
    assert table.create(7, entry) == 3
    assert table.records[4].sample == NULL_HANDLE  # fresh
    table.clear(4)
    assert table.records[4].sample == ABSENT_HANDLE  # cleared differs from fresh
    assert table.records[4].speaker == 7  # other fields stay


def test_lifetimes_from_audio_length_or_text_bytes(w):
    table, cache = w.rt.dialogue, w.rt.rtx
    voiced = cache.lookup("L002")
    cache.speak(voiced)
    i = table.create(5, cache.entries[voiced])
    assert table.records[i].lifetime == (88200 << 8) // (1 * 22050 * 2) == 512
    text = cache.lookup("T001")
    j = table.create(5, cache.entries[text])
    assert table.records[j].lifetime == 15 * 14


def test_update_with_speech_disabled_counts_21_per_tick():
    w = make({"dialog_use_speech": 0})
    speaker = w.obj(0, 10)
    task = w.rt.script.RTX(speaker, "T001")  # 15 x 14 = 210 -> 10 ticks
    w.step(1)
    record = w.rt.dialogue.records[task.record]
    assert record.lifetime == 210 - 21 and w.rt.dialogue.presented == task.record
    w.step(8)
    assert record.lifetime == 21 and record.active
    w.step(1)  # 0: expired
    assert not record.active and w.events("dialogue_clear", reason="expired")
    w.step(1)
    assert task.done
    assert w.playing() == []  # no audio without speech


def test_speech_setting_other_than_one_runs_the_text_path():
    w = make({"dialog_use_speech": 2})
    task = w.rt.script.RTX(w.obj(0, 10), "T001")  # 210 -> expires after 10 updates
    w.step(10)
    assert w.playing() == [] and not w.rt.dialogue.records[task.record].active


def test_update_stops_at_a_playing_sample_and_skips_sampleless_lines(w):
    table, cache = w.rt.dialogue, w.rt.rtx
    a, b, c = w.obj(0, 10), w.obj(0, 20), w.obj(0, 30)
    text = cache.entries[cache.lookup("T001")]
    i_text = table.create(a, text)  # record 1: no sample, stays active, traversal goes on
    voiced = cache.lookup("L001")
    cache.speak(voiced)
    i_voice = table.create(b, cache.entries[voiced])  # record 2: playing
    i_after = table.create(c, text)  # record 3: never visited while 2 plays
    table.update(2)
    objs = [esper.component_for_entity(e, RgObject) for e in (a, b, c)]
    assert [o.dialogue_inhibit for o in objs] == [1, 1, 0]
    assert table.records[i_text].lifetime == 210 - 42 and table.records[i_text].active
    assert table.records[i_after].lifetime == 210
    assert table.presented == i_voice
    w.rt.stop_slot(table.records[i_voice].sample_slot)
    table.update(1)  # finished sample: line cleared, update ends
    assert not table.records[i_voice].active and table.records[i_after].lifetime == 210
    for _ in range(50):
        table.update(1)
    assert table.records[i_text].active  # a line without sample never expires with speech


def test_distance_gate_completes_and_clears_the_line(w):
    far = w.obj(0, 1601)  # dialog_max_distance 1600 (SYSTEM.INI)
    task = w.rt.script.RTX(far, "L001")
    w.step(1)
    assert task.done and task.record is None and w.playing() == []
    near = w.obj(0, 1600)
    task = w.rt.script.RTX(near, "L001")
    w.step(1)
    assert not task.done and task.record == 1 and w.playing() == [0]
    w.move(w.player, 0, -1)  # now 1601 away from the player
    w.step(1)
    assert task.done and w.playing() == [] and not w.rt.dialogue.records[1].active


def test_distance_gate_leaves_the_player_record_alone(w):
    near = w.obj(0, 100)
    task = w.rt.script.RTX(near, "L001")
    w.step(1)
    slot = w.rt.dialogue.records[task.record].sample_slot
    other = w.rt.dialogue.records[2]
    player_line = w.rt.dialogue.records[0]
    for record in (other, player_line):  # two more lines remembering the same slot
        record.active, record.sample, record.text = 1, slot + 1, "same slot"
    w.move(near, 0, 1700)
    w.rt.tasks.run(1)  # the task stage alone (the dialogue update comes later)
    assert task.done and not w.bank.channels[slot].playing
    assert not w.rt.dialogue.records[task.record].active and not other.active
    assert player_line.active and player_line.sample == slot + 1  # record 0 untouched
    w.rt.dialogue.update(1)  # its sample has stopped: the dialogue update clears it
    assert not player_line.active


def test_an_entry_emptied_by_the_periodic_reset_ages_out_with_its_label(w):
    cache = w.rt.rtx
    index = cache.lookup("c000")
    cache.update(1)  # used -> unused, age 8
    cache.release_payloads()  # the periodic reset: payloads go, the label stays
    entry = cache.entries[index]
    assert entry.label == "c000" and not entry.occupied and entry.text is None
    cache.update(8)  # 8 < 8 is false: age 0, label kept
    assert entry.label == "c000" and entry.age == 0
    cache.update(1)  # released like any unused entry
    assert entry.label is None
    assert cache.lookup("c000") == index and entry.text == "cache 0"  # loaded afresh


def test_full_table_retains_minus_one_and_failed_lookup_record_zero(w):
    table, cache = w.rt.dialogue, w.rt.rtx
    text = cache.entries[cache.lookup("T001")]
    for _ in range(19):
        table.create(1, text)
    speaker = w.obj(0, 10)
    task = w.rt.script.RTX(speaker, "L002")
    w.step(1)
    assert task.record == -1 and task.done
    missing = w.rt.script.RTX(speaker, "zzzz")
    table.replace_player(w.player, text)
    w.step(1)
    assert missing.record == 0 and not missing.done  # waits on the player's line


def test_rtxp_uses_record_zero_and_the_player(w):
    speaker = w.obj(5000, 5000)  # no distance gate
    task = w.rt.script.RTXp(speaker, "L001")
    w.step(1)
    record = w.rt.dialogue.records[0]
    assert record.active and record.speaker == w.player and not task.done
    assert w.rt.dialogue.wait_on_dialog() == 1 and w.rt.script.WaitOnDialog() == 1
    loads = len(w.events("rtx_load"))
    w.step(3)
    assert len(w.events("rtx_load")) == loads  # loaded once


def test_skip_input_latch(w):
    table = w.rt.dialogue
    w.rt.player_lockout = 1
    w.rt.script.RTX(w.obj(0, 10), "L001")
    w.step(1)
    assert w.playing() == [0] and table.records[1].active
    table.skip_input = True
    w.step(1)
    assert w.playing() == [] and not table.records[1].active
    w.rt.script.RTX(w.obj(0, 10), "L002")
    w.step(1)
    assert table.records[1].active  # holding the key does not repeat the cleanup
    table.skip_input = False
    w.step(1)
    w.rt.player_lockout = 0
    table.skip_input = True
    w.step(1)
    assert table.records[1].active  # lockout 0: a press only sets the latch
    assert table.skip_latch


def test_world_teardown_clears_lines_tasks_and_channels(w):
    w.rt.script.RTX(w.obj(0, 10), "L001")
    w.rt.script.AmbientSound(w.obj(0, 10), 2, 0, 0)
    w.step(1)
    assert len(w.playing()) == 2
    w.rt.world_teardown()
    assert w.playing() == [] and w.rt.tasks.tasks == []
    assert all(not r.active and r.sample == ABSENT_HANDLE for r in w.rt.dialogue.records)


def test_save_restore_clears_and_sets_the_reset_flag(w):
    task = w.rt.script.RTX(w.obj(0, 10), "L001")
    amb = w.rt.script.AmbientSound(w.obj(0, 10), 2, 0, 0)
    w.step(1)
    order = []
    w.rt.restore_saved_state(lambda: order.append(w.playing()))
    assert order == [[]]  # channels stopped before the world records are restored
    assert w.rt.reset_flag and all(e.label is None for e in w.rt.rtx.entries)
    assert not w.rt.dialogue.records[1].active
    w.step(1)  # maintenance clears the flag first: tasks see it clear
    assert not w.rt.reset_flag
    assert task.done and w.events("task_end", reason="line over")  # its line was cleared
    assert not w.events("task_end", reason="sample reset")
    assert amb.slot is not None and w.bank.channels[amb.slot].playing


def test_rtx_task_completes_on_the_reset_flag(w):
    task = w.rt.script.RTX(w.obj(0, 10), "L001")
    w.rt.accumulator = 1400
    w.step(1)  # periodic reset in maintenance, then the task sees the flag
    assert task.done and w.events("task_end", reason="sample reset")
    assert w.playing() == []


def test_periodic_reset_clears_active_records_and_releases_payloads(w):
    task = w.rt.script.RTX(w.obj(0, 10), "L001")
    w.step(1)
    entry = w.rt.rtx.entries[0]
    assert entry.occupied and w.rt.dialogue.records[1].active
    w.rt.accumulator = 1400
    w.rt.inhibit = False
    w.rt.dialogue.records[1].active = 2  # WaitOnDialog only counts active == 1: no inhibition
    w.step(1)
    assert w.events("reset", reason="periodic") and task.done
    assert entry.text is None and entry.clip is None and not entry.occupied
    assert entry.label == "L001"  # the label stays (see docs/divergences.md)
    assert w.rt.dialogue.records[1].sample == ABSENT_HANDLE  # the active record was cleared
    assert w.rt.dialogue.records[2].sample == NULL_HANDLE  # a fresh inactive one was not
    assert w.playing() == []
