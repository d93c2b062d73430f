"""The DirectSound (AC, Oni), Redguard and modern gain laws against numbers."""

from __future__ import annotations

import math

import pytest

from soundscape.audio.profiles import apply_law, redguard_gains
from soundscape.components.channel import Channel
from soundscape.laws.directsound import ac_gains, mb_to_gain, oni_gains, side_gains
from soundscape.laws.modern import bearing_pan, equal_power
from soundscape.laws.spatial import DistanceModel, distance_gain


def test_ac_minus_10_db_is_0_316():
    left, right = ac_gains(-10, 0)
    assert left == pytest.approx(0.316, abs=5e-4) and right == left


def test_ac_pan_plus_15_attenuates_the_left_by_1500_mb():
    left, right = ac_gains(0, 15)
    assert left == pytest.approx(10 ** (-1500 / 2000)) and right == 1.0
    left, right = ac_gains(0, -15)
    assert right == pytest.approx(10 ** (-1500 / 2000)) and left == 1.0


def test_directsound_silence_and_clamps():
    assert mb_to_gain(-10_000) == 0.0 and mb_to_gain(-20_000) == 0.0
    assert mb_to_gain(500) == 1.0  # above 0 is held to full volume
    assert side_gains(-6000, 6000) == (0.0, mb_to_gain(-6000))


def test_oni_volume_to_buffer():
    assert oni_gains(1.0, 0) == (1.0, 1.0)
    half = oni_gains(0.5, 0)
    assert half is not None and half[0] == pytest.approx(10 ** (-1667 / 2000))
    assert oni_gains(0.05, 0) == (0.0, 0.0)
    assert oni_gains(1.01, 0) is None  # out of DirectSound's range


def test_oni_out_of_range_volume_keeps_previous_gain():
    class Bank:
        profile, overall_volume = "oni", 1.0

    channel = Channel("oni", 0, profile="oni", volume=0.5, pitch=2.0)
    apply_law(Bank, channel, 48_000)
    before = (channel.gain_left, channel.gain_right)
    channel.volume = 1.5
    apply_law(Bank, channel, 48_000)
    assert (channel.gain_left, channel.gain_right) == before
    assert channel.step == pytest.approx(44_100 / 48_000)  # 22,050 x pitch, any source rate


def test_oni_overall_volume_is_inside_the_product():
    class Bank:
        profile, overall_volume = "oni", 0.5

    channel = Channel("oni", 0, profile="oni", volume=1.0)
    apply_law(Bank, channel, 48_000)
    assert channel.gain_left == pytest.approx(10 ** (-1667 / 2000))


def test_redguard_gains_follow_miles():
    assert redguard_gains(127, 64, 16) == (1.0, 1.0)
    assert redguard_gains(100, 64, 16) == (100 / 128, 100 / 128)
    assert redguard_gains(127, 0, 16) == (1.0, 0.0)
    assert redguard_gains(100, 64, 8) == (101 * 128 / 16384, 101 * 128 / 16384)


def test_equal_power_pan():
    left, right = equal_power(1.0, 0.0)
    assert left == pytest.approx(math.sqrt(0.5)) and right == pytest.approx(math.sqrt(0.5))
    for pan in (-1.0, -0.3, 0.4, 1.0):
        left, right = equal_power(0.8, pan)
        assert left**2 + right**2 == pytest.approx(0.64)
    assert equal_power(1.0, 1.0) == (0.0, 1.0)
    assert equal_power(float("nan"), 0.0) == (0.0, 0.0)


def test_inverse_distance_clamped():
    """OpenAL's AL_INVERSE_DISTANCE_CLAMPED: held (not cut) past the max distance (issue 17)."""
    model = DistanceModel("inverse", 2.0, 40.0)
    assert distance_gain(0.5, model) == 1.0
    assert distance_gain(10.0, model) == pytest.approx(0.2)
    assert distance_gain(40.0, model) == pytest.approx(0.05)
    assert distance_gain(400.0, model) == pytest.approx(0.05)
    assert distance_gain(float("nan"), model) == 0.0


def test_bearing_pan_compass():
    assert bearing_pan(5.0, 0.0, 0.0) == pytest.approx(1.0)  # east of a north-facing listener
    assert bearing_pan(-5.0, 0.0, 0.0) == pytest.approx(-1.0)
    assert bearing_pan(0.0, 5.0, math.pi / 2) == pytest.approx(-1.0)  # facing east, north is left


def test_modern_law_rate():
    class Bank:
        profile, overall_volume = "modern", 1.0

    channel = Channel("modern", 0, volume=0.5, pan=0.0, pitch=1.5, sample_rate_hz=32_000)
    apply_law(Bank, channel, 48_000)
    assert channel.step == 1.0
    assert channel.gain_left == pytest.approx(0.5 * math.sqrt(0.5))
