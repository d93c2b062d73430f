"""Issue 11: every sound the game starts is heard once, whole and on time.

The game side sends the audio side a stream of commands (start, set, stop); the
audio side owns its render cursors. Through the offline backend a one-shot of
any length started between two frames is in the output exactly once and whole;
with the mixer pulled at wall-clock pace while the game side lags, hitches or
raises (what a real-time output sees), nothing is played twice and loops keep
their phase; stops and steals still cut at the next block.
"""

from __future__ import annotations

import esper
import numpy as np
import pytest

from soundscape import Settings, SoundscapePlugin
from soundscape.audio.channels import ensure_bank
from soundscape.audio.commands import SET, START, STOP, collect_commands
from soundscape.components.channel import ChannelKind

RATE = 48_000
TICK_FRAMES = RATE // 60


def marked(frames: int, seed: int = 0) -> np.ndarray:
    """A mono sound whose every frame is non-zero and different from its neighbours."""
    k = np.arange(frames, dtype=np.float64)
    return (0.1 + 0.4 * ((k * 0.618 + seed * 0.1) % 1.0)).astype(np.float32)


def offline(**kw) -> SoundscapePlugin:
    # The master limiter off: these scenes compare exact samples and some reach its knee.
    kw.setdefault("limiter", False)
    return SoundscapePlugin(Settings(backend="offline", features=("audio",), **kw)).install()


def play_left(ctx, name: str, *, loop: bool = False):
    """Play ``name`` on the modern bank hard left at full volume: the left output is
    the sound's own samples (gain exactly 1), the right output silent."""
    bank = ctx.channels["modern"]
    handle = bank.acquire(sound=name)
    assert bank.play(handle, name, volume=1.0, pan=-1.0, loop=loop)
    return handle


def placed(total: int, *starts: tuple[int, np.ndarray]) -> np.ndarray:
    """``total`` frames of silence with each (frame, sound) added at its frame."""
    out = np.zeros(total, dtype=np.float32)
    for at, sound in starts:
        end = min(at + sound.shape[0], total)
        out[at:end] += sound[: end - at]
    return out


@pytest.mark.parametrize("ticks", [1, 2, 3])
@pytest.mark.parametrize("length", [1, 10, 100, 799, 800, 801])
def test_one_shots_are_rendered_once_and_whole(ticks, length):
    """Started between any two frames (here before frames 0, 2, 5 and 8), each one-shot
    is in the offline output exactly at its frame, exactly once, every frame of it."""
    plugin = offline()
    ctx = plugin.context
    sounds = {frame: ctx.sounds.add(f"s{frame}", marked(length, frame), RATE).samples[:, 0]
              for frame in (0, 2, 5, 8)}
    interval = ticks * TICK_FRAMES
    for frame in range(12):
        if frame in sounds:
            play_left(ctx, f"s{frame}")
        esper.process(ticks / 60)
    audio = ctx.mixer.backend.audio()
    expected = placed(audio.shape[0], *((f * interval, s) for f, s in sounds.items()))
    assert audio.shape[0] == 12 * interval
    assert np.array_equal(audio[:, 0], expected)
    assert not audio[:, 1].any()
    ends = [r for r in ctx.events if r["event"] == "end"]
    assert len(ends) == 4  # the game side's model still ends them on ticks
    plugin.uninstall()


def test_one_shot_chained_from_on_end_starts_where_the_first_ended():
    """A one-shot started from an ``on_end`` callback (after the tick's advance) begins
    at the frame the game side's model says the first sound ended."""
    plugin = offline()
    ctx = plugin.context
    first = ctx.sounds.add("first", marked(1000, 1), RATE).samples[:, 0]
    second = ctx.sounds.add("second", marked(300, 2), RATE).samples[:, 0]
    bank = ctx.channels["modern"]
    chained = []

    def chain(b, handle, channel, overshoot):
        if channel.sound == "first":
            chained.append(overshoot)
            b.play(handle, "second", volume=1.0, pan=-1.0, offset_frames=overshoot)

    bank.on_end.append(chain)
    play_left(ctx, "first")
    for _ in range(4):
        esper.process(1 / 60)
    assert chained == [600.0]  # ended 600 frames into the second tick
    audio = ctx.mixer.backend.audio()[:, 0]
    assert np.array_equal(audio, placed(audio.shape[0], (0, first), (1000, second)))
    plugin.uninstall()


class WallClockAudio:
    """The audio side pulled at wall-clock pace by the test, as pyglet's worker thread
    would: the game's frames and the mixer's blocks no longer line up."""

    def __init__(self, ctx) -> None:
        self.mixer = ctx.mixer
        self.mixer.backend = None  # PUBLISH no longer renders: ``pull`` does
        self.chunks: list[np.ndarray] = []

    def pull(self, frames: int) -> None:
        self.chunks.append(self.mixer.render(frames).copy())

    @property
    def audio(self) -> np.ndarray:
        return np.concatenate(self.chunks)

    @property
    def frames(self) -> int:
        return sum(c.shape[0] for c in self.chunks)


def test_no_replay_when_a_20_fps_game_passes_a_sixtieth():
    """The game side's clock runs at a third of real time: its one-shot is still
    'playing' long after the audio side has finished it; it is heard once."""
    plugin = offline()
    ctx = plugin.context
    shot = ctx.sounds.add("shot", marked(9_600, 3), RATE).samples[:, 0]  # 200 ms
    bed = ctx.sounds.add("bed", marked(1_000, 4) * np.float32(0.5), RATE).samples[:, 0]
    audio = WallClockAudio(ctx)
    play_left(ctx, "bed", loop=True)
    starts = []
    for frame in range(40):
        if frame == 2:
            play_left(ctx, "shot")
            starts.append(audio.frames)
        esper.process(1 / 60)
        audio.pull(2_400)  # 50 ms of real time a frame
    out = audio.audio[:, 0]
    loop = np.tile(bed, out.shape[0] // bed.shape[0] + 1)[: out.shape[0]]
    assert np.array_equal(out, loop + placed(out.shape[0], (starts[0], shot)))
    plugin.uninstall()


def test_no_replay_after_a_hitch():
    """A 1.5 s hitch: the audio side renders 1.5 s while the game clock steps at most
    1 s; a 3 s line is heard once and the loop under it keeps its phase."""
    plugin = offline()
    ctx = plugin.context
    line = ctx.sounds.add("line", marked(3 * RATE, 5), RATE).samples[:, 0]
    bed = ctx.sounds.add("bed", marked(777, 6) * np.float32(0.25), RATE).samples[:, 0]
    audio = WallClockAudio(ctx)
    play_left(ctx, "bed", loop=True)
    play_left(ctx, "line")
    for frame in range(360):
        hitch = frame == 60
        esper.process(1.5 if hitch else 1 / 60)
        audio.pull(int(1.5 * RATE) if hitch else TICK_FRAMES)
    out = audio.audio[:, 0]
    loop = np.tile(bed, out.shape[0] // bed.shape[0] + 1)[: out.shape[0]]
    assert np.array_equal(out, loop + placed(out.shape[0], (0, line)))
    plugin.uninstall()


class Flaky(esper.Processor):
    """A game processor that raises in every other frame (before the plugin's)."""

    def __init__(self) -> None:
        super().__init__()
        self.frames = 0

    def process(self, *args, **kwargs) -> None:
        self.frames += 1
        if self.frames % 2 == 0:
            raise RuntimeError("game bug")


def test_no_replay_when_the_game_raises_in_half_its_frames():
    plugin = offline()
    ctx = plugin.context
    esper.add_processor(Flaky(), priority=10_000)
    shot = ctx.sounds.add("shot", marked(9_600, 7), RATE).samples[:, 0]
    audio = WallClockAudio(ctx)
    play_left(ctx, "shot")
    raised = 0
    for _ in range(60):
        try:
            esper.process(1 / 60)
        except RuntimeError:
            raised += 1
        audio.pull(TICK_FRAMES)
    assert raised == 30 and ctx.clock.tick == 30
    out = audio.audio[:, 0]
    assert np.array_equal(out, placed(out.shape[0], (0, shot)))
    plugin.uninstall()


def test_retail_stop_cuts_at_the_next_block_and_modern_fades_over_it():
    plugin = offline()
    ctx = plugin.context
    tone = ctx.sounds.add("tone", np.ones(RATE, dtype=np.float32) * 0.5, RATE)
    ac = ctx.channels["ac"]
    retail = ac.acquire()
    ac.play(retail, "tone", volume=0, pan=0, loop=True)
    modern = play_left(ctx, "tone", loop=True)
    for frame in range(6):
        if frame == 3:
            ac.stop(retail)
            ctx.channels["modern"].stop(modern)
        esper.process(1 / 60)
    out = ctx.mixer.backend.audio()
    cut = 3 * TICK_FRAMES
    gain = ac.channels[retail.slot].gain_right
    assert gain > 0.9 and np.allclose(out[:cut, 1], 0.5 * gain)  # ac only on the right
    assert not out[cut:, 1].any()  # retail: silent from the next block on
    fade = out[cut : cut + TICK_FRAMES, 0] - out[cut : cut + TICK_FRAMES, 1]
    assert np.all(np.diff(fade) < 0) and fade[0] > 0.49 and fade[-1] == 0.0
    assert not out[cut + TICK_FRAMES :].any()
    assert tone.frames == RATE
    plugin.uninstall()


def test_steal_cuts_the_old_sound_where_the_new_one_starts():
    plugin = offline()
    ctx = plugin.context
    oni = ensure_bank(ctx, "oni", count=1, policy="oni", profile="oni")
    ctx.sounds.add("low", np.full(RATE, 0.25, dtype=np.float32), RATE)
    ctx.sounds.add("high", np.full(RATE, -0.5, dtype=np.float32), RATE)
    oni.play(oni.acquire(kind=ChannelKind.MONO, priority=1), "low", volume=1.0, loop=True)
    for frame in range(5):
        if frame == 2:
            taken = oni.acquire(kind=ChannelKind.MONO, priority=3, sound="high")
            assert oni.play(taken, "high", volume=1.0)
        esper.process(1 / 60)
    out = ctx.mixer.backend.audio()[:, 0]
    cut = 2 * TICK_FRAMES
    assert np.all(out[:cut] > 0) and np.all(out[cut:] < 0)  # nothing of "low" after the cut
    assert len(ctx.events.where(event="steal")) == 1
    plugin.uninstall()


def test_commands_only_for_what_changed():
    """A start is one command; unchanged voices send nothing; a change is one ``set``;
    a voice culled at its start sends nothing, a culled voice one ``stop`` and nothing
    while it stays culled, a restored one a ``start`` under a new id (issue 18); a voice
    started and stopped between two publishes sends nothing at all; ids are never
    reused."""
    plugin = SoundscapePlugin(Settings(backend="none", features=("audio",))).install()
    ctx = plugin.context
    ctx.sounds.add("a", np.ones(RATE, dtype=np.float32), RATE)
    bank = ensure_bank(ctx, "few", count=0, policy="virtual", profile="modern", real_voices=1)

    def tick():
        ctx.clock.step(1)
        bank.step(1, ctx.sounds)
        out = collect_commands(ctx, 1)
        for b in ctx.channels.values():
            b.mark_published()
        return [(c.op, c.voice) for c in out]

    loud = bank.acquire()
    bank.play(loud, "a", volume=1.0, loop=True)
    assert tick() == [(START, 1)]
    assert tick() == []
    quiet = bank.acquire()
    bank.play(quiet, "a", volume=0.1, loop=True)
    assert tick() == []  # voice 2, culled at its start: it keeps time on the game side only
    bank.set_volume(quiet, 0.2)
    assert tick() == []  # culled: nothing
    bank.set_volume(loud, 0.5)
    assert tick() == [(SET, 1)]
    bank.set_volume(quiet, 0.9)
    assert tick() == [(STOP, 1), (START, 3)]  # loud culled, quiet restored as voice 3
    gone = bank.acquire()
    bank.play(gone, "a", volume=0.0)
    bank.stop(gone)
    bank.stop(quiet)
    assert tick() == [(STOP, 3), (START, 5)]  # and loud is back as voice 5 (4: never sent)
    again = bank.acquire()
    bank.play(again, "a", volume=1.0)
    assert tick() == [(START, 6), (STOP, 5)]  # louder than loud, which is culled again
    plugin.uninstall()
