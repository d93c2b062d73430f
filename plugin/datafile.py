"""Reading the plugin's data files: one way to open TOML and the files data names.

Every file soundscape reads whole goes through ``read_file``: it must be a regular
file (a FIFO or device such as ``/dev/zero`` is refused without blocking) and is read
with a size cap (``Settings.max_file_bytes``, default ``MAX_FILE_BYTES``). A path
named *inside* a data file (an effect's ``file``, an RTX line's ``file``, an AC
``packed`` desc) resolves in the data file's own folder (``data_path``) and may not
leave it; a sound name resolves in ``Settings.sound_root`` (``SoundBank``). Every
error is a ``DataError`` naming the file, the record and the field.
"""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path
from typing import Any

from soundscape.errors import DataError
from soundscape.names import check_sound_name, name_problem, sound_name_problem

__all__ = ["MAX_FILE_BYTES", "check_sound_name", "data_path", "name_problem", "parse_toml",
           "read_file", "read_toml", "sound_name_problem"]

MAX_FILE_BYTES = 64 * 1024 * 1024
"""The default ``Settings.max_file_bytes``: 64 MiB, over six minutes of 44.1 kHz 16-bit
stereo PCM. A larger file is refused before it is read."""

def parse_toml(text: str, source: str) -> dict[str, Any]:
    """The TOML document in ``text``; ``source`` names it in the error.

    Nesting deep enough to exhaust ``tomllib``'s recursion is malformed too.

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
    except RecursionError:
        raise DataError(source, None, None, "malformed TOML: nested too deeply") from None


def data_path(root: Path, name: object, source: str, record: str | None,
              field: str) -> Path:
    """The file ``name`` (a path written in the data file ``source``) names in ``root``.

    Raises:
        DataError: the name cannot be a file name, or it leads outside ``root``
            (``..``, an absolute path or a link out), naming ``record.field``.
    """
    if not isinstance(name, str) or not name:
        raise DataError(source, record, field, "must be a non-empty file name")
    problem = name_problem(name)
    if problem is not None:
        raise DataError(source, record, field, f"{name!r} cannot be a file name: {problem}")
    base = root.resolve()
    try:
        candidate = (base / name).resolve()
    except (OSError, RuntimeError) as error:  # a link loop
        raise DataError(source, record, field, f"cannot resolve {name!r}: {error}") from None
    if not candidate.is_relative_to(base):
        raise DataError(source, record, field,
                        f"{name!r} leads outside the data file's folder {base}")
    return candidate


def read_file(path: str | Path, max_bytes: int | None = MAX_FILE_BYTES, *,
              source: str | None = None, record: str | None = None,
              field: str | None = None) -> bytes:
    """The bytes of the regular file at ``path``, at most ``max_bytes`` (None: no cap).

    Opened without blocking, so a FIFO never hangs the game; a device, FIFO or folder
    is refused before reading. ``source``/``record``/``field`` name where the path was
    written (default: the file itself).

    Raises:
        DataError: cannot open, not a regular file, or larger than ``max_bytes``.
    """
    where = str(path) if source is None else source
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise DataError(where, record, field, f"cannot read {path}: {reason}") from None
    info = os.fstat(fd)
    problem = None
    if not stat.S_ISREG(info.st_mode):
        problem = f"{path} is not a regular file (a device, FIFO or folder)"
    elif max_bytes is not None and info.st_size > max_bytes:
        problem = (f"{path} is {info.st_size} bytes, over the cap of {max_bytes} "
                   f"(Settings.max_file_bytes)")
    if problem is not None:
        os.close(fd)
        raise DataError(where, record, field, problem)
    with os.fdopen(fd, "rb") as handle:
        try:
            data = handle.read() if max_bytes is None else handle.read(max_bytes + 1)
        except OSError as error:
            raise DataError(where, record, field, f"cannot read {path}: {error}") from None
    if max_bytes is not None and len(data) > max_bytes:  # it grew while we read
        raise DataError(where, record, field,
                        f"{path} is over the cap of {max_bytes} bytes (Settings.max_file_bytes)")
    return data


def read_toml(path: str | Path, max_bytes: int | None = MAX_FILE_BYTES) -> dict[str, Any]:
    """The TOML document in the file at ``path`` (read by ``read_file``).

    Raises:
        DataError: the file cannot be read (missing, not a regular file, over
            ``max_bytes``, not UTF-8) or is not TOML.
    """
    path = Path(path)
    data = read_file(path, max_bytes)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise DataError(str(path), None, None, f"cannot read: not UTF-8: {error}") from None
    return parse_toml(text, str(path))
