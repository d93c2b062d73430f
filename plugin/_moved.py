"""Module paths that moved in 0.2, kept importable for one release.

0.1 kept every module flat (``soundscape.wav``, ``soundscape.ac_region``...);
0.2 puts each feature in its own sub-package. Importing an old path still works
and gives the module at its new path, with a ``DeprecationWarning`` naming it.
The aliases go in 0.3.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from types import ModuleType

MOVED: dict[str, str] = {
    "soundscape.ac_region": "soundscape.ac.region",
    "soundscape.ac_region_toml": "soundscape.ac.region_toml",
    "soundscape.ac_sample": "soundscape.ac.sample",
    "soundscape.channels": "soundscape.audio.channels",
    "soundscape.emitters": "soundscape.audio.emitters",
    "soundscape.mixer": "soundscape.audio.mixer",
    "soundscape.oni_osbd": "soundscape.oni.osbd",
    "soundscape.oni_toml": "soundscape.oni.toml",
    "soundscape.overlay_probe": "soundscape.overlay.probe",
    "soundscape.overlay_style": "soundscape.overlay.style",
    "soundscape.profiles": "soundscape.audio.profiles",
    "soundscape.rg_config": "soundscape.redguard.config",
    "soundscape.sound_test": "soundscape.oni.sound_test",
    "soundscape.sounds": "soundscape.audio.sounds",
    "soundscape.wav": "soundscape.audio.wav",
}
"""Old module path -> new module path: every path the 0.1 docs showed."""


class MovedModuleFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Answers an old path with the module at its new path, warning once per import."""

    def find_spec(self, fullname: str, path: object = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = MOVED[spec.name]
        warnings.warn(f"{spec.name} moved to {new}; the old path goes in soundscape 0.3",
                      DeprecationWarning, stacklevel=2)
        return importlib.import_module(new)

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module at the new path is already imported."""


def install_finder() -> None:
    """Put the finder on ``sys.meta_path`` once."""
    if not any(isinstance(finder, MovedModuleFinder) for finder in sys.meta_path):
        sys.meta_path.append(MovedModuleFinder())
