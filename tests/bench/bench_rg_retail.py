"""Reading the Redguard runtime's data from the retail files (``load_game_folder``).

A synthetic game folder the size of the shipped one's sound data is written by the
test writer: MAIN.SFX with 118 effects of 2 s 16-bit 22,050 Hz PCM (its size is
``rg_sfx_mib``) and ENGLISH.RTX with 4,866 lines, two in three voiced with 1.5 s of
8-bit 11,025 Hz speech (``rg_rtx_mib``), then:

* ``rg_folder_open_ms``: median of ``load_game_folder`` (SYSTEM.INI, SURFACE.INI,
  the 118 effect headers, the RTX footer and index);
* ``rg_folder_open_read_kib``: the bytes that open reads from MAIN.SFX and the RTX;
* ``rg_folder_open_alloc_kib``: memory allocated by an open and still held after it
  (tracemalloc; the effect headers and the RTX index);
* ``rg_effect_first_ms``: median of an effect's first ``effects.get`` (its PCM read,
  decoded and registered in the sound bank);
* ``rg_rtx_line_first_ms``: median of a voiced line's first ``rtx_store.find``.
"""

from __future__ import annotations

import sys
import tempfile
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "unit"))

from rg_retail_writer import Audio, RtxWriter, game_folder, tone  # noqa: E402
from timing import median_seconds  # noqa: E402

from soundscape import Settings, SoundscapePlugin  # noqa: E402

EFFECTS = 118
LINES = 4866


def _write(folder: Path) -> Path:
    effects = [Audio(tone(44100, i), level=64) for i in range(EFFECTS)]
    rtx = RtxWriter()
    speech = tone(16538, 1, bits=8)
    for i in range(LINES):
        label = f"{i:04x}".encode()
        text = f"Line {i}: a subtitle of about this length.".encode()
        rtx.add(label, text, Audio(speech, sample_rate=11025, level=100) if i % 3 else None)
    return game_folder(folder, effects, rtx)


def run() -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = _write(Path(tmp) / "Redguard")
        sizes = ((folder / "SOUND" / "MAIN.SFX").stat().st_size / 2**20,
                 (folder / "ENGLISH.RTX").stat().st_size / 2**20)
        plugin = SoundscapePlugin(Settings(backend="none",
                                           features=("audio", "redguard"))).install()
        rt = plugin.redguard
        opened = rt.load_game_folder(folder)
        read_kib = (opened.sfx.file.bytes_read + opened.rtx.file.bytes_read) / 1024
        open_ms = median_seconds(lambda: rt.load_game_folder(folder), 30, 3) * 1e3
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        rt.load_game_folder(folder)
        held_kib = (tracemalloc.get_traced_memory()[0] - before) / 1024
        tracemalloc.stop()
        effects = iter(range(EFFECTS))
        effect_ms = median_seconds(lambda: rt.effects.get(next(effects)), 100, 3) * 1e3
        labels = iter([f"{i:04x}" for i in range(LINES) if i % 3])
        line_ms = median_seconds(lambda: rt.rtx_store.find(next(labels)), 300, 3) * 1e3
        rt.game_folder.close()
        plugin.uninstall()
    return {"rg_folder_open_ms": open_ms, "rg_folder_open_read_kib": read_kib,
            "rg_folder_open_alloc_kib": held_kib, "rg_effect_first_ms": effect_ms,
            "rg_rtx_line_first_ms": line_ms, "rg_sfx_mib": sizes[0], "rg_rtx_mib": sizes[1]}


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key}: {value:.4g}")
