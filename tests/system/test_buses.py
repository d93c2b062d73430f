"""Buses in a world (issue 16): volume, mute, pause, fades, ducking, play_2d, restart,
and where the bus gain sits in the mixer (rendered offline, tick-exact)."""

from __future__ import annotations

import esper
import numpy as np
import pytest

from soundscape import InputError, Settings, SoundscapePlugin, synth
from soundscape.audio.emitters import play_at
from soundscape.audio.play2d import play_2d
from soundscape.components.emitter import Emitter
from soundscape.components.spatial import Listener, Position

RATE = 48_000
TICK = 800  # frames a tick at 48 kHz / 60 Hz


def plugin(**kw) -> SoundscapePlugin:
    return SoundscapePlugin(Settings(features=("audio",), backend="offline", **kw)).install()


def steps(n: int) -> None:
    for _ in range(n):
        esper.process(1 / 60)


def rms_db(x: np.ndarray) -> float:
    return float(20 * np.log10(np.sqrt(np.mean(np.square(x.astype(np.float64)))) + 1e-30))


def flat(ctx, name: str, seconds: float, value: float = 0.25) -> np.ndarray:
    """A constant signal (a DC 'tone'): every rendered sample shows the gain exactly."""
    data = np.full(int(seconds * RATE), value, dtype=np.float32)
    synth.add_to(ctx.sounds, name, data, RATE)
    return data


def test_the_default_tree_and_a_game_bus_under_sfx():
    p = plugin()
    buses = p.buses
    assert buses.names == ("master", "music", "dialogue", "sfx", "ambience", "ui")
    foot = buses.add("footsteps", parent="sfx")
    assert foot.parent is buses["sfx"]
    with pytest.raises(InputError, match="already"):
        buses.add("footsteps", parent="sfx")
    with pytest.raises(InputError, match="no bus 'nowhere'"):
        buses.add("x", parent="nowhere")
    for bad in (-0.1, 4.5, float("nan"), "loud"):
        with pytest.raises(InputError, match="volume"):
            buses["music"].volume = bad
    buses["sfx"].volume = 0.5
    foot.volume = 0.5
    assert buses.gains()[foot.index] == 0.25
    buses["master"].muted = True
    assert buses.gains()[foot.index] == 0.0
    p.uninstall()


def test_every_voice_is_on_one_bus_emitters_on_sfx_unless_told():
    p = plugin()
    ctx = p.context
    flat(ctx, "hum", 1.0)
    esper.create_entity(Listener(), Position(0, 0, 0))
    esper.create_entity(Emitter("hum"), Position(0.5, 0, 0))
    esper.create_entity(Emitter("hum", bus="ambience"), Position(0.5, 0, 0))
    h = play_at(ctx, "hum", (0.5, 0.0, 0.0))
    h2 = play_at(ctx, "hum", (0.5, 0.0, 0.0), bus="music")
    steps(1)
    bank = ctx.channels["modern"]
    buses = sorted(c.bus for c in bank.channels if c.playing)
    assert buses == ["ambience", "music", "sfx", "sfx"]
    assert bank.get(h).bus == "sfx" and bank.get(h2).bus == "music"
    with pytest.raises(InputError, match="no bus"):
        play_at(ctx, "hum", (0.0, 0.0, 0.0), bus="nope")
    assert ctx.channels["ac"].bus == "ambience"
    p.uninstall()


def test_bus_volume_and_mute_scale_the_rendered_voice():
    p = plugin()
    ctx = p.context
    flat(ctx, "dc", 2.0)
    play_2d(ctx, "dc", bus="music")  # centre pan: 0.25 x cos(pi/4) a side
    steps(10)
    centre = 0.25 * np.sqrt(0.5)
    out = ctx.mixer.backend.audio()
    assert np.allclose(out[TICK:10 * TICK, 0], centre, atol=1e-6)
    p.buses["music"].volume = 2.0
    steps(10)
    out = ctx.mixer.backend.audio()
    assert np.allclose(out[-5 * TICK:, 0], 2.0 * centre, atol=1e-6)
    p.buses["master"].muted = True
    steps(10)
    out = ctx.mixer.backend.audio()
    assert np.all(out[-5 * TICK:] == 0.0)
    p.buses["master"].muted = False
    steps(10)
    assert np.allclose(ctx.mixer.backend.audio()[-5 * TICK:, 0], 2.0 * centre, atol=1e-6)
    p.uninstall()


def test_a_bus_change_ramps_across_one_block_no_step():
    p = plugin(block_frames=256)
    ctx = p.context
    flat(ctx, "dc", 2.0)
    play_2d(ctx, "dc", bus="sfx")
    steps(5)
    p.buses["sfx"].volume = 0.0
    steps(5)
    left = ctx.mixer.backend.audio()[:, 0].astype(np.float64)
    steps_between = np.abs(np.diff(left))
    # a jump from 0.177 to 0 in one sample would be a click; the ramp spreads it
    # over a block: no step bigger than the block's share of the change
    assert steps_between.max() <= 0.25 * np.sqrt(0.5) / 256 * 1.01
    assert left[-1] == 0.0
    p.uninstall()


def test_a_paused_bus_stops_time_and_resumes_at_the_same_frame():
    p = plugin()
    ctx = p.context
    ramp = np.arange(RATE, dtype=np.float32) / RATE  # each sample tells its frame
    synth.add_to(ctx.sounds, "ramp", ramp, RATE)
    h = play_2d(ctx, "ramp", bus="ambience")
    steps(30)
    channel = ctx.channels["modern"].get(h)
    p.buses["ambience"].paused = True
    cursor = channel.cursor_frames
    steps(30)
    assert channel.cursor_frames == cursor  # the game side's time stood still
    paused_audio = ctx.mixer.backend.audio()[-20 * TICK:, 0]
    assert np.all(paused_audio == 0.0)
    before = ctx.mixer.backend.frames
    p.buses["ambience"].paused = False
    steps(10)
    left = ctx.mixer.backend.audio()[before:, 0]
    heard = left[left != 0.0]
    gain = np.sqrt(0.5)
    # it goes on from the frame it stopped at: no frames skipped, none repeated
    frames = np.round(heard / gain * RATE).astype(int)
    assert np.all(np.diff(frames) == 1)
    assert abs(frames[0] - 30 * TICK) <= 1024  # where the pause caught it (a block at most)
    p.uninstall()


def test_pause_all_holds_the_world_but_ui_clicks_play():
    p = plugin()
    ctx = p.context
    flat(ctx, "world", 3.0)
    flat(ctx, "click", 0.05, 0.5)
    h = play_2d(ctx, "world", bus="sfx")
    steps(5)
    p.pause_all()
    assert {b.name for b in p.buses if b.paused} == {"music", "dialogue", "sfx", "ambience"}
    click = play_2d(ctx, "click")  # ui
    steps(10)
    bank = ctx.channels["modern"]
    assert bank.get(h).playing
    out = ctx.mixer.backend.audio()[5 * TICK:, 0]
    assert np.max(out) == pytest.approx(0.5 * np.sqrt(0.5), abs=1e-6)  # only the click
    assert not bank.is_playing(click)  # it played out while the world held
    p.buses["music"].paused = True  # the game's own pause is kept by resume_all
    p.resume_all()
    assert {b.name for b in p.buses if b.paused} == set()  # music was already held
    p.uninstall()


def test_ducking_takes_music_10_db_down_while_a_line_plays_and_back_after():
    p = plugin()
    ctx = p.context
    buses = p.buses
    buses.duck(target="music", by="dialogue", depth_db=-10.0, attack_s=0.1, release_s=0.6)
    music = synth.tone(220, 6.0, rate_hz=RATE, fade_s=0.0)
    synth.add_to(ctx.sounds, "music", music, RATE)
    flat(ctx, "line", 1.0, 0.0)  # a silent line: what is heard is the music alone
    play_2d(ctx, "music", bus="music", loop=True)
    steps(60)  # 1 s of music alone
    play_2d(ctx, "line", bus="dialogue")
    steps(60)  # the line: 1 s
    steps(60)  # release 0.6 s, then 0.4 s back at full
    out = ctx.mixer.backend.audio()[:, 0]
    before = rms_db(out[int(0.5 * RATE):RATE])
    during = rms_db(out[int(1.3 * RATE):int(1.9 * RATE)])  # after the 0.1 s attack
    after = rms_db(out[int(2.7 * RATE):3 * RATE])
    assert during - before == pytest.approx(-10.0, abs=0.2)
    assert after - before == pytest.approx(0.0, abs=0.05)
    p.uninstall()


def test_a_bus_fade_to_takes_the_seconds_asked():
    p = plugin()
    ctx = p.context
    flat(ctx, "dc", 3.0)
    play_2d(ctx, "dc", bus="music")
    steps(6)
    p.buses["music"].fade_to(0.0, 1.0)
    steps(30)
    assert p.buses["music"].volume == pytest.approx(0.5)
    steps(40)
    assert p.buses["music"].volume == 0.0 and not p.buses["music"].fading
    with pytest.raises(InputError):
        p.buses["music"].fade_to(0.5, -1.0)
    p.uninstall()


def test_play_2d_needs_no_listener_and_its_handle_fades_and_stops_with_a_fade():
    p = plugin()
    ctx = p.context
    flat(ctx, "dc", 4.0)
    h = play_2d(ctx, "dc", volume=1.0, pan=1.0)
    assert h is not None and not esper.get_component(Listener)
    steps(6)
    out = ctx.mixer.backend.audio()
    assert np.allclose(out[TICK:6 * TICK, 1], 0.25, atol=1e-6) and np.all(out[:, 0] == 0.0)
    assert h.fade(0.5, 0.5)
    steps(30)
    assert ctx.channels["modern"].get(h).level == pytest.approx(0.5)
    steps(3)  # the mixer's ramp ends a block after the tick
    assert np.allclose(ctx.mixer.backend.audio()[-TICK:, 1], 0.125, atol=1e-4)
    assert h.stop(fade_out_s=0.25)
    steps(7)
    assert h.playing  # still fading out
    steps(10)
    assert not h.playing
    assert ctx.events.where(source="modern", event="stop", reason="faded out")
    with pytest.raises(InputError):
        play_2d(ctx, "dc", pan=2.0)
    with pytest.raises(InputError):
        play_2d(ctx, "dc", bus="nope")
    p.uninstall()


def test_emitter_fade_in_and_fade_out_in_seconds():
    p = plugin()
    ctx = p.context
    flat(ctx, "hum", 4.0)
    esper.create_entity(Listener(), Position(0, 0, 0))
    ent = esper.create_entity(Emitter("hum", fade_in_s=0.5, fade_out_s=0.25), Position(0, 0, 0.5))
    steps(15)
    emitter = esper.component_for_entity(ent, Emitter)
    channel = ctx.channels["modern"].get(emitter.handle)
    assert channel.level == pytest.approx(0.5, abs=0.04)
    steps(20)
    assert channel.level == 1.0
    handle = emitter.handle
    emitter.enabled = False
    steps(8)
    assert handle.playing and channel.level == pytest.approx(0.5, abs=0.05)
    steps(10)
    assert not handle.playing
    with pytest.raises(InputError):
        Emitter("hum", fade_in_s=-1.0)
    p.uninstall()


@pytest.mark.parametrize("restart", [False, True])
def test_emitter_restart_false_resumes_where_the_loop_would_be(restart):
    p = plugin()
    ctx = p.context
    ramp = np.arange(RATE, dtype=np.float32) / RATE  # 1 s loop
    synth.add_to(ctx.sounds, "ramp", ramp, RATE)
    esper.create_entity(Listener(), Position(0, 0, 0))
    ent = esper.create_entity(Emitter("ramp", restart=restart), Position(0, 0, 0.5))
    steps(30)
    emitter = esper.component_for_entity(ent, Emitter)
    emitter.enabled = False
    steps(15)
    emitter.enabled = True
    steps(1)
    channel = ctx.channels["modern"].get(emitter.handle)
    if restart:
        assert channel.cursor_frames == pytest.approx(TICK)  # started over: one tick in
    else:
        # 46 ticks since it first started, as if it had played on
        assert channel.cursor_frames == pytest.approx(46 * TICK)
    p.uninstall()


def test_redguard_bus_gain_sits_after_the_miles_integer_path():
    from soundscape.audio import commands as cmd
    from soundscape.audio.commands import VoiceParams
    from soundscape.audio.mixer import Mixer
    from soundscape.audio.sounds import SoundBank

    pcm = (np.arange(-2000, 2000, 7, dtype=np.int16))[:, None]
    sound = SoundBank().add("rg", pcm.astype(np.float32) / 32768, RATE, pcm=pcm)
    miles = (100, 100, 128, 128)
    out = []
    for gain in (1.0, 0.5):
        mixer = Mixer(RATE, 256)
        mixer.send([cmd.bus_gains((1.0, gain)),
                    cmd.start(1, sound, VoiceParams(1.0, 1.0, 1.0, miles=miles, bus=1))])
        out.append(mixer.render(256)[:, 0].copy())
    integer = np.floor(pcm[:256, 0].astype(np.int64) * 100 / 128) / 32768.0  # Miles, exact
    assert np.array_equal(out[0], integer.astype(np.float32))  # unity: bit-exact
    assert np.array_equal(out[1], (0.5 * integer).astype(np.float32))  # after the floors
