"""``soundscape.__version__``: the installed distribution's version.

Read from the package metadata (``importlib.metadata``), so it is the version
pip installed and never a second copy to keep in step. A source tree that was
never installed falls back to ``pyproject.toml`` beside it, then to ``0+unknown``.
"""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

DISTRIBUTION = "soundscape"
UNKNOWN = "0+unknown"


def installed_version(distribution: str = DISTRIBUTION,
                      pyproject: Path | None = None) -> str:
    """The version of ``distribution`` (metadata, else ``pyproject.toml``, else ``0+unknown``).

    >>> installed_version("no-such-distribution-xyz", Path("/nonexistent/pyproject.toml"))
    '0+unknown'
    """
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        pass
    path = pyproject if pyproject is not None else Path(__file__).parents[1] / "pyproject.toml"
    try:
        project = tomllib.loads(path.read_text(encoding="utf-8")).get("project", {})
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return UNKNOWN
    version = project.get("version") if project.get("name") == distribution else None
    return version if isinstance(version, str) else UNKNOWN


__version__ = installed_version()
