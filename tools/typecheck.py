"""Type-check the installed layout: ``mypy -p soundscape`` over a mirror of the package map.

The design card maps four folders onto one import package (``plugin/`` is
``soundscape``, ``components/`` is ``soundscape.components``...; the table is
``ROOTS`` in ``setup.py``). The editable install finds them with an import hook
that mypy cannot follow, and ``mypy plugin components ...`` checks the folders
under their folder names, so every ``soundscape.*`` import would be typed ``Any``
and an import of a module that does not exist would pass.

This script builds ``build/typecheck/soundscape``, a tree of symlinks laid out as
the wheel lays the package out, runs ``mypy -p soundscape`` on it and prints
mypy's report with each path turned back into the file in the repository.

Usage: ``python tools/typecheck.py [extra mypy arguments]`` (``make lint`` runs it).
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TREE = ROOT / "build" / "typecheck"


def package_roots(setup_py: Path = ROOT / "setup.py") -> dict[str, str]:
    """``setup.py``'s ``ROOTS`` table (package -> folder), read without running setup."""
    module = ast.parse(setup_py.read_text())
    for node in module.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and node.targets[0].id == "ROOTS"):
            roots = ast.literal_eval(node.value)
            if isinstance(roots, dict):
                return {str(k): str(v) for k, v in roots.items()}
    raise SystemExit(f"{setup_py}: no ROOTS = {{package: folder}} table")


def build_tree(roots: dict[str, str], tree: Path = TREE, root: Path = ROOT) -> dict[Path, Path]:
    """Lay the packages out under ``tree``; returns each link -> the folder it points at.

    A package's folder becomes a real directory whose entries are symlinks to the
    folder's entries, so a sub-package mapped from another folder can sit inside it.
    """
    shutil.rmtree(tree, ignore_errors=True)
    links: dict[Path, Path] = {}
    for package in sorted(roots, key=lambda name: name.count(".")):
        folder = (root / roots[package]).resolve()
        target = tree.joinpath(*package.split("."))
        if target.is_symlink() or target.exists():
            raise SystemExit(f"typecheck: {package} collides with a folder already in the tree")
        target.mkdir(parents=True)
        for entry in sorted(folder.iterdir()):
            if entry.name == "__pycache__":
                continue
            (target / entry.name).symlink_to(entry)
            links[target / entry.name] = entry
    return links


def unmap(line: str, links: dict[Path, Path], root: Path = ROOT) -> str:
    """A line of mypy's report with tree paths turned back into repository paths."""
    for link, real in sorted(links.items(), key=lambda item: -len(str(item[0]))):
        shown = os.path.relpath(link, root)
        if shown in line:
            return line.replace(shown, os.path.relpath(real, root))
    return line


def main(argv: list[str]) -> int:
    links = build_tree(package_roots())
    env = dict(os.environ, MYPYPATH=str(TREE))
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "-p", "soundscape", *argv],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False,
    )
    for line in (run.stdout + run.stderr).splitlines():
        print(unmap(line, links))
    return run.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
