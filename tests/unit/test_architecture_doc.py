"""docs/architecture.md stays true: every file it names exists, every package folder
and every phase is on it (issue 10)."""

from __future__ import annotations

import re
from pathlib import Path

from soundscape.phase import Phase

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"
FOLDERS = ("plugin", "components", "systems", "demo_world")


def test_every_file_the_map_names_exists():
    text = DOC.read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:plugin|components|systems|demo_world)/[\w/]+\.py)`", text))
    assert len(named) > 20
    missing = sorted(path for path in named if not (ROOT / path).is_file())
    assert not missing, f"docs/architecture.md names files that are not there: {missing}"
    # a file named by its bare name (the tick table's systems, a hop's siblings)
    for name in re.findall(r"`(\w+\.py)`", text):
        assert (ROOT / name).is_file() or any(any((ROOT / folder).rglob(name))
                                              for folder in FOLDERS), name


def test_every_package_folder_and_phase_is_on_the_map():
    text = DOC.read_text(encoding="utf-8")
    for folder in FOLDERS:
        for init in (ROOT / folder).rglob("__init__.py"):
            package = init.parent.relative_to(ROOT).as_posix()
            if "data" in init.parent.relative_to(ROOT).parts:
                continue
            assert f"`{package}/`" in text or f"{init.parent.name}/" in text, package
    for phase in Phase:
        assert f"| {phase.name} |" in text, phase.name
