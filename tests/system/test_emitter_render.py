"""Generic emitters rendered offline (issue 17): walls muffle, doppler shifts.

Both tests read the mixer's output with an FFT: the walls' low-pass runs per
voice in the mixer (``mixer_dsp``), the doppler pitch rides the voice's step.
"""

from __future__ import annotations

import esper
import numpy as np
import pytest

from soundscape import Settings, SoundscapePlugin, synth
from soundscape.components import Emitter, Listener, Position, Velocity, Wall
from soundscape.laws.spatial import doppler_pitch

RATE = 48_000


def band_db(audio: np.ndarray, lo_hz: float, hi_hz: float) -> float:
    """Energy (dB) of the left channel between lo and hi."""
    spectrum = np.abs(np.fft.rfft(audio[:, 0].astype(np.float64))) ** 2
    freqs = np.fft.rfftfreq(audio.shape[0], 1.0 / RATE)
    return 10.0 * np.log10(spectrum[(freqs >= lo_hz) & (freqs < hi_hz)].sum())


def render_noise(wall: bool) -> np.ndarray:
    plugin = SoundscapePlugin(Settings(backend="offline", features=("audio", "occlusion"),
                                       sample_rate_hz=RATE)).install()
    try:
        synth.add_to(plugin.context.sounds, "noise", 0.5 * synth.white_noise(RATE, seed=4),
                     RATE)
        esper.create_entity(Listener(), Position(0.0, 0.0, 0.0))
        esper.create_entity(Emitter("noise", occlusion=True, min_distance_m=2.0),
                            Position(0.0, 0.0, 6.0))
        if wall:
            esper.create_entity(Wall(-3.0, 3.0, 3.0, 3.0))
        for _ in range(90):
            esper.process(1 / 60)
        return plugin.mixer.backend.audio()[RATE // 4:].copy()  # past the first blocks
    finally:
        plugin.uninstall()
        esper.clear_database()


def test_behind_a_wall_the_highs_drop_at_least_6_db_more_than_the_lows():
    clear, behind = render_noise(False), render_noise(True)
    low_drop = band_db(clear, 20.0, 500.0) - band_db(behind, 20.0, 500.0)
    high_drop = band_db(clear, 4_000.0, 20_000.0) - band_db(behind, 4_000.0, 20_000.0)
    assert low_drop == pytest.approx(9.0, abs=1.0)  # the wall's -9 dB, the lows pass
    assert high_drop - low_drop >= 6.0


def peak_hz(audio: np.ndarray) -> float:
    """The strongest frequency of a Hann-windowed stretch, zero-padded to 0.1 Hz bins."""
    x = audio[:, 0].astype(np.float64) * np.hanning(audio.shape[0])
    spectrum = np.abs(np.fft.rfft(x, n=10 * RATE))
    return float(np.argmax(spectrum) * RATE / (10 * RATE))


def test_a_tone_passing_at_30_mps_is_above_then_below_its_rest_frequency():
    plugin = SoundscapePlugin(Settings(backend="offline", features=("audio",),
                                       sample_rate_hz=RATE)).install()
    try:
        t = np.arange(RATE) / RATE
        synth.add_to(plugin.context.sounds, "tone",
                     (0.5 * np.sin(2 * np.pi * 1000.0 * t)).astype(np.float32), RATE)
        esper.create_entity(Listener(), Position(0.0, 0.0, 0.0))
        speed, start_x, offset_z = 30.0, -60.0, 3.0
        cart = esper.create_entity(Emitter("tone", min_distance_m=5.0),
                                   Position(start_x, 0.0, offset_z), Velocity(speed, 0.0, 0.0))
        ticks = 240  # 4 s: passes the listener at 2 s
        for tick in range(ticks):
            esper.component_for_entity(cart, Position).x_m = start_x + speed * tick / 60
            esper.process(1 / 60)
        audio = plugin.mixer.backend.audio()
    finally:
        plugin.uninstall()

    def expected(at_s: float) -> float:
        x = start_x + speed * at_s
        return 1000.0 * doppler_pitch((x, 0.0, offset_z), (speed, 0.0, 0.0), (0.0, 0.0, 0.0),
                                      (0.0, 0.0, 0.0), 343.0, 1.0)

    approach = peak_hz(audio[int(0.25 * RATE):int(0.75 * RATE)])
    recede = peak_hz(audio[int(3.25 * RATE):int(3.75 * RATE)])
    assert approach == pytest.approx(expected(0.5), rel=0.01)
    assert recede == pytest.approx(expected(3.5), rel=0.01)
    assert approach > 1000.0 * 1.09 and recede < 1000.0 * 0.925  # c/(c-30), c/(c+30)
