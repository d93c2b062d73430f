"""The mixer's in-place path (``mixer_inplace``): a block's gain changes written into the
rows, a retriggered sound taking the cut voice's row, a cut ``modern`` voice fading out
beside the rows, against the plain per-voice reference and exact numbers."""

from __future__ import annotations

import numpy as np
import pytest
from test_mixer_render import NOISE, RATE, ReferenceMixer, params, sound, start

from soundscape.audio import commands as cmd
from soundscape.audio import mixer as mixer_module
from soundscape.audio import mixer_inplace, mixer_sum
from soundscape.audio.mixer import Mixer
from soundscape.audio.mixer_sum import gain_buffers, gain_matrices, stereo_runs, weigh_all

ONES = np.ones(10_000, dtype=np.float32)


def layouts(mixer: Mixer) -> list[int]:
    """Count the mixer's layouts from now on (one entry a layout)."""
    seen: list[int] = []
    lay = mixer._layout

    def counted() -> None:
        seen.append(1)
        lay()

    mixer._layout = counted  # type: ignore[method-assign]
    return seen


def test_a_retriggered_modern_voice_fades_out_beside_the_rows():
    """A stop and a start of a modern voice in one block: the new voice takes the cut
    one's row (no layout), the cut one falls to 0 across the block, (n - 1 - k) / n."""
    one, other = sound("one", ONES), sound("other", ONES * np.float32(0.125))
    mixer = Mixer(RATE, 100)
    start(mixer, one, key=1, gl=0.5, gr=0.25, ramp=True, loop=True)
    start(mixer, other, key=2, gl=1.0, gr=1.0, ramp=True, loop=True)
    mixer.render(100)
    count, kinds = layouts(mixer), mixer._rows.kinds
    mixer.stop(1)
    start(mixer, one, key=3, gl=0.75, gr=0.75, ramp=True, loop=True)
    out = mixer.render(100)
    assert not count and mixer._rows.kinds is kinds and mixer.voice_count == 2
    fall = np.arange(99, -1, -1) / 100
    assert np.allclose(out[:, 0], 0.5 * fall + 0.75 + 0.125, atol=1e-6)
    assert np.allclose(out[:, 1], 0.25 * fall + 0.75 + 0.125, atol=1e-6)
    assert np.allclose(mixer.render(100), 0.875, atol=1e-6)
    assert not count


@pytest.mark.parametrize("step", [1.0, 0.5, 0.77])
def test_a_cut_modern_voice_fades_from_where_its_row_was(step):
    """The tail reads the cut voice's samples from its row's cursor (resampled or not,
    stereo), as its row would have: against the per-voice reference."""
    stereo = np.stack([NOISE, NOISE[::-1]], axis=1).copy()
    snd = sound("st", stereo)
    mixer, ref = Mixer(RATE, 256), ReferenceMixer()
    for key, p in ((1, params(gl=0.5, gr=0.8, step=step, ramp=True, loop=True)),
                   (2, params(gl=0.3, gr=0.1, step=step, ramp=True, loop=True))):
        mixer.start(key, snd, p)
        ref.start(key, snd, p)
    for _ in range(3):
        assert np.allclose(mixer.render(256), ref.render(256), atol=2e-4)
    count = layouts(mixer)
    p = params(gl=0.9, gr=0.2, step=step, ramp=True, loop=True)
    for mix in (mixer, ref):
        mix.stop(1)
        mix.start(3, snd, p)
        mix.set(2, params(gl=0.6, gr=0.6, step=step, ramp=True, loop=True))
    assert np.allclose(mixer.render(256), ref.render(256), atol=2e-4)
    assert np.allclose(mixer.render(256), ref.render(256), atol=2e-4)
    assert not count


def test_a_short_sound_in_a_long_ones_row_ends_on_time():
    """A retriggered row gets the new voice's frames to its end counted again: a
    300-frame one-shot in the row of a long loop ends at frame 300, whole."""
    short = sound("short", NOISE[:300])
    mixer = Mixer(RATE, 256)
    start(mixer, sound("long", NOISE), key=1, loop=True)
    start(mixer, sound("pad", NOISE * 0), key=2, loop=True)
    mixer.render(256)
    count = layouts(mixer)
    mixer.stop(1)
    start(mixer, short, key=3)
    out = np.concatenate([mixer.render(256).copy(), mixer.render(256).copy()])[:, 0]
    assert not count
    assert np.array_equal(out[:300], NOISE[:300]) and not out[300:].any()


def test_a_cut_voice_with_a_lowpass_or_a_moving_bus_is_laid_out_again():
    """A cut modern voice that more than its side gains shape (here a low-pass, or a bus
    gain that moves in this block) is not a tail: the rows are laid out again and it
    fades in its row as before."""
    snd = sound("one", ONES)
    for cut, extra in ((params(ramp=True, loop=True)._replace(lowpass_hz=2000.0), []),
                       (params(ramp=True, loop=True), [cmd.bus_gains((0.5,))])):
        mixer = Mixer(RATE, 100)
        mixer.start(1, snd, cut)
        start(mixer, snd, key=2, ramp=True, loop=True)
        mixer.render(100)
        count = layouts(mixer)
        mixer.send([*extra, cmd.stop(1), cmd.start(3, snd, params(ramp=True, loop=True))])
        fade = mixer.render(100)[:, 0]
        assert count and mixer.voice_count == 3  # laid out: the cut voice has its row
        assert fade[0] > fade[-1]


def test_a_tail_on_a_steady_bus_fades_from_its_bus_gain():
    snd = sound("one", ONES)
    mixer = Mixer(RATE, 100)
    mixer.send([cmd.bus_gains((0.5,))])
    start(mixer, snd, key=1, ramp=True, loop=True)
    start(mixer, snd, key=2, gl=0.0, gr=0.0, ramp=True, loop=True)
    mixer.render(100)
    mixer.render(100)  # the bus gain reached
    count = layouts(mixer)
    mixer.send([cmd.stop(1), cmd.start(3, snd, params(gl=0.0, gr=0.0, ramp=True, loop=True))])
    out = mixer.render(100)[:, 0]
    assert not count
    assert np.allclose(out, 0.5 * np.arange(99, -1, -1) / 100, atol=1e-6)


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_gain_changes_every_block_and_retriggers_sound_like_the_reference(seed):
    """What a game sends: a ``set`` for every voice each block (retail jumps, modern
    ramps, now and then a resampled row's new step) and a retriggered voice in most
    blocks (sounds of other lengths, one-shots reaching their end), set in its cut
    one's place or last: the mixer against the per-voice float64 reference, and no
    layout after the first block."""
    rng = np.random.default_rng(seed)
    sounds = [sound(f"s{i}", rng.uniform(-0.5, 0.5, (int(rng.integers(300, 4000)), 1 + i % 2))
                    .astype(np.float32)) for i in range(6)]
    mixer, ref = Mixer(RATE, 256), ReferenceMixer()
    table = {}
    for key in range(1, 13):
        snd = sounds[key % len(sounds)]
        p = params(gl=0.5, gr=0.5, step=[1.0, 0.5, 0.77][key % 3], loop=key % 4 != 0,
                   ramp=key % 2 == 0)
        table[key] = (snd, p)
        mixer.start(key, snd, p)
        ref.start(key, snd, p)
    assert np.allclose(mixer.render(256), ref.render(256), atol=2e-4)
    count = layouts(mixer)
    next_key, hits, retriggered, after = 100, 0, False, []
    for _block in range(60):
        batch = []
        for key, (snd, p) in list(table.items()):
            p = p._replace(gain_left=float(rng.uniform(0, 1)), gain_right=float(rng.uniform(0, 1)))
            if p.step != 1.0 and rng.integers(0, 8) == 0:
                p = p._replace(step=float(rng.choice([0.5, 0.6, 1.3])))
            table[key] = (snd, p)
            batch.append((key, p))
        for key, p in batch:
            mixer.set(key, p)
            ref.set(key, p)
        carried = mixer._set_rows
        hit = carried is not None and carried[0] == [key for key, _p in batch]
        hits += hit
        if retriggered:
            after.append(hit)
        retriggered = bool(rng.integers(0, 3))
        if retriggered:
            old = int(rng.choice(list(table)))
            snd, p = table[old]
            same_sides = [s for s in sounds if s.channels == snd.channels]
            snd = same_sides[int(rng.integers(0, len(same_sides)))]
            mixer.stop(old)
            ref.stop(old)
            mixer.start(next_key, snd, p)
            ref.start(next_key, snd, p)
            if seed % 2:  # the new voice is set last from now on
                del table[old]
                table[next_key] = (snd, p)
            else:  # in the cut one's place (its channel's slot): the set rows carry over
                table = {(next_key if k == old else k): ((snd, p) if k == old else v)
                         for k, v in table.items()}
            next_key += 1
        assert np.allclose(mixer.render(256), ref.render(256), atol=2e-4), _block
    assert not count
    # the set rows found again: in the cut one's place, in every block after a retrigger
    # (and in nearly all, a step change keeping them); set last, only where the cut
    # voice was the last set already
    if seed % 2 == 0:
        assert all(after) and hits > 50
    else:
        assert sum(after) < len(after) // 4


def test_steps_written_as_arrays_give_the_bytes_of_steps_written_one_by_one(monkeypatch):
    """Doppler moves every moving voice's step every tick: a block's steps written into
    the resampled rows at once (``Rows.set_steps``) give the bytes that the sets written
    one at a time give, with a voice set twice in one block (two sends drained together,
    its step moved and put back), rows at their own rate left at 1 and one whose step
    leaves 1 (laid out by both). The rows' safe frames shrink by the steps' ratio
    (``Rows.sped_up``), never past what counting them again gives."""
    rng = np.random.default_rng(11)
    sounds = [sound(f"d{i}", rng.uniform(-0.5, 0.5, (3000, 1 + i % 2)).astype(np.float32))
              for i in range(4)]
    arrays, one_by_one = mixers = Mixer(RATE, 256), Mixer(RATE, 256)
    steps = {key: 1.0 if key % 5 == 0 else float(rng.uniform(0.5, 1.5)) for key in range(1, 11)}

    def voice(key: int) -> cmd.VoiceParams:
        return params(gl=float(rng.uniform(0, 1)), gr=float(rng.uniform(0, 1)), step=steps[key],
                      loop=True, ramp=key % 2 == 0)

    for key in steps:
        p = voice(key)
        for mixer in mixers:
            mixer.start(key, sounds[key % 4], p)
    written = []
    set_steps, fill = arrays._rows.set_steps, arrays._rows.fill
    arrays._rows.set_steps = lambda *a, **kw: written.append(1) or set_steps(*a, **kw)  # type: ignore

    def checked(data: np.ndarray, n: int) -> bool:  # the safe frames never more than counted
        rows = arrays._rows
        safe = rows.safe_frames
        rows.recount()
        assert safe <= rows.safe_frames
        rows.safe_frames = safe
        return fill(data, n)

    arrays._rows.fill = checked  # type: ignore[method-assign]
    real = mixer_inplace._moved_steps
    for block in range(40):
        for key in steps:
            if key % 5 and rng.integers(0, 4):
                steps[key] *= float(rng.uniform(0.98, 1.02))
        sends = [[cmd.set_params(key, voice(key)) for key in steps]]
        if block % 7 == 3:  # voice 3 set again in a second send: its step back, new gains
            was = steps[3]
            steps[3] = sends[0][2].params.step * 1.01
            sends[0][2] = cmd.set_params(3, voice(3))
            steps[3] = was
            sends.append([cmd.set_params(3, voice(3))])
        if block == 20:  # a row at its own rate moves: laid out
            steps[5] = 1.25
            sends[0][4] = cmd.set_params(5, voice(5))
        outs = []
        for mixer in mixers:
            monkeypatch.setattr(mixer_inplace, "_moved_steps",
                                real if mixer is arrays else lambda *a: None)
            for commands in sends:
                mixer.send(commands)
            outs.append(mixer.render(256).tobytes())
        assert outs[0] == outs[1], block
    assert len(written) > 30


def eight_rows(seed: int) -> tuple[np.random.Generator, np.ndarray, list[tuple[int, int]],
                                   np.ndarray, np.ndarray]:
    """Eight rows of 64 random samples a side, four of them stereo: the generator
    (for the gains), the mono mask, the stereo runs and the samples."""
    rng = np.random.default_rng(seed)
    stereo = np.array([False, True, True, False, False, True, False, True])
    sl = rng.standard_normal((8, 64)).astype(np.float32)
    sr = rng.standard_normal((8, 64)).astype(np.float32)
    return rng, (~stereo).astype(np.float32), stereo_runs(stereo), sl, sr


def test_gain_matrices_written_in_place_are_the_same_sums():
    """``gain_matrices`` into ``gain_buffers`` gives the arrays (and the bytes of the sum)
    it gives when it makes them, block after block, and rows at 0 are left out alike."""
    rng, mask, runs, sl, sr = eight_rows(3)
    bufs = gain_buffers(runs, mask, 8)
    for zero in ([], [], [3], [0, 7]):
        gl = rng.uniform(0, 1, 8).astype(np.float32)
        gr = rng.uniform(0, 1, 8).astype(np.float32)
        gl[zero] = gr[zero] = 0.0
        made = gain_matrices(np.stack([gl, gr]), mask, runs, 8)
        written = gain_matrices(np.stack([gl, gr]), mask, runs, 8, bufs)
        assert np.array_equal(made[0], written[0])
        sums = [weigh_all(g, sl, sr, 64, np.zeros((2, 64), np.float32),
                          np.zeros((1, 64), np.float32)) for g in (made, written)]
        assert sums[0].tobytes() == sums[1].tobytes()


@pytest.mark.parametrize("share", [1, 1 << 30])
def test_rows_at_0_summed_or_left_out_give_the_same_bytes(monkeypatch, share):
    """A row whose gains are both 0 adds exact zeros to a sum that starts at +0: summing
    it (few such rows, ``SILENT_SHARE``) or leaving it out (many) gives the same bytes,
    with negative samples (-0 products), the first row at 0 and every row at 0."""
    rng, mask, runs, sl, sr = eight_rows(8)
    for zero in ([0], [3], [0, 7], [1, 2, 5], list(range(8))):
        g = rng.uniform(0, 1, (2, 8)).astype(np.float32)
        g[:, zero] = 0.0
        sums = []
        for rule in (mixer_sum.SILENT_SHARE, share):
            monkeypatch.setattr(mixer_sum, "SILENT_SHARE", rule)
            sums.append(weigh_all(gain_matrices(g, mask, runs, 8), sl, sr, 64,
                                  np.zeros((2, 64), np.float32), np.zeros((1, 64), np.float32)))
        assert sums[0].tobytes() == sums[1].tobytes(), zero


def test_a_bus_fading_every_block_ramps_its_rows_without_a_layout():
    """A fade or a duck sends every bus's gain each tick with the voices' gain sets:
    the bus stage takes it in place (no layout) and each row ramps from its last bus
    gain to the new one across the block; a start after it begins at the new gain."""
    snd = sound("one", ONES)
    mixer = Mixer(RATE, 100)
    mixer.send([cmd.bus_gains((1.0, 1.0)), cmd.start(1, snd, params(loop=True)),
                cmd.start(2, snd, params(gl=0.5, gr=0.5, loop=True)._replace(bus=1))])
    mixer.render(100)
    count = layouts(mixer)
    ramp = np.arange(1, 101) / 100
    for before, after in ((1.0, 0.5), (0.5, 0.25), (0.25, 0.25)):
        mixer.send([cmd.set_params(1, params(gl=0.8, gr=0.8, loop=True)),
                    cmd.bus_gains((after, 1.0))])
        out = mixer.render(100)[:, 0]
        assert np.allclose(out, 0.8 * (before + (after - before) * ramp) + 0.5, atol=1e-6)
    mixer.send([cmd.bus_gains((0.125, 1.0)), cmd.stop(1),
                cmd.start(3, snd, params(gl=0.8, gr=0.8, loop=True))])
    out = mixer.render(100)[:, 0]  # the retriggered voice starts at its bus's new gain
    assert np.allclose(out, 0.8 * 0.125 + 0.5, atol=1e-6)
    assert not count


def test_steps_written_for_a_short_block_are_made_whole_for_a_longer_one(monkeypatch):
    """Moved steps are written for the next block's frames only (``Rows.set_steps``):
    a longer block after it makes the rest of every resampled row first
    (``Rows.restep``), so blocks of 200 frames with sets and blocks of 1,000 without
    give the bytes of steps written one by one, across the whole row."""
    from soundscape.audio.mixer_rows import Rows

    rng = np.random.default_rng(3)
    sounds = [sound(f"w{i}", rng.uniform(-0.5, 0.5, (9000, 1 + i % 2)).astype(np.float32))
              for i in range(3)]
    arrays, one_by_one = mixers = Mixer(RATE, 1024), Mixer(RATE, 1024)
    steps = {key: float(rng.uniform(0.6, 1.4)) for key in range(1, 7)}
    for key, step in steps.items():
        for mixer in mixers:
            mixer.start(key, sounds[key % 3], params(gl=0.5, gr=0.4, step=step, loop=True,
                                                       ramp=key % 2 == 0))
    restep, resteps = Rows.restep, []
    monkeypatch.setattr(Rows, "restep", lambda rows: resteps.append(rows) or restep(rows))
    real = mixer_inplace._moved_steps
    for block in range(12):
        moved = block % 3 != 2  # two blocks of sets, then one long block without
        outs = []
        for mixer in mixers:
            monkeypatch.setattr(mixer_inplace, "_moved_steps",
                                real if mixer is arrays else lambda *a: None)
            if moved:
                mixer.send([cmd.set_params(key, params(gl=0.5, gr=0.4, step=step * 1.01 ** block,
                                                       loop=True, ramp=key % 2 == 0))
                            for key, step in steps.items()])
            outs.append(mixer.render(200 if moved else 1000).tobytes())
        assert outs[0] == outs[1], block
    assert resteps and all(rows is arrays._rows for rows in resteps)
    assert arrays._rows.stepar_frames == 1024  # whole again after the last long block


@pytest.mark.parametrize("most", [1, 3])
def test_a_virtual_bank_s_churn_keeps_its_set_rows_with_the_same_bytes(most):
    """What a virtual bank sends as its loudest voices change: every block a ``set`` for
    each voice (its step moving), and in most blocks one to ``most`` culled (a ``stop``
    instead of its set) and as many restored in their rows (``start``s fading in, set
    last from the next block on, in the order they started). The set rows carry over
    (the cut voices' left out, the new ones put last): the next block finds them
    without looking them up, and the bytes are those of a mixer that looks them up
    every block."""
    rng = np.random.default_rng(9)
    snd = sound("hum", rng.uniform(-0.5, 0.5, (4000, 1)).astype(np.float32))
    carried, fresh = mixers = Mixer(RATE, 256), Mixer(RATE, 256)
    steps = {key: float(rng.uniform(0.8, 1.2)) for key in range(1, 9)}

    def voice(key: int) -> cmd.VoiceParams:
        return params(gl=float(rng.uniform(0, 1)), gr=float(rng.uniform(0, 1)), step=steps[key],
                      loop=True, ramp=True)

    for key in steps:
        p = voice(key)
        for mixer in mixers:
            mixer.start(key, snd, p)
    next_key, found, swaps = 100, [], []
    for block in range(40):
        for key in steps:
            steps[key] *= float(rng.uniform(0.98, 1.02))
        count = int(rng.integers(1, most + 1)) if block % 4 else 0
        culled = rng.choice(list(steps), size=count, replace=False).tolist()
        batch = [cmd.set_params(key, voice(key)) if key not in culled else cmd.stop(key)
                 for key in steps]
        for key in culled:
            del steps[key]
            steps[next_key] = float(rng.uniform(0.8, 1.2))
            batch.append(cmd.start(next_key, snd, voice(next_key), fade_in=True))
            next_key += 1
        swaps.append(count)
        for mixer in mixers:
            mixer.send(batch)
        fresh._set_rows = None  # looked up again every block
        outs = [mixer.render(256).tobytes() for mixer in mixers]
        assert outs[0] == outs[1], block
        cached = carried._set_rows
        found.append(cached is not None and cached.keys == list(steps))
    assert all(found[1:])
    assert max(swaps) == most


def test_offsets_made_into_the_fill_s_frac_give_the_bytes_of_stepar(monkeypatch):
    """When most resampled rows move step, ``Rows.set_steps`` makes the next block's
    offsets of every resampled row straight into the fill's ``frac`` (``premake``) and
    leaves ``stepar`` unmade. Against a mixer that always writes ``stepar``: every voice
    moved, half of them, a quarter (written into ``stepar``); a retrigger whose cut
    voice was set in the same batch, with another step (``Rows.replace`` makes its
    offsets again); mono and stereo, a Miles row; longer and shorter blocks than the
    offsets were made for, and blocks with no set at all."""
    rng = np.random.default_rng(12)
    mono = sound("m", rng.uniform(-0.5, 0.5, (9000, 1)).astype(np.float32))
    stereo = sound("s", rng.uniform(-0.5, 0.5, (9000, 2)).astype(np.float32))
    premade, plain = mixers = Mixer(RATE, 512), Mixer(RATE, 512)
    made: list[int] = []
    for mixer in mixers:
        rows, set_steps = mixer._rows, mixer._rows.set_steps
        if mixer is plain:
            rows.set_steps = lambda *args, _s=set_steps, **kw: _s(*args, **{**kw, "premake": False})
        premake = rows.premake
        rows.premake = lambda n, _p=premake: made.append(n) or _p(n)
    keys = list(range(1, 9))
    steps = {key: float(rng.uniform(0.6, 1.4)) for key in keys}

    def voice(key: int, **kw) -> cmd.VoiceParams:
        miles = (100, 100, 128, 128) if key == 8 else None
        return params(gl=0.4, gr=0.3, step=steps[key], loop=True, ramp=miles is None,
                      miles=miles, **kw)

    for key in keys:
        for mixer in mixers:
            mixer.start(key, stereo if key % 2 else mono, voice(key))
    next_key = 100
    for block in range(36):
        share = (1.0, 0.5, 0.25, 0.0)[block % 4]
        batch = []
        for key in keys[: round(share * len(keys))]:
            steps[key] *= float(rng.uniform(0.95, 1.05))
            batch.append(cmd.set_params(key, voice(key)))
        if block % 6 == 5:  # a retrigger: the cut voice set first, the new one's step its own
            cut = keys[block % 7]
            if cut != 8:
                keys[keys.index(cut)] = next_key
                steps[next_key] = steps.pop(cut) * 1.1
                batch += [cmd.stop(cut), cmd.start(next_key, stereo if cut % 2 else mono,
                                                    voice(next_key))]
                next_key += 1
        frames = (512, 300, 700, 512)[block % 4]
        outs = []
        for mixer in mixers:
            if batch:
                mixer.send(batch)
            outs.append(mixer.render(frames).tobytes())
        assert outs[0] == outs[1], block
    assert len(made) > 10


def test_the_sum_and_the_ramp_pass_in_one_einsum_give_the_bytes_of_two(monkeypatch):
    """When every float row ramps (``modern``), ``Mixer._mix_float`` sums the rows over
    S_L and their gain changes in one einsum (``Rows.both_gains``): mono and stereo
    rows, gains moving every block or holding, a voice rising from 0 and rows at 0
    (left out of the sum), against the two sums made apart."""
    rng = np.random.default_rng(21)
    mono = sound("m", rng.uniform(-0.5, 0.5, (8000, 1)).astype(np.float32))
    stereo = sound("s", rng.uniform(-0.5, 0.5, (8000, 2)).astype(np.float32))
    one, two = mixers = Mixer(RATE, 400), Mixer(RATE, 400)
    kinds = {key: stereo if key in (2, 3, 6) else mono for key in range(1, 9)}

    def voice(key: int, block: int) -> cmd.VoiceParams:
        silent = block % 5 == 2 and key < 6  # most rows at 0: left out of the sum
        gain = 0.0 if silent else float(rng.uniform(0, 1))
        return params(gl=gain, gr=gain * 0.5, step=1.0 + 0.01 * key, loop=True, ramp=True)

    for key, snd in kinds.items():
        p = voice(key, 0)
        for mixer in mixers:
            mixer.start(key, snd, p)
    made: list[int] = []
    weigh = mixer_module.weigh
    monkeypatch.setattr(mixer_module, "weigh",
                        lambda gains, *args: made.append(gains.shape[0]) or weigh(gains, *args))
    for block in range(20):
        batch = [] if block % 4 == 3 else [cmd.set_params(key, voice(key, block)) for key in kinds]
        outs = []
        for mixer in mixers:
            if batch:
                mixer.send(batch)
            if mixer is two:
                mixer._rows.both_gains = None  # the two sums apart
            outs.append(mixer.render(400).tobytes())
        assert outs[0] == outs[1], block
    assert made.count(4) > 10
