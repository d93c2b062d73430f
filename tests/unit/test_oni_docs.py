"""docs/oni.md's complete example runs as written (walls, a placed ambient, a dialogue,
a flyby)."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "oni.md"


def test_the_how_to_example_runs():
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 1
    namespace: dict[str, object] = {}
    exec(compile(blocks[0], str(DOC), "exec"), namespace)  # noqa: S102 - our own doc
    assert namespace["record"] is not None
