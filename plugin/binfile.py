"""A retail game file read in place at offsets, never whole.

``BinFile`` opens a regular file read-only (a FIFO or device is refused without
blocking on it), keeps its size, and reads byte ranges with ``os.pread``. Every
failure is a ``DataError`` naming the file, the record being read (with its
offset) and the field: a range past the end, a short read, a closed file. The
Redguard and Oni readers and AC's dat container open their files through it, so
opening a game folder costs a few small reads and memory grows only with what is
read later.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from soundscape.errors import DataError


def _open_regular(path: Path) -> tuple[int, int]:
    """(descriptor, size) of a regular file opened read-only without blocking on a FIFO."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise DataError(str(path), None, None, f"cannot open: {reason}") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise DataError(str(path), None, None, "not a regular file (a device, FIFO or folder)")
    return fd, info.st_size


class BinFile:
    """One open file. Use as a context manager or ``close`` it.

    Attributes:
        path / source: the file (``source`` is what errors name).
        size_bytes: its size when opened.
        bytes_read: every byte read so far (for benches and the laziness tests).

    Raises:
        DataError: the file cannot be opened or is not a regular file.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.source = str(self.path)
        self._fd = -1
        self._fd, self.size_bytes = _open_regular(self.path)
        self.bytes_read = 0

    def read_at(self, offset: int, count: int, record: str, field: str | None = None) -> bytes:
        """``count`` bytes at ``offset``; ``record``/``field`` name what is read in an error."""
        if self._fd < 0:
            raise DataError(self.source, record, field, "the file is closed")
        if offset < 0 or count < 0 or offset + count > self.size_bytes:
            raise DataError(self.source, record, field,
                            f"{count} bytes at 0x{offset:x} run past the end of the file "
                            f"({self.size_bytes} bytes)")
        try:
            if hasattr(os, "pread"):
                data = os.pread(self._fd, count, offset)
            else:  # pragma: no cover - Windows
                os.lseek(self._fd, offset, os.SEEK_SET)
                data = os.read(self._fd, count)
        except OSError as error:
            raise DataError(self.source, record, field,
                            f"cannot read: {error.strerror}") from None
        if len(data) != count:
            raise DataError(self.source, record, field,
                            f"short read at 0x{offset:x}: {len(data)} of {count} bytes "
                            "(the file shrank?)")
        self.bytes_read += count
        return data

    def fail(self, record: str | None, field: str | None, problem: str) -> DataError:
        """A ``DataError`` about this file."""
        return DataError(self.source, record, field, problem)

    @property
    def closed(self) -> bool:
        return self._fd < 0

    def close(self) -> None:
        """Close the file (idempotent)."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> BinFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()


__all__ = ["BinFile"]
