"""The audio feature in a world: tick-exact offline rendering, chaining, emitters, backends."""

from __future__ import annotations

import esper
import numpy as np
import pytest

from soundscape import FeatureOffError, Settings, SoundscapePlugin, synth
from soundscape.audio.emitters import play_at
from soundscape.components.channel import ChannelFlags
from soundscape.components.emitter import Emitter
from soundscape.components.spatial import Listener, Position


def plugin(**kw) -> SoundscapePlugin:
    return SoundscapePlugin(Settings(features=("audio",), **kw)).install()


def test_offline_backend_renders_800_frames_a_tick():
    p = plugin(backend="offline")
    backend = p.context.mixer.backend
    esper.process(1 / 60)
    assert backend.frames == 800
    esper.process(3 / 60)  # one frame that steps three ticks
    assert backend.frames == 3200
    esper.process(0.001)  # no whole tick: nothing rendered
    assert backend.frames == 3200
    p.uninstall()


def test_odd_rates_carry_the_fraction_of_a_frame():
    p = plugin(backend="offline", sample_rate_hz=44_100)
    for _ in range(60):
        esper.process(1 / 60)
    assert p.context.mixer.backend.frames == 44_100  # 735 a tick exactly
    p = None


def test_chained_sound_from_on_end_has_no_gap(tmp_path):
    p = plugin(backend="offline")
    ctx = p.context
    a = synth.tone(300, 0.2, rate_hz=48_000, fade_s=0.0)  # 9600 frames, ends mid-tick 12
    b = synth.tone(500, 0.2, rate_hz=48_000, fade_s=0.0)
    synth.add_to(ctx.sounds, "a", a, 48_000)
    synth.add_to(ctx.sounds, "b", b, 48_000)
    bank = ctx.channels["modern"]
    h = bank.acquire()
    bank.play(h, "a", volume=1.0, pan=-1.0)

    def chain(bank_, handle, channel, overshoot):
        if channel.sound == "a":
            bank_.play(handle, "b", volume=1.0, pan=-1.0, offset_frames=overshoot)

    bank.on_end.append(chain)
    for _ in range(30):
        esper.process(1 / 60)
    left = ctx.mixer.backend.audio()[:, 0]
    assert np.allclose(left[:9600], a, atol=1e-6)
    assert np.allclose(left[9600:19200], b, atol=1e-6)  # b starts on the very next frame
    p.write_path = ctx.mixer.backend.write_wav(tmp_path / "chain.wav")
    assert p.write_path.stat().st_size == 44 + 30 * 800 * 4


def test_every_start_steal_drop_and_stop_is_logged_with_its_channel():
    p = plugin(backend="none")
    ctx = p.context
    synth.add_to(ctx.sounds, "t", synth.tone(200, 1.0))
    from soundscape.audio.channels import ensure_bank
    from soundscape.components.channel import ChannelKind

    bank = ensure_bank(ctx, "oni", count=2, policy="oni", profile="oni", stereo_count=0)
    h1 = bank.acquire()
    bank.play(h1, "t", volume=1.0)
    h2 = bank.acquire()
    bank.play(h2, "t", volume=0.5)
    h3 = bank.acquire(priority=1, kind=ChannelKind.MONO, sound="t")  # quietest: channel 1
    bank.play(h3, "t", volume=1.0)
    assert bank.acquire(priority=1, sound="t") is None
    bank.stop(h1)
    events = [(r["event"], r["channel"]) for r in ctx.events if r["source"] == "oni"]
    assert events == [("start", 0), ("start", 1), ("steal", 1), ("start", 1), ("drop", None),
                      ("stop", 0)]


def test_emitter_follows_listener_and_stops_with_its_entity():
    p = plugin(backend="offline")
    ctx = p.context
    synth.add_to(ctx.sounds, "hum", synth.noise_bed(1.0, seed=2))
    esper.create_entity(Listener(heading_rad=0.0), Position(0.0, 0.0, 0.0))
    ent = esper.create_entity(Emitter("hum", volume=0.8, min_distance_m=2.0,
                                      max_distance_m=30.0), Position(-8.0, 0.0, 0.0))
    esper.process(1 / 60)
    channel = ctx.channels["modern"].channels[0]
    assert channel.playing and channel.volume == pytest.approx(0.8 * 2 / 8)
    assert channel.pan == pytest.approx(-1.0)  # due west of a north-facing listener
    assert channel.gain_right == pytest.approx(0.0, abs=1e-12)
    esper.component_for_entity(ent, Position).x_m = float("nan")
    esper.process(1 / 60)
    esper.process(1 / 60)
    assert channel.volume == 0.0 and channel.playing  # silenced, not crashed
    assert len(ctx.events.where(source="emitters", event="bad_value")) == 1  # logged once
    esper.component_for_entity(ent, Position).x_m = -8.0
    esper.process(1 / 60)
    assert channel.volume == pytest.approx(0.8 * 2 / 8)  # heard again where it is
    esper.delete_entity(ent)
    esper.process(1 / 60)
    esper.process(1 / 60)
    assert not channel.playing
    assert ctx.events.where(event="stop", reason="entity gone")


def test_play_at_one_shot_is_heard_from_its_place():
    p = plugin(backend="offline")
    ctx = p.context
    synth.add_to(ctx.sounds, "clk", synth.click(4, duration_s=0.05))
    esper.create_entity(Listener(heading_rad=0.0), Position(0.0, 0.0, 0.0))
    handle = play_at(ctx, "clk", (0.0, 0.0, 4.0), volume=1.0, min_distance_m=1.0)
    assert handle is not None
    esper.process(1 / 60)
    out = ctx.mixer.backend.audio()
    assert np.abs(out).max() > 0.05
    assert np.allclose(out[:, 0], out[:, 1])  # straight ahead: centred
    assert ctx.channels["modern"].get(handle).volume == pytest.approx(0.25)


def test_backend_none_keeps_no_mixer():
    p = plugin(backend="none")
    esper.process(1 / 60)
    assert not p.context.has("mixer") and p.context.has("sounds")
    with pytest.raises(FeatureOffError, match="Settings.backend = 'none'"):
        _ = p.mixer


def test_virtual_bank_mixes_only_the_loudest_n():
    from soundscape.audio.channels import ensure_bank

    p = plugin(backend="offline")
    ctx = p.context
    bank = ensure_bank(ctx, "crowd", count=0, policy="virtual", profile="modern",
                       real_voices=2)
    freqs = {"a": 300.0, "b": 700.0, "c": 1900.0}
    for (name, hz), volume in zip(freqs.items(), (0.5, 0.4, 0.1), strict=True):
        synth.add_to(ctx.sounds, name, synth.tone(hz, 1.0, rate_hz=48_000), 48_000)
        bank.play(bank.acquire(), name, volume=volume, pan=0.0)
    for _ in range(30):
        esper.process(1 / 60)
    spectrum = np.abs(np.fft.rfft(ctx.mixer.backend.audio()[800:, 0]))
    freqs_hz = np.fft.rfftfreq(29 * 800, 1 / 48_000)

    def peak(hz: float) -> float:
        return float(spectrum[np.argmin(np.abs(freqs_hz - hz))])

    assert peak(300) > 1000 * peak(1900) and peak(700) > 1000 * peak(1900)
    assert [c.audible for c in bank.channels] == [True, True, False]
    culls = ctx.events.where(source="crowd", event="cull")  # once, not every tick
    assert [(r["sound"], r["rank"]) for r in culls] == [("c", 2)]
    bank.channels[2].volume = 0.9  # now the loudest: voiced, and the quietest goes virtual
    esper.process(1 / 60)
    assert [c.audible for c in bank.channels] == [True, False, True]
    assert [r["sound"] for r in ctx.events.where(source="crowd", event="cull")] == ["c", "b"]
    assert [r["sound"] for r in ctx.events.where(source="crowd", event="restore")] == ["c"]


def test_non_finite_volume_silences_the_voice_and_is_logged_once():
    p = plugin(backend="offline")
    ctx = p.context
    synth.add_to(ctx.sounds, "t", synth.tone(200, 1.0))
    from soundscape.audio.channels import ensure_bank

    rg = ensure_bank(ctx, "redguard", count=4, policy="redguard", profile="redguard")
    h = rg.acquire()
    rg.play(h, "t", volume=100, pan=64, rate_hz=22_050)
    rg.set_volume(h, float("nan"))
    ac = ctx.channels["ac"]
    ac.play(ac.acquire(), "t", volume=-3, pan=float("inf"))
    for _ in range(3):
        esper.process(1 / 60)
    assert not ctx.mixer.backend.audio().any()
    assert len(ctx.events.where(event="bad_value")) == 2


def test_play_at_refuses_a_nan_position_and_bad_distances():
    from soundscape.errors import InputError

    p = plugin(backend="offline")
    ctx = p.context
    synth.add_to(ctx.sounds, "pop", synth.click(1))
    esper.create_entity(Listener(), Position(0.0, 0.0, 0.0))
    assert play_at(ctx, "pop", (float("nan"), 0.0, 0.0)) is None
    assert play_at(ctx, "pop", (1.0, 0.0)) is None  # not three numbers
    bad = ctx.events.where(source="emitters", event="bad_value")
    assert len(bad) == 2 and "not finite" in bad[0]["reason"]
    esper.process(1 / 60)  # nothing half-started
    assert not any(c.playing for c in ctx.channels["modern"].channels)
    with pytest.raises(InputError, match="min_distance_m"):
        play_at(ctx, "pop", (1.0, 0.0, 0.0), min_distance_m=10.0, max_distance_m=5.0)
    with pytest.raises(InputError, match="Emitter"):
        Emitter("pop", min_distance_m=-1.0)
    handle = play_at(ctx, "pop", (0.0, 0.0, 3.0), max_distance_m=float("inf"))
    assert handle is not None and ctx.channels["modern"].get(handle).volume == pytest.approx(1 / 3)


def test_pause_holds_a_voice_and_resume_goes_on_from_the_same_frame():
    p = plugin(backend="offline")
    ctx = p.context
    ramp = np.linspace(0.0, 0.9, 48_000, dtype=np.float32)  # a level that tells the place
    ctx.sounds.add("ramp", ramp, 48_000)
    bank = ctx.channels["modern"]
    h = bank.acquire()
    bank.play(h, "ramp", volume=1.0, pan=-1.0)
    for _ in range(10):
        esper.process(1 / 60)
    assert bank.pause(h) and ChannelFlags.PAUSED in bank.get(h).flag_set
    for _ in range(5):
        esper.process(1 / 60)
    assert bank.get(h).cursor_frames == 8_000  # held
    assert bank.pause(h, paused=False)
    esper.process(1 / 60)
    left = ctx.mixer.backend.audio()[:, 0]
    assert not left[8_000:12_000].any()  # silent while paused
    assert np.array_equal(left[12_000:12_800], ramp[8_000:8_800])  # on from the same frame
    assert bank.pause(bank.handle(bank.channels[0])._replace(generation=99)) is False


def test_emitter_switches_sound_and_follows_its_entity():
    p = plugin(backend="offline")
    ctx = p.context
    synth.add_to(ctx.sounds, "a", synth.tone(300, 1.0))
    synth.add_to(ctx.sounds, "b", synth.tone(500, 1.0))
    esper.create_entity(Listener(), Position(0.0, 0.0, 0.0))
    ent = esper.create_entity(Emitter("a"), Position(0.0, 0.0, 2.0))
    esper.process(1 / 60)
    bank = ctx.channels["modern"]
    first = esper.component_for_entity(ent, Emitter).handle
    assert bank.get(first).sound == "a"
    esper.component_for_entity(ent, Position).z_m = 4.0
    esper.process(1 / 60)
    assert bank.get(first).position == (0.0, 0.0, 4.0)
    esper.component_for_entity(ent, Emitter).sound = "b"
    esper.process(1 / 60)
    handle = esper.component_for_entity(ent, Emitter).handle
    assert handle != first and bank.get(handle).sound == "b" and bank.get(handle).playing
    assert ctx.events.where(event="stop", reason="sound changed", sound="a")
    assert sum(c.playing for c in bank.channels) == 1


def test_a_huge_finite_volume_is_silenced_not_an_infinite_mix():
    # Fuzzing found play_at(..., volume=1e308): a finite gain that the float32 mix
    # turned into inf in every later frame. The voice is a bad value, silenced.
    p = plugin(backend="offline")
    ctx = p.context
    synth.add_to(ctx.sounds, "t", synth.tone(200, 1.0))
    esper.create_entity(Listener(), Position(0.0, 0.0, 0.0))
    assert play_at(ctx, "t", (0.0, 0.0, 2.0), volume=1e308) is not None
    for _ in range(3):
        esper.process(1 / 60)
    assert np.isfinite(ctx.mixer.backend.audio()).all()
    assert not ctx.mixer.backend.audio().any()
    assert ctx.events.where(source="modern", event="bad_value")
    assert play_at(ctx, "t", (0.0, 0.0, 2.0), volume=0.5) is not None  # good input: heard
    esper.process(1 / 60)
    assert np.abs(ctx.mixer.backend.audio()[-800:]).max() > 0.0
