"""The mixer's per-voice low-pass (issue 17): the closed form against the plain
recursion, its response, a click-free change, state following the voice."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from soundscape.audio.commands import VoiceParams
from soundscape.audio.mixer import Mixer
from soundscape.audio.mixer_dsp import VoiceDsp, one_pole_a
from soundscape.audio.sounds import SoundBank

RATE = 48_000


def voice(key, cutoff):
    return SimpleNamespace(key=key, spec=SimpleNamespace(lowpass_hz=cutoff))


def reference(x, a_start, a_end, y_prev):
    """y[k] = y[k-1] + a[k] (x[k] - y[k-1]), a ramped a_start -> a_end (k+1)/n, one by one."""
    n = len(x)
    y, out = y_prev, np.empty(n)
    for k in range(n):
        a = a_start + (a_end - a_start) * (k + 1) / n
        y = y + a * (x[k] - y)
        out[k] = y
    return out


def test_closed_form_matches_the_recursion_across_blocks_and_a_change():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 3 * 1000)).astype(np.float32)
    dsp = VoiceDsp(RATE)
    sl, sr = x[:1].copy(), x[1:].copy()
    v = voice(7, 1500.0)
    a_open, a1, a2 = dsp.a_open, one_pole_a(1500.0, RATE), one_pole_a(375.0, RATE)
    expected_l, expected_r = [], []
    y_l, y_r = float(x[0, 0]), float(x[1, 0])
    for block, (start, end) in enumerate(((a_open, a1), (a1, a1), (a1, a2))):
        v.spec.lowpass_hz = 1500.0 if block < 2 else 375.0
        part = slice(block * 1000, (block + 1) * 1000)
        rows_l, rows_r = sl[:, part].copy(), sr[:, part].copy()
        dsp.process(rows_l, rows_r, np.array([True]), [v], 1000)
        ref_l = reference(x[0, part].astype(np.float64), start, end, y_l)
        ref_r = reference(x[1, part].astype(np.float64), start, end, y_r)
        y_l, y_r = ref_l[-1], ref_r[-1]
        np.testing.assert_allclose(rows_l[0], ref_l, rtol=0, atol=2e-6)
        np.testing.assert_allclose(rows_r[0], ref_r, rtol=0, atol=2e-6)
        expected_l.append(ref_l)
        expected_r.append(ref_r)
    assert dsp.active


def test_response_is_a_low_pass_at_its_cutoff():
    n, cutoff = 1 << 15, 1500.0
    t = np.arange(n) / RATE
    dsp = VoiceDsp(RATE)
    v = voice(1, cutoff)
    gains = {}
    for f in (200.0, 1500.0, 8000.0):
        dsp.state.clear()
        x = np.sin(2 * np.pi * f * t).astype(np.float32)[None, :]
        out = np.empty_like(x)
        for start in range(0, n, 1024):  # block by block: the state carries
            rows = x[:, start:start + 1024].copy()
            dsp.process(rows, rows, np.array([False]), [v], rows.shape[1])
            out[:, start:start + 1024] = rows
        gains[f] = np.sqrt(np.mean(out[0, n // 2:] ** 2)) / np.sqrt(0.5)
    assert gains[200.0] > 0.98
    assert gains[1500.0] == pytest.approx(1 / np.sqrt(2), abs=0.05)  # about -3 dB
    assert gains[8000.0] < 0.25


def render(cutoffs, n=1024):
    """A 3 kHz tone on one mixer voice, its cutoff set per block from ``cutoffs``."""
    mixer = Mixer(RATE, n)
    t = np.arange(RATE) / RATE
    sound = SoundBank().add("tone", (0.5 * np.sin(2 * np.pi * 3000 * t)).astype(np.float32),
                            RATE)
    mixer.start(1, sound, VoiceParams(1.0, 1.0, 1.0, loop=True, ramp=True,
                                      lowpass_hz=cutoffs[0]))
    out = []
    for block in range(len(cutoffs)):
        if block and cutoffs[block] != cutoffs[block - 1]:
            mixer.set(1, VoiceParams(1.0, 1.0, 1.0, loop=True, ramp=True,
                                     lowpass_hz=cutoffs[block]))
        out.append(mixer.render(n)[:, 0].copy())
    return np.concatenate(out)


def test_a_cutoff_change_in_the_mixer_glides_without_a_click():
    cutoffs = [0.0, 0.0, 1500.0, 1500.0, 250.0, 250.0, 0.0, 0.0]
    glide = render(cutoffs)
    # a click is a sample-to-sample jump beyond what the tone itself does
    tone_step = np.abs(np.diff(render([0.0] * len(cutoffs)))).max()
    assert np.abs(np.diff(glide)).max() <= tone_step * 1.001
    # and the cutoff acts: a 3 kHz tone is quieter behind 1500 Hz, much quieter
    # behind 250 Hz, and whole again once the filter has opened
    level = [np.sqrt(np.mean(glide[i * 1024:(i + 1) * 1024] ** 2)) for i in range(8)]
    assert level[3] < 0.6 * level[1] and level[5] < 0.3 * level[3]
    assert level[7] == pytest.approx(level[1], rel=1e-3)


def test_the_cutoff_glides_across_the_block():
    """A change from open to 250 Hz eases in: a 9 kHz tone fades across the block
    instead of dropping at its first sample."""
    n = 1024
    mixer_like = VoiceDsp(RATE)
    v = voice(1, 0.0)
    x = np.sin(2 * np.pi * 9000 * np.arange(2 * n) / RATE).astype(np.float32)[None, :]
    v.spec.lowpass_hz = 20_000.0
    first = x[:, :n].copy()
    mixer_like.process(first, first, np.array([False]), [v], n)
    v.spec.lowpass_hz = 250.0
    second = x[:, n:].copy()
    mixer_like.process(second, second, np.array([False]), [v], n)
    quarter = [np.abs(second[0, i * n // 4:(i + 1) * n // 4]).mean() for i in range(4)]
    assert quarter[0] > quarter[1] > quarter[2] > quarter[3]
    assert np.abs(first[0, -64:]).mean() == pytest.approx(np.abs(second[0, :64]).mean(), rel=0.1)


def test_state_follows_the_voice_not_the_row():
    rng = np.random.default_rng(5)
    x = rng.standard_normal((2, 2048)).astype(np.float32)
    a = VoiceDsp(RATE)
    b = VoiceDsp(RATE)
    va, vb = voice(10, 800.0), voice(11, 3000.0)
    first = x[:, :1024].copy()
    a.process(first, first, np.array([False, False]), [va, vb], 1024)
    second = x[:, 1024:].copy()
    a.process(second, second, np.array([False, False]), [va, vb], 1024)
    swapped_first = x[::-1, :1024].copy()
    b.process(swapped_first, swapped_first, np.array([False, False]), [vb, va], 1024)
    swapped = x[::-1, 1024:].copy()
    b.process(swapped, swapped, np.array([False, False]), [vb, va], 1024)
    np.testing.assert_array_equal(second, swapped[::-1])


def test_no_cutoff_costs_nothing_and_a_gone_voice_is_forgotten():
    mixer = Mixer(RATE, 256)
    sound = SoundBank().add("s", np.ones(RATE, np.float32), RATE)
    mixer.start(1, sound, VoiceParams(0.5, 0.5, 1.0))
    mixer.render(256)
    assert not mixer.dsp.active and mixer.dsp.state == {}
    mixer.start(2, sound, VoiceParams(0.5, 0.5, 1.0, lowpass_hz=500.0))
    mixer.render(256)
    assert set(mixer.dsp.state) == {2}
    mixer.stop(2)
    mixer.render(256)
    mixer.render(256)
    assert mixer.dsp.state == {} and not mixer.dsp.active
