"""The terrain ambience's sounds: six moving beds and the calls that make each terrain a place.

Every recipe is a pure function of fixed seeds (``soundscape.synth``), so the same
bytes come out on every run. The beds (the region's constant ``Ambient1`` sounds)
are ``BED_PERIOD_S`` loops of wind or water whose cutoff, level and left/right
balance move (``synth.moving_noise``), with a ``BED_TAIL_S`` tail that crossfades
into the next play (``synth.refire_loop``): the region re-fires each bed every
``BED_PERIOD_S`` (``min_rate`` 3.99 s: AC plays at the first tick after the
deadline, 240 ticks after the last play), so the beds run on without a seam.

The intermittent calls, by terrain (``data/region.toml`` places them):

* grassland: song thrush phrases (FM chirps), a trilling bird, crickets, a crow;
* forest: a woodpecker's drumming, an owl, a warbler, a twig snapping;
* lake shore: gulls, a frog, a wave slapping the bank, a reed bird;
* lake water: a fish's splash, a loon, plops and bubbles;
* desert: a hawk, a rattlesnake, a sand gust, cicadas;
* snow: the frozen lake's ice "pew" crack, a wolf's howl, snow falling off a
  branch, ice tinkling.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from soundscape import synth

RATE_HZ = synth.DEFAULT_RATE_HZ
BED_PERIOD_S = 4.0
"""A bed's loop period: the region re-fires it this often (``min_rate`` 3.99 s)."""
BED_TAIL_S = 0.5
"""The crossfade tail past the period (the next play's fade-in)."""


def _place(parts: list[tuple[float, np.ndarray]], peak: float = 0.7) -> np.ndarray:
    """Sounds laid at start times (seconds), mono or all stereo, normalised to ``peak``."""
    end = max(int(round(t * RATE_HZ)) + p.shape[0] for t, p in parts)
    out = np.zeros((end,) + parts[0][1].shape[1:], dtype=np.float64)
    for t, part in parts:
        i = int(round(t * RATE_HZ))
        out[i: i + part.shape[0]] += part
    top = float(np.max(np.abs(out)))
    return (out * (peak / top)).astype(np.float32)


def _bed(loop: Callable[[], np.ndarray]) -> Callable[[], np.ndarray]:
    """The recipe of a bed re-fired every period: one period of ``loop`` and its tail."""
    return lambda: synth.refire_loop(loop(), BED_TAIL_S, RATE_HZ)


def _wind(seed: int, **shape: Any) -> np.ndarray:
    return synth.moving_noise(BED_PERIOD_S, seed, stereo=True, **shape)


def desert_wind() -> np.ndarray:
    """Low gusts, and sand hissing high when a gust peaks (one curve drives both)."""
    gusts = _wind(106, low_hz=50.0, high_hz=1_600.0, tilt=1.2, cutoff_hz=(180.0, 1_100.0),
                  level=(0.25, 1.0), cycles=(1, 2, 3), sway=0.7, peak=0.4)
    hiss = _wind(116, low_hz=2_500.0, high_hz=10_000.0, tilt=0.0,
                 cutoff_hz=(2_500.0, 10_000.0), level=(0.0, 1.0), cycles=(1, 2, 3),
                 curve_seed=106, sway=0.9, peak=0.12)
    return (gusts + hiss).astype(np.float32)


def song(seed: int, low_hz: float, high_hz: float, notes: int, trill: bool = True) -> np.ndarray:
    """A songbird's phrase: seeded FM chirps up and down, then a trill."""
    draws = synth.uniform(seed, 4 * notes)
    parts, t = [], 0.0
    for k in range(notes):
        f0 = low_hz + (high_hz - low_hz) * draws[4 * k]
        f1 = f0 * (0.6 + 0.9 * draws[4 * k + 1])
        dur = 0.05 + 0.1 * draws[4 * k + 2]
        parts.append((t, synth.fm_chirp(f0, f1, dur, mod_hz=60.0 * draws[4 * k + 3],
                                        mod_depth=0.04, harmonics=(1.0, 0.15), shape=0.6)))
        t += dur + 0.03 + 0.06 * draws[4 * k + 3]
    if trill:
        parts.append((t, synth.fm_chirp(high_hz, low_hz * 1.2, 0.35, mod_hz=32.0,
                                        mod_depth=0.1, shape=0.5)))
    return _place(parts)


def _repeat(sound: np.ndarray, times: list[float], gains: list[float] | None = None,
            peak: float = 0.7) -> np.ndarray:
    gains = gains or [1.0] * len(times)
    return _place([(t, sound * g) for t, g in zip(times, gains, strict=True)], peak)


def owl() -> np.ndarray:
    hoot = synth.fm_chirp(410, 380, 0.32, harmonics=(1.0, 0.12), shape=0.8)
    short = synth.fm_chirp(400, 390, 0.16, harmonics=(1.0, 0.12), shape=0.8)
    return _place([(0.0, hoot), (0.55, short), (0.8, hoot * 0.9)])


def howl() -> np.ndarray:
    rise = synth.fm_chirp(380, 620, 0.7, mod_hz=5.0, mod_depth=0.01,
                          harmonics=(1.0, 0.35, 0.15), shape=0.4)
    fall = synth.fm_chirp(620, 430, 1.3, mod_hz=5.5, mod_depth=0.02,
                          harmonics=(1.0, 0.35, 0.15), shape=0.5)
    return _place([(0.0, rise), (0.62, fall)], 0.6)


def ice_crack() -> np.ndarray:
    """The frozen lake's 'pew': a dispersive downward chirp after a sharp crack."""
    pew = synth.fm_chirp(4_200, 450, 0.28, shape=0.25)
    crack = synth.click(108, duration_s=0.04, peak=0.9)
    return _place([(0.0, crack), (0.01, pew * 0.8), (0.35, pew * 0.35)])


def ice_tinkle() -> np.ndarray:
    draws = synth.uniform(109, 12)
    pings = [(0.09 * k + 0.05 * draws[k],
              synth.tone(2_600 + 2_400 * draws[k + 6], 0.25, harmonics=(1.0, 0.0, 0.3),
                         decay_s=0.05, peak=0.4 + 0.3 * draws[k])) for k in range(6)]
    return _place(pings, 0.5)


def bubbles() -> np.ndarray:
    draws = synth.uniform(110, 14)
    plops = [(0.08 * k + 0.06 * draws[k],
              synth.fm_chirp(500 + 700 * draws[k + 7], 250 + 200 * draws[k + 7], 0.05,
                             shape=0.3)) for k in range(7)]
    return _place(plops, 0.5)


def frog() -> np.ndarray:
    croak = synth.pulsed_band(420, 0.42, 111, bandwidth_hz=260.0, pulse_hz=24.0, pulses=9,
                              chirp_hz=2.0)
    return _repeat(croak, [0.0, 0.55], [1.0, 0.8])


BED_LOOPS: dict[str, Callable[[], np.ndarray]] = {
    "ac_grass_wind": lambda: _wind(101, low_hz=80.0, high_hz=3_000.0, tilt=1.0,
                                   cutoff_hz=(250.0, 1_800.0), level=(0.3, 1.0), sway=0.6,
                                   peak=0.6),
    "ac_forest_rustle": lambda: _wind(102, low_hz=200.0, high_hz=8_000.0, tilt=0.5,
                                      cutoff_hz=(900.0, 6_000.0), level=(0.3, 1.0),
                                      cycles=(2, 3, 5), sway=0.7, peak=0.4),
    "ac_lapping": lambda: _wind(103, low_hz=60.0, high_hz=3_000.0, tilt=1.2,
                                cutoff_hz=(200.0, 1_600.0), level=(0.1, 1.0), cycles=(3, 4),
                                sway=0.5, peak=0.7),
    "ac_deep_water": lambda: _wind(104, low_hz=30.0, high_hz=700.0, tilt=1.8,
                                   cutoff_hz=(120.0, 600.0), level=(0.4, 1.0), cycles=(1, 2),
                                   sway=0.4, peak=0.8),
    "ac_desert_wind": desert_wind,
    "ac_blizzard": lambda: _wind(107, low_hz=150.0, high_hz=9_000.0, tilt=0.3,
                                 cutoff_hz=(600.0, 7_000.0), level=(0.35, 1.0),
                                 cycles=(2, 3, 5), sway=0.8, peak=0.45),
}
"""One ``BED_PERIOD_S`` period of each terrain bed (the constant Ambient1), a stereo loop."""

CALLS: dict[str, Callable[[], np.ndarray]] = {
    # grassland
    "ac_bird_song": lambda: song(1, 2_400, 4_200, 6),
    "ac_bird_trill": lambda: synth.fm_chirp(3_900, 3_300, 0.9, mod_hz=28.0, mod_depth=0.12,
                                            shape=0.5, peak=0.6),
    "ac_cricket": lambda: synth.pulsed_band(4_600, 1.6, 112, bandwidth_hz=250.0,
                                            pulse_hz=28.0, pulses=4, chirp_hz=2.5, peak=0.6),
    "ac_crow": lambda: _repeat(synth.fm_chirp(560, 430, 0.26, mod_hz=70.0, mod_depth=0.03,
                                              harmonics=(1.0, 0.9, 0.7, 0.6, 0.4, 0.3),
                                              shape=0.4), [0.0, 0.4, 0.8], [1.0, 0.9, 0.7]),
    # forest
    "ac_woodpecker": lambda: synth.click_train(113, 18, interval_s=0.055, ring_hz=1_100.0,
                                               ring_s=0.006, fade=0.96, peak=0.8),
    "ac_owl": owl,
    "ac_warbler": lambda: song(2, 3_000, 5_200, 9),
    "ac_twig_snap": lambda: synth.click_train(114, 3, interval_s=0.035, accel=1.6,
                                              ring_hz=2_600.0, ring_s=0.003, fade=0.6),
    # lake shore
    "ac_gull": lambda: _repeat(synth.fm_chirp(1_350, 900, 0.32, mod_hz=9.0, mod_depth=0.05,
                                              harmonics=(1.0, 0.6, 0.4, 0.2), shape=0.5),
                               [0.0, 0.42, 0.78], [1.0, 0.85, 0.7]),
    "ac_frog": frog,
    "ac_wave_slap": lambda: _place([(0.0, synth.click(115, duration_s=0.06, peak=0.5)),
                                    (0.02, synth.swoosh(115, duration_s=0.6, f0_hz=250.0,
                                                        f1_hz=2_500.0))], 0.6),
    "ac_reed_bird": lambda: song(3, 1_800, 3_400, 5, trill=False),
    # lake water
    "ac_splash": lambda: synth.swoosh(105, duration_s=0.4, f0_hz=500, f1_hz=5000),
    "ac_loon": lambda: _place([(0.0, synth.fm_chirp(620, 940, 1.2, mod_hz=4.0, mod_depth=0.01,
                                                    harmonics=(1.0, 0.3, 0.1), shape=0.5)),
                               (1.05, synth.fm_chirp(940, 760, 1.0, mod_hz=4.0,
                                                     mod_depth=0.015,
                                                     harmonics=(1.0, 0.3, 0.1), shape=0.6))],
                              0.6),
    "ac_plop": lambda: synth.fm_chirp(950, 240, 0.12, shape=0.3, peak=0.6),
    "ac_bubbles": bubbles,
    # desert
    "ac_hawk": lambda: synth.fm_chirp(3_200, 1_800, 0.8, mod_hz=18.0, mod_depth=0.04,
                                      harmonics=(1.0, 0.5, 0.3), shape=0.6, peak=0.5),
    "ac_rattle": lambda: synth.pulsed_band(6_000, 1.5, 117, bandwidth_hz=6_000.0,
                                           pulse_hz=45.0, pulses=60, chirp_hz=0.6, peak=0.5),
    "ac_sand_gust": lambda: synth.swoosh(118, duration_s=1.4, f0_hz=2_000.0, f1_hz=9_000.0,
                                         peak=0.5),
    "ac_cicada": lambda: synth.pulsed_band(6_500, 2.2, 119, bandwidth_hz=1_400.0,
                                           pulse_hz=90.0, pulses=150, chirp_hz=0.5, peak=0.45),
    # snow
    "ac_ice_crack": ice_crack,
    "ac_howl": howl,
    "ac_snow_flump": lambda: synth.swoosh(120, duration_s=0.7, f0_hz=80.0, f1_hz=900.0,
                                          peak=0.6),
    "ac_ice_tinkle": ice_tinkle,
}
"""The intermittent calls' recipes (peaks 0.45..0.8 before ``CALL_GAIN``)."""

CALL_GAIN = 0.5
"""The calls play 6 dB under their recipes: a call within 5 m plays at its authored
volume (GetAttenuation's near field), and at -1 dB a thrush at full peak was louder
than the village's music."""


def _scaled(recipe: Callable[[], np.ndarray], gain: float) -> Callable[[], np.ndarray]:
    return lambda: (recipe() * np.float32(gain)).astype(np.float32)


AC_SOUNDS: dict[str, Callable[[], np.ndarray]] = {
    **{name: _bed(loop) for name, loop in BED_LOOPS.items()},
    **{name: _scaled(recipe, CALL_GAIN) for name, recipe in CALLS.items()},
}
"""The terrain ambience's recipes by sound name (the region's sound tables name them)."""

BEDS = tuple(BED_LOOPS)
"""The constant (Ambient1) beds, one a terrain."""
