"""The plugin's exceptions: each names what was wrong and where."""

from __future__ import annotations


class SoundscapeError(Exception):
    """Base of every error soundscape raises on purpose."""


class DataError(SoundscapeError, ValueError):
    """Malformed sound data: the message names the file, the record and the field.

    >>> str(DataError("region.toml", "terrain[2]", "scenes", "must be a list"))
    'region.toml: terrain[2].scenes: must be a list'
    """

    def __init__(self, source: str, record: str | None, field: str | None, problem: str) -> None:
        self.source, self.record, self.field, self.problem = source, record, field, problem
        where = ".".join(part for part in (record, field) if part)
        super().__init__(f"{source}: {where}: {problem}" if where else f"{source}: {problem}")


class InputError(SoundscapeError, ValueError):
    """A value the game handed in at run time cannot be used (NaN position, bad index)."""


class FeatureOffError(SoundscapeError, RuntimeError):
    """A feature's service was read but the feature is not installed.

    The message names the feature and ``Settings.features`` (or, for the mixer,
    ``Settings.backend``). ``ctx.has(slot)`` asks without raising.
    """
