"""Reading the plugin's data files: one way to open TOML, with errors that name the file."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from soundscape.errors import DataError


def parse_toml(text: str, source: str) -> dict[str, Any]:
    """The TOML document in ``text``; ``source`` names it in the error.

    >>> parse_toml("a = 1", "x.toml")
    {'a': 1}
    >>> parse_toml("a = ", "x.toml")
    Traceback (most recent call last):
    ...
    soundscape.errors.DataError: x.toml: malformed TOML: ...
    """
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise DataError(source, None, None, f"malformed TOML: {error}") from None


def read_toml(path: str | Path) -> dict[str, Any]:
    """The TOML document in the file at ``path``.

    Raises:
        DataError: the file cannot be read (missing, not UTF-8) or is not TOML.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise DataError(str(path), None, None, f"cannot read: {error}") from None
    return parse_toml(text, str(path))
