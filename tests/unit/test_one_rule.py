"""One rule, one place (issue 10): the rules several features share live in one module
each, and no copy of them is left in the others."""

from __future__ import annotations

import ast
import math
from pathlib import Path

from soundscape.laws.oni import in_hearing

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
