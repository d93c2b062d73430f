"""The wheel holds every package folder and data file of the fixed layout (issue 10).

Packages are discovered by ``setup.py``, not listed by hand; this builds the
real wheel and compares it with the folders on disk, so a sub-package that the
discovery missed (and that an editable install would still find) fails here.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).parents[2]
FOLDERS = {"plugin": "soundscape", "components": "soundscape/components",
           "systems": "soundscape/systems", "demo_world": "soundscape/demo_world"}


def build_wheel(out: Path) -> zipfile.ZipFile:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
         str(ROOT), "-w", str(out)],
        check=True, capture_output=True, text=True)
    (wheel,) = out.glob("soundscape-*.whl")
    return zipfile.ZipFile(wheel)


def expected_files() -> set[str]:
    """Every .py module and data file on disk, at its path inside the wheel."""
    files = set()
    for folder, package in FOLDERS.items():
        base = ROOT / folder
        for path in base.rglob("*"):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            if path.suffix == ".py" or "data" in path.relative_to(base).parts:
                files.add(f"{package}/{path.relative_to(base).as_posix()}")
    return files


def test_the_wheel_holds_every_module_and_data_file(tmp_path):
    with build_wheel(tmp_path) as wheel:
        names = set(wheel.namelist())
        missing = sorted(expected_files() - names)
        assert not missing, f"left out of the wheel: {missing}"
        assert "soundscape/demo_world/data/region.toml" in names
        assert "soundscape/ac/data/starter_region.toml" in names  # the README's meadow
        assert any(name.startswith("soundscape/audio/") for name in names)
        entry_points = next(n for n in names if n.endswith("entry_points.txt"))
        scripts = wheel.read(entry_points).decode()
    assert "soundscape-demo = soundscape.demo_world.__main__:main" in scripts
    assert "soundscape-sound-test = soundscape.oni.sound_test:main" in scripts


def test_the_wheel_is_typed_licensed_and_versioned(tmp_path):
    import soundscape

    with build_wheel(tmp_path) as wheel:
        names = set(wheel.namelist())
        assert "soundscape/py.typed" in names  # PEP 561: mypy reads the inline types
        (license_file,) = [n for n in names if n.endswith(".dist-info/licenses/LICENSE")]
        license_text = wheel.read(license_file).decode()
        metadata_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        metadata = wheel.read(metadata_name).decode()
    assert license_text.startswith("MIT License")
    assert (ROOT / "LICENSE").read_text(encoding="utf-8") == license_text
    assert "License-Expression: MIT" in metadata
    for classifier in ("Typing :: Typed", "Topic :: Multimedia :: Sound/Audio",
                       "Programming Language :: Python :: 3.11"):
        assert f"Classifier: {classifier}" in metadata
    version = next(line.split(": ", 1)[1] for line in metadata.splitlines()
                   if line.startswith("Version: "))
    assert soundscape.__version__ == version  # from the installed metadata
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    release = version.split(".dev")[0]
    assert f"## [{release}]" in changelog and "## [0.1.0]" in changelog


def test_the_version_falls_back_to_the_source_trees_pyproject(tmp_path):
    from soundscape._version import UNKNOWN, installed_version

    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nname = "not-installed-xyz"\nversion = "9.8.7"\n')
    assert installed_version("not-installed-xyz", pyproject) == "9.8.7"
    assert installed_version("other-not-installed-xyz", pyproject) == UNKNOWN
    pyproject.write_text("[project\n")
    assert installed_version("not-installed-xyz", pyproject) == UNKNOWN
