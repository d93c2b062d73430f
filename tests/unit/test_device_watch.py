"""Noticing a lost device, with an injected connected-probe and a hand-stepped clock."""

from __future__ import annotations

import ctypes
import ctypes.util

import pytest

from soundscape.audio.device_watch import DeviceWatch
from soundscape.audio.openal_device import al_device, connected, connected_probe


class Probe:
    def __init__(self) -> None:
        self.up: bool | None = True
        self.calls = 0

    def __call__(self) -> bool | None:
        self.calls += 1
        return self.up


class Clock:
    def __init__(self) -> None:
        self.now_s = 100.0

    def __call__(self) -> float:
        return self.now_s


def test_the_audio_thread_probes_four_times_a_second_of_audio():
    probe = Probe()
    watch = DeviceWatch(probe)
    assert watch.check(960)  # the first block probes
    for _ in range(49):  # 49 x 960 = 47,040 frames: 0.98 s
        assert watch.check(960)
    assert probe.calls == 4
    assert watch.check(None) and probe.calls == 5  # None: probe now


def test_a_loss_is_seen_at_the_next_probe_and_reported_once():
    probe, clock = Probe(), Clock()
    watch = DeviceWatch(probe, clock=clock)
    assert watch.check(960) and watch.tick() is None
    probe.up = False
    seen_after = 0
    while watch.check(960):
        seen_after += 960
    assert seen_after <= 12_000  # within a quarter second of audio
    calls = probe.calls
    assert not watch.check(960) and probe.calls == calls  # lost: no more probing
    assert [watch.tick() for _ in range(5)] == ["lost", None, None, None, None]
    assert watch.losses == 1


def test_retries_every_second_until_a_device_opens():
    probe, clock = Probe(), Clock()
    watch = DeviceWatch(probe, retry_s=1.0, clock=clock)
    probe.up = False
    watch.check(None)
    assert watch.tick() == "lost"
    actions = []
    for _ in range(24):  # 3 s in 1/8 s steps
        clock.now_s += 0.125
        actions.append(watch.tick())
    assert [i for i, a in enumerate(actions) if a == "retry"] == [7, 15, 23]
    assert actions.count(None) == 21
    fresh = Probe()
    watch.reopened(fresh)
    assert watch.check(960) and fresh.calls == 1 and watch.tick() is None
    fresh.up = False
    assert not watch.check(None) and watch.tick() == "lost" and watch.losses == 2


def test_cannot_tell_is_connected():
    probe = Probe()
    probe.up = None
    watch = DeviceWatch(probe)
    assert all(watch.check(None) for _ in range(3)) and watch.tick() is None
    assert DeviceWatch().check(None)  # no probe at all


def test_the_openal_questions_answer_none_for_other_drivers():
    class Silent:
        device = None

    assert al_device(Silent()) is None
    assert connected(Silent()) is None and connected_probe(Silent()) is None


def test_the_streaming_al_calls_keep_the_gil():
    if ctypes.util.find_library("openal") is None:
        pytest.skip("libopenal1 missing")
    from pyglet.media.drivers.openal import lib_openal as al

    from soundscape.audio.openal_device import STREAMING_CALLS, keep_gil_in_streaming_calls

    before = {call: (getattr(al, call).argtypes, getattr(al, call).restype)
              for call in STREAMING_CALLS}
    keep_gil_in_streaming_calls()
    assert keep_gil_in_streaming_calls() == 0  # once is enough
    for call in STREAMING_CALLS:
        fn = getattr(al, call)
        assert fn._flags_ & ctypes._FUNCFLAG_PYTHONAPI, call  # a PyDLL call: GIL held
        assert (fn.argtypes, fn.restype) == before[call]
    assert not al.alGetString._flags_ & ctypes._FUNCFLAG_PYTHONAPI  # the rest untouched
