"""``make lint`` type-checks the installed layout, and the check bites (issue 10).

``tools/typecheck.py`` mirrors ``setup.py``'s package map as a symlink tree and
runs ``mypy -p soundscape`` on it. Checked here: the tree lays every module out
at its import path, a probe importing a soundscape module sees its real type
(not ``Any``), and an import renamed to a module that does not exist is an error.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _tool():
    spec = importlib.util.spec_from_file_location("typecheck", ROOT / "tools" / "typecheck.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_tree_lays_every_module_out_at_its_import_path(tmp_path):
    tool = _tool()
    roots = tool.package_roots()
    links = tool.build_tree(roots, tmp_path / "tree")
    package = tmp_path / "tree" / "soundscape"
    for name, folder in roots.items():
        for module in (ROOT / folder).rglob("*.py"):
            if "__pycache__" in module.parts:
                continue
            rel = module.relative_to(ROOT / folder)
            mirrored = package.joinpath(*name.split(".")[1:], rel)
            assert mirrored.resolve() == module.resolve(), f"{name}: {rel}"
    shown = os.path.relpath(package / "audio", ROOT)
    line = f"{shown}/wav.py:3: error: x"
    assert tool.unmap(line, links) == "plugin/audio/wav.py:3: error: x"


def test_a_soundscape_import_is_typed_and_a_missing_module_is_an_error(tmp_path):
    tool = _tool()
    tool.build_tree(tool.package_roots(), tmp_path / "tree")
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from soundscape.audio.wav import decode_wav\n"
        "from soundscape.audio.no_such_module import Mixer\n"
        "reveal_type(decode_wav)\n"
    )
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
         "--cache-dir", str(tmp_path / "cache"), "--follow-imports=silent", str(probe)],
        cwd=tmp_path, env=dict(os.environ, MYPYPATH=str(tmp_path / "tree")),
        capture_output=True, text=True, check=False,
    )
    out = run.stdout
    assert run.returncode == 1, out
    assert 'module named "soundscape.audio.no_such_module"' in out
    revealed = next(line for line in out.splitlines() if "Revealed type" in line)
    assert "Any" not in revealed and "soundscape.audio.wav.DecodedWav" in revealed
