"""The real driver: pyglet's OpenAL player captured by OpenAL Soft's wave writer.

A subprocess (the test process forces pyglet's silent driver) points OpenAL
Soft at its ``wave`` backend with an ``ALSOFT_CONF`` file, plays a short scene
through the pyglet backend while pumping pyglet's event loop for a bounded
time, and exits (closing the device finalises the WAV). The capture must match
the offline render of the same scene channel for channel, in level and in
timing, once aligned by cross-correlation.
"""

from __future__ import annotations

import ctypes.util
import os
import subprocess
import sys
import textwrap

import esper
import numpy as np
import pytest
import rt_capture

from soundscape import Settings, SoundscapePlugin
from soundscape.audio.wav import read_wav

SCENE = textwrap.dedent('''
    from soundscape import synth

    def start(ctx):
        synth.add_to(ctx.sounds, "sweep", synth.chirp(300, 3000, 1.2, rate_hz=48000), 48000)
        synth.add_to(ctx.sounds, "hiss", synth.swoosh(5, duration_s=1.2, rate_hz=22050))
        bank = ctx.channels["modern"]
        bank.play(bank.acquire(), "sweep", volume=0.8, pan=-1.0)
        bank.play(bank.acquire(), "hiss", volume=0.6, pan=1.0, pitch=1.0)
''')

PLAYER = textwrap.dedent('''
    import sys
    import pyglet
    pyglet.options["headless"] = True
    pyglet.options["shadow_window"] = False
    import esper
    from soundscape import Settings, SoundscapePlugin
    scene = {}
    exec(sys.argv[1], scene)
    plugin = SoundscapePlugin(Settings(backend="pyglet", features=("audio",))).install()
    ctx = plugin.context
    print("driver", ctx.mixer.backend.driver_name, flush=True)
    scene["start"](ctx)
    pyglet.clock.schedule_interval(lambda dt: esper.process(dt), 1 / 60)
    pyglet.clock.schedule_once(lambda dt: pyglet.app.exit(), 2.0)
    pyglet.app.run()
    plugin.uninstall()
    print("frames", ctx.mixer.frames_rendered, flush=True)
''')


def offline_render(seconds: float) -> np.ndarray:
    scene: dict = {}
    exec(SCENE, scene)
    plugin = SoundscapePlugin(Settings(backend="offline", features=("audio",))).install()
    scene["start"](plugin.context)
    for _ in range(int(seconds * 60)):
        esper.process(1 / 60)
    audio = plugin.context.mixer.backend.audio().copy()
    plugin.uninstall()
    return audio


def lag_of(captured: np.ndarray, reference: np.ndarray) -> int:
    """Where ``reference`` starts in ``captured`` (FFT cross-correlation)."""
    n = 1 << int(np.ceil(np.log2(captured.size + reference.size)))
    corr = np.fft.irfft(np.fft.rfft(captured, n) * np.conj(np.fft.rfft(reference, n)), n)
    return int(np.argmax(corr[: captured.size]))


@pytest.mark.skipif(ctypes.util.find_library("openal") is None, reason="libopenal1 missing")
def test_openal_capture_matches_offline_render(tmp_path):
    capture = tmp_path / "capture.wav"
    conf = tmp_path / "alsoft.conf"
    conf.write_text(rt_capture.alsoft_conf(capture))
    env = dict(os.environ, ALSOFT_CONF=str(conf))
    done = subprocess.run([sys.executable, "-c", PLAYER, SCENE], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "driver openal" in done.stdout
    captured = read_wav(capture).samples
    reference = offline_render(1.5)
    assert captured.shape[1] == 2 and captured.shape[0] > reference.shape[0] // 2

    lag_left = lag_of(captured[:, 0], reference[:48_000, 0])
    lag_right = lag_of(captured[:, 1], reference[:48_000, 1])
    assert abs(lag_left - lag_right) <= 1  # both sides in step
    span = min(48_000, captured.shape[0] - lag_left)
    assert span > 24_000
    for side in (0, 1):
        got = captured[lag_left : lag_left + span, side].astype(np.float64)
        want = reference[:span, side].astype(np.float64)
        assert np.corrcoef(got, want)[0, 1] > 0.99
        level = np.sqrt(np.mean(got**2) / np.mean(want**2))
        assert 0.9 < level < 1.1
    # the sides are not swapped: the left sweep is not in the right channel
    cross = np.corrcoef(captured[lag_left : lag_left + span, 1], reference[:span, 0])[0, 1]
    assert abs(cross) < 0.2
