"""Which names can be file names: sound names and paths written in data files.

A leaf module (the standard library and ``soundscape.errors`` only), so components
can check a sound name when they are made.
"""

from __future__ import annotations

import os

from soundscape.errors import InputError

NAME_MAX_BYTES = 255
"""The longest file name (one path component) the common file systems hold."""

LONGEST_SUFFIX = ".aiff"
"""As long as the longest suffix the sound bank tries (``audio.decoders.SUFFIXES``)."""

PATH_MAX_BYTES = 4095
"""The longest path Linux opens (``PATH_MAX`` less its NUL)."""


def name_problem(name: object) -> str | None:
    """Why ``name`` cannot be a relative file name, or None when it can.

    Refused: a non-string, a NUL, a character the file system cannot encode (a lone
    surrogate), a component longer than ``NAME_MAX_BYTES`` or a path longer than
    ``PATH_MAX_BYTES`` once encoded. (An empty name is a name that finds no file.)

    >>> name_problem("ambient/wind.wav") is None
    True
    >>> name_problem("a\\x00b")
    'contains a NUL character'
    >>> name_problem("x" * 300)
    'a file name of 300 bytes; at most 255'
    """
    if not isinstance(name, str):
        return f"must be a string, got {type(name).__name__}"
    if "\0" in name:
        return "contains a NUL character"
    try:
        encoded = os.fsencode(name)
    except UnicodeEncodeError:
        return "cannot be encoded as a file name (a lone surrogate?)"
    if len(encoded) > PATH_MAX_BYTES:
        return f"a path of {len(encoded)} bytes; at most {PATH_MAX_BYTES}"
    separators = {b"/", os.fsencode(os.sep)} | ({os.fsencode(os.altsep)} if os.altsep else set())
    parts = [encoded]
    for sep in separators:
        parts = [piece for part in parts for piece in part.split(sep)]
    longest = max(len(part) for part in parts)
    if longest > NAME_MAX_BYTES:
        return f"a file name of {longest} bytes; at most {NAME_MAX_BYTES}"
    return None


def sound_name_problem(name: object) -> str | None:
    """Why a sound name cannot name a file in the sound root, or None.

    The sound bank tries the name with each decoder suffix added
    (``audio.decoders.SUFFIXES``), so the name with the longest of them must fit too.

    >>> sound_name_problem("door") is None, sound_name_problem("d" * 251) is not None
    (True, True)
    """
    problem = name_problem(name)
    if problem is None and isinstance(name, str) and name:
        problem = name_problem(f"{name}{LONGEST_SUFFIX}")
    return problem


def check_sound_name(name: object, where: str, what: str = "sound") -> str:
    """``name`` when it can name a sound file; else ``InputError`` naming ``where``.

    >>> check_sound_name("a\\x00b", "Emitter")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    soundscape.errors.InputError: Emitter: sound 'a\\x00b' cannot be a file name: contains a NUL ...
    """
    problem = sound_name_problem(name)
    if problem is not None:
        raise InputError(f"{where}: {what} {name!r} cannot be a file name: {problem}")
    return name  # type: ignore[return-value]  # sound_name_problem checked it is a str
