"""Redguard's INI files (SYSTEM.INI, SURFACE.INI) opened one way.

The file is read through ``read_file`` (a regular file, size-capped) as latin-1 and
parsed by Python's ``configparser``: repeated sections and keys allowed (the last
wins), no interpolation, keys without a value allowed (SURFACE.INI's ``[surfaces]``
lines have no ``=``). A file ``configparser`` cannot read is a ``DataError`` naming it.
"""

from __future__ import annotations

import configparser
from pathlib import Path

from soundscape.datafile import read_file
from soundscape.errors import DataError


def read_ini(path: str | Path, *, inline_comments: bool = False
             ) -> tuple[configparser.ConfigParser, dict[str, str]]:
    """(the parsed file, its section names by lower-case name).

    Args:
        inline_comments: ``;`` after a value starts a comment (SYSTEM.INI); off, a
            value keeps it (SURFACE.INI's reader cuts it itself).

    Raises:
        DataError: unreadable, or not an INI file ``configparser`` reads.
    """
    source = str(path)
    parser = configparser.ConfigParser(strict=False, interpolation=None, allow_no_value=True,
                                       inline_comment_prefixes=(";",) if inline_comments
                                       else None)
    text = read_file(path).decode("latin-1")  # a regular file, size-capped
    try:
        parser.read_string(text, source)
    except configparser.Error as error:
        raise DataError(source, None, None, f"cannot read: {error}") from None
    return parser, {name.lower(): name for name in parser.sections()}


__all__ = ["read_ini"]
