"""A small synthetic AC region and terrain, for tests, benchmarks and the demo world.

``sample_region(n_stb)`` has ``n_stb`` terrain types; terrain type ``i`` has one
scene whose scene type points at STB desc ``i``. Each desc has one constant
ambient (``Ambient1``, ``base_chance`` 0) and three intermittent ones
(``Ambient2..4``); each has a sound table whose entries name sound-bank sounds
``"ac_<desc>_<stype>"``. ``terrain_word(t)`` builds the word selecting terrain
type ``t`` (scene 0).
"""

from __future__ import annotations

from typing import Any

import numpy as np

STB_ID_BASE = 0x20000000


def terrain_word(terrain_type: int, scene: int = 0) -> int:
    """The terrain word for a terrain type and scene index (road bits 0-1 left 0).

    >>> terrain_word(3), terrain_word(3, 1)
    (12, 2060)
    """
    return (scene << 11) | ((terrain_type & 0x1F) << 2)


def sample_region(n_stb: int = 8, sounds_per_stb: int = 4) -> dict[str, Any]:
    """The parsed-TOML form of a region with ``n_stb`` descs of ``sounds_per_stb`` ambients."""
    terrain, scenes, stb, tables = [], [], [], []
    for i in range(n_stb):
        terrain.append({"name": f"terrain{i}", "scenes": [i]})
        scenes.append({"name": f"scene{i}", "stb": i})
        sounds, entries = [], []
        for j in range(sounds_per_stb):
            stype = f"Ambient{j + 1}"
            constant = j == 0
            sounds.append({
                "stype": stype,
                "volume": 0.8 if constant else 0.5,
                "base_chance": 0.0 if constant else 0.6,
                "min_rate": 3.0 if constant else 2.0 + j,
                "max_rate": 3.0 if constant else 6.0 + j,
            })
            entries.append({"stype": stype, "sound": f"ac_{i}_{stype}", "priority": 1 + j,
                            "probability": 1.0, "volume": 1.0})
        stb.append({"id": STB_ID_BASE + i, "sounds": sounds})
        tables.append({"id": STB_ID_BASE + i, "entry": entries})
    return {"terrain": terrain, "scene": scenes, "stb": stb, "sound_table": tables}


def striped_words(block_x: int, block_y: int, n_types: int = 8) -> np.ndarray:
    """9x9 x-major terrain words cycling through ``n_types`` terrain types per vertex."""
    x, y = np.meshgrid(np.arange(9), np.arange(9), indexing="ij")
    types = (x + 2 * y + 3 * block_x + 5 * block_y) % n_types
    return (types << 2).astype(np.int64)


def rolling_heights(block_x: int, block_y: int) -> np.ndarray:
    """9x9 x-major heights in metres: gentle hills, deterministic."""
    x, y = np.meshgrid(np.arange(9), np.arange(9), indexing="ij")
    gx, gy = x + 8 * block_x, y + 8 * block_y
    return 6.0 * np.sin(gx * 0.7) + 4.0 * np.cos(gy * 0.5)
