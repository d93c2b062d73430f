"""docs/img/distance_models.svg is what tools/plot_distance_models.py draws from the law."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_tool():
    spec = importlib.util.spec_from_file_location(
        "plot_distance_models", ROOT / "tools" / "plot_distance_models.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_picture_is_the_scripts_output():
    tool = load_tool()
    committed = (ROOT / "docs" / "img" / "distance_models.svg").read_text()
    assert committed == tool.svg(), "run: python tools/plot_distance_models.py"
    assert "distance_models.svg" in (ROOT / "docs" / "audio.md").read_text()


def test_each_curve_is_the_law():
    tool = load_tool()
    polylines = re.findall(r'<polyline points="([^"]+)"', tool.svg())
    assert len(polylines) == len(tool.CURVES) == 6
    inverse = [tuple(map(float, p.split(","))) for p in polylines[0].split()]
    at_10m = next(y for x, y in inverse if abs(x - tool._x(10.0)) < 0.05)
    assert abs(at_10m - tool._y(0.2)) < 0.06  # 2 / 10: min / d
    linear = [tuple(map(float, p.split(","))) for p in polylines[2].split()]
    assert linear[-1][1] == tool._y(0.0)  # silent from max_distance_m on
