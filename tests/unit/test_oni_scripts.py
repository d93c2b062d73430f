"""Script commands: music and ambients by name, dialogue, impulses (0x512cb0's commands)."""

from __future__ import annotations

import pytest
from test_oni_harness import OniHarness

TOML = """
[groups.mus_in]
channels = "stereo"
permutations = [{ sound = "mus_in" }]
[groups.mus]
channels = "stereo"
permutations = [{ sound = "mus" }]
[groups.mus_out]
channels = "stereo"
permutations = [{ sound = "mus_out" }]
[groups.line_a]
permutations = [{ sound = "line_a" }]
[groups.line_b]
permutations = [{ sound = "line_b" }]
[groups.tail]
permutations = [{ sound = "tail" }]
[groups.shot]
permutations = [{ sound = "shot" }]

[ambients.mus_chase]
in = "mus_in"
base1 = "mus"
out = "mus_out"
threshold = 40
[ambients.line_a]
priority = 3
interrupt_on_stop = true
play_once = true
base1 = "line_a"
[ambients.line_b]
priority = 3
interrupt_on_stop = true
play_once = true
base1 = "line_b"
[ambients.line_tail]
priority = 3
play_once = true
base1 = "line_a"
out = "tail"
[ambients.broken]
priority = 3
play_once = true
base1 = "no_such_group"
[impulses.shot]
group = "shot"
distance = [1.0, 2.0]
"""
SOUNDS = {"mus_in": 0.5, "mus": 2.0, "mus_out": 0.5, "line_a": 1.0, "line_b": 0.5,
          "tail": 2.0, "shot": 0.2}


@pytest.fixture
def h():
    return OniHarness(TOML, SOUNDS)


def test_music_start_is_priority_three_in_a_script_slot(h):
    assert h.scripts.sound_music_start("mus_chase", 0.7)
    slot = h.oni.ambients.slots[0]
    assert slot.priority == 3 and slot.volume == 0.7
    assert h.scripts.slots[0][0] == "mus_chase"


def test_music_stop_by_name_finishes_the_segment_then_plays_out(h):
    h.scripts.sound_music_start("mus_chase")
    h.step(40)  # in (30 ticks) done, base playing since 30
    assert h.scripts.sound_music_stop("mus_chase")
    assert h.scripts.slots[0] == ("mus_chase", 1)  # held until the ambient ends
    assert not h.scripts.sound_music_stop("mus_chase")  # found again: already stopping
    h.step(200)
    starts = [(r["tick"], r["sound"]) for r in h.ctx.events.where(source="oni", event="start")]
    assert starts == [(0, "mus_in"), (30, "mus"), (150, "mus_out")]
    assert [r["tick"] for r in h.events("ambient_end")] == [180]
    assert not h.scripts.sound_music_stop("mus_chase")
    assert h.scripts.slots[0] is None  # the update freed it


def test_music_volume_fades_by_name(h):
    h.scripts.sound_music_start("mus_chase", 1.0)
    h.step(40)
    assert h.scripts.sound_music_volume("mus_chase", 0.5, 1.0)
    h.step(30)
    track = h.oni.ambients.slots[0].tracks[0]
    assert track.part_volume == pytest.approx(0.75)
    h.step(30)
    assert track.part_volume == pytest.approx(0.5)
    assert not h.scripts.sound_music_volume("nothing", 0.5, 1.0)


def test_ambient_commands_are_the_music_functions(h):
    assert type(h.scripts).sound_ambient_start is type(h.scripts).sound_music_start
    assert type(h.scripts).sound_ambient_stop is type(h.scripts).sound_music_stop
    assert type(h.scripts).sound_ambient_volume is type(h.scripts).sound_music_volume


def test_sixteen_script_slots(h):
    h.oni.db.ambients["mus_chase"].in_name = ""
    h.oni.db.ambients["mus_chase"].base1_name = ""
    h.oni.db.ambients["mus_chase"].out_name = ""
    h.oni.db.ambients["mus_chase"].detail_name = "shot"
    h.oni.db.resolve()
    h.oni.db.ambients["mus_chase"].detail_interval_min_s = 100.0
    for i in range(16):
        assert h.scripts.sound_music_start("mus_chase"), i
    assert not h.scripts.sound_music_start("mus_chase")
    assert h.events("script_refused")[0]["reason"] == "no script slot"


def test_dialog_play_does_nothing_while_one_plays(h):
    assert h.scripts.sound_dialog_play("line_a")
    h.step(30)
    assert not h.scripts.sound_dialog_play("line_b")
    assert h.events("dialog_ignored")[0]["sound"] == "line_b"
    h.step(30)  # line_a (60 ticks) has played its length
    assert not h.scripts.dialog_playing()
    assert h.scripts.sound_dialog_play("line_b")
    assert h.scripts.dialog_ends == [("line_a", 60)]


def test_dialog_ends_when_its_first_base_sound_has_played_its_length(h):
    """The ambient still plays its out sound, but the dialogue no longer counts."""
    h.scripts.sound_dialog_play("line_tail")
    h.step(60)
    assert h.oni.ambients.active()  # the out sound plays on
    assert not h.scripts.dialog_playing()
    assert h.scripts.dialog_ends == [("line_tail", 60)]


def test_dialog_whose_start_finds_nothing_ends_at_the_next_update(h):
    # SSrAmbient_Start returns an id although its start stage found nothing to play; the
    # line has no duration, so OSiDialog_Start sets no end time and the next update (the
    # ambient is no longer active) ends it. The 2 s are for a refused start only.
    assert h.scripts.sound_dialog_play("broken")
    assert h.scripts.dialog.ambient_id is not None and not h.scripts.dialog_playing()
    h.step(1)
    assert h.scripts.dialog_ends == [("broken", 1)]


def _fill_slots(h) -> None:
    h.oni.db.ambients["mus_chase"].detail_name = "shot"
    h.oni.db.resolve()
    h.oni.db.ambients["mus_chase"].detail_interval_min_s = 100.0
    for _ in range(16):  # all 16 slots taken: the next start is refused
        assert h.oni.ambient_start("mus_chase") is not None


def test_dialog_refused_a_start_counts_two_seconds_without_a_duration(h):
    _fill_slots(h)
    assert not h.scripts.sound_dialog_play("broken")
    assert h.scripts.dialog_playing()
    h.step(119)
    assert h.scripts.dialog_playing()
    h.step(1)
    assert not h.scripts.dialog_playing()
    assert h.scripts.dialog_ends == [("broken", 120)]


def test_a_dialog_name_with_no_ambient_starts_nothing(h):
    assert not h.scripts.sound_dialog_play("no_such_line")
    assert h.scripts.dialog is None and not h.scripts.dialog_playing()
    assert h.scripts.sound_dialog_play("line_b")  # nothing blocks the next line
    assert h.events("missing_ambient")[0]["sound"] == "no_such_line"


def test_play_block_waits_for_the_current_line_then_starts_and_goes_on(h):
    went_on = []
    h.scripts.sound_dialog_play("line_a")
    h.step(10)
    assert not h.scripts.sound_dialog_play_block("line_b", then=lambda: went_on.append(h.tick))
    h.step(49)
    assert went_on == [] and h.scripts.dialog.name == "line_a"
    h.step(1)  # tick 60: line_a stops counting; the stalled call starts line_b
    assert went_on == [60] and h.scripts.dialog.name == "line_b"
    h.step(30)
    assert h.scripts.dialog_ends == [("line_a", 60), ("line_b", 90)]


def test_play_block_with_nothing_playing_starts_at_once(h):
    assert h.scripts.sound_dialog_play_block("line_b")
    assert h.scripts.dialog.name == "line_b"


def test_play_block_pause_names_no_ambient_and_only_waits(h):
    went_on = []
    h.scripts.sound_dialog_play("line_a")
    h.scripts.sound_dialog_play_block(None, then=lambda: went_on.append(h.tick))
    h.scripts.sound_dialog_play_block("line_b")
    h.step(60)
    assert went_on == [60] and h.scripts.dialog.name == "line_b"
    starts = [r["sound"] for r in h.events("dialog_start")]
    assert starts == ["line_a", "line_b"]


def test_play_interrupt_halts_the_current_line_first(h):
    h.scripts.sound_dialog_play("line_a")
    h.step(10)
    assert h.scripts.sound_dialog_play_interrupt("line_b")
    assert h.events("dialog_interrupt")[0]["sound"] == "line_a"
    assert [r["sound"] for r in h.events("ambient_end")] == ["line_a"]
    assert h.ctx.events.where(source="oni", event="stop")[0]["reason"] == "dialog interrupt"
    assert h.scripts.dialog.name == "line_b"
    assert h.scripts.dialog_ends == [("line_a", 10)]


def test_script_volumes_are_held_to_0_1_and_names_compare_without_case(h):
    assert h.scripts.sound_music_start("mus_chase", 1.6)
    slot = h.oni.ambients.active()[0]
    assert slot.volume == 1.0
    assert h.scripts.sound_music_volume("MUS_Chase", 0.25, 0.0)
    assert slot.volume == 0.25
    assert h.scripts.sound_impulse_play("shot", 3.0)
    assert h.events("impulse")[0]["gain"] == pytest.approx(1.0)
    assert h.scripts.sound_music_stop("Mus_Chase")


def test_impulse_play_is_at_the_listener(h):
    h.move_listener(500.0, 0.0, 500.0)  # far from the origin: the impulse is still full
    assert h.scripts.sound_impulse_play("shot", 0.5)
    record = h.events("impulse")[0]
    assert record["gain"] == pytest.approx(0.5) and record["pan"] == 0


def test_play_interrupt_ends_a_line_that_could_not_start(h):
    _fill_slots(h)
    h.scripts.sound_dialog_play("broken")
    h.step(10)
    for slot in h.oni.ambients.active():  # room again for line_b
        h.oni.ambients.halt(slot.id)
    assert h.scripts.sound_dialog_play_interrupt("line_b")
    assert h.scripts.dialog_ends == [("broken", 10)]
    assert h.scripts.dialog.name == "line_b"


def test_play_interrupt_after_the_line_ended_interrupts_nothing(h):
    h.scripts.sound_dialog_play("line_b")
    h.step(40)
    assert h.scripts.sound_dialog_play_interrupt("line_a")
    assert h.events("dialog_interrupt") == []
    assert h.scripts.dialog_ends == [("line_b", 30)]


def test_a_then_continuation_that_raises_is_reported_once_and_the_queue_goes_on(h):
    """Issue 11: the game's ``then`` is called through ``EventLog.call``."""
    went_on = []

    def broken():
        raise RuntimeError("script bug")

    h.scripts.sound_dialog_play("line_a")
    h.scripts.sound_dialog_play_block(None, then=broken)
    h.scripts.sound_dialog_play_block(None, then=broken)
    h.scripts.sound_dialog_play_block("line_b", then=lambda: went_on.append(h.tick))
    h.step(60)
    assert went_on == [60] and h.scripts.dialog.name == "line_b"
    errors = h.events("callback_error")
    assert len(errors) == 1 and errors[0]["role"] == "then" and "script bug" in errors[0]["error"]


def test_script_music_plays_on_the_music_bus_dialogue_on_dialogue_impulses_on_sfx(h):
    # docs/audio.md "Buses": Oni music and script ambients -> music, dialogue ->
    # dialogue, impulses (and placed ambients, flybys) -> sfx
    h.scripts.sound_music_start("mus_chase")
    h.scripts.sound_dialog_play("line_a")
    h.oni.play_impulse("shot", None)
    h.step(1)
    by_sound = {c.sound: c.bus for c in h.oni.bank.channels if c.playing}
    assert by_sound == {"mus_in": "music", "line_a": "dialogue", "shot": "sfx"}
