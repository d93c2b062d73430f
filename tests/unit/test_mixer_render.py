"""The mixer against a plain reference: gains, resampling, cursors, loops, ramps, cuts,
and the command stream's rules (a finished voice is never started again)."""

from __future__ import annotations

import numpy as np
import pytest

from soundscape.audio.commands import VoiceParams
from soundscape.audio.mixer import Mixer
from soundscape.audio.profiles import miles_factors
from soundscape.audio.sounds import SoundBank
from soundscape.laws.redguard import miles_mix

RATE = 48_000
POS_TOL = 1e-4
"""Positions inside a block are float32 offsets from a float64 cursor: at most
~1e-4 frame off at the end of a 1024-frame block, so samples agree to 1e-4."""


def sound(name: str, frames: np.ndarray, rate: int = RATE, **kw):
    return SoundBank().add(name, frames, rate, **kw)


def params(gl=1.0, gr=1.0, step=1.0, loop=False, ramp=False, paused=False, audible=True,
           miles=None) -> VoiceParams:
    return VoiceParams(gl, gr, step, loop, paused, audible, ramp, miles)


def start(mixer: Mixer, snd, key=1, frame=0.0, **kw) -> None:
    mixer.start(key, snd, params(**kw), frame=frame)


def reference(samples: np.ndarray, step: float, frames: int, start: float = 0.0,
              loop: bool = False) -> np.ndarray:
    """Linear interpolation at start + step k; silence outside a non-looping sound."""
    n = samples.shape[0]
    pos = start + step * np.arange(frames, dtype=np.float64)
    i0 = np.floor(pos).astype(np.int64)
    frac = pos - i0

    def at(i):
        if loop:
            return np.where(i >= 0, samples[np.mod(i, n)], 0.0)
        ok = (i >= 0) & (i < n)
        return np.where(ok, samples[np.clip(i, 0, n - 1)], 0.0)

    return at(i0) * (1 - frac) + at(i0 + 1) * frac


NOISE = np.sin(np.arange(5000) * 0.37).astype(np.float32) * 0.5


def test_own_rate_is_an_exact_copy_with_side_gains():
    mixer = Mixer(RATE, 1024)
    start(mixer, sound("n", NOISE), gl=0.5, gr=0.25)
    out = mixer.render(1024)
    assert np.array_equal(out[:, 0], NOISE[:1024] * np.float32(0.5))
    assert np.array_equal(out[:, 1], NOISE[:1024] * np.float32(0.25))


def test_stereo_sound_keeps_its_sides():
    stereo = np.stack([NOISE, -NOISE * 0.5], axis=1)
    mixer = Mixer(RATE, 512)
    start(mixer, sound("s", stereo), gl=1.0, gr=1.0, step=0.75)
    out = mixer.render(2048)
    assert np.allclose(out[:, 0], reference(NOISE, 0.75, 2048), atol=POS_TOL)
    assert np.allclose(out[:, 1], reference(-NOISE * 0.5, 0.75, 2048), atol=POS_TOL)


@pytest.mark.parametrize("step", [0.459375, 0.5, 1.37, 2.0])
def test_resampling_is_linear_interpolation(step):
    mixer = Mixer(RATE, 1024)
    start(mixer, sound("n", NOISE), step=step)
    out = mixer.render(3000)
    assert np.allclose(out[:, 0], reference(NOISE, step, 3000), atol=POS_TOL)


def test_fractional_cursor_carries_across_blocks():
    whole, parts = Mixer(RATE, 1024), Mixer(RATE, 1024)
    for m in (whole, parts):
        start(m, sound("n", NOISE), step=0.6137)
    a = whole.render(2000).copy()
    b = np.concatenate([parts.render(n).copy() for n in (1, 299, 700, 1000)])
    assert np.allclose(a, b, atol=POS_TOL)


@pytest.mark.parametrize("step", [1.0, 0.7])
def test_loop_has_no_gap(step):
    short = NOISE[:100]
    mixer = Mixer(RATE, 256)
    start(mixer, sound("l", short), loop=True, step=step)
    out = mixer.render(1500)
    assert np.allclose(out[:, 0], reference(short, step, 1500, loop=True), atol=POS_TOL)
    if step == 1.0:
        assert np.array_equal(out[:, 0], np.tile(short, 15))


def test_sound_ends_with_silence_and_the_voice_is_dropped():
    mixer = Mixer(RATE, 256)
    start(mixer, sound("n", NOISE[:300]))
    out = mixer.render(1024)
    assert np.array_equal(out[:300, 0], NOISE[:300]) and not out[300:].any()
    mixer.render(256)
    assert mixer.voice_count == 0


def test_delayed_start_at_its_frame():
    mixer = Mixer(RATE, 512)
    start(mixer, sound("n", NOISE), frame=100.0)
    out = mixer.render(512)
    assert not out[:100].any()
    assert np.array_equal(out[100:, 0], NOISE[: 512 - 100])


def test_modern_profile_ramps_gain_changes_across_one_block():
    snd = sound("one", np.ones(10_000, dtype=np.float32))
    mixer = Mixer(RATE, 100)
    start(mixer, snd, gl=0.2, gr=0.2, ramp=True)
    mixer.render(100)
    mixer.set(1, params(gl=1.0, gr=0.2, ramp=True))
    out = mixer.render(100)
    expected = 0.2 + 0.8 * np.arange(1, 101) / 100
    assert np.allclose(out[:, 0], expected, atol=1e-6)
    assert np.abs(np.diff(out[:, 0])).max() < 0.01  # no click
    assert np.allclose(mixer.render(100)[:, 0], 1.0)


def test_ramp_with_mono_and_stereo_voices_moves_each_side():
    ones = np.ones(10_000, dtype=np.float32)
    mono, stereo = sound("m", ones), sound("s", np.stack([ones, -ones], axis=1))
    mixer = Mixer(RATE, 100)
    start(mixer, mono, key=1, gl=0.5, gr=0.5, ramp=True)
    start(mixer, stereo, key=2, gl=0.25, gr=0.25, ramp=True)
    mixer.render(100)
    mixer.set(1, params(gl=0.5, gr=0.1, ramp=True))
    mixer.set(2, params(gl=0.25, gr=0.75, ramp=True))
    out = mixer.render(100)
    ramp = np.arange(1, 101) / 100
    assert np.allclose(out[:, 0], 0.75, atol=1e-6)  # no left gain moved
    # right: mono 0.5 -> 0.1 of +1, stereo 0.25 -> 0.75 of -1
    assert np.allclose(out[:, 1], (0.5 - 0.4 * ramp) - (0.25 + 0.5 * ramp), atol=1e-6)
    assert np.allclose(mixer.render(100)[:, 1], 0.1 - 0.75, atol=1e-6)


def test_retail_profiles_jump_at_the_block_boundary():
    snd = sound("one", np.ones(10_000, dtype=np.float32))
    mixer = Mixer(RATE, 100)
    start(mixer, snd, gl=0.2, gr=0.2)
    mixer.render(100)
    mixer.set(1, params(gl=1.0, gr=0.2))
    assert np.array_equal(mixer.render(100)[:, 0], np.ones(100, dtype=np.float32))


def test_cut_silences_retail_at_once_and_modern_over_a_block():
    snd = sound("one", np.ones(10_000, dtype=np.float32))
    retail, modern = Mixer(RATE, 100), Mixer(RATE, 100)
    start(retail, snd)
    start(modern, snd, ramp=True)
    retail.render(100)
    modern.render(100)
    retail.stop(1)
    modern.stop(1)
    assert not retail.render(100).any()
    fade = modern.render(100)[:, 0]
    assert fade[0] > 0.95 and fade[-1] == 0.0 and np.all(np.diff(fade) < 0)
    assert not modern.render(100).any()


def test_a_voice_plays_to_its_end_whatever_the_game_side_sends():
    """The audio side owns its cursors: no stop, it plays out; a set for a voice it
    has finished (a game side that is behind) never starts it again."""
    mixer = Mixer(RATE, 256)
    start(mixer, sound("n", NOISE[:400]))
    mixer.render(256)
    mixer.set(1, params(gl=1.0))  # the game side still thinks it plays
    out = mixer.render(256)
    assert np.array_equal(out[:144, 0], NOISE[256:400]) and not out[144:].any()
    mixer.set(1, params(gl=1.0))
    assert not mixer.render(1024).any() and mixer.voice_count == 0


def test_a_voice_started_and_cut_in_one_block_is_never_heard():
    mixer = Mixer(RATE, 256)
    start(mixer, sound("n", NOISE))
    mixer.stop(1)
    assert not mixer.render(256).any()


def test_paused_and_virtual_voices_are_silent():
    snd = sound("n", NOISE)
    mixer = Mixer(RATE, 256)
    start(mixer, snd, key=1, paused=True)
    start(mixer, snd, key=2, audible=False)
    assert not mixer.render(256).any()
    mixer.set(1, params())
    mixer.set(2, params())
    out = mixer.render(256)[:, 0]
    # the paused voice resumes where it was (0); the virtual one went on (256 frames)
    assert np.allclose(out, NOISE[:256] + NOISE[256:512], atol=1e-6)


@pytest.mark.parametrize("bits", [16, 8])
def test_redguard_voices_take_the_miles_integer_path(bits):
    rng = np.random.default_rng(3)
    bank = SoundBank()
    if bits == 16:
        pcm = rng.integers(-30000, 30000, (2000, 1)).astype(np.int16)
        snd = bank.add("rg", pcm.astype(np.float32) / 32768, 22050, pcm=pcm)
    else:
        pcm = rng.integers(0, 256, (2000, 1)).astype(np.uint8)
        snd = bank.add("rg", (pcm.astype(np.float32) - 128) / 128, 22050, pcm=pcm)
    stereo_pcm = rng.integers(-30000, 30000, (2000, 2)).astype(np.int16)
    st = bank.add("st", stereo_pcm.astype(np.float32) / 32768, 22050, pcm=stereo_pcm)
    mixer = Mixer(22050, 512)
    start(mixer, snd, key=1, miles=miles_factors(100, 96, bits))
    start(mixer, st, key=2, miles=miles_factors(77, 20, 16))
    out = mixer.render(1500)
    expected = miles_mix(pcm[:1500, 0], 100, 96, bits) + miles_mix(stereo_pcm[:1500], 77, 20, 16)
    got = np.round(out.astype(np.float64) * 32768).astype(np.int64)
    assert np.array_equal(got, expected)


def test_redguard_resampled_voice_floors_interpolated_pcm():
    pcm = (np.arange(-1000, 1000, dtype=np.int16) * 7)[:, None].astype(np.int16)
    snd = SoundBank().add("rg", pcm.astype(np.float32) / 32768, 11025, pcm=pcm)
    mixer = Mixer(22050, 256)
    start(mixer, snd, step=0.5, miles=miles_factors(127, 64, 16))
    got = np.round(mixer.render(800).astype(np.float64) * 32768).astype(np.int64)[:, 0]
    interp = np.floor(reference(pcm[:, 0].astype(np.float64), 0.5, 800)).astype(np.int64)
    assert np.array_equal(got, (interp * 128) >> 7)


def test_blocks_reuse_their_buffers():
    """After warm-up a block allocates no (voices x frames) array.

    What remains is per-voice vectors and numpy's transient iterator buffer for
    broadcast operands (8192 elements, 64 KiB for int64), freed at once.
    """
    import tracemalloc

    bank = SoundBank()
    pcm = (np.arange(40_000) % 200 - 100).astype(np.int16)[:, None]
    rg = bank.add("rg", pcm.astype(np.float32) / 32768, 22050, pcm=pcm)
    mixer = Mixer(RATE, 1024)
    for i in range(40):
        start(mixer, bank.add(f"s{i}", NOISE * (1 + i % 3), RATE), key=i,
              step=0.5 + 0.25 * (i % 3), loop=True, ramp=i % 2 == 0)
    start(mixer, rg, key=99, step=0.46, loop=True, miles=miles_factors(90, 40, 16))
    for _ in range(5):
        mixer.render(1024)
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        for _ in range(20):
            mixer.render(1024)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert peak < 100 * 1024  # one (41 voices x 1024) float32 matrix would be 164 KiB


def test_float_voices_sum_in_row_order_without_blas():
    """Every output sample is sum_i(g_i x s_i) in float32, voice after voice: the
    bytes cannot depend on a BLAS kernel's order or fused multiply-adds."""
    rng = np.random.default_rng(5)
    mixer = Mixer(RATE, 256)
    sides = []
    for key in range(12):
        stereo = key % 3 == 0
        shape = (4000, 2) if stereo else (4000,)
        frames = (rng.standard_normal(shape) * 0.3).astype(np.float32)
        gl, gr = (float(np.float32(x)) for x in rng.uniform(0.05, 1.0, 2))
        start(mixer, sound(f"v{key}", frames), key=key, gl=gl, gr=gr, loop=True)
        left = frames[:, 0] if stereo else frames
        right = frames[:, 1] if stereo else frames
        sides.append((np.float32(gl), np.float32(gr), left, right, stereo))
    out = mixer.render(256).copy()
    # the mixer's row order: own-rate mono rows, then own-rate stereo rows; the
    # stereo rows' right sides are one more row-order sum, added last
    order = [s for s in sides if not s[4]] + [s for s in sides if s[4]]
    left = np.zeros(256, dtype=np.float32)
    right = np.zeros(256, dtype=np.float32)
    stereo_right = np.zeros(256, dtype=np.float32)
    for gl, gr, sl, sr, stereo in order:
        left = left + gl * sl[:256]
        if stereo:
            stereo_right = stereo_right + gr * sr[:256]
        else:
            right = right + gr * sl[:256]
    right = right + stereo_right
    assert np.array_equal(out[:, 0], left) and np.array_equal(out[:, 1], right)


def test_audio_thread_renders_while_the_game_thread_publishes():
    """The audio side applies whatever commands are queued at a block's start, never waits
    and never sees half of one: every block has one gain throughout."""
    import threading

    snd = sound("one", np.ones(10_000, dtype=np.float32))
    mixer = Mixer(RATE, 256)
    start(mixer, snd, gl=0.25, gr=0.25, loop=True)
    gains: list[float] = []
    errors: list[BaseException] = []

    def audio() -> None:
        try:
            for _ in range(300):
                block = mixer.render(256)
                if not np.all(block == block[0, 0]):
                    gains.append(float("nan"))
                gains.append(float(block[0, 0]))
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    worker = threading.Thread(target=audio)
    worker.start()
    for i in range(300):
        gain = 0.5 if i % 2 else 0.25
        mixer.set(1, params(gl=gain, gr=gain, loop=True))
    worker.join(timeout=30)
    assert not worker.is_alive() and not errors
    assert len(gains) == 300 and set(gains) <= {0.25, 0.5}


class ReferenceMixer:
    """A plain per-voice mixer in float64: what the command stream should sound like."""

    def __init__(self) -> None:
        self.voices: dict[int, dict] = {}
        self.fading: list[dict] = []

    def start(self, key, snd, p: VoiceParams) -> None:
        self.voices[key] = {"x": snd.samples.astype(np.float64), "pos": 0.0, "p": p,
                            "g0": (p.gain_left, p.gain_right), "new": True}

    def set(self, key, p: VoiceParams) -> None:
        v = self.voices.get(key)
        if v is not None:
            v["p"] = p
            if not p.ramp or v["new"]:
                v["g0"] = (p.gain_left, p.gain_right)

    def stop(self, key) -> None:
        v = self.voices.pop(key, None)
        if v is not None and v["p"].ramp and not v["new"]:
            self.fading.append(v)

    @staticmethod
    def samples(v, n):
        x, p = v["x"], v["p"]
        sides = [reference(x[:, c], p.step, n, v["pos"], p.loop) for c in range(x.shape[1])]
        return sides[0], sides[-1]

    def render(self, n: int) -> np.ndarray:
        out = np.zeros((n, 2))
        ramp = np.arange(1, n + 1) / n
        for v in self.fading:
            left, right = self.samples(v, n)
            out[:, 0] += left * v["g0"][0] * (1 - ramp)
            out[:, 1] += right * v["g0"][1] * (1 - ramp)
        self.fading = []
        for key, v in list(self.voices.items()):
            p = v["p"]
            left, right = self.samples(v, n)
            gl = v["g0"][0] + (p.gain_left - v["g0"][0]) * ramp
            gr = v["g0"][1] + (p.gain_right - v["g0"][1]) * ramp
            out[:, 0] += left * gl
            out[:, 1] += right * gr
            v["g0"], v["new"] = (p.gain_left, p.gain_right), False
            v["pos"] += p.step * n
            length = v["x"].shape[0]
            if p.loop:
                v["pos"] %= length
            elif v["pos"] >= length:
                del self.voices[key]
        return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_commands_sound_like_a_plain_per_voice_mix(seed):
    """Starts, stops, gain and pitch changes, one-shots ending, modern fades, blocks
    whose only commands are gain changes (written into the rows in place): the
    mixer against a per-voice float64 reference."""
    rng = np.random.default_rng(seed)
    sounds = []
    for i in range(6):
        frames = rng.uniform(-0.5, 0.5, (int(rng.integers(200, 3000)), 1 + i % 2))
        sounds.append(sound(f"r{i}", frames.astype(np.float32)))
    mixer, ref = Mixer(RATE, 256), ReferenceMixer()
    live: dict[int, VoiceParams] = {}
    next_key = 1
    for _block in range(120):
        for _ in range(int(rng.integers(0, 4))):
            action = rng.integers(0, 4)
            if action == 0 or not live:
                p = params(gl=float(rng.uniform(0, 1)), gr=float(rng.uniform(0, 1)),
                           step=float(rng.choice([1.0, 0.5, 0.77])), loop=bool(rng.integers(0, 2)),
                           ramp=bool(rng.integers(0, 2)))
                snd = sounds[int(rng.integers(0, len(sounds)))]
                mixer.start(next_key, snd, p)
                ref.start(next_key, snd, p)
                live[next_key] = p
                next_key += 1
            elif action == 1:
                key = int(rng.choice(list(live)))
                mixer.stop(key)
                ref.stop(key)
                del live[key]
            else:
                key = int(rng.choice(list(live)))
                p = live[key]._replace(gain_left=float(rng.uniform(0, 1)),
                                       gain_right=float(rng.uniform(0, 1)))
                if action == 3 and rng.integers(0, 4) == 0:
                    p = p._replace(step=float(rng.choice([1.0, 0.6])))
                mixer.set(key, p)
                ref.set(key, p)
                live[key] = p
        got = mixer.render(256).astype(np.float64)
        assert np.allclose(got, ref.render(256), atol=2e-4), _block


def test_gain_changes_alone_are_written_in_place_and_ramp_block_after_block():
    """A game moving its voices: only gain ``set``s, every block. The rows are not laid
    out again, and each modern change ramps from where the last one ended."""
    snd = sound("one", np.ones(10_000, dtype=np.float32))
    mixer = Mixer(RATE, 100)
    start(mixer, snd, key=1, gl=0.2, gr=0.2, ramp=True, loop=True)
    start(mixer, snd, key=2, gl=0.1, gr=0.1, loop=True)
    mixer.render(100)
    rows = mixer._voices
    ramp = np.arange(1, 101) / 100
    for before, after in ((0.2, 0.6), (0.6, 0.3), (0.3, 0.3)):
        mixer.set(1, params(gl=after, gr=after, ramp=True, loop=True))
        mixer.set(2, params(gl=0.5, gr=0.5, loop=True))  # retail: at once
        out = mixer.render(100)[:, 0]
        assert mixer._voices is rows  # no layout
        assert np.allclose(out, before + (after - before) * ramp + 0.5, atol=1e-6)


def test_a_retriggered_voice_takes_the_cut_voices_row_without_a_layout():
    """A stop and a start of the same row kind in one block (a retriggered one-shot),
    among gain changes: the new voice takes the cut one's row in place (no sort, no
    layout) and sounds as if laid out; a later layout carries on from there."""
    snd = sound("n", NOISE)
    mixer = Mixer(RATE, 256)
    start(mixer, snd, key=1, gl=0.5, gr=0.5, loop=True)
    start(mixer, snd, key=2, gl=0.25, gr=0.25, step=0.5, loop=True)
    mixer.render(256)
    kinds = mixer._rows.kinds
    mixer.set(2, params(gl=0.3, gr=0.3, step=0.5, loop=True))
    mixer.stop(1)
    start(mixer, snd, key=3, gl=1.0, gr=0.5)
    out = mixer.render(256)
    assert mixer._rows.kinds is kinds and mixer.voice_count == 2  # the row was reused
    other = 0.3 * reference(NOISE, 0.5, 256, start=128.0, loop=True)
    assert np.allclose(out[:, 0], NOISE[:256] + other, atol=1e-6)
    assert np.allclose(out[:, 1], 0.5 * NOISE[:256] + other, atol=1e-6)
    mixer.stop(2)  # not taken by a start: laid out again
    out = mixer.render(256)
    assert mixer.voice_count == 1 and np.allclose(out[:, 0], NOISE[256:512], atol=1e-6)


def test_blocks_of_any_length_fill_contiguous_rows_with_the_same_bytes(monkeypatch):
    """``Rows.shape_for`` views the block buffers as (rows, n) for a block of n frames:
    blocks of changing lengths (a render longer than ``block_frames`` split, ticks of
    367 and 368 frames) give the bytes that full-width rows give, with own-rate,
    resampled, stereo, ramped, low-passed and Miles rows, a step moving every block."""
    from soundscape.audio.mixer_rows import Rows

    rng = np.random.default_rng(2)
    bank = SoundBank()
    pcm = (np.arange(30_000) % 300 - 150).astype(np.int16)[:, None]
    rg = bank.add("rg", pcm.astype(np.float32) / 32768, 22050, pcm=pcm)
    sounds = [bank.add(f"s{i}", rng.uniform(-0.5, 0.5, (20_000, 1 + i % 2)).astype(np.float32),
                       RATE) for i in range(4)]
    shape_for, widths = Rows.shape_for, set()

    def full_width(rows: Rows, n: int) -> None:
        shape_for(rows, rows.block_frames)

    outs = []
    for wide in (False, True):
        if wide:
            monkeypatch.setattr(Rows, "shape_for", full_width)
        mixer = Mixer(RATE, 512)
        for key in range(8):
            mixer.start(key, sounds[key % 4], VoiceParams(
                0.3, 0.2, [1.0, 0.75, 1.3][key % 3], loop=True, ramp=key % 2 == 0,
                lowpass_hz=2000.0 if key == 5 else 0.0))
        mixer.start(99, rg, params(step=0.46, loop=True, miles=miles_factors(90, 40, 16)))
        blocks = []
        for block, frames in enumerate([367, 368, 1200, 512, 100, 367, 368]):
            mixer.set(1, VoiceParams(0.1 * block, 0.3, 0.75 + 0.01 * block, loop=True))
            blocks.append(mixer.render(frames).tobytes())
            widths.add((wide, mixer._rows.sl.shape[1]))
        outs.append(blocks)
    assert outs[0] == outs[1]
    assert widths == {(False, 367), (False, 368), (False, 176), (False, 512), (False, 100),
                      (True, 512)}


def _read_frames_everywhere(data, src, cur_i, cur_f, step, ar, left, right):
    """``mixer_rows.read_frames`` without its shortcut for a loop past its start: every
    frame masked and wrapped (or clipped) one by one, the reference of its bytes."""
    pos = float(cur_i) + (cur_f + step * ar)
    i0 = np.floor(pos)
    frac = (pos - i0).astype(np.float32)
    i0 = i0.astype(np.int64)
    i1 = i0 + 1
    ok0, ok1 = i0 >= 0, i1 >= 0
    if src.loop:
        j0, j1 = i0 % src.length, i1 % src.length
    else:
        ok0 &= i0 < src.length
        ok1 &= i1 < src.length
        j0, j1 = np.clip(i0, 0, src.length - 1), np.clip(i1, 0, src.length - 1)
    for dst, delta in ((left, 0), (right, src.delta)):
        if dst is not None:
            x0 = np.where(ok0, data[src.left + delta + j0], np.float32(0.0))
            x1 = np.where(ok1, data[src.left + delta + j1], np.float32(0.0))
            dst[:] = x0 + frac * (x1 - x0)


def test_rows_read_frame_by_frame_give_the_bytes_of_masking_every_frame():
    """A row near its end, a loop point or a delayed start is read frame by frame
    (``read_frames``); a loop already past its start skips the masks and wraps each
    side in its own cycle: the same bytes as masking and wrapping every frame, for
    loops and one-shots, mono and stereo, short and long, before and after their start."""
    from soundscape.audio.mixer_rows import Source, read_frames

    rng = np.random.default_rng(8)
    data = rng.uniform(-1.0, 1.0, 12_000).astype(np.float32)
    ar = np.arange(700, dtype=np.int64)
    for _ in range(600):
        length, stereo = int(rng.integers(3, 2500)), bool(rng.integers(0, 2))
        src = Source(int(rng.integers(0, 4000)), length + 4 if stereo else 0, length, stereo,
                     bool(rng.integers(0, 3)))
        cur_i, cur_f = int(rng.integers(-800, length + 3)), float(rng.random())
        step = float(rng.choice([1.0, 0.5, rng.uniform(0.05, 4.0)]))
        n = int(rng.integers(1, 700))
        outs = []
        for read in (read_frames, _read_frames_everywhere):
            sides = [np.full(n, 9.0, np.float32), np.full(n, 9.0, np.float32) if stereo else None]
            read(data, src, cur_i, cur_f, step, ar[:n], *sides)
            outs.append([side.tobytes() for side in sides if side is not None])
        assert outs[0] == outs[1], (src, cur_i, cur_f, step, n)


def test_cursors_move_on_by_floor_to_the_bit():
    """``Rows.advance`` splits each cursor with one ``np.divmod`` by 1: the whole and
    fractional frames that ``floor(pos)`` and ``pos - floor(pos)`` give, bit for bit,
    block after block, for steps small, large and odd."""
    rng = np.random.default_rng(12)
    mixer = Mixer(RATE, 300)
    steps = [float(s) for s in rng.uniform(0.01, 7.0, 9)] + [1.0, 0.5]
    for key, step in enumerate(steps):
        start(mixer, sound(f"c{key}", NOISE), key=key, step=step, loop=True)
    mixer.render(300)
    rows = mixer._rows
    cur_i, cur_f = rows.cur_i.copy(), rows.cur_f.copy()
    for n in (300, 17, 299, 300, 1):
        mixer.render(n)
        pos = cur_f + rows.step * n
        whole = np.floor(pos)
        cur_f, cur_i = pos - whole, cur_i + whole.astype(np.int64)
        cur_i = np.where(rows.loop & (cur_i >= rows.length), cur_i % rows.length, cur_i)
        assert np.array_equal(rows.cur_f.view(np.int64), cur_f.view(np.int64))
        assert np.array_equal(rows.cur_i, cur_i)
