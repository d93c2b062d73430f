"""The offline backend on its own: render seconds, keep, write a WAV."""

from __future__ import annotations

import numpy as np

from soundscape import synth
from soundscape.audio.backend_offline import OfflineBackend
from soundscape.audio.commands import VoiceParams
from soundscape.audio.mixer import Mixer
from soundscape.audio.sounds import SoundBank
from soundscape.audio.wav import read_wav


def test_render_seconds_and_write_wav(tmp_path):
    bed = SoundBank().add("bed", synth.noise_bed(0.5, seed=4, rate_hz=48_000), 48_000)
    mixer = Mixer(48_000, 1024)
    backend = OfflineBackend(mixer, tick_hz=60)
    assert mixer.backend is backend
    mixer.start(1, bed, VoiceParams(0.5, 0.5, 1.0, loop=True))
    first = backend.render_seconds(1.0)
    assert first.shape == (48_000, 2) and backend.frames == 48_000
    looped = np.tile(bed.samples[:, 0] * np.float32(0.5), 2)
    assert np.array_equal(first[:, 0], looped)
    backend.on_tick(3)
    assert backend.frames == 48_000 + 2400
    path = backend.write_wav(tmp_path / "out.wav")
    back = read_wav(path)
    assert back.sample_rate_hz == 48_000 and back.samples.shape == (50_400, 2)
    assert np.abs(back.samples - backend.audio()).max() <= 1 / 32768 + 1e-7
    backend.clear()
    assert backend.audio().shape == (0, 2)


def test_discarding_backend_keeps_nothing():
    mixer = Mixer(48_000, 512)
    backend = OfflineBackend(mixer, keep=False)
    block = backend.render_seconds(0.1)
    assert block.shape == (4800, 2) and not block.any() and backend.frames == 0


def test_synth_helpers_are_deterministic_float32_and_within_their_peak():
    """Issue 3's demo synthesis: same arguments, same bytes; no binary asset needed."""
    makers = {
        "noise_bed": lambda seed: synth.noise_bed(0.25, seed=seed, rate_hz=22_050),
        "tone": lambda seed: synth.tone(220 + seed, 0.25, harmonics=(1.0, 0.5), decay_s=0.1),
        "chirp": lambda seed: synth.chirp(500 + seed, 4_000, 0.25),
        "click": lambda seed: synth.click(seed),
        "swoosh": lambda seed: synth.swoosh(seed, duration_s=0.25),
    }
    for name, make in makers.items():
        a, b, other = make(1), make(1), make(2)
        assert a.dtype == np.float32 and a.ndim == 1, name
        assert np.array_equal(a, b), name
        assert not np.array_equal(a, other), name
        assert 0.1 < np.abs(a).max() <= 0.8 + 1e-6 and np.all(np.isfinite(a)), name
    assert synth.noise_bed(0.25, seed=1, rate_hz=22_050).shape == (5512,)
    both = synth.stereo(synth.click(1), synth.tone(440, 0.1))
    assert both.shape == (2205, 2) and both.dtype == np.float32  # 0.1 s at 22,050 Hz
    assert not both[synth.click(1).shape[0]:, 0].any()  # the shorter side is zero-padded
