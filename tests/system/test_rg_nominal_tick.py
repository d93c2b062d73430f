"""Redguard's nominal tick (issue 12): 21/256 s, not a 60 Hz tick (seed 002).

Lifetimes count 1/256 s and every dialogue update takes 21 per whole nominal tick
(seed l.121, l.127), so a nominal tick is 21/256 s (about 12.2 a second; SYSTEM.INI
``normal_frame_rate = 12``). The periodic reset fires above 1400 of them, about
115 s, and RTX cache entries age 8 of them.
"""

from __future__ import annotations

import pytest
from rg_world import RgWorld, tone

from soundscape import Settings
from soundscape.settings import REDGUARD_TICK_S


def make(extra=None) -> RgWorld:
    w = RgWorld(extra=extra, tick_s=REDGUARD_TICK_S)
    w.player = w.obj(0, 0)
    w.rt.player = w.player
    w.rt.rtx_store.add("T017", "Seventeen bytes!!")  # 17 bytes: lifetime 15 x 17 = 255
    w.rt.rtx_store.add("L001", "Greetings, Cyrus.", tone(22050), header_volume=100)
    return w


def nominal_tick_of(clock_tick: int) -> int:
    """Whole 21/256 s ticks by a 60 Hz clock tick (exact: 64 n / 315)."""
    return clock_tick * 64 // 315


def test_the_default_nominal_tick_is_21_256_s():
    assert Settings().redguard_tick_s == 21 / 256 == 0.08203125
    with pytest.raises(ValueError, match="redguard_tick_s"):
        Settings(redguard_tick_s=0.0)
    with pytest.raises(ValueError, match="redguard_tick_s"):
        Settings(redguard_tick_s=float("nan"))


def test_a_17_byte_text_line_lasts_about_one_second():
    # The task makes the line at the first nominal tick (clock tick 5) and each update
    # takes 21: 255 - 21 n <= 0 first at n = 13, 13 x 21/256 = 1.066 s, clock tick 64
    # (counted on 60 Hz ticks it lasted 13 ticks, 0.22 s)
    w = make({"dialog_use_speech": 0})
    task = w.rt.script.RTX(w.obj(0, 10), "T017")
    for clock_tick in range(1, 70):
        w.step(1)
        n = nominal_tick_of(clock_tick)
        if n == 0:
            assert task.record is None
        elif n < 13:
            record = w.rt.dialogue.records[task.record]
            assert record.active and record.lifetime == 255 - 21 * n, clock_tick
    clears = w.events("dialogue_clear", reason="expired")
    assert len(clears) == 1 and clears[0]["tick"] == 64
    assert w.ctx.clock.now_s == pytest.approx(69 / 60)


def test_the_periodic_reset_fires_after_about_115_seconds():
    # above 1400 whole nominal ticks: the 1401st, at 1401 x 21/256 = 114.93 s (clock tick
    # 6896); the 60 Hz count reset every 23.4 s
    w = make()
    w.step(6895)
    assert not w.events("reset", reason="periodic")
    assert w.rt.accumulator == 1400
    w.step(1)
    resets = w.events("reset", reason="periodic")
    assert len(resets) == 1 and resets[0]["tick"] == 6896 and resets[0]["ticks"] == 1401


def test_rtx_cache_entries_age_eight_nominal_ticks():
    # an unused entry is released when its age (8 nominal ticks on use) is strictly below
    # the ticks of an update: one update a nominal tick takes 8 of them, ~0.7 s
    w = make()
    cache = w.rt.rtx
    index = cache.lookup("T017")
    entry = cache.entries[index]
    w.step(1)  # no nominal tick yet: the cache update does not run
    assert entry.label == "T017" and entry.used
    w.step(nominal_clock_tick(1) - 1)  # the first update clears "used", age back to 8
    assert not entry.used and entry.age == 8
    w.step(nominal_clock_tick(9) - nominal_clock_tick(1))  # 8 more: 8 - 8 = 0 kept
    assert entry.label == "T017" and entry.age == 0
    w.step(nominal_clock_tick(10) - nominal_clock_tick(9))  # 0 < 1: released
    assert entry.label is None


def nominal_clock_tick(n: int) -> int:
    """The 60 Hz clock tick at which nominal tick ``n`` elapses: ceil(315 n / 64)."""
    return -(-315 * n // 64)


def test_an_ambient_sound_task_keeps_its_sample_across_frames_without_a_nominal_tick():
    # Frames that step no whole nominal tick run no Redguard work, so a task's elapsed
    # input is never 0 after its first run and it keeps its remembered sample.
    w = make()
    w.add_effect(3, seconds=5.0)
    source = w.obj(0, 100)
    task = w.rt.script.AmbientSound(source, 3, 0, 0)
    w.step(60)  # 12 nominal ticks in 60 frames
    assert task.slot is not None and w.playing() == [task.slot]
    assert len(w.events("start")) == 1
