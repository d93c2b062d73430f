"""Reading the Oni runtime's data from a retail level's instance files (``load_level``).

A synthetic PC level the shape of ``level0_Final`` is written by the test writer:
12,000 instances (1,500 OSBD groups, ambients and impulses, 2,500 SNDD sounds of
1 s of MS ADPCM 22,050 Hz mono, the rest other templates), its ``.dat`` and ``.raw``
(``oni_level_raw_mib``), then:

* ``oni_level_open_ms``: median of ``load_level`` (header, descriptors, name table,
  every OSBD instance and chunk loaded into the database and resolved);
* ``oni_level_open_read_kib``: the bytes that open reads from the .dat and .raw;
* ``oni_sndd_ms_adpcm_ms``: median of one sound's first decode (1 s of MS ADPCM,
  read, decoded, registered in the sound bank);
* ``oni_sndd_ima4_ms``: the same for 1 s of Mac IMA4 mono.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "unit"))

import numpy as np  # noqa: E402
from oni_level_writer import LevelWriter, mac_sndd, pc_sndd  # noqa: E402
from timing import median_seconds  # noqa: E402

from soundscape import Settings, SoundscapePlugin  # noqa: E402
from soundscape.oni.data import Ambient, Group, Impulse, Permutation  # noqa: E402
from soundscape.oni.osbd import write_chunk  # noqa: E402

SOUNDS = 2500
GROUPS = 800
TONE = (np.sin(np.arange(22050) / 9) * 9000).astype(np.int16)[:, None]


def _write(folder: Path, mac: bool, sounds: int) -> Path:
    w = LevelWriter(mac=mac)
    fields, data = mac_sndd(TONE) if mac else pc_sndd(TONE)
    for i in range(sounds):
        w.add("SNDD", f"{'m' if mac else ''}snd{i:04d}", fields, data)
    for i in range(GROUPS if not mac else 10):
        w.osbd(f"g{i}.grp", write_chunk(Group(f"g{i}", [Permutation(f"snd{i % sounds:04d}",
                                                                      1, 1, 1, 1, 1)],
                                              1.0, 1.0, 0, 0, 1, 6)))
    for i in range(400 if not mac else 0):
        w.osbd(f"a{i}.amb", write_chunk(Ambient(f"a{i}", base1_name=f"g{i}", version=6)))
        w.osbd(f"i{i}.imp", write_chunk(Impulse(f"i{i}", group_name=f"g{i}", version=6)))
    for i in range(12000 - len(w.instances) if not mac else 0):
        w.add("TXMP", f"tex{i}", b"\0" * 24)
    folder.mkdir(parents=True, exist_ok=True)
    return w.write(folder / "level0_Final.dat")


def run() -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        pc = _write(Path(tmp) / "pc", False, SOUNDS)
        mac = _write(Path(tmp) / "mac", True, 120)
        raw_mib = pc.with_suffix(".raw").stat().st_size / 2**20
        plugin = SoundscapePlugin(Settings(backend="none", features=("audio", "oni"))).install()
        oni = plugin.oni
        level = oni.load_level(pc)
        read_kib = (level.file.bytes_read + level.raw.bytes_read) / 1024
        open_ms = median_seconds(lambda: oni.load_level(pc), 15, 2) * 1e3
        names = iter([f"snd{i:04d}" for i in range(SOUNDS)])
        ms_adpcm = median_seconds(lambda: plugin.sounds.get(next(names)), 40, 2) * 1e3
        oni.load_level(mac)
        mac_names = iter([f"msnd{i:04d}" for i in range(120)])
        ima4 = median_seconds(lambda: plugin.sounds.get(next(mac_names)), 40, 2) * 1e3
        oni.level.close()
        plugin.uninstall()
    return {"oni_level_open_ms": open_ms, "oni_level_open_read_kib": read_kib,
            "oni_sndd_ms_adpcm_ms": ms_adpcm, "oni_sndd_ima4_ms": ima4,
            "oni_level_raw_mib": raw_mib}


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key}: {value:.4g}")
