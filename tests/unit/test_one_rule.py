"""One rule, one place (issue 10): the rules several features share live in one module
each, and no copy of them is left in the others."""

from __future__ import annotations

import ast
import math
from pathlib import Path

import pytest

from soundscape import DataError, InputError, Settings, SoundscapePlugin
from soundscape.ac import config as ac_config
from soundscape.laws.oni import in_hearing
from soundscape.oni import config as oni_config
from soundscape.redguard.config import RgConfig
from soundscape.settings import EXTRA_KEYS

ROOT = Path(__file__).resolve().parents[2]


def _sources() -> list[Path]:
    return sorted(p for folder in ("plugin", "systems", "components")
                  for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts)


def test_hearing_is_three_times_far_and_nan_is_not_in_hearing():
    assert in_hearing(30.0 ** 2, 10.0) and not in_hearing(30.01 ** 2, 10.0)
    assert not in_hearing(math.nan, 10.0) and not in_hearing(100.0, math.nan)
    assert not in_hearing(math.inf, 10.0) and in_hearing(0.0, 0.0)


def test_the_hearing_factor_is_written_only_in_the_law():
    """A ``x * 9`` or ``x / 9`` outside ``soundscape.laws`` is a copy of the hearing test
    (AC's nine directions, ``soundscape.ac``, are another nine)."""
    copies = []
    for path in _sources():
        if {"laws", "ac"} & set(path.relative_to(ROOT).parts):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Div)):
                for side in (node.left, node.right):
                    if isinstance(side, ast.Constant) and side.value in (9, 9.0):
                        copies.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not copies, f"use laws.oni.in_hearing: {copies}"


@pytest.mark.parametrize("features", [("occlusion",), ("audio", "oni"),
                                      ("audio", "oni", "occlusion")])
@pytest.mark.parametrize("units", [True, 0, -1.0, math.nan, math.inf, "2", None])
def test_oni_units_per_m_is_refused_the_same_way_by_oni_and_its_walls(features, units):
    settings = Settings(backend="none", features=features, extra={"oni_units_per_m": units})
    with pytest.raises(DataError) as refused:
        SoundscapePlugin(settings).install()
    assert str(refused.value) == str(DataError(
        "Settings", "extra", "oni_units_per_m", f"must be a positive finite number, got {units!r}"))


def test_oni_and_its_walls_read_one_scale():
    settings = Settings(backend="none", features=("audio", "oni", "occlusion"),
                        extra={"oni_units_per_m": 4})
    plugin = SoundscapePlugin(settings).install()
    assert plugin.oni.units_per_m == plugin.occlusion.units_per_m == 4.0
    plugin.uninstall()


def test_settings_refuse_an_unknown_extra_key_naming_it():
    misspelt = r"extra\.redgaurd: unknown setting; did you mean 'redguard'"
    with pytest.raises(DataError, match=misspelt):
        Settings(extra={"redgaurd": {"sound_distance": 64}})
    with pytest.raises(DataError, match="extra.volume: unknown setting"):
        Settings(extra={"volume": 1.0})
    with pytest.raises(ValueError, match="Settings.extra must be a dict"):
        Settings(extra=[("redguard", {})])  # type: ignore[arg-type]


def test_every_extra_key_is_read_by_one_typed_config():
    assert set(EXTRA_KEYS) == {*ac_config.KEYS, oni_config.KEY, "redguard"}
    extra = {"ac_origin_block": (2, 3), "ac_ambient_enabled": False, "oni_units_per_m": 2.0,
             "redguard": {"sound_distance": 64}}
    plugin = SoundscapePlugin(Settings(backend="none", extra=extra)).install()
    assert plugin.ac.config == ac_config.AcConfig(origin_block=(2, 3), ambient_enabled=False)
    assert not plugin.ac.enabled
    assert plugin.oni.units_per_m == oni_config.OniConfig.from_settings(extra).units_per_m
    assert plugin.redguard.config == RgConfig.from_settings(extra)
    plugin.uninstall()
    with pytest.raises(InputError, match="ac_ambient_enabled.*True or False"):
        ac_config.AcConfig.from_settings({"ac_ambient_enabled": "no"})
