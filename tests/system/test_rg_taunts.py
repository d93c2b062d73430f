"""Combat taunts, rtxAnim / RTXpAnim, and the dialogue and menu state words (seed 002)."""

from __future__ import annotations

import esper
import pytest
from rg_world import RgWorld, tone

from soundscape.components.redguard import RgAnimation, RgCombat


def make(extra=None):
    w = RgWorld(extra=extra)
    w.player = w.obj(0, 0)
    w.rt.player = w.player
    w.rt.rtx_store.add("TA01", "Die, dog!", tone(22050))
    w.rt.rtx_store.add("TA02", "You fight like a goat", tone(22050))
    w.rt.rtx_store.add("TX01", "Text only")
    w.rt.rtx_store.add("AN01", "An animated line", tone(44100))
    return w


@pytest.fixture
def w():
    return make()


# -- combat taunts -------------------------------------------------------------------


def test_taunt_presents_speech_and_a_record(w):
    actor = w.obj(0, 50)
    result = w.rt.script.Taunt(actor, "TA01", animation=7)
    combat = esper.component_for_entity(actor, RgCombat)
    assert result == 1 and combat.record == 1 and combat.cache_ref is not None
    assert w.playing() == [0]  # speech at start index 0
    assert esper.component_for_entity(actor, RgAnimation).group == 7
    assert w.events("anim_request", owner=actor, group=7)


def test_taunt_replacement_releases_a_sampled_entry_and_clears_the_line(w):
    actor = w.obj(0, 50)
    w.rt.script.Taunt(actor, "TA01")
    first = esper.component_for_entity(actor, RgCombat).cache_ref
    w.rt.script.Taunt(actor, "TA02")
    combat = esper.component_for_entity(actor, RgCombat)
    old = w.rt.rtx.entries[first]
    assert old.label is None and old.text is None  # released: it remembered a sample
    assert combat.record == 1  # the cleared record is reused for the new line
    assert w.rt.dialogue.records[1].text == "You fight like a goat"


def test_taunt_stops_an_already_cached_labels_sample(w):
    a, b = w.obj(0, 50), w.obj(0, 60)
    w.rt.script.Taunt(a, "TA01")
    slot = w.rt.rtx.entries[esper.component_for_entity(a, RgCombat).cache_ref].sample
    assert w.bank.channels[slot].playing
    w.rt.script.Taunt(b, "TA01")  # same label: stopped and cleared, then spoken again
    stops = w.ctx.events.where(source="redguard", event="stop", reason="taunt")
    assert [e["channel"] for e in stops] == [slot]
    assert len(w.events("rg_start", sound="rg.rtx.ta01")) == 2


def test_taunt_without_sample_keeps_the_payload(w):
    actor = w.obj(0, 50)
    w.rt.script.Taunt(actor, "TX01")
    ref = esper.component_for_entity(actor, RgCombat).cache_ref
    w.rt.script.Taunt(actor, "TA01")
    assert w.rt.rtx.entries[ref].text == "Text only"  # not released
    assert esper.component_for_entity(actor, RgCombat).cache_ref != ref


def test_taunt_zero_label_and_disabled_text():
    w = make({"dialog_print_text": 0})
    actor = w.obj(0, 50)
    assert w.rt.script.Taunt(actor, "TA01") == 0  # text disabled: 0
    assert w.playing() == [0] and not any(r.active for r in w.rt.dialogue.records)
    w2 = make()
    actor2 = w2.obj(0, 50)
    assert w2.rt.script.Taunt(actor2, None, animation=5) == 0  # record 0 inactive
    assert not w2.events("anim_request")  # a zero label skips the animation too


def test_taunt_first_retained_record_is_zero_the_players(w):
    """Combat construction retains record 0: a first taunt clears an active player line."""
    w.rt.script.RTXp(w.player, "TX01")
    w.step(1)
    assert w.rt.dialogue.records[0].active
    actor = w.obj(0, 50)
    w.rt.script.Taunt(actor, "TA02")
    assert not w.rt.dialogue.records[0].active


def test_taunt_speech_follows_dialog_use_speech():
    w = make({"dialog_use_speech": 0})
    actor = w.obj(0, 50)
    assert w.rt.script.Taunt(actor, "TA01") == 1
    assert w.playing() == []


# -- rtxAnim / RTXpAnim ----------------------------------------------------------------


def test_rtxanim_cycles_b_c_a_while_the_line_is_active(w):
    actor = w.obj(0, 50)
    w.rt.topic_menu_pending = 1
    task = w.rt.script.rtxAnim(actor, "AN01", 10, 20, 30)
    w.step(1)
    animation = esper.component_for_entity(actor, RgAnimation)
    assert animation.group == 20 and animation.loop_countdown == 1  # b first
    assert w.rt.topic_menu_pending == 0
    animation.group = 99  # the animation system finished the loop
    w.step(1)
    assert animation.group == 30  # then c
    animation.group = 99
    w.step(1)
    assert animation.group == 10  # then a
    animation.group = 99
    w.step(1)
    assert animation.group == 20  # wraps after the third
    assert [e["group"] for e in w.events("anim_request", owner=actor)] == [20, 30, 10, 20]
    w.rt.stop_slot(0)  # the line's speech ends; the dialogue update clears the line
    w.rt.topic_menu_delay = 5
    w.step(1)
    assert not task.done  # current group still equals the last request
    animation.group = 99
    w.step(1)
    assert task.done and w.rt.topic_menu_delay == 0


def test_rtxanim_out_of_range_completion_clears_the_delay_counter(w):
    actor = w.obj(0, 50)
    task = w.rt.script.rtxAnim(actor, "AN01", 10, 20, 30)
    w.step(1)
    w.rt.topic_menu_delay = 5
    w.move(actor, 0, 2000)  # beyond dialog_max_distance: completes at once
    w.step(1)
    assert task.done and w.events("task_end", reason="out of range")
    assert w.rt.topic_menu_delay == 0


def test_rtxpanim_uses_the_player_in_an_ordinary_record(w):
    caller = w.obj(4000, 4000)  # the gate measures the player's own position
    w.rt.topic_menu_pending = 1
    task = w.rt.script.RTXpAnim(caller, "AN01", 1, 2, 3)
    w.step(1)
    assert task.record == 1 and w.rt.dialogue.records[1].speaker == w.player
    assert esper.component_for_entity(w.player, RgAnimation).group == 2
    assert w.rt.topic_menu_pending == 1  # RTXpAnim leaves the topic menu alone
    assert not task.done


# -- state words -----------------------------------------------------------------------


def test_dialog_and_menu_words(w):
    assert w.rt.dialog_state == 0 and w.rt.menu_state == 0
    w.rt.script.DialogBegin(w.player)
    assert w.rt.dialog_state == 1 and w.rt.script.WaitOnDialog() == 0  # separate words
    w.rt.script.DialogEnd(w.player)
    w.rt.script.MenuBegin(w.player)
    w.step(3)
    assert w.rt.inhibit and w.rt.accumulator == 1  # inhibited from the first player update
    w.rt.script.MenuEnd(w.player)
    w.step(2)
    assert not w.rt.inhibit and w.rt.accumulator == 2


def test_an_active_line_holds_the_periodic_reset(w):
    w.rt.script.RTX(w.obj(0, 10), "TX01")
    w.rt.accumulator = 1399
    w.step(1)  # maintenance runs before the line exists: 1400
    w.step(5)  # WaitOnDialog is 1: inhibited, no reset
    assert w.rt.accumulator == 1400 and not w.events("reset")


def test_resurrect_reinitialises_combat_state(w):
    actor = w.obj(0, 50)
    w.rt.script.Taunt(actor, "TA01")
    w.rt.script.KillMe(actor)
    w.rt.script.Resurrect(actor)
    combat = esper.component_for_entity(actor, RgCombat)
    assert (combat.cache_ref, combat.record, combat.result) == (None, 0, 0)
