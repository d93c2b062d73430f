"""Decoded sounds by name: float32 numpy frames, decoded once."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from soundscape.errors import InputError


@dataclass(frozen=True, slots=True)
class Sound:
    """A decoded sound: ``samples`` is float32 of shape (frames, channels) in -1..1."""

    name: str
    samples: np.ndarray
    sample_rate_hz: int

    @property
    def frames(self) -> int:
        return int(self.samples.shape[0])

    @property
    def channels(self) -> int:
        return int(self.samples.shape[1])

    @property
    def duration_s(self) -> float:
        return self.frames / self.sample_rate_hz


class SoundBank:
    """Sounds by name. A name that cannot be found is remembered (negative cache).

    >>> bank = SoundBank()
    >>> bank.add("click", np.zeros(10, dtype=np.float32), 22050).frames
    10
    >>> bank.get("nothing") is None
    True
    """

    def __init__(self) -> None:
        self._sounds: dict[str, Sound] = {}
        self.missing: set[str] = set()

    def add(self, name: str, samples: np.ndarray, sample_rate_hz: int) -> Sound:
        """Register ``samples`` (mono 1-D or (frames, channels)) under ``name``."""
        array = np.asarray(samples, dtype=np.float32)
        if array.ndim == 1:
            array = array[:, None]
        if array.ndim != 2 or array.shape[1] not in (1, 2):
            raise InputError(f"sound {name!r}: samples must be mono or stereo frames")
        if sample_rate_hz <= 0:
            raise InputError(f"sound {name!r}: sample rate must be positive")
        if not np.all(np.isfinite(array)):
            raise InputError(f"sound {name!r}: samples contain NaN or infinity")
        sound = Sound(name, np.ascontiguousarray(array), int(sample_rate_hz))
        self._sounds[name] = sound
        self.missing.discard(name)
        return sound

    def get(self, name: str) -> Sound | None:
        """The sound called ``name``, or None (and remembered as missing)."""
        sound = self._sounds.get(name)
        if sound is None:
            self.missing.add(name)
        return sound

    def __contains__(self, name: object) -> bool:
        return name in self._sounds

    def names(self) -> list[str]:
        return sorted(self._sounds)
