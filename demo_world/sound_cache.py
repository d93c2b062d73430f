"""The demo's synthesised sounds cached on disk, so a start-up loads them instead of
rendering them again (the beds' filter banks take ~0.3 s).

One ``.npz`` file holds every AC and Oni sound. Its name carries a hash of the
sources that make the samples (``soundscape.synth``, the demo's recipes) and the
numpy version, so a changed recipe or numpy never reads an old file. The folder is
``$SOUNDSCAPE_CACHE_DIR`` (empty: no cache), else ``$XDG_CACHE_HOME/soundscape``,
else ``~/.cache/soundscape``. A missing, unreadable, corrupt or incomplete file is
rendered again; a folder that cannot be written is skipped: the cache only saves
time, it never changes a sample (the arrays are stored exactly).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import zipfile
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

ENV = "SOUNDSCAPE_CACHE_DIR"


def cache_dir() -> Path | None:
    """Where the cache lives, or None when ``$SOUNDSCAPE_CACHE_DIR`` is set empty."""
    chosen = os.environ.get(ENV)
    if chosen is not None:
        return Path(chosen) if chosen else None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "soundscape"


def cache_file(sources: Iterable[ModuleType]) -> Path | None:
    """The cache file for samples made by the modules ``sources`` (None: no cache)."""
    folder = cache_dir()
    if folder is None:
        return None
    digest = hashlib.sha256(np.__version__.encode())
    for module in sources:
        digest.update(Path(str(module.__file__)).read_bytes())
    return folder / f"demo-sounds-{digest.hexdigest()[:16]}.npz"


def load(path: Path | None, names: Iterable[str]) -> dict[str, np.ndarray] | None:
    """Every one of ``names`` from the cache file, or None if any is missing or unreadable."""
    if path is None or not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as stored:
            return {name: np.array(stored[name], dtype=np.float32) for name in names}
    except (OSError, KeyError, ValueError, zipfile.BadZipFile, EOFError):
        return None


def save(path: Path | None, sounds: dict[str, np.ndarray]) -> bool:
    """Write the cache file atomically (a temporary file, then a rename); False if it failed."""
    if path is None:
        return False
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(prefix=".demo-sounds-", suffix=".npz", dir=path.parent)
        try:
            with os.fdopen(handle, "wb") as out:
                write_npz: Any = np.savez  # its stubs read a ** mapping as allow_pickle
                write_npz(out, **sounds)
            os.replace(temp, path)
        finally:
            if os.path.exists(temp):
                os.unlink(temp)
    except OSError:
        return False
    return True
