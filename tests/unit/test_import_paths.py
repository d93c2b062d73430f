"""Users' imports keep working across the 0.2 layout (issue 10).

* every ``soundscape.…`` path the README and docs show resolves;
* every package's exports (``__all__``), the feature ``install`` entry points
  among them, resolve;
* every 0.1 module path that moved still imports, gives the module at its new
  path, and warns with a ``DeprecationWarning`` naming the new path;
* the ``__init__`` files stay thin: importing ``soundscape.audio.wav`` in a fresh
  interpreter loads neither the mixer, the plugin, the runtimes, esper nor pyglet.
"""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from soundscape import _moved

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PACKAGES = ["soundscape", "soundscape.audio", "soundscape.ac", "soundscape.oni",
            "soundscape.occlusion", "soundscape.redguard", "soundscape.overlay",
            "soundscape.components"]


def documented_paths() -> list[str]:
    found: set[str] = set()
    for doc in DOCS:
        found |= set(re.findall(r"\bsoundscape(?:\.[A-Za-z_][A-Za-z_0-9]*)+", doc.read_text()))
    return sorted(found)


def resolve(path: str) -> object:
    """What a dotted path names: its longest importable prefix, then attributes."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            obj = getattr(obj, name)
        return obj
    raise ModuleNotFoundError(path)


def test_the_docs_show_paths_at_all():
    paths = documented_paths()
    assert "soundscape.overlay.probe" in paths and len(paths) > 10


@pytest.mark.parametrize("path", documented_paths())
def test_every_documented_path_resolves(path):
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)  # docs show the new paths
        assert resolve(path) is not None


@pytest.mark.parametrize("package", PACKAGES)
def test_every_package_export_resolves(package):
    module = importlib.import_module(package)
    names = list(getattr(module, "__all__", []))
    assert names, f"{package} exports nothing"
    for name in names:
        assert getattr(module, name) is not None, f"{package}.{name}"


@pytest.mark.parametrize("law", ["ac", "oni", "redguard", "modern", "directsound", "angles"])
def test_every_law_module_imports_from_soundscape_laws(law):
    module = importlib.import_module(f"soundscape.laws.{law}")
    assert getattr(importlib.import_module("soundscape.laws"), law) is module


@pytest.mark.parametrize("feature", ["audio", "ac", "oni", "occlusion", "redguard"])
def test_each_feature_has_its_install_entry_point(feature):
    package = importlib.import_module(f"soundscape.{feature}")
    assert callable(package.install)
    assert package.install is importlib.import_module(f"soundscape.{feature}.feature").install


@pytest.mark.parametrize(("old", "new"), sorted(_moved.MOVED.items()))
def test_a_moved_path_imports_with_a_deprecation_warning(old, new):
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=re.escape(new)):
        module = importlib.import_module(old)
    assert module is importlib.import_module(new)


def test_an_unknown_old_path_is_still_an_import_error():
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("soundscape.no_such_module")


def test_importing_the_wav_decoder_does_not_import_the_whole_plugin():
    code = (
        "import sys, soundscape.audio.wav\n"
        "heavy = ['soundscape.audio.mixer', 'soundscape.plugin', 'soundscape.ac.runtime',\n"
        "         'soundscape.oni.sound', 'esper', 'pyglet']\n"
        "print([m for m in heavy if m in sys.modules])\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"
