"""Every sound of the demo, synthesised at start-up with ``soundscape.synth``.

The same seed gives the same samples: each recipe passes its own fixed seed to
the synth helpers, which draw from a counter-based hash, not a global generator.
Names: ``ac_*`` the terrain ambience (the region's sound tables, recipes in
``soundscape.demo_world.ac_sounds``), ``oni_*`` the
Oni groups' sounds (waterfall, forge, music, dialogue, flyby), ``rg_*`` the
Redguard effects (torch, rope, bell, chickens, mill).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from soundscape import synth
from soundscape.demo_world import ac_sounds, sound_cache
from soundscape.demo_world.ac_sounds import AC_SOUNDS

RATE_HZ = synth.DEFAULT_RATE_HZ
VILLAGE_GAIN = 0.5
"""The village's Oni and Redguard sounds (music, dialogue, forge, waterfall, effects) play
6 dB under their recipes' peaks: together they used to reach full scale, and the
village now sits near the terrains' loudness instead of 10 LU over it."""


def _seq(*parts: np.ndarray, gap_s: float = 0.0) -> np.ndarray:
    gap = np.zeros(int(gap_s * RATE_HZ), dtype=np.float32)
    out: list[np.ndarray] = []
    for part in parts:
        out.extend((part, gap))
    return np.concatenate(out[:-1] if gap_s else out).astype(np.float32)


def _mix(*parts: np.ndarray) -> np.ndarray:
    n = max(p.shape[0] for p in parts)
    out = np.zeros(n, dtype=np.float32)
    for part in parts:
        out[: part.shape[0]] += part
    peak = float(np.max(np.abs(out)))
    return out / peak * 0.7 if peak > 0.7 else out


def _melody(notes_hz: list[float], note_s: float, seed: int) -> np.ndarray:
    voice = [synth.tone(f, note_s, harmonics=(1.0, 0.4, 0.2), decay_s=note_s * 0.8, peak=0.35)
             for f in notes_hz]
    bed = synth.noise_bed(note_s * len(notes_hz), seed, low_hz=60, high_hz=240, peak=0.08)
    return _mix(np.concatenate(voice), bed)


def _speech(seed: int, syllables: int) -> np.ndarray:
    parts = []
    for k in range(syllables):
        f = 140.0 + 25.0 * ((seed * 7 + k * 3) % 5)
        parts.append(synth.tone(f, 0.16, harmonics=(1.0, 0.6, 0.5, 0.3), decay_s=0.12, peak=0.5))
    return _seq(*parts, gap_s=0.06)


ONI_SOUNDS: dict[str, Callable[[], np.ndarray]] = {
    "oni_waterfall_in": lambda: synth.noise_bed(1.0, 201, low_hz=60, high_hz=3000, tilt=0.8,
                                                peak=0.3),
    "oni_waterfall": lambda: synth.noise_bed(3.0, 202, low_hz=60, high_hz=3000, tilt=0.8,
                                             peak=0.6),
    "oni_waterfall_out": lambda: synth.noise_bed(1.0, 203, low_hz=60, high_hz=3000, tilt=1.5,
                                                 peak=0.25),
    "oni_droplet": lambda: synth.tone(1200, 0.08, decay_s=0.03, peak=0.5),
    "oni_forge_in": lambda: synth.noise_bed(0.8, 204, low_hz=40, high_hz=400, tilt=1.0,
                                            peak=0.3),
    "oni_forge": lambda: synth.noise_bed(2.0, 205, low_hz=40, high_hz=500, tilt=1.2, peak=0.5),
    "oni_forge_out": lambda: synth.noise_bed(0.8, 206, low_hz=40, high_hz=300, tilt=1.5,
                                             peak=0.2),
    "oni_anvil": lambda: synth.tone(880, 0.5, harmonics=(1.0, 0.5, 0.7, 0.3), decay_s=0.15,
                                    peak=0.7),
    "oni_mus_village_in": lambda: _melody([262, 330, 392, 523], 0.25, 207),
    "oni_mus_village_a": lambda: _melody([392, 330, 294, 262, 294, 330, 392, 392], 0.25, 208),
    "oni_mus_village_b": lambda: _melody([440, 392, 349, 330, 294, 330, 349, 392], 0.25, 209),
    "oni_mus_village_out": lambda: _melody([392, 330, 262, 196], 0.3, 210),
    "oni_villager_01": lambda: _speech(1, 7),
    "oni_villager_02": lambda: _speech(2, 9),
    "oni_villager_03": lambda: _speech(3, 6),
    "oni_bolt_flyby": lambda: synth.swoosh(211, duration_s=0.5, f0_hz=600, f1_hz=4000),
}

RG_SOUNDS: dict[str, Callable[[], np.ndarray]] = {
    "rg_torch": lambda: _mix(synth.noise_bed(1.5, 301, low_hz=100, high_hz=1500, peak=0.4),
                             _seq(*[synth.click(310 + k, duration_s=0.01) for k in range(5)],
                                  gap_s=0.29)),
    "rg_rope_creak": lambda: synth.chirp(180, 120, 0.45, peak=0.5),
    "rg_rope_groan": lambda: synth.chirp(120, 80, 0.6, peak=0.6),
    "rg_bell": lambda: synth.tone(523, 2.0, harmonics=(1.0, 0.6, 0.4, 0.25), decay_s=0.7,
                                  peak=0.7),
    "rg_chicken": lambda: _seq(synth.chirp(900, 1300, 0.08), synth.chirp(1000, 1500, 0.12),
                               gap_s=0.05),
    "rg_mill": lambda: _mix(synth.chirp(220, 160, 1.2, peak=0.3),
                            synth.noise_bed(1.2, 302, low_hz=50, high_hz=250, peak=0.2)),
}


_RENDERED: dict[str, np.ndarray] = {}
"""Each AC and Oni sound rendered once a process (read-only), shared by every game."""


def _render(name: str) -> np.ndarray:
    if name in AC_SOUNDS:
        return np.asarray(AC_SOUNDS[name](), dtype=np.float32)
    return np.asarray(ONI_SOUNDS[name]() * np.float32(VILLAGE_GAIN), dtype=np.float32)


def render_all() -> dict[str, np.ndarray]:
    """Every AC and Oni sound: from the disk cache (``sound_cache``) or synthesised and cached."""
    if not _RENDERED:
        names = [*AC_SOUNDS, *ONI_SOUNDS]
        path = sound_cache.cache_file([synth, ac_sounds, sys.modules[__name__]])
        found = sound_cache.load(path, names)
        if found is None:
            found = {name: _render(name) for name in names}
            sound_cache.save(path, found)
        for samples in found.values():
            samples.setflags(write=False)
        _RENDERED.update(found)
    return _RENDERED


def rendered(name: str) -> np.ndarray:
    """The samples of an AC or Oni sound (read-only), rendered or loaded once a process."""
    return render_all()[name]


def synthesize(bank: Any) -> list[str]:
    """Add the AC and Oni sounds to ``bank`` (a ``SoundBank``); returns their names.

    Each is rendered once (``rendered``): a second game, or the tests' many worlds,
    reuse the samples, and the next start-up loads them from the disk cache
    (``soundscape.demo_world.sound_cache``). The Redguard recipes become indexed 16-bit
    effects instead (``soundscape.demo_world.rg_village.load_effects``).
    """
    names = []
    for table in (AC_SOUNDS, ONI_SOUNDS):
        for name in table:
            synth.add_to(bank, name, rendered(name), RATE_HZ)
            names.append(name)
    return names
