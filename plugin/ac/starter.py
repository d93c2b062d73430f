"""The starter meadow: a tiny AC region, its sounds and one landblock, shipped with soundscape.

A game that wants terrain ambience before it has a region of its own calls
``plugin.ac.load_starter()`` (or ``load_starter(plugin.ac)``): the packaged
``soundscape/ac/data/starter_region.toml`` (one terrain, a meadow: a constant
wind bed, intermittent birds and crickets) is loaded, its three sounds are
synthesised into the sound bank (unless the game added its own under those
names) and one landblock of meadow is laid, so the listener standing on it hears
the meadow on the next tick. The TOML is the start of a real region: copy it
(``starter_region_text()``) and edit it (docs/ac.md).
"""

from __future__ import annotations

from importlib import resources
from typing import TYPE_CHECKING

import numpy as np

from soundscape import synth
from soundscape.ac.region import Region
from soundscape.ac.region_toml import region_from_dict
from soundscape.ac.sample import terrain_word
from soundscape.datafile import parse_toml

if TYPE_CHECKING:
    from soundscape.ac.runtime import AcRuntime

STARTER_RESOURCE = "data/starter_region.toml"
"""The region's file inside the ``soundscape.ac`` package."""

MEADOW = 0
"""The starter region's one terrain type."""


def starter_region_text() -> str:
    """The starter region's TOML, as shipped (the start of your own region file)."""
    return resources.files("soundscape.ac").joinpath(STARTER_RESOURCE).read_text(
        encoding="utf-8")


def starter_region() -> Region:
    """The starter region, parsed and checked like any region file."""
    source = f"soundscape/ac/{STARTER_RESOURCE}"
    return region_from_dict(parse_toml(starter_region_text(), source), source)


def starter_sounds(rate_hz: int = synth.DEFAULT_RATE_HZ) -> dict[str, np.ndarray]:
    """The three sounds the starter region names, synthesised (seeded: the same every run)."""
    wind = synth.noise_bed(4.0, seed=11, rate_hz=rate_hz, low_hz=80.0, high_hz=1_200.0,
                           tilt=1.5, peak=0.4)
    gap = np.zeros(int(0.06 * rate_hz), dtype=np.float32)
    bird = np.concatenate([synth.chirp(2_200.0, 3_600.0, 0.12, rate_hz=rate_hz), gap,
                           synth.chirp(2_600.0, 4_200.0, 0.10, rate_hz=rate_hz)])
    t = np.arange(int(0.5 * rate_hz), dtype=np.float64) / rate_hz
    pulses = (np.sin(2 * np.pi * 25.0 * t) > 0.3).astype(np.float64)  # 25 chirps a second
    cricket = synth.tone(4_500.0, 0.5, rate_hz=rate_hz, peak=0.4) * pulses.astype(np.float32)
    return {"meadow_wind": wind, "meadow_bird": bird.astype(np.float32),
            "meadow_cricket": cricket.astype(np.float32)}


def load_starter(runtime: AcRuntime, block_x: int | None = None,
                 block_y: int | None = None) -> int:
    """Load the starter region, add its sounds and a landblock of meadow at (x, y).

    Returns the landblock's entity id. The block defaults to the one whose
    south-west corner is world (0, 0) (``Settings.extra["ac_origin_block"]``,
    default (0, 0)): a listener 0..192 m east and north of the origin stands on
    it. Sounds the bank already has are kept (the game's own win).
    """
    origin_x, origin_y = runtime.manager.origin_block
    block_x = origin_x if block_x is None else block_x
    block_y = origin_y if block_y is None else block_y
    runtime.load_region(starter_region())
    bank = runtime.ctx.sounds
    if bank is not None:
        for name, samples in starter_sounds().items():
            if name not in bank:
                synth.add_to(bank, name, samples)
    words = np.full((9, 9), terrain_word(MEADOW), dtype=np.int64)
    return runtime.add_landblock(block_x, block_y, words, np.zeros((9, 9)))
