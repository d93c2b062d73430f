"""The offline backend on its own: render seconds, keep, write a WAV."""

from __future__ import annotations

import numpy as np

from soundscape import synth
from soundscape.backend_offline import OfflineBackend
from soundscape.mixer import Mixer
from soundscape.snapshot import Snapshot, VoiceSpec
from soundscape.sounds import SoundBank
from soundscape.wav import read_wav


def test_render_seconds_and_write_wav(tmp_path):
    bed = SoundBank().add("bed", synth.noise_bed(0.5, seed=4, rate_hz=48_000), 48_000)
    mixer = Mixer(48_000, 1024)
    backend = OfflineBackend(mixer, tick_hz=60)
    assert mixer.backend is backend
    mixer.publish(Snapshot(0, (VoiceSpec(("x", 0, 1), bed, 0.5, 0.5, 1.0, True, False, True,
                                         False, 0.0, None),), frozenset()))
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
