"""Streamed voices: a long file (or one asked for) is decoded a piece at a time into a
per-voice ring; in the offline backend it renders bit for bit like the same sound fully
decoded (one-shot, loop across the file's end, restart, retail and modern profiles);
a starved ring plays silence and logs one ``stream_underrun``."""

from __future__ import annotations

import esper
import numpy as np
import pytest

from soundscape import Settings, SoundscapePlugin
from soundscape.audio.channels import ensure_bank
from soundscape.audio.streams import StreamedSound
from soundscape.components.channel import ChannelKind

sf = pytest.importorskip("soundfile")

RATE = 48_000


def music(seconds: float, rate_hz: int = RATE) -> np.ndarray:
    t = np.arange(int(seconds * rate_hz)) / rate_hz
    left = 0.3 * np.sin(2 * np.pi * 220.0 * t) * (1 + 0.5 * np.sin(2 * np.pi * 0.7 * t))
    right = 0.2 * np.sin(2 * np.pi * 331.0 * t + 0.3)
    return np.stack([left, right], axis=1).astype(np.float32)


@pytest.fixture
def folder(tmp_path):
    sf.write(str(tmp_path / "song.flac"), music(2.5), RATE, format="FLAC", subtype="PCM_16")
    sf.write(str(tmp_path / "cd.ogg"), music(2.5, 44_100), 44_100, format="OGG",
             subtype="VORBIS")
    return tmp_path


def render(folder, streamed: bool, script, seconds: float = 6.0, **settings):
    plugin = SoundscapePlugin(Settings(
        features=("audio",), backend="offline", sound_root=folder, stream_ring_s=1.0,
        stream_threshold_s=1.0 if streamed else None, **settings)).install()
    ctx = plugin.context
    state: dict[str, object] = {}
    try:
        for tick in range(int(seconds * 60)):
            script(ctx, tick, state)
            esper.process(1 / 60)
        kinds = {type(s).__name__ for s in ctx.sounds.sounds()}
        events = [(r["tick"], r["source"], r["event"], r.get("sound")) for r in ctx.events.records
                  if r["event"] in ("start", "end", "stop", "stream_underrun")]
        state["used"] = ctx.sounds.store.used
        state["events"] = list(ctx.events.records)
        state["sound"] = ctx.sounds.get(next(iter(ctx.sounds.names()))) if ctx.sounds.names() \
            else None
        return ctx.mixer.backend.audio().copy(), kinds, events, state
    finally:
        plugin.uninstall()


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    # + 0.0 makes a -0.0 sample +0.0 (the sum of zero samples may carry either sign)
    return a.shape == b.shape and (a + np.float32(0.0)).tobytes() == (b + np.float32(0.0)).tobytes()


def one_shot_and_restart(ctx, tick, state):
    bank = ensure_bank(ctx, "modern")
    if tick == 3:
        state["handle"] = bank.acquire(sound="song.flac")
        assert bank.play(state["handle"], "song.flac", volume=0.9, pan=0.3)
    if tick == 200:  # a restart on the same channel seeks to the start
        assert bank.play(state["handle"], "song.flac", volume=0.7, pan=-0.2)


def loop_on_retail_banks(ctx, tick, state):
    if tick == 0:
        ac = ctx.channels["ac"]
        assert ac.play(ac.acquire(), "song.flac", volume=-3, pan=5, loop=True)
        oni = ensure_bank(ctx, "oni", count=2, policy="oni", profile="oni", stereo_count=1)
        assert oni.play(oni.acquire(kind=ChannelKind.STEREO), "song.flac", volume=0.5,
                        pitch=1.3, loop=True)


@pytest.mark.parametrize("script", [one_shot_and_restart, loop_on_retail_banks])
def test_a_streamed_voice_renders_bit_for_bit_like_the_decoded_one(folder, script):
    decoded, kinds_d, events_d, _ = render(folder, False, script)
    streamed, kinds_s, events_s, _ = render(folder, True, script)
    assert kinds_d == {"Sound"} and kinds_s == {"StreamedSound"}
    assert np.abs(decoded).max() > 0.2 and events_s == events_d
    assert same_bits(decoded, streamed)


def culled_then_restored(ctx, tick, state):
    """Issue 18: a streamed voice culled from its start on a bank of one real voice, then
    restored at tick 75 when the louder voice stops: its start opens the ring at the game
    side's cursor (1.2 s into the file)."""
    bank = ensure_bank(ctx, "v", count=0, policy="virtual", profile="modern", real_voices=1)
    if tick == 0:
        state["loud"] = bank.acquire(sound="cd.ogg")
        assert bank.play(state["loud"], "cd.ogg", volume=1.0, loop=True)
        assert bank.play(bank.acquire(sound="song.flac"), "song.flac", volume=0.5, loop=True)
    if tick == 75:
        assert bank.stop(state["loud"])


def test_a_restored_streamed_voice_opens_its_ring_at_the_game_side_cursor(folder):
    decoded, _, events_d, _ = render(folder, False, culled_then_restored, seconds=3.0)
    streamed, kinds, events_s, _ = render(folder, True, culled_then_restored, seconds=3.0)
    assert kinds == {"StreamedSound"} and events_s == events_d
    assert np.abs(decoded[80 * 800:]).max() > 0.1  # the restored song sounds
    # in tick 75's block the loud voice fades out as the song fades in: the two ramped
    # rows sum in another order when they are rings (float32 rounding, 1.5e-8 here)
    fade = slice(75 * 800, 76 * 800)
    assert np.allclose(decoded[fade], streamed[fade], rtol=0, atol=1e-7)
    assert same_bits(decoded[: 75 * 800], streamed[: 75 * 800])
    assert same_bits(decoded[76 * 800:], streamed[76 * 800:])


def test_a_streamed_loop_is_seamless_and_exact_at_the_output_rate(folder):
    def loop(ctx, tick, state):
        if tick == 0:
            bank = ensure_bank(ctx, "modern")
            assert bank.play(bank.acquire(sound="song.flac"), "song.flac", volume=1.0,
                             loop=True)

    decoded, _, _, _ = render(folder, False, loop, seconds=7.0)
    streamed, _, _, _ = render(folder, True, loop, seconds=7.0)
    assert same_bits(decoded, streamed)  # two passes across the file's end


def test_a_converted_stream_matches_the_sound_converted_at_load(folder):
    def play(ctx, tick, state):
        if tick == 0:
            bank = ensure_bank(ctx, "modern")
            assert bank.play(bank.acquire(sound="cd.ogg"), "cd.ogg", volume=1.0)

    decoded, _, _, _ = render(folder, False, play, seconds=3.0)
    streamed, _, _, _ = render(folder, True, play, seconds=3.0)
    assert np.abs(decoded).max() > 0.2 and same_bits(decoded, streamed)


def test_a_stream_holds_a_ring_not_the_file_and_gives_it_back(folder):
    def play(ctx, tick, state):
        if tick == 0:
            bank = ensure_bank(ctx, "modern")
            assert bank.play(bank.acquire(sound="song.flac"), "song.flac", volume=1.0)
        if tick == 30:
            state["playing"] = ctx.sounds.store.used

    _, _, _, state = render(folder, True, play, seconds=3.5)
    sound = state["sound"]
    assert isinstance(sound, StreamedSound) and sound.nbytes == 0
    assert state["playing"] == 2 * (RATE + 4)  # one second a side, its guard frames
    assert state["used"] == 0  # the voice ended: its ring went back


def test_a_starved_ring_plays_silence_and_logs_one_underrun(folder):
    def play(ctx, tick, state):
        if tick == 0:
            ctx.mixer.streams.sync = False  # as if the feeder thread never ran
            bank = ensure_bank(ctx, "modern")
            assert bank.play(bank.acquire(sound="song.flac"), "song.flac", volume=1.0)

    audio, _, events, _ = render(folder, True, play, seconds=1.0)
    underruns = [e for e in events if e[2] == "stream_underrun"]
    assert len(underruns) == 1 and underruns[0][3] == "song.flac"
    heard = np.flatnonzero(np.abs(audio[:, 0]) > 0)
    assert 0 < heard[-1] < 4 * 1024  # the two blocks decoded at the start, then silence
    assert not np.any(audio[8192:])


def test_the_threshold_and_stream_decide_what_is_streamed(folder):
    sf.write(str(folder / "short.flac"), music(0.5), RATE, format="FLAC", subtype="PCM_16")
    plugin = SoundscapePlugin(Settings(features=("audio",), backend="offline",
                                       sound_root=folder, stream_threshold_s=1.0)).install()
    try:
        sounds = plugin.context.sounds
        assert isinstance(sounds.get("song.flac"), StreamedSound)
        assert not isinstance(sounds.get("short.flac"), StreamedSound)
        assert isinstance(sounds.stream("short.flac"), StreamedSound)
    finally:
        plugin.uninstall()
    with pytest.raises(ValueError, match="stream_ring_s"):
        Settings(stream_ring_s=0.5)
    assert Settings().stream_threshold_s == 30.0


def test_the_feeder_thread_fills_rings_off_the_game_thread(folder):
    from soundscape.audio.commands import VoiceParams
    from soundscape.audio.mixer import Mixer
    from soundscape.audio.sounds import SoundBank

    bank = SoundBank(folder)
    decoded = bank.get("song.flac")
    streamed = SoundBank(folder, store=None).stream("song.flac")
    renders = []
    for sound, feeder in ((decoded, False), (streamed, True)):
        mixer = Mixer(RATE, 1024)
        mixer.streams.ring_s = 1.0
        if feeder:
            mixer.streams.start_feeder()
        mixer.start(1, sound, VoiceParams(0.5, 0.5, 1.0, loop=True))
        out = []
        for _ in range(150):  # 3.2 s: past the file's end, the ring wraps three times
            if feeder:  # real time: wait (not sleep) for the feeder's pass after each block
                mixer.streams.fed.clear()
                mixer.streams._wake.set()
                assert mixer.streams.fed.wait(10.0)
            out.append(mixer.render(1024).copy())
        mixer.close()
        renders.append(np.concatenate(out))
    assert not mixer.streams.underruns
    assert np.abs(renders[0]).max() > 0.1 and same_bits(renders[0], renders[1])


def test_a_file_that_breaks_mid_stream_goes_silent_with_one_bad_sound(folder):
    data = bytearray((folder / "song.flac").read_bytes())
    data[len(data) // 2 :] = bytes(len(data) - len(data) // 2)  # the second half zeroed
    (folder / "broken.flac").write_bytes(bytes(data))

    def play(ctx, tick, state):
        if tick == 0:
            bank = ensure_bank(ctx, "modern")
            assert bank.play(bank.acquire(sound="broken.flac"), "broken.flac", volume=1.0)

    audio, _, events, state = render(folder, True, play, seconds=3.0)
    plugin_events = state["events"]
    bad = [e for e in plugin_events if e["event"] == "bad_sound"]
    assert len(bad) == 1 and "broken.flac" in bad[0]["reason"] and bad[0]["source"] == "mixer"
    assert not [e for e in events if e[2] == "stream_underrun"]
    assert np.abs(audio[:24_000]).max() > 0.1 and not np.any(audio[-48_000:])


def test_removing_a_streamed_sound_ends_its_voice_and_frees_its_ring(folder):
    def play(ctx, tick, state):
        if tick == 0:
            bank = ensure_bank(ctx, "modern")
            assert bank.play(bank.acquire(sound="song.flac"), "song.flac", volume=1.0,
                             loop=True)
        if tick == 30:
            assert len(ctx.mixer.streams.rings()) == 1
            assert ctx.sounds.remove("song.flac")

    audio, _, events, state = render(folder, True, play, seconds=1.0)
    stops = [e for e in state["events"] if e["event"] == "stop"]
    assert len(stops) == 1 and stops[0]["reason"] == "unloaded"
    assert state["used"] == 0  # the ring went back to the store
    assert not [e for e in events if e[2] == "stream_underrun"]  # it faded out whole
    assert np.abs(audio[:24_000]).max() > 0.1 and not np.any(audio[-20_000:])
