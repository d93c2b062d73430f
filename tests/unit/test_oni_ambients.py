"""The ambient state machine (``SSrAmbient_Start`` 0x4821f0, 0x480c20, ``SSrAmbient_Stop``
0x4823c0) on the ``oni`` channel bank."""

from __future__ import annotations

import pytest
from test_oni_harness import OniHarness

from soundscape.components.channel import ChannelKind

TOML = """
[groups.in]
permutations = [{ sound = "in" }]
[groups.base]
permutations = [{ sound = "b1" }]
[groups.base2]
permutations = [{ sound = "b2" }]
[groups.loop]
dont_repeat = true
permutations = [{ sound = "b1", weight = 1 }, { sound = "b2", weight = 2 }]
[groups.out]
permutations = [{ sound = "out" }]
[groups.det]
permutations = [{ sound = "det" }]
[groups.st]
channels = "stereo"
permutations = [{ sound = "b1" }]

[ambients.music]
in = "in"
base1 = "base"
out = "out"
[ambients.two]
base1 = "base"
base2 = "base2"
[ambients.looper]
base1 = "loop"
[ambients.once]
play_once = true
base1 = "base"
out = "out"
[ambients.cut]
interrupt_on_stop = true
in = "in"
base1 = "base"
out = "out"
[ambients.detailed]
base1 = "base"
detail = "det"
detail_range = 5.0
detail_interval_s = [1.0, 1.0]
distance = [100.0, 200.0]
[ambients.details_only]
detail = "det"
detail_interval_s = [0.5, 0.5]
[ambients.empty]
base1 = "nothing_by_this_name"
[ambients.stereo]
base1 = "st"
threshold = 20
[ambients.mono]
base1 = "base"
threshold = 20
"""
SOUNDS = {"in": 0.5, "b1": 1.0, "b2": 1.5, "out": 0.25, "det": 0.1}


@pytest.fixture
def h():
    return OniHarness(TOML, SOUNDS)


def test_in_base_stop_end_wait_out_release(h):
    aid = h.oni.ambient_start("music")
    assert aid is not None
    assert h.states("music") == [(0, "START", "IN"), (0, "IN", "IN_WAIT")]
    h.step(29)
    assert h.states("music")[-1] == (0, "IN", "IN_WAIT")
    h.step(1)  # the in sound (0.5 s) ends at tick 30: base starts in the same tick
    assert h.states("music")[-2:] == [(30, "IN_WAIT", "BASE"), (30, "BASE", "BODY")]
    h.step(15)
    assert h.oni.ambient_stop(aid)
    assert h.states("music")[-1] == (45, "BODY", "END_WAIT")
    h.step(200)
    # the base segment plays to its end (30 + 60), then the out sound (15 ticks)
    assert h.states("music")[-3:] == [(90, "END_WAIT", "OUT"), (90, "OUT", "OUT_WAIT"),
                                      (105, "OUT_WAIT", "RELEASE")]
    assert [r["tick"] for r in h.events("ambient_end")] == [105]
    sounds = [(r["tick"], r["sound"]) for r in h.ctx.events.where(source="oni", event="start")]
    assert sounds == [(0, "in"), (30, "b1"), (90, "out")]
    assert not h.oni.ambients.is_active(aid)


def test_a_looping_base_plays_again_gaplessly_with_a_new_permutation(h):
    h.oni.ambient_start("looper")
    h.step(600)
    starts = [(r["tick"], r["sound"]) for r in h.ctx.events.where(source="oni", event="start")]
    ends = [r["tick"] for r in h.ctx.events.where(source="oni", event="end")]
    assert len(starts) >= 6 and {s for _, s in starts} == {"b1", "b2"}
    # every end is followed by the next permutation in the same tick
    assert [t for t, _ in starts[1:]] == ends[: len(starts) - 1]
    # each loop drew again: the lengths follow the sounds drawn
    for (t0, s0), (t1, _) in zip(starts, starts[1:], strict=False):
        assert t1 - t0 == {"b1": 60, "b2": 90}[s0]


def test_a_loop_carries_the_overshoot_into_the_next_sound():
    h = OniHarness(TOML.replace('sound = "b1" }]\n[groups.base2]', 'sound = "odd" }]\n'
                                '[groups.base2]'), {**SOUNDS, "odd": 0.51})
    h.oni.ambient_start("two")
    slot = h.oni.ambients.slots[0]
    h.step(31)  # "odd" (11,246 frames) ends inside tick 31 (367.5 frames a tick)
    channel = h.channel(slot.tracks[0].handle)
    assert channel.playing and channel.sound == "odd"
    assert channel.cursor_frames == pytest.approx(31 * 367.5 - h.ctx.sounds.get("odd").frames)
    assert 0 < channel.cursor_frames < 367.5


def test_play_once_goes_to_end_wait_and_out_when_the_base_ends(h):
    h.oni.ambient_start("once")
    h.step(60)
    assert h.states("once")[-3:] == [(60, "BODY", "END_WAIT"), (60, "END_WAIT", "OUT"),
                                     (60, "OUT", "OUT_WAIT")]
    h.step(15)
    assert h.states("once")[-1] == (75, "OUT_WAIT", "RELEASE")


def test_interrupt_on_stop_cuts_at_once_then_plays_the_out_sound(h):
    # SSrAmbient_Stop with InterruptOnStop stops both channels and goes to BodyStopping:
    # nothing plays there, so the out sound starts on the first channel at once
    aid = h.oni.ambient_start("cut")
    h.step(10)  # in the middle of the 0.5 s in sound
    assert h.oni.ambient_stop(aid)
    cut = h.ctx.events.where(source="oni", event="stop")
    assert [(r["tick"], r["sound"], r["reason"]) for r in cut] == [(10, "in", "interrupt")]
    starts = [(r["tick"], r["sound"]) for r in h.ctx.events.where(source="oni", event="start")]
    assert starts[-1] == (10, "out")
    assert [n for _, _, n in h.states("cut")][-3:] == ["END_WAIT", "OUT", "OUT_WAIT"]
    h.step(20)
    assert [r["tick"] for r in h.events("ambient_end")] == [25]  # the 0.25 s out sound
    assert not any(c.playing for c in h.bank.channels)
    assert not any(c.locked for c in h.bank.channels)


def test_a_stop_in_end_wait_or_out_does_nothing(h):
    aid = h.oni.ambient_start("cut")
    h.step(10)
    assert h.oni.ambient_stop(aid)  # now in OUT_WAIT
    assert not h.oni.ambient_stop(aid)  # retail: stage BodyStopping..OutSoundPlaying, break
    assert len(h.ctx.events.where(source="oni", event="ambient_stop")) == 1
    h.step(20)
    assert [r["tick"] for r in h.events("ambient_end")] == [25]


def test_an_ambient_in_its_out_sound_no_longer_counts_toward_its_threshold(h):
    ids = [h.oni.ambient_start("music") for _ in range(3)]
    assert h.oni.ambient_start("music") is None  # three play: the threshold
    h.step(31)  # the in sounds ended: all three in the body
    assert h.oni.ambient_stop(ids[0])
    h.step(60)  # its base segment ended: its out sound plays
    assert h.oni.ambients.by_id(ids[0]).state.name == "OUT_WAIT"
    assert h.oni.ambient_start("music") is not None


def test_stop_during_the_in_sound_waits_for_it_then_plays_out(h):
    aid = h.oni.ambient_start("music")
    h.step(5)
    h.oni.ambient_stop(aid)
    h.step(60)
    news = [n for _, _, n in h.states("music")]
    assert news == ["IN", "IN_WAIT", "END_WAIT", "OUT", "OUT_WAIT", "RELEASE"]
    assert [r["tick"] for r in h.events("ambient_end")] == [45]  # in ends 30, out 15 more


def test_channels_are_locked_owned_and_of_the_groups_kind(h):
    h.oni.ambient_start("two")
    slot = h.oni.ambients.slots[0]
    for track in slot.tracks:
        channel = h.channel(track.handle)
        assert channel.locked and channel.owner == slot.index and channel.kind == ChannelKind.MONO
    h.oni.ambient_start("stereo")
    channel = h.channel(h.oni.ambients.slots[1].tracks[0].handle)
    assert channel.kind == ChannelKind.STEREO


def test_threshold_refuses_more_starts_and_sixteen_slots(h):
    assert [h.oni.ambient_start("music") is not None for _ in range(4)] == [True] * 3 + [False]
    assert h.events("ambient_refused")[-1]["reason"] == "threshold"
    h2 = OniHarness(TOML.replace("[ambients.details_only]", "[ambients.details_only]\n"
                                                            "threshold = 40"), SOUNDS)
    ids = [h2.oni.ambient_start("details_only") for _ in range(17)]
    assert all(i is not None for i in ids[:16]) and ids[16] is None
    assert h2.events("ambient_refused")[-1]["reason"] == "no slot"


def test_no_channel_and_no_detail_is_done_at_once(h):
    # Bungie's SSrAmbient_Start returns the slot's id all the same (Done -> None within
    # the start's own update): the id is at once no longer active
    ambient_id = h.oni.ambient_start("empty")
    assert ambient_id is not None and not h.oni.ambient_playing(ambient_id)
    assert h.states("empty") == [(0, "START", "RELEASE")]
    assert len(h.events("ambient_end")) == 1


def test_no_channel_with_a_detail_plays_details_only(h):
    aid = h.oni.ambient_start("details_only")
    assert h.states("details_only") == [(0, "START", "BODY")]
    h.step(100)
    # detail_time starts at 0, so the first plays at once; then each 0.5 s = 30 ticks
    # later, on the first tick after it (retail ``detail_time < now``)
    assert [r["tick"] for r in h.events("detail")] == [0, 31, 62, 93]
    assert h.oni.ambient_stop(aid)
    assert [n for _, _, n in h.states("details_only")][-3:] == ["END_WAIT", "OUT", "RELEASE"]


def test_details_play_at_their_times_around_the_place_at_priority_zero(h):
    h.oni.ambient_start("detailed", position=(30.0, 0.0, 60.0))
    h.step(200)
    details = h.events("detail")
    # timed at the base (tick 0) + 60 ticks; played on the first tick after it
    assert [r["tick"] for r in details] == [61, 122, 183]
    for r in details:
        x, y, z = r["pos"]
        assert abs(x - 30.0) <= 5.0 and abs(z - 60.0) <= 5.0 and y == 0.0
    assert len({tuple(r["pos"]) for r in details}) == 3


def test_details_of_an_ambient_without_a_place_play_around_the_listener(h):
    h.move_listener(100.0, 2.0, -40.0)
    h.oni.ambient_start("detailed")
    h.step(62)
    (detail,) = h.events("detail")
    x, y, z = detail["pos"]
    assert abs(x - 100.0) <= 5.0 and abs(z + 40.0) <= 5.0 and y == 2.0
    assert detail["gain"] > 0.0  # within its 100-unit near distance: full volume


def test_a_detail_beyond_its_far_distance_does_not_play(h):
    toml = TOML + "\n[ambients.faint]\ndetail = \"det\"\ndistance = [1.0, 2.0]\n"
    h2 = OniHarness(toml, SOUNDS)
    h2.oni.ambient_start("faint", position=(600.0, 0.0, 0.0))  # 200 sound units away
    h2.step(2)
    assert h2.events("detail") == []
    assert [r["tick"] for r in h2.events("detail_inaudible")] == [0, 1, 2]  # interval 0


def test_details_only_take_free_channels(h):
    # fill every mono channel with locked ambients: a detail (priority 0) gets nothing
    for _ in range(9):
        assert h.oni.ambient_start("mono") is not None
    h.oni.ambient_start("details_only")
    h.step(31)
    assert h.events("detail") == []
    assert h.ctx.events.where(source="oni", event="drop")[-1]["priority"] == 0


def test_channel_volume_is_ambient_times_distance_times_permutation_times_group():
    toml = TOML.replace('[groups.base]\npermutations = [{ sound = "b1" }]',
                        '[groups.base]\nvolume = 0.5\n'
                        'permutations = [{ sound = "b1", volume = [0.8, 0.8] }]')
    toml = toml.replace('distance = [100.0, 200.0]', 'distance = [10.0, 30.0]')
    h = OniHarness(toml, SOUNDS)
    # 60 m away -> sound distance 20 -> halfway between 10 and 30: 0.5
    h.oni.ambient_start("detailed", volume=0.9, position=(0.0, 0.0, 60.0))
    channel = h.channel(h.oni.ambients.slots[0].tracks[0].handle)
    assert channel.volume == pytest.approx(0.9 * 0.5 * 0.8 * 0.5)
    h.move_listener(0.0, 0.0, 30.0)  # 30 m: distance 10, full
    h.step(1)
    assert channel.volume == pytest.approx(0.9 * 1.0 * 0.8 * 0.5)


def _fill_mono_with_full_ambients(h, n):
    for _ in range(n):
        assert h.oni.ambient_start("mono", volume=1.0) is not None


BANG_TOML = TOML + """
[groups.bang]
permutations = [{ sound = "b2", volume = [0.9, 0.9] }]
[impulses.bang]
group = "bang"
priority = 2
"""
"""An impulse loud enough to steal the quietest (locked) mono channel."""


def _steal_from_two(h, volume=0.95):
    """Start ``two`` (two mono base tracks), fill the other mono channels at full volume
    and let a priority-2 impulse (0.9) take the quietest: one of ``two``'s channels. The
    re-take then takes the impulse's, the quietest under full volume."""
    victim = h.oni.ambient_start("two", volume=volume)
    _fill_mono_with_full_ambients(h, 7)
    h.step(1)
    slot = h.oni.ambients.by_id(victim)
    handles = [t.handle for t in slot.tracks]
    assert h.oni.play_impulse("bang", None)
    (lost,) = [t for t in slot.tracks if t.lost]
    return victim, slot, lost, handles[slot.tracks.index(lost)]


def test_a_stolen_channel_is_taken_again_at_volume_zero_and_stays_silent():
    """The re-take quirk: the half-second fade to the ambient's volume never starts."""
    h = OniHarness(BANG_TOML, SOUNDS)
    victim, slot, lost, stolen = _steal_from_two(h)
    assert h.events("ambient_lost")
    h.step(1)  # body: the lost channel is taken again from the quieter impulse
    retakes = h.events("ambient_retake")
    assert len(retakes) == 1 and retakes[0]["channel"] == stolen.slot
    channel = h.channel(lost.handle)
    assert channel.playing and channel.locked and not channel.loop
    h.step(120)  # the other track plays on, the re-taken one replays its group silently
    assert slot.state.name == "BODY" and h.channel(lost.handle).playing
    assert channel.volume == 0.0  # still silent: the fade did not start
    assert lost.part_volume == 0.0
    h.oni.ambient_update(victim, None, 0.95)  # the volume set again
    h.step(1)
    assert channel.volume == pytest.approx(0.95 * lost.draw.volume)


def test_a_lone_base_track_taken_again_ends_after_that_sound():
    # BodyPlaying reads both channels as not playing (the lost one is NULL): body stopping
    h = OniHarness(BANG_TOML, SOUNDS)
    victim = h.oni.ambient_start("looper", volume=0.5)
    _fill_mono_with_full_ambients(h, 8)
    h.step(1)
    slot = h.oni.ambients.by_id(victim)
    assert h.oni.play_impulse("bang", None) and slot.tracks[0].lost
    h.step(1)
    assert h.events("ambient_retake") and slot.state.name == "END_WAIT"
    assert h.channel(slot.tracks[0].handle).volume == 0.0  # silent to the end
    h.step(100)  # b1 1 s or b2 1.5 s
    assert not h.oni.ambients.is_active(victim)


def test_a_fade_to_a_new_volume_does_reach_a_retaken_channel():
    h = OniHarness(BANG_TOML, SOUNDS)
    victim, slot, lost, _stolen = _steal_from_two(h)
    h.step(1)
    assert h.oni.ambients.fade(victim, 0.6, 1.0)
    h.step(30)
    assert 0.0 < lost.part_volume < 0.6
    h.step(31)
    assert lost.part_volume == pytest.approx(0.6)


def test_fade_moves_by_its_rate_per_tick(h):
    aid = h.oni.ambient_start("two", volume=1.0)
    h.oni.ambients.fade(aid, 0.0, 1.0)  # 1/60 a tick
    h.step(30)
    track = h.oni.ambients.by_id(aid).tracks[0]
    assert track.part_volume == pytest.approx(0.5)
    h.step(30)
    assert track.part_volume == 0.0


def test_fade_target_is_held_to_0_1_and_zero_time_is_at_once(h):
    # SSrAmbient_SetVolume: UUmPin(inVolume, 0, 1); time x 60 <= 0 sets the volume now
    aid = h.oni.ambient_start("two", volume=0.5)
    slot = h.oni.ambients.by_id(aid)
    h.oni.ambients.fade(aid, 1.7, 0.0)
    assert [t.part_volume for t in slot.tracks] == [1.0, 1.0]
    assert not any(t.fading for t in slot.tracks)
    h.oni.ambients.fade(aid, -3.0, 0.5)  # to 0 (not -3) at 1/30 a tick
    h.step(15)
    assert [t.part_volume for t in slot.tracks] == pytest.approx([0.5, 0.5])
    h.step(16)
    assert [t.part_volume for t in slot.tracks] == [0.0, 0.0]


def test_the_service_wraps_fade_and_playing(h):
    aid = h.oni.ambient_start("two", volume=1.0)
    assert h.oni.ambient_playing(aid)
    assert h.oni.ambient_fade(aid, 0.0, 0.5)
    h.step(30)
    assert [t.part_volume for t in h.oni.ambients.by_id(aid).tracks] == [0.0, 0.0]
    assert h.oni.ambient_halt(aid) and not h.oni.ambient_playing(aid)
    assert not h.oni.ambient_fade(aid, 1.0, 0.0)


def test_fade_to_the_volume_already_asked_for_does_nothing(h):
    aid = h.oni.ambient_start("two", volume=0.8)
    slot = h.oni.ambients.by_id(aid)
    slot.tracks[0].part_volume = 0.3  # e.g. a channel taken again at another volume
    assert h.oni.ambients.fade(aid, 0.8, 1.0)
    assert h.events("ambient_fade") == []
    h.step(60)
    assert slot.tracks[0].part_volume == 0.3


def test_unknown_ambient_and_stale_ids(h):
    assert h.oni.ambient_start("nope") is None
    assert h.events("missing_ambient")[0]["sound"] == "nope"
    assert not h.oni.ambient_stop(12345) and not h.oni.ambient_update(None, None, 1.0)


def test_nan_volume_or_place_is_refused(h):
    from soundscape.errors import InputError

    with pytest.raises(InputError, match="volume"):
        h.oni.ambient_start("two", volume=float("nan"))
    with pytest.raises(InputError, match="place"):
        h.oni.ambient_start("two", position=(0.0, float("inf"), 0.0))
    aid = h.oni.ambient_start("two")
    with pytest.raises(InputError, match="not finite"):
        h.oni.ambient_update(aid, None, float("nan"))
    with pytest.raises(InputError, match="not finite"):
        h.oni.ambients.fade(aid, 0.5, float("nan"))


def test_a_missing_base_sound_ends_the_ambient_cleanly():
    h = OniHarness(TOML, {k: v for k, v in SOUNDS.items() if k != "b1"})
    aid = h.oni.ambient_start("once")
    h.step(20)
    assert not h.oni.ambients.is_active(aid)
    assert h.ctx.events.where(source="oni", event="missing")[0]["sound"] == "b1"
    assert [n for _, _, n in h.states("once")][-1] == "RELEASE"


def test_overall_volume_slides_by_0_05_a_tick_in_the_bank(h):
    h.oni.ambient_start("two")
    h.oni.set_overall_volume(0.5)
    assert h.events("overall_volume")[0]["gain"] == 0.5
    h.step(4)
    assert h.oni.overall_volume == pytest.approx(0.8)
    h.step(10)
    assert h.oni.overall_volume == pytest.approx(0.5)


def test_a_place_too_far_to_square_is_silent_not_an_overflow(h):
    # Fuzzing found (1e200, 0, 0): (x - lx) ** 2 raised OverflowError from
    # distance_units inside ambient_start (and every later volume update).
    aid = h.oni.ambient_start("detailed", position=(1e200, 0.0, 0.0))
    assert aid is not None
    assert h.oni.distance_units((1e200, 0.0, 0.0)) == float("inf")
    h.step(3)
    h.oni.ambient_update(aid, (0.0, 0.0, 1.0), 1.0)  # good input again: it is heard
    h.step(2)
    assert h.oni.ambients.is_active(aid)
