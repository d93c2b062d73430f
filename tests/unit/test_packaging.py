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
    """Every .py module and demo data file on disk, at its path inside the wheel."""
    files = set()
    for folder, package in FOLDERS.items():
        base = ROOT / folder
        for path in base.rglob("*"):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            if path.suffix == ".py" or (folder == "demo_world" and "data" in path.parts):
                files.add(f"{package}/{path.relative_to(base).as_posix()}")
    return files


def test_the_wheel_holds_every_module_and_data_file(tmp_path):
    with build_wheel(tmp_path) as wheel:
        names = set(wheel.namelist())
        missing = sorted(expected_files() - names)
        assert not missing, f"left out of the wheel: {missing}"
        assert "soundscape/demo_world/data/region.toml" in names
        assert any(name.startswith("soundscape/audio/") for name in names)
        entry_points = next(n for n in names if n.endswith("entry_points.txt"))
        scripts = wheel.read(entry_points).decode()
    assert "soundscape-demo = soundscape.demo_world.__main__:main" in scripts
    assert "soundscape-sound-test = soundscape.oni.sound_test:main" in scripts
