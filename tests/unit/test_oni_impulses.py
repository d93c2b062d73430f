"""Impulses (``SSrImpulse_Play`` 0x480440): once at a place, the alternate for crowds."""

from __future__ import annotations

import esper
import pytest
from test_oni_harness import OniHarness

from soundscape.components.occlusion import Wall
from soundscape.laws.oni import occlusion_volume

TOML = """
[groups.gun]
volume = 0.5
permutations = [{ sound = "gun", volume = [0.8, 0.8] }]
[groups.gun_far]
permutations = [{ sound = "gun_far" }]
[impulses.gun]
group = "gun"
priority = 2
distance = [10.0, 30.0]
alternate_threshold = 2
alternate = "gun_far"
[impulses.gun_far]
group = "gun_far"
distance = [10.0, 30.0]
[impulses.orphan]
group = "no_group"
"""
SOUNDS = {"gun": 0.5, "gun_far": 0.5}


@pytest.fixture
def h():
    return OniHarness(TOML, SOUNDS)


def test_the_alternate_plays_when_as_many_as_the_threshold_play(h):
    played = [h.oni.play_impulse("gun", (0.0, 0.0, 1.0)) for _ in range(3)]
    assert played == [True, True, True]
    sounds = [r["sound"] for r in h.events("impulse")]
    assert sounds == ["gun", "gun", "gun_far"]
    assert h.events("impulse_alternate")[0]["playing"] == 2
    h.step(31)  # all ended
    h.oni.play_impulse("gun", (0.0, 0.0, 1.0))
    assert h.events("impulse")[-1]["sound"] == "gun"


def test_the_threshold_counts_every_channel_playing_the_group():
    # SSrImpulse_Play scans the channels for ``group == impulse_group``: plays of another
    # impulse (or an ambient) sharing the group count too
    toml = TOML + """
[impulses.gun_alias]
group = "gun"
distance = [10.0, 30.0]
"""
    h = OniHarness(toml, SOUNDS)
    h.oni.play_impulse("gun_alias", (0.0, 0.0, 1.0))
    h.oni.play_impulse("gun_alias", (0.0, 0.0, 1.0))
    assert h.oni.play_impulse("gun", (0.0, 0.0, 1.0))
    assert [r["sound"] for r in h.events("impulse")][-1] == "gun_far"


def test_crowded_without_an_alternate_plays_nothing_and_threshold_zero_never_alternates():
    toml = TOML + """
[impulses.lonely]
group = "gun"
distance = [10.0, 30.0]
alternate_threshold = 1
[impulses.never]
group = "gun"
distance = [10.0, 30.0]
alternate_threshold = 0
alternate = "gun_far"
"""
    h = OniHarness(toml, SOUNDS)
    assert h.oni.play_impulse("lonely", (0.0, 0.0, 1.0))
    assert not h.oni.play_impulse("lonely", (0.0, 0.0, 1.0))
    assert h.events("impulse_crowded")[0]["playing"] == 1
    assert h.oni.play_impulse("never", (0.0, 0.0, 1.0))
    assert [r["sound"] for r in h.events("impulse")] == ["lonely", "never"]


def test_impulse_volume_is_volume_distance_permutation_and_group(h):
    # 60 m: sound distance 20, half way from 10 to 30
    assert h.oni.play_impulse("gun", (0.0, 0.0, 60.0), 0.9)
    record = h.events("impulse")[0]
    assert record["gain"] == pytest.approx(0.9 * 0.5 * 0.8 * 0.5)
    channel = h.bank.channels[record["channel"]]
    assert channel.volume == pytest.approx(record["gain"]) and not channel.locked
    assert channel.priority == 1  # Oni never writes a channel's priority


def test_impulse_pans_with_the_listener_heading(h):
    h.oni.play_impulse("gun", (30.0, 0.0, 0.0))  # east of a north-facing listener
    assert h.events("impulse")[0]["pan"] == 1667
    h.oni.play_impulse("gun", (3.0, 0.0, 0.0))  # within 7 units: no pan
    assert h.events("impulse")[1]["pan"] == 0


def test_beyond_the_far_distance_it_does_not_play(h):
    assert not h.oni.play_impulse("gun", (0.0, 0.0, 91.0))
    assert h.events("impulse_inaudible")
    assert not any(c.playing for c in h.bank.channels)


def test_missing_impulse_group_or_bad_place(h):
    assert not h.oni.play_impulse("nothing", (0.0, 0.0, 0.0))
    assert not h.oni.play_impulse("orphan", (0.0, 0.0, 0.0))
    assert not h.oni.play_impulse("gun", (float("nan"), 0.0, 0.0))
    assert h.events("missing_impulse") and h.events("impulse_no_group")
    assert h.events("impulse_bad_place")


def test_a_nan_volume_is_refused_clearly(h):
    from soundscape.errors import InputError

    with pytest.raises(InputError, match="gun.*not finite"):
        h.oni.play_impulse("gun", (0.0, 0.0, 1.0), float("nan"))
    assert h.events("impulse") == []


def test_impulse_record_names_far_and_min_occlusion(h):
    imp = h.oni.impulse("gun")
    assert (imp.near, imp.far, imp.min_occlusion) == (10.0, 30.0, 0.0)
    assert h.oni.impulse("nothing") is None


def test_impulse_at_a_place_is_heard_through_the_walls():
    h = OniHarness(TOML, SOUNDS, occlusion=True)
    esper.create_entity(Wall(-5.0, 10.0, 5.0, 10.0))
    h.step(1)
    assert h.oni.impulse_at("gun", (0.0, 0.0, 20.0), 1.0)
    gain = h.events("impulse")[0]["gain"]
    assert gain == pytest.approx(occlusion_volume(1) * 0.5 * 0.8)
    assert not h.oni.impulse_at("gun", (0.0, 0.0, 91.0))  # out of hearing: nothing


def test_impulse_at_without_occlusion_uses_the_hearing_test(h):
    assert h.oni.impulse_at("gun", (0.0, 0.0, 20.0), 1.0)
    assert h.events("impulse")[0]["gain"] == pytest.approx(0.5 * 0.8)
    assert not h.oni.impulse_at("gun", (0.0, 0.0, 90.5))
