"""A lost output device through the pyglet backend, with an injected connected-probe.

The test process plays through pyglet's silent driver (``tests/conftest.py``),
which cannot be lost; the probe stands in for OpenAL's ``ALC_CONNECTED`` and the
clock is stepped by hand, so the loss, the one event, the silence that renders
nothing and the reopen a second later are exact. The real driver losing its
device is ``test_audio_realtime.py``.
"""

from __future__ import annotations

import esper
import numpy as np

from soundscape import Settings, SoundscapePlugin, synth


class Probe:
    def __init__(self) -> None:
        self.up = True

    def __call__(self) -> bool:
        return self.up


def lost_scene():
    p = SoundscapePlugin(Settings(backend="pyglet", features=("audio",))).install()
    ctx = p.context
    synth.add_to(ctx.sounds, "hum", synth.tone(220, 1.0, rate_hz=48_000), 48_000)
    bank = ctx.channels["modern"]
    bank.play(bank.acquire(), "hum", volume=1.0, loop=True)
    esper.process(1 / 60)
    backend = ctx.mixer.backend
    now = [0.0]
    probe = Probe()
    backend.watch.clock = lambda: now[0]
    backend.watch.probe = probe
    return p, ctx, backend, probe, now


def pull(source, frames: int = 960) -> bytes:
    packet = source.get_audio_data(8 * frames)
    assert packet.length == 8 * frames
    return bytes(packet.data)


def mixer_events(ctx, event: str) -> list:
    return ctx.events.where(source="mixer", event=event)


def test_a_lost_device_is_one_event_and_nothing_renders_into_it():
    p, ctx, backend, probe, now = lost_scene()
    source = backend.source
    assert any(pull(source))  # the hum plays
    probe.up = False
    pulls = 0
    while not backend.watch.lost:
        pull(source)
        pulls += 1
    assert pulls * 960 <= 12_000  # seen within a quarter second of audio
    rendered = ctx.mixer.frames_rendered
    for _ in range(100):  # 2 s of pulls into a dead device
        assert not any(pull(source))
    assert ctx.mixer.frames_rendered == rendered  # nothing rendered, voices hold their place
    for _ in range(30):
        esper.process(1 / 60)
    lost = mixer_events(ctx, "device_lost")
    assert len(lost) == 1 and lost[0]["driver"] == "silent"
    assert backend.player is None  # the player into the dead device is stopped
    assert mixer_events(ctx, "underrun") == []
    p.uninstall()


def test_sound_comes_back_by_itself_a_second_later():
    p, ctx, backend, probe, now = lost_scene()
    source = backend.source
    probe.up = False
    backend.watch.check(None)
    esper.process(1 / 60)
    assert len(mixer_events(ctx, "device_lost")) == 1
    now[0] = 0.5
    esper.process(1 / 60)
    assert mixer_events(ctx, "reopened") == [] and backend.player is None
    now[0] = 1.0  # the retry: pyglet's driver is opened anew (silent here: it opens)
    esper.process(1 / 60)
    assert len(mixer_events(ctx, "reopened")) == 1
    assert backend.player is not None and backend.player.playing
    assert not backend.watch.lost
    rendered = ctx.mixer.frames_rendered
    assert any(pull(source)) and ctx.mixer.frames_rendered > rendered
    now[0] = 5.0
    for _ in range(10):
        esper.process(1 / 60)
    assert len(mixer_events(ctx, "reopened")) == 1  # no retry while the device is there
    assert len(mixer_events(ctx, "device_lost")) == 1
    p.uninstall()


def test_a_game_can_reopen_itself():
    p, ctx, backend, _probe, _now = lost_scene()
    first = backend.player
    assert backend.reopen() is True
    assert backend.player is not None and backend.player is not first
    assert len(mixer_events(ctx, "reopened")) == 1
    pcm = np.frombuffer(pull(backend.source), dtype=np.float32)
    assert np.abs(pcm).max() > 0.1  # the hum goes on through the new player
    p.uninstall()
    assert backend.player is None
