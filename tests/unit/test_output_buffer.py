"""The real-time output's queued-audio policy, driven by frame counts alone."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from soundscape.audio.backend_pyglet import count_restarts, size_driver_player
from soundscape.audio.output_buffer import OutputBuffer

RATE = 48_000
MS = RATE // 1000


def running(**kw) -> OutputBuffer:
    buf = OutputBuffer(RATE, **kw)
    assert buf.started() is False  # the stream's own start
    return buf


def pull_seconds(buf: OutputBuffer, seconds: float, frames: int = 240) -> None:
    for _ in range(int(seconds * RATE) // frames):
        buf.pull(frames)


def test_starts_at_40_ms_and_refills_every_5_ms():
    buf = OutputBuffer(RATE)
    assert buf.length_frames == 40 * MS and buf.length_s == pytest.approx(0.040)
    assert buf.comfortable_frames == 35 * MS
    assert buf.take_underruns() == []


def test_the_first_start_is_not_an_underrun_each_restart_is_one():
    buf = running()
    pull_seconds(buf, 1.0)
    assert buf.underruns == 0 and buf.take_underruns() == []
    assert buf.started() is True
    assert buf.underruns == 1 and buf.length_frames == 60 * MS
    assert buf.take_underruns() == [60 * MS]  # exactly one, with the new length
    assert buf.take_underruns() == []


def test_growth_is_by_half_in_5_ms_granules_up_to_the_cap():
    buf = running()
    lengths = []
    for _ in range(8):
        buf.started()
        lengths.append(buf.length_frames // MS)
    assert lengths == [60, 90, 135, 205, 250, 250, 250, 250]
    assert buf.take_underruns() == [n * MS for n in lengths]


def test_shrinks_a_step_per_10_s_calm_but_not_onto_a_length_that_ran_dry():
    buf = running()
    buf.started()  # 40 ran dry: 60, and 40 is not tried again soon
    assert buf.too_short_frames == 40 * MS
    pull_seconds(buf, 9.9)
    assert buf.length_frames == 60 * MS  # not yet 10 s
    pull_seconds(buf, 0.1)
    assert buf.length_frames == 55 * MS
    pull_seconds(buf, 30.0)
    assert buf.length_frames == 45 * MS  # stops one step above 40
    pull_seconds(buf, 80.0)  # 120 s since the underrun: 40 may be tried again
    assert buf.too_short_frames == 0
    pull_seconds(buf, 10.0)
    assert buf.length_frames == 40 * MS
    pull_seconds(buf, 60.0)
    assert buf.length_frames == 40 * MS  # never below where it started


def test_an_underrun_restarts_the_calm_count():
    buf = running()
    buf.started()
    pull_seconds(buf, 9.0)
    buf.started()  # 60 ran dry too: 90
    pull_seconds(buf, 9.0)
    assert buf.length_frames == 90 * MS
    pull_seconds(buf, 1.0)
    assert buf.length_frames == 85 * MS
    assert buf.lowest_frames == 65 * MS


def test_a_new_device_starts_without_an_underrun_and_keeps_the_length():
    buf = running()
    buf.started()
    buf.take_underruns()
    buf.restart()
    assert buf.started() is False and buf.length_frames == 60 * MS
    assert buf.take_underruns() == []


def test_other_rates_use_5_ms_granules():
    buf = OutputBuffer(44_100)
    assert buf.granule == 220 and buf.length_frames == 8 * 220


@pytest.mark.parametrize("kw", [{"start_s": 0.0}, {"start_s": 0.3, "max_s": 0.2},
                                {"grow": 1.0}, {"stable_s": 0.0}, {"shrink_s": -1.0},
                                {"stable_s": 10.0, "forget_s": 5.0}])
def test_a_policy_that_makes_no_sense_raises(kw):
    with pytest.raises(ValueError, match="OutputBuffer"):
        OutputBuffer(RATE, **kw)


def test_the_driver_player_refills_to_the_length_below_pyglets_floor():
    buf = running()
    player = SimpleNamespace(_buffered_data_ideal_size=32768,
                             _buffered_data_comfortable_limit=21845)
    size_driver_player(player, buf, 8)
    assert player._buffered_data_ideal_size == 40 * MS * 8
    assert player._buffered_data_comfortable_limit == 35 * MS * 8
    buf.started()
    size_driver_player(player, buf, 8)
    assert player._buffered_data_ideal_size == 60 * MS * 8
    size_driver_player(None, buf, 8)  # no player (yet): nothing to size


def test_each_restart_of_the_al_source_is_counted_then_played():
    calls = []
    alsource = SimpleNamespace(play=lambda: calls.append("play"))
    player = SimpleNamespace(alsource=alsource)
    assert count_restarts(player, lambda: calls.append("count")) is True
    player.alsource.play()
    player.alsource.play()
    assert calls == ["count", "play", "count", "play"]
    assert count_restarts(SimpleNamespace(), lambda: None) is False  # not OpenAL
