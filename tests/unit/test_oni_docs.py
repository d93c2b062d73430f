"""docs/oni.md's complete example runs as written (walls, a placed ambient, a dialogue,
a flyby)."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "oni.md"


def blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_the_how_to_example_runs():
    assert len(blocks()) == 2
    namespace: dict[str, object] = {}
    exec(compile(blocks()[0], str(DOC), "exec"), namespace)  # noqa: S102 - our own doc
    assert namespace["record"] is not None


def test_the_worked_units_example_runs_and_matches_its_table():
    namespace: dict[str, object] = {}
    exec(compile(blocks()[1], str(DOC), "exec"), namespace)  # noqa: S102 - its asserts
    table = DOC.read_text(encoding="utf-8").split("## Units, worked")[1]
    for metres in ("6", "30", "44", "45", "50"):
        assert f"| {metres} | {metres} |" in table
