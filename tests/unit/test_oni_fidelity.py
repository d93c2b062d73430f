"""Oni fidelity corrections (issue 12): each test pins one reading of the seed and
Bungie's released source (``BFW_SoundSystem2.c``, ``Oni_Sound2.c``) in their numbers."""

from __future__ import annotations

import pytest
from test_oni_harness import OniHarness

TOML = """
[groups.hum]
permutations = [{ sound = "hum" }]
[groups.tick]
permutations = [{ sound = "tick" }]
[ambients.hum]
priority = 1
base1 = "hum"
threshold = 16
[impulses.tick]
group = "tick"
priority = 1
distance = [10.0, 30.0]
"""


def test_rule_4_ranks_on_the_product_so_at_overall_0_the_first_channel_wins():
    # Issue 12 A: 9 ambients hold the 9 mono channels (7..15) at 0.9, 0.8, 0.3, ...; the
    # overall volume slides to 0; every product is then 0 and Bungie's strict
    # ``volume < min_volume`` scan keeps the first: channel 7, not the quietest raw one (9).
    h = OniHarness(TOML, {"hum": 5.0, "tick": 0.5})
    volumes = [0.9, 0.8, 0.3, 0.7, 0.6, 0.5, 0.95, 0.85, 0.75]
    ids = [h.oni.ambient_start("hum", volume=v) for v in volumes]
    assert all(i is not None for i in ids)
    h.step(1)
    mono = [c for c in h.bank.channels if c.kind.name == "MONO"]
    assert [c.index for c in mono] == list(range(7, 16)) and all(c.locked for c in mono)
    assert min(mono, key=lambda c: c.volume).index == 9  # the raw ranking's pick
    h.oni.set_overall_volume(0.0)
    h.step(20)  # 0.05 a frame: 1 -> 0 in 20 frames
    assert h.bank.overall_volume == pytest.approx(0.0)
    assert h.oni.play_impulse("tick", None)
    assert h.events("impulse")[-1]["channel"] == 7
    assert h.events("steal", source="oni")[-1]["channel"] == 7


DRAWS_TOML = """
[groups.pair]
dont_repeat = true
permutations = [{ sound = "a", volume = [0.5, 1.0], pitch = [0.9, 1.1] },
                { sound = "b", volume = [0.5, 1.0], pitch = [0.9, 1.1] }]
[groups.wall]
permutations = [{ sound = "a" }]
[impulses.pair]
group = "pair"
priority = 1
distance = [10.0, 30.0]
[ambients.wall]
priority = 3
base1 = "wall"
threshold = 16
[ambients.detailed]
priority = 1
detail = "pair"
detail_range = 4.0
detail_interval_s = [1.0, 1.0]
distance = [10.0, 30.0]
"""


def _draws(rng, before: int) -> int:
    """How many draws the Oni generator made since its state was ``before``."""
    state, n = before, 0
    while state != rng.state:
        state = (state * 1664525 + 1013904223) & 0xFFFFFFFF
        n += 1
        assert n < 100
    return n


def test_an_inaudible_impulse_draws_its_permutation_but_no_volume_or_pitch():
    # Issue 12 B: SSiGroup_PlaySpatialized picks the permutation first, so the group's
    # don't-repeat memory advances even when the sound is out of its far distance; the
    # volume and pitch (UUrRandom) are drawn only for a sound that plays.
    h = OniHarness(DRAWS_TOML, {"a": 0.5, "b": 0.5})
    group = h.oni.group("pair")
    local, rand = h.oni.local.state, h.oni.random.state
    assert not h.oni.play_impulse("pair", (0.0, 0.0, 200.0))  # 200 / 3 units: beyond 30
    assert h.events("impulse_inaudible")
    assert _draws(h.oni.local, local) >= 1 and _draws(h.oni.random, rand) == 0
    picked = group.last
    assert h.oni.play_impulse("pair", (0.0, 0.0, 1.0))  # heard: volume then pitch drawn
    assert _draws(h.oni.random, rand) == 2
    assert h.events("impulse")[-1]["sound"] != ("a", "b")[picked]  # don't repeat


def test_an_impulse_with_no_channel_draws_no_volume_or_pitch():
    h = OniHarness(DRAWS_TOML, {"a": 5.0, "b": 5.0})
    for _ in range(9):  # every mono channel locked at full volume: no rule gives one
        assert h.oni.ambient_start("wall") is not None
    rand = h.oni.random.state
    assert not h.oni.play_impulse("pair", (0.0, 0.0, 1.0))
    assert h.events("drop", source="oni")
    assert _draws(h.oni.random, rand) == 0


def test_a_detail_with_no_free_channel_draws_its_offset_and_next_time_only():
    # The detail's x and z offsets (2 draws), no channel (priority 0 only takes a free
    # one), so no volume or pitch, then SSiPAUpdate_CalcNextDetailTime (1 draw).
    h = OniHarness(DRAWS_TOML, {"a": 5.0, "b": 5.0})
    for _ in range(9):
        h.oni.ambient_start("wall")
    rand = h.oni.random.state
    # no base: details only, the first due at once (inside the start)
    assert h.oni.ambient_start("detailed") is not None
    assert not h.events("detail") and h.events("drop", source="oni")
    assert _draws(h.oni.random, rand) == 3


FADE_TOML = """
[groups.mus_in]
permutations = [{ sound = "mus_in" }]
[groups.mus]
permutations = [{ sound = "mus" }]
[ambients.mus]
priority = 3
in = "mus_in"
base1 = "mus"
"""


def _base_volume(h: OniHarness, ambient_id: int) -> float:
    slot = h.oni.ambients.by_id(ambient_id)
    return slot.tracks[0].part_volume


def test_a_fade_asked_for_during_the_in_sound_goes_on_through_the_base_start():
    # Issue 12 C: ambient_start("mus") with a 1 s in sound, a tick later a fade to 0 over
    # 10 s: the fade moves 1/600 a tick and the base starts where it stands (about 0.90
    # at tick 60), going on down; it does not jump to the target when the base starts.
    h = OniHarness(FADE_TOML, {"mus_in": 1.0, "mus": 30.0})
    ambient_id = h.oni.ambient_start("mus")
    h.step(1)
    assert h.oni.ambient_fade(ambient_id, 0.0, 10.0)
    volumes = {}
    for _ in range(70):
        h.step(1)
        volumes[h.tick] = _base_volume(h, ambient_id)
    starts = [r for r in h.events("ambient_state") if r["new"] == "BODY"]
    assert starts and 59 <= starts[0]["tick"] <= 61
    assert volumes[59] == pytest.approx(1.0 - 58 / 600)
    assert volumes[60] == pytest.approx(1.0 - 59 / 600)  # not 0.0
    assert volumes[71] == pytest.approx(1.0 - 70 / 600)
    base = h.bank.get(h.oni.ambients.by_id(ambient_id).tracks[0].handle)
    assert base.sound == "mus" and 0.87 < base.volume < 0.9


def test_a_script_fade_during_an_intro_goes_on_through_the_base_start():
    h = OniHarness(FADE_TOML, {"mus_in": 1.0, "mus": 30.0})
    assert h.scripts.sound_music_start("mus")
    ambient_id = h.scripts.slots[0][1]
    h.step(1)
    assert h.scripts.sound_music_volume("mus", 0.0, 5.0)  # 1/300 a tick
    h.step(65)
    assert _base_volume(h, ambient_id) == pytest.approx(1.0 - 65 / 300)


DIALOG_TOML = """
[groups.line]
permutations = [{ sound = "line" }]
[groups.ghost]
permutations = [{ sound = "ghost_line" }]
[groups.wall]
permutations = [{ sound = "wall" }]
[ambients.line]
priority = 3
interrupt_on_stop = true
play_once = true
base1 = "line"
[ambients.ghost]
priority = 3
play_once = true
base1 = "ghost"
[ambients.wall]
detail = "wall"
detail_interval_s = [100.0, 100.0]
threshold = 16
"""


def test_a_one_second_line_ends_on_integer_ticks():
    # Issue 12 D: EndTime = now + duration_ticks, ended when now >= EndTime. A 1 s line
    # (22,050 frames: 60 ticks) started at tick 13 ends at 73; float seconds gave 74 for
    # 46 of the first 2,000 start ticks. Lines back to back from tick 13 cover 33 starts.
    h = OniHarness(DIALOG_TOML, {"line": 1.0})
    h.step(13)
    starts = []
    while h.tick < 2000:
        if h.scripts.dialog is None:
            assert h.scripts.sound_dialog_play("line")
            starts.append(h.tick)
        h.step(1)
    ends = [tick for _name, tick in h.scripts.dialog_ends]
    assert starts[0] == 13 and ends[0] == 73
    assert ends == [start + 60 for start in starts[:len(ends)]] and len(ends) >= 32


def _fill_slots(h: OniHarness) -> None:
    for _ in range(16):
        assert h.oni.ambient_start("wall") is not None


def test_a_refused_dialog_without_a_duration_ends_120_ticks_on():
    # base track 1's sound has no data (no duration) and the start is refused (no slot):
    # OSiDialog_Start's default 120 ticks, started at tick 200 -> 320 (float seconds: 321)
    h = OniHarness(DIALOG_TOML, {"line": 1.0, "wall": 1.0})
    _fill_slots(h)
    h.step(200)
    assert not h.scripts.sound_dialog_play("ghost")
    h.step(130)
    assert h.scripts.dialog_ends == [("ghost", 320)]


def test_a_refused_dialog_with_a_duration_counts_that_duration_not_two_seconds():
    h = OniHarness(DIALOG_TOML, {"line": 1.0, "wall": 1.0})
    _fill_slots(h)
    h.step(200)
    assert not h.scripts.sound_dialog_play("line")
    h.step(130)
    assert h.scripts.dialog_ends == [("line", 260)]


TWO_TOML = """
[groups.base1]
permutations = [{ sound = "b1" }]
[groups.base2]
volume = 0.5
permutations = [{ sound = "b2" }]
[groups.out]
permutations = [{ sound = "out" }]
[groups.wall]
permutations = [{ sound = "wall" }]
[groups.shot]
permutations = [{ sound = "shot", volume = [0.9, 0.9] }]
[ambients.two]
priority = 1
base1 = "base1"
base2 = "base2"
out = "out"
[ambients.wall]
priority = 1
base1 = "wall"
threshold = 16
[impulses.shot]
group = "shot"
priority = 1
distance = [10.0, 30.0]
"""
TWO_SOUNDS = {"b1": 1.0, "b2": 1.5, "out": 0.5, "wall": 10.0, "shot": 2.0}


def _state_ticks(h: OniHarness, ambient: str) -> dict[str, int]:
    return {new: tick for tick, _old, new in h.states(ambient)}


def test_a_stop_with_two_base_tracks_turns_off_only_base_2s_loop_first():
    # SSrAmbient_Stop: base 2 plays, so only its loop goes off and the slot stays in the
    # body; base 1 loops on (0-60, 60-120). Base 2 ends at 90: the body turns base 1's
    # loop off and goes to end wait; base 1's segment ends at 120, then the out sound.
    h = OniHarness(TWO_TOML, TWO_SOUNDS)
    ambient_id = h.oni.ambient_start("two")
    h.step(30)
    assert h.oni.ambient_stop(ambient_id)
    assert h.oni.ambients.by_id(ambient_id).state.name == "BODY"
    h.step(100)
    ticks = _state_ticks(h, "two")
    assert ticks["END_WAIT"] == 90 and ticks["OUT"] == 120
    assert [r["sound"] for r in h.events("start") if r["channel"] == 7] == ["b1", "b1", "out"]


def test_a_re_taken_base_2_is_never_played_again():
    # Base 2's channel (the quietest) is taken by an impulse; the next body tick takes a
    # channel again for it (volume 0, not looping): Bungie never plays base 2 on it but
    # turns base 1's loop off, so the ambient ends after base 1's sound.
    h = OniHarness(TWO_TOML, TWO_SOUNDS)
    ambient_id = h.oni.ambient_start("two")
    for _ in range(7):
        assert h.oni.ambient_start("wall") is not None  # every mono channel taken
    h.step(1)
    assert h.oni.play_impulse("shot", None)  # base 2 (0.5) is the quietest: taken
    assert h.events("ambient_lost")
    h.step(1)  # the re-take takes the impulse's channel (0.9 < 1) back, silent
    assert h.events("ambient_retake")
    h.step(80)
    ticks = _state_ticks(h, "two")
    assert ticks["END_WAIT"] == 2 and ticks["OUT"] == 60
    slot_starts = [r["sound"] for r in h.events("start")]
    assert slot_starts.count("b2") == 1  # played at the start only, never on the re-take
    assert not h.oni.ambient_playing(ambient_id) or h.oni.ambients.by_id(
        ambient_id).state.name in ("OUT_WAIT", "RELEASE")


def test_detail_times_round_to_the_nearest_tick():
    # SSiPAUpdate_CalcNextDetailTime: now + (UUtUns32)(0.999 x 60 = 59.94): the retail
    # build's conversions round (the seed's 7 stereo channels and round(3333 v)), so 60;
    # a detail plays on the first tick after it (detail_time < now): tick 61, not 60.
    toml = DRAWS_TOML.replace("detail_interval_s = [1.0, 1.0]",
                              "detail_interval_s = [0.999, 0.999]")
    h = OniHarness(toml, {"a": 0.1, "b": 0.1})
    assert h.oni.ambient_start("detailed") is not None  # details only: the first at once
    h.step(70)
    assert [r["tick"] for r in h.events("detail")] == [0, 61]


def test_default_layout_is_7_stereo_9_mono():
    # (UUtUns32)(16 x 0.4f + 0.5f) = (UUtUns32)6.9: 7 with the retail build's rounding
    # conversion (the seed), 6 with a C truncation (the source read as C)
    h = OniHarness("", {})
    kinds = [c.kind.name for c in h.bank.channels]
    assert kinds == ["STEREO"] * 7 + ["MONO"] * 9
