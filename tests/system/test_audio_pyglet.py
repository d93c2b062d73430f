"""The pyglet backend against pyglet 2.1's real media API (silent driver here).

The test process forces pyglet's silent driver (``tests/conftest.py``); the
real-device path is ``test_audio_openal.py``. These check the stream contract
(``is_precise``, exact sizes, no end of stream), the 16-bit fallback, the
short buffer, the one warning, mute and master gain, and that a render failure
on the audio thread is silence plus one logged warning.
"""

from __future__ import annotations

import esper
import numpy as np
import pytest

from soundscape import Settings, SoundscapePlugin, synth
from soundscape.audio.backend_pyglet import (
    BUFFER_S,
    DRIVER_PREFERENCE,
    _source_class,
    output_format,
)
from soundscape.audio.commands import VoiceParams
from soundscape.audio.mixer import Mixer
from soundscape.audio.sounds import SoundBank
from soundscape.errors import InputError


def plugin(**kw) -> SoundscapePlugin:
    return SoundscapePlugin(Settings(features=("audio",), **kw)).install()


def tone_mixer() -> Mixer:
    mixer = Mixer(48_000, 1024)
    snd = SoundBank().add("t", synth.tone(440, 1.0, rate_hz=48_000), 48_000)
    mixer.start(1, snd, VoiceParams(0.5, 0.25, 1.0, loop=True))
    return mixer


def test_silent_driver_one_warning_endless_precise_stream():
    p = plugin(backend="pyglet")
    ctx = p.context
    synth.add_to(ctx.sounds, "t", synth.tone(200, 1.0))
    bank = ctx.channels["modern"]
    bank.play(bank.acquire(), "t", volume=1.0)
    for _ in range(30):
        esper.process(1 / 60)
    assert [r["driver"] for r in ctx.events.where(event="warning")] == ["silent"]
    backend = ctx.mixer.backend
    assert backend.player is not None and backend.player.playing
    backend.player.pause()  # the worker thread stops pulling: the test pulls instead
    source = backend.source
    assert source.is_precise() and source.duration is None
    assert source.audio_format.sample_format == "F32" and source.audio_format.channels == 2
    assert source.audio_format.sample_rate == 48_000
    for size in (1024, 8 * 480, 8 * 4096, 8 * 48_000 * 3):  # 3 s: far past the sound
        packet = source.get_audio_data(size, 0.0)
        assert packet is not None and packet.length == size
    p.uninstall()
    assert backend.player is None


def test_driver_buffer_is_short_and_the_class_defaults_come_back():
    from pyglet.media.drivers.base import AbstractAudioPlayer

    before = AbstractAudioPlayer.audio_buffer_length
    p = plugin(backend="pyglet")
    audio_player = p.context.mixer.backend.player._audio_player
    # pyglet keeps at least 32 KiB; 0.08 s of float stereo is less, so 32 KiB (85 ms)
    assert audio_player._buffered_data_ideal_size == max(32768, int(BUFFER_S * 48_000) * 8)
    assert audio_player.desync_bytes_minor > 8 * 48_000 * 3600  # no clock sync
    assert AbstractAudioPlayer.audio_buffer_length == before
    p.uninstall()


def test_16_bit_output_when_the_driver_has_no_float32():
    class Formats:
        sample_formats = ("U8", "S16")

    assert output_format(Formats()) == "S16" and output_format(None) == "F32"
    mixer = tone_mixer()
    reference = tone_mixer().render(480).copy()
    source = _source_class()(mixer, "S16")
    assert source.audio_format.sample_format == "S16" and source.audio_format.bytes_per_frame == 4
    packet = source.get_audio_data(4 * 480)
    pcm = np.frombuffer(packet.data, dtype="<i2").reshape(-1, 2)
    assert packet.length == 4 * 480
    assert np.array_equal(pcm, (np.clip(reference, -1, 1) * 32767.0).astype(np.int16))


def test_a_render_failure_is_silence_and_one_warning():
    p = plugin(backend="pyglet")
    ctx = p.context
    backend = ctx.mixer.backend
    backend.player.pause()

    def broken(frames: int) -> np.ndarray:
        raise RuntimeError("boom")

    ctx.mixer.render = broken  # a mixer bug on pyglet's worker thread
    packet = backend.source.get_audio_data(8 * 256)
    assert packet.length == 8 * 256 and not any(packet.data)
    backend.source.get_audio_data(8 * 256)
    for _ in range(3):
        esper.process(1 / 60)
    failures = [r for r in ctx.events.where(event="warning") if "audio thread" in r["reason"]]
    assert len(failures) == 1 and "boom" in failures[0]["reason"]
    p.uninstall()


def test_mute_and_master_gain():
    mixer = tone_mixer()
    loud = tone_mixer().render(1024).copy()
    mixer.master_gain = 0.5
    assert np.array_equal(mixer.render(1024), loud * np.float32(0.5))
    mixer.muted = True
    assert not mixer.render(1024).any()
    mixer.muted = False  # voices went on while muted
    assert mixer.master_gain == 0.5 and mixer.render(1024).any()
    for bad in (float("nan"), -1.0, float("inf"), 1e308):  # 1e308: an inf mix (fuzzing)
        with pytest.raises(InputError, match="master_gain"):
            mixer.master_gain = bad
    assert mixer.master_gain == 0.5


def test_driver_preference_only_replaces_pyglet_default():
    import subprocess
    import sys

    probe = (
        "import pyglet, sys\n"
        "from soundscape.audio.backend_pyglet import DRIVER_PREFERENCE, configure_pyglet_audio\n"
        "first = configure_pyglet_audio()\n"
        "assert pyglet.options['audio'] == DRIVER_PREFERENCE, pyglet.options['audio']\n"
        "pyglet.options['audio'] = ('pulse', 'silent')  # the game's own choice\n"
        "assert configure_pyglet_audio() is False and pyglet.options['audio'][0] == 'pulse'\n"
        "print(first)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"
    assert DRIVER_PREFERENCE == ("openal", "pulse", "xaudio2", "directsound", "silent")
