"""soundscape.laws.redguard against seed 002 and FORMULAS.md's worked numbers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from soundscape.laws import redguard as law


def test_radius_and_divisor_shipped():
    assert law.radius() == 2304
    assert law.divisor() == 3640
    assert law.divisor(4) == 65536 // (144 // 128)


@pytest.mark.parametrize("bad", [3, 2, 0, -5])
def test_divisor_refuses_small_sound_distance(bad):
    with pytest.raises(ValueError, match="sound_distance"):
        law.divisor(bad)


def test_volume_worked_example_and_edges():
    assert (1000 * 3640) >> 16 == 55
    assert law.volume(1000) == 72
    assert law.volume(0) == 127
    # attenuation reaches 127 at d = 2287: silent there, one step louder just before
    assert law.volume(2287) == 0 and law.volume(2286) == 1
    assert law.volume(2304, off=500) == 127  # still inside R
    assert law.volume(2305, off=500) == 0  # beyond R no offset helps
    assert law.volume(1000, off=-100) == 0
    assert law.volume(1000, off=10) == 82


def test_volume_offset_wraps_at_32_bits():
    # 127 - 0 + (2^31 - 1) wraps negative: silence
    assert law.volume(0, off=2**31 - 1) == 0
    assert law.volume(0, off=2**31 - 128) == 127  # 127 + 2^31 - 128 = 2^31 - 1: no wrap
    assert law.volume(0, off=2**31 - 127) == 0  # sums to 2^31: wraps


def test_distance_floors_rounded_root():
    assert law.distance(1000 * 256, 0, 0) == 1000
    assert law.distance(255, 0, 0) == 0
    assert law.distance(0, 256, 0) == 1  # height counts
    assert law.distance(3 * 256, 4 * 256, 0) == 5
    # 511.5 rounds half to even -> 512 -> 2 whole units; 511.4 -> 511 -> 1
    assert law.distance(0, 0, 511) == 1


def test_distance_single_precision_beyond_65536_units():
    dx = 2**24 + 3  # 16777219 is not a float32: it rounds to 16777220
    assert law.distance(dx, 0, 0) == 16777220 >> 8
    assert law.distance(2**24 - 1, 0, 0) == (2**24 - 1) >> 8


def test_distance_root_is_stored_in_single_precision_at_every_range():
    # 2528^2 + 400^2 + 16^2 = 6551040 = 2559 x 2560: sqrt = 2559.49998 (double).
    # Stored as float32 it is exactly 2559.5, which rounds half-even to 2560: d = 10.
    # A double root would round to 2559 and give d = 9.
    assert 2528**2 + 400**2 + 16**2 == 2559 * 2560
    assert round(math.sqrt(2559 * 2560)) >> 8 == 9
    assert law.distance(2528, 400, 16) == 10
    assert law.distance(-2528, 16, -400) == 10  # signs and axis order do not matter


def test_distance_beyond_float32_range_is_huge_not_an_error():
    assert law.distance(10**200, 0, 0) > law.radius() * 10**6
    assert law.volume(law.distance(10**40, 10**40, 0)) == 0


def test_atan_table():
    assert len(law.ATAN_TABLE) == 513
    assert law.ATAN_TABLE[0] == 0 and law.ATAN_TABLE[512] == 256
    i = 300
    assert law.ATAN_TABLE[i] == int(math.atan(i / 512) * 65536 / math.pi) >> 6
    # worked by hand: atan(0.5) x 65536 / pi = 9672.2 -> 9672 >> 6 = 151, and so on
    assert [law.ATAN_TABLE[i] for i in (1, 100, 256, 400, 511)] == [0, 62, 151, 216, 255]
    assert law.heading(256, 512) == 151 and law.heading(512, 256) == 512 - 151


@pytest.mark.parametrize(
    ("dx", "dz", "expected"),
    [
        (0, 10, 0), (0, 0, 0), (0, -10, 1024), (10, 0, 512), (-10, 0, 1536),
        (100, 100, 256), (-100, 100, 2048 - 256), (100, -100, 768), (-100, -100, 1280),
    ],
)
def test_heading_axes_and_quadrants(dx, dz, expected):
    assert law.heading(dx, dz) == expected


def test_heading_uses_table_and_halving():
    t = law.ATAN_TABLE[100 * 512 // 400]
    assert law.heading(100, 400) == t
    assert law.heading(400, 100) == 512 - t
    assert law.heading(-100, -400) == t + 1024
    # halving: (5000, 20000) halves to (312, 1250)->(156, 625)->(78, 312)
    assert law.heading(5000, 20000) == law.ATAN_TABLE[78 * 512 // 312]
    # a tiny dx vanishes under halving: straight ahead
    assert law.heading(1, 100000) == 0


def test_pan_worked_example_and_abeam_quirk():
    assert law.pan(100, 100) == 96
    assert law.pan(100, 0) == 64  # exactly abeam right: centred
    assert law.pan(-100, 0) == 64  # exactly abeam left: centred
    assert law.pan(0, 100) == 64 and law.pan(0, -100) == 64
    assert law.pan_from_angle(511) == 127 and law.pan_from_angle(513) == 127
    assert law.pan_from_angle(1535) == 1 and law.pan_from_angle(1537) == 1
    assert law.pan_from_angle(1024 + 256) == 32
    assert law.pan(100, 100, yaw=256) == 64  # facing the emitter
    assert law.pan(100, 100, yaw=512) == 32  # emitter behind-left... u = 1792
    assert law.pan(1000, 0, yaw=0) == law.pan(1, 0)  # pan ignores distance


def test_playback_rate_wraps_then_clamps():
    assert law.playback_rate(22050, 0) == 22050
    assert law.playback_rate(22050, -8 * 64) == 21538  # FORMULAS rate field -8
    assert law.playback_rate(8000, -10000) == 512
    assert law.playback_rate(22050, 2000) == 24050
    assert law.playback_rate(40000, 10000) == 44000
    assert law.playback_rate(22050, 2**31 - 1) == 512  # wraps negative
    assert law.playback_rate(0x7FFFFFFF, 1) == 512


def test_miles_volume():
    assert law.miles_volume(72) == (72 * 255) >> 8 == 71
    assert law.miles_volume(127, 256) == 127
    assert law.miles_volume(127, 0) == 0


def test_miles_pan_table():
    table = law.miles_pan_table()
    assert len(table) == 128
    assert all(table[p] == 2 * p for p in range(63))
    assert all(table[p] == 128 for p in range(63, 128))


def test_miles_coefficients_16():
    assert law.miles_coefficients_16(127, 64) == (128, 128)
    assert law.miles_coefficients_16(100, 64) == (100, 100)  # floor(128*100/127)
    assert law.miles_coefficients_16(127, 127) == (0, 128)  # left T[0] = 0
    assert law.miles_coefficients_16(127, 96) == ((62 * 127) // 127, 128)
    assert law.miles_coefficients_16(50, 10) == (128 * 50 // 127, 20 * 50 // 127)
    assert law.miles_coefficients_16(300, -4) == law.miles_coefficients_16(127, 0)


def test_miles_mix_16_bit_hand_computed():
    s = np.array([32767, -32768, 1, -1, 1000], dtype=np.int16)
    out = law.miles_mix(s, 100, 96, 16)
    c_left, c_right = (62 * 100) // 127, (128 * 100) // 127  # T[127-96] = T[31] = 62
    assert (c_left, c_right) == (48, 100)
    expected = [[(v * c_left) // 128, (v * c_right) // 128] for v in s.tolist()]
    assert out.dtype == np.int32 and out.shape == (5, 2)
    assert out.tolist() == expected
    assert out.tolist()[3] == [-1, -1]  # floor, not truncation
    # volume 127 at centre is unity gain
    assert law.miles_mix(s, 127, 64, 16)[:, 0].tolist() == s.tolist()


def test_miles_mix_16_bit_stereo_sides():
    s = np.array([[100, -200]], dtype=np.int16)
    assert law.miles_mix(s, 127, 64, 16).tolist() == [[100, -200]]


def test_miles_mix_8_bit_hand_computed():
    u = np.array([128, 255, 0, 129], dtype=np.uint8)
    out = law.miles_mix(u, 63, 64, 8)
    a = 64  # v + 1
    rows = []
    for value in u.tolist():
        s = (value - 128) * 256
        rows.append([((s * a) // 128) * 128 // 128] * 2)
    assert out.tolist() == rows
    assert out.tolist()[1] == [16256, 16256]  # 32512 * 64/128
    # v = 0 gives a = 0: silence
    assert not law.miles_mix(u, 0, 64, 8).any()
    # pan 0: right side T[0] = 0, left T[127] = 128
    assert law.miles_mix(u, 127, 0, 8)[:, 1].tolist() == [0, 0, 0, 0]


def test_miles_mix_refuses_other_widths():
    with pytest.raises(ValueError, match="sample_bits"):
        law.miles_mix(np.zeros(4, dtype=np.int16), 100, 64, 24)


def test_yaw_and_rtx_duration():
    assert law.yaw_from_heading_rad(0.0) == 0
    assert law.yaw_from_heading_rad(math.pi) == 1024
    assert law.rtx_duration_256(44100, 1, 22050, 2) == 256
    assert law.rtx_duration_256(1000, 2, 11025, 1) == (1000 << 8) // 22050
    with pytest.raises(ValueError):
        law.rtx_duration_256(10, 0, 22050, 2)
