"""The real-time output through pyglet's real OpenAL driver, captured by the wave writer.

Each test runs a scene in a child process (``tests/rt_capture.py``): pyglet's
OpenAL driver plays into OpenAL Soft's ``wave`` backend in real time, and the
test reads the WAV and what the scene recorded. Nothing here asserts a time or a
latency (those are ``make bench``'s ``rt_latency_ms`` and ``rt_dropouts_per_min``):
the tests check the sizes the driver is asked for, the events, and the gaps and
sounds in the capture.
"""

from __future__ import annotations

import ctypes.util

import numpy as np
import pytest
import rt_capture

pytestmark = pytest.mark.skipif(ctypes.util.find_library("openal") is None,
                                reason="libopenal1 missing")

HUM = '''
from soundscape import synth
def hum(ctx):
    synth.add_to(ctx.sounds, "hum", synth.noise_bed(2.0, seed=3, rate_hz=48000), 48000)
    bank = ctx.channels["modern"]
    bank.play(bank.acquire(), "hum", volume=0.8, loop=True)
'''


def grown(length_ms: float) -> float:
    """The next length after an underrun (x1.5 in 5 ms granules, at most 250 ms)."""
    return min(250.0, -(-length_ms * 1.5 // 5) * 5)


def underrun_lengths(events: list[dict]) -> list[float]:
    return [e["length_ms"] for e in events if e["event"] == "underrun"]


def test_the_openal_output_starts_with_40_ms_queued(tmp_path):
    scene = HUM + '''
def start(ctx, rt):
    source = rt.backend.source
    rt.result["ideal_at_start"] = source.driver_player._buffered_data_ideal_size
    rt.result["pulls"] = pulls = []
    rt.result["prefill"] = rt.backend.output.pulled_frames
    pull = source.get_audio_data
    def counted(num_bytes, compensation_time=0.0):
        pulls.append(num_bytes // 8)
        return pull(num_bytes, compensation_time)
    source.get_audio_data = counted
    hum(ctx)
def finish(ctx, rt):
    out = rt.backend.output
    rt.result["length"] = out.length_frames
    rt.result["underruns"] = out.underruns
    rt.result["ideal_at_end"] = rt.backend.source.driver_player._buffered_data_ideal_size
'''
    cap = rt_capture.capture(tmp_path, scene, seconds=1.5)
    r = cap.result
    assert r["driver"] == "openal"
    assert r["prefill"] == 1920  # 40 ms queued at the start, not pyglet's 85 ms
    assert r["ideal_at_start"] == 1920 * 8
    assert r["ideal_at_end"] == r["length"] * 8
    assert max(r["pulls"]) <= r["length"] and len(r["pulls"]) > 30  # small, frequent pulls
    lengths = underrun_lengths(r["events"])
    assert len(lengths) == r["underruns"]  # one event per underrun
    expected, want = 40.0, []
    for _ in lengths:
        expected = grown(expected)
        want.append(expected)
    assert lengths == want
    assert np.abs(cap.samples).max() > 0.1


def test_an_underrun_grows_the_buffer_with_one_event(tmp_path):
    scene = HUM + '''
import time
def start(ctx, rt):
    mixer = ctx.mixer
    render = mixer.render
    calls = [0]
    def stalls_once(frames):
        calls[0] += 1
        if calls[0] == 60:
            rt.result["stall_at"] = rt.clock_frames()
            time.sleep(0.15)  # the audio thread held off for 150 ms: the queue runs dry
        return render(frames)
    mixer.render = stalls_once
    hum(ctx)
    rt.result["start"] = rt.clock_frames()
def finish(ctx, rt):
    rt.result["stop"] = rt.clock_frames()
    rt.result["underruns"] = rt.backend.output.underruns
'''
    cap = rt_capture.capture(tmp_path, scene, seconds=2.0)
    r = cap.result
    lengths = underrun_lengths(r["events"])
    assert 1 <= len(lengths) == r["underruns"]
    assert lengths[0] == 60.0
    assert all(b == grown(a) for a, b in zip(lengths, lengths[1:], strict=False))
    long_gaps = [g for g in rt_capture.gaps(cap.samples, r["start"], r["stop"])
                 if g[1] >= 4_800]
    assert len(long_gaps) == 1  # the stall, heard as one gap
    assert abs(long_gaps[0][0] - r["stall_at"]) < 12_000


def test_a_lost_openal_device_stops_rendering_and_sound_comes_back(tmp_path):
    # The wave writer fails to write past the file-size limit: OpenAL Soft disconnects
    # the device (ALC_CONNECTED 0). Reopened, it truncates its file and plays again.
    scene = HUM + '''
import resource, signal
import pyglet.media
from soundscape.audio import openal_device
def start(ctx, rt):
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (48000 * 8 // 2, hard))  # 0.5 s of audio
    hum(ctx)
    rt.result["frames"] = []
def frame(ctx, rt, n):
    gone = openal_device.connected(pyglet.media.get_audio_driver()) is False
    lost = [e for e in ctx.events.where(source="mixer", event="device_lost")]
    back = [e for e in ctx.events.where(source="mixer", event="reopened")]
    rt.result["frames"].append((n, gone, len(lost), len(back), ctx.mixer.frames_rendered))
'''
    cap = rt_capture.capture(tmp_path, scene, seconds=3.0)
    frames = cap.result["frames"]
    events = [e["event"] for e in cap.result["events"] if e["event"] != "underrun"]
    assert events[:3] == ["device_lost", "reopened", "device_lost"]
    gone_at = next(n for n, gone, *_ in frames if gone)
    seen_at = next(n for n, _, lost, *_ in frames if lost)
    assert seen_at - gone_at <= 60  # noticed within a second (60 frames)
    back_at = next(n for n, _, _, back, _ in frames if back)
    rendered = [f[4] for f in frames if seen_at + 1 <= f[0] < back_at]
    assert len(rendered) > 30 and rendered[0] == rendered[-1]  # nothing renders while lost
    assert frames[-1][4] > rendered[-1]  # and the voices go on once a device is back
    assert np.abs(cap.samples).max() > 0.1  # the reopened device played the hum


def placed(window: np.ndarray, sound: np.ndarray) -> tuple[int, float, float]:
    """Where ``sound`` sits in ``window`` (cross-correlation), its correlation and level."""
    n = 1 << int(np.ceil(np.log2(window.size + sound.size)))
    corr = np.fft.irfft(np.fft.rfft(window, n) * np.conj(np.fft.rfft(sound, n)), n)
    at = int(np.argmax(corr[: window.size - sound.size + 1]))
    got = window[at : at + sound.size]
    r = float(np.corrcoef(got, sound)[0, 1])
    level = float(np.sqrt(np.mean(got**2) / np.mean(sound**2)))
    return at, r, level


LONG_PULLS = """
    import pyglet.media
    pyglet.media.get_audio_driver().worker._nap_time = 0.05
    out = rt.backend.output
    out.floor_frames = out.length_frames = 4800
"""
"""pyglet's worker every 50 ms and 100 ms queued: pulls of ~2,400 frames (what pyglet
did before), so a 20 ms one-shot starts and ends between two pulls."""


@pytest.mark.parametrize(("setup", "every"), [("", 10), (LONG_PULLS, 16)],
                         ids=["40ms-queue", "2400-frame-pulls"])
def test_short_one_shots_are_each_heard_once_and_whole(tmp_path, setup, every):
    # 20 one-shots of 20 ms and 20 of 60 ms, one every `every` frames, each started
    # before the frame's esper.process: every one must be in the capture, whole,
    # undistorted, once, with silence around it (no replay, nothing cut).
    scene = f'''
from soundscape import synth

def prepare():
    return {{ms: synth.tone(1000 + 10 * ms, ms / 1000, rate_hz=48000, fade_s=0.002)
            for ms in (20, 60)}}

def start(ctx, rt):
{setup}
    for ms, samples in rt.prepared.items():
        ctx.sounds.add(f"shot{{ms}}", samples, 48000)
    rt.result["calls"] = []
    rt.result["pulls"] = pulls = []
    source = rt.backend.source
    pull = source.get_audio_data
    def counted(num_bytes, compensation_time=0.0):
        pulls.append(num_bytes // 8)
        return pull(num_bytes, compensation_time)
    source.get_audio_data = counted

def frame(ctx, rt, n):
    if n >= 30 and n % {every} == 0 and len(rt.result["calls"]) < 40:
        ms = (20, 60)[len(rt.result["calls"]) % 2]
        bank = ctx.channels["modern"]
        rt.result["calls"].append((ms, rt.clock_frames()))
        bank.play(bank.acquire(), f"shot{{ms}}", volume=1.0)
'''
    from soundscape import synth

    cap = rt_capture.capture(tmp_path, scene, seconds=(40 * every + 50) / 60)
    calls = cap.result["calls"]
    assert len(calls) == 40
    if setup:
        assert np.median(cap.result["pulls"]) >= 2 * 960  # longer than the 20 ms shot
    left = cap.samples[:, 0].astype(np.float64)
    sounds = {ms: synth.tone(1000 + 10 * ms, ms / 1000, rate_hz=48000, fade_s=0.002
                             ).astype(np.float64) * np.sqrt(0.5) for ms in (20, 60)}  # equal power
    # The shots in the capture, in order (the latency is the queue, which may grow
    # under load): one stretch of sound per call, none lost, none replayed, none split.
    found = rt_capture.segments(cap.samples)
    assert len(found) == len(calls)
    heard = {20: 0, 60: 0}
    for (ms, clock), (begin, end) in zip(calls, found, strict=True):
        sound = sounds[ms]
        window = left[max(clock, begin - 480) : end + 480]
        if window.size < sound.size:
            continue  # cut short
        at, r, level = placed(window, sound)
        rest = np.concatenate((window[:at], window[at + sound.size :]))
        if begin >= clock and r > 0.99 and 0.9 < level < 1.1 and np.abs(rest).max() < 0.01:
            heard[ms] += 1
    assert heard == {20: 20, 60: 20}
