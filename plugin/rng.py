"""The one seeded source of randomness, injected into every system.

Each runtime draws from its own named stream so that adding a system never
shifts another's draws. The generators reproduce the retail ones:

* AC: MSVC ``rand()`` (15 bits) times the normaliser at 0x7caf50, and ``Random::RollDice``.
* Oni: ``UUrRandom`` and the second generator ``UUrLocalRandom`` (16-bit draws
  from a linear congruential generator).
"""

from __future__ import annotations

import hashlib

MSVC_RAND_MAX = 0x7FFF
RAND_NORMALISER = 3.0518509e-05
"""AC's ``rand()`` normaliser at 0x7caf50: the seed lists this value and calls it
1/32768, but it is 1/32767 (docs/divergences.md); the listed value is used."""


class MsvcRand:
    """MSVC's ``rand()``: ``state = state * 214013 + 2531011``, bits 16..30.

    >>> r = MsvcRand(1)
    >>> [r.rand() for _ in range(3)]
    [41, 18467, 6334]
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & 0xFFFFFFFF

    def rand(self) -> int:
        """The next draw in 0..32767."""
        self.state = (self.state * 214013 + 2531011) & 0xFFFFFFFF
        return (self.state >> 16) & MSVC_RAND_MAX

    def unit(self) -> float:
        """``rand() x 3.0518509e-05`` (the seed's "rand()/32768") in [0, 1)."""
        return self.rand() * RAND_NORMALISER


class OniRandom:
    """Oni's 16-bit generator (``UUrRandom`` 0x426e10 / ``UUrLocalRandom`` 0x426e30).

    ``seed = seed * 1664525 + 1013904223``; a draw is the top 16 bits.

    >>> r = OniRandom(0)
    >>> r.draw()
    15470
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & 0xFFFFFFFF

    def draw(self) -> int:
        """The next draw in 0..65535."""
        self.state = (self.state * 1664525 + 1013904223) & 0xFFFFFFFF
        return self.state >> 16

    def uniform(self, lo: float, hi: float) -> float:
        """A float between ``lo`` and ``hi`` from one 16-bit draw."""
        return lo + (hi - lo) * (self.draw() / 65536.0)


class Rng:
    """The plugin's seeded random source; hands each consumer its own stream.

    >>> a, b = Rng(7), Rng(7)
    >>> a.msvc("ac").rand() == b.msvc("ac").rand()
    True
    """

    def __init__(self, seed: int = 0) -> None:
        if not isinstance(seed, int):
            raise TypeError(f"Rng seed must be an int, got {type(seed).__name__}")
        self.seed = seed
        self._streams: dict[str, MsvcRand | OniRandom] = {}

    def _derive(self, name: str) -> int:
        digest = hashlib.blake2b(f"{self.seed}:{name}".encode(), digest_size=4).digest()
        return int.from_bytes(digest, "little")

    def msvc(self, name: str) -> MsvcRand:
        """The MSVC ``rand()`` stream called ``name`` (created on first use)."""
        stream = self._streams.get(name)
        if stream is None:
            stream = self._streams[name] = MsvcRand(self._derive(name))
        if not isinstance(stream, MsvcRand):
            raise TypeError(f"random stream {name!r} is not an MSVC stream")
        return stream

    def oni(self, name: str) -> OniRandom:
        """The Oni generator stream called ``name`` (created on first use)."""
        stream = self._streams.get(name)
        if stream is None:
            stream = self._streams[name] = OniRandom(self._derive(name))
        if not isinstance(stream, OniRandom):
            raise TypeError(f"random stream {name!r} is not an Oni stream")
        return stream
