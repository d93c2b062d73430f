"""bench_rooms runs (make bench must not break when the mixer bench's scene changes)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"


def test_bench_rooms_scenes_render():
    spec = importlib.util.spec_from_file_location("bench_rooms", BENCH / "bench_rooms.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    heads = module.headphone_scene()
    assert heads.rooms is not None and len(heads.rooms.head._keys) == 24  # the mono voices
    out = heads.render(module.BLOCK)
    assert out.shape == (module.BLOCK, 2) and abs(out).max() > 0.0
