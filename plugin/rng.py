"""The one seeded source of randomness, injected into every system.

Each runtime draws from its own named stream so that adding a system never
shifts another's draws. The generators reproduce the retail ones:

* AC: MSVC ``rand()`` (15 bits) times the normaliser at 0x7caf50 (the sound table
  entry's ``probability_`` roll, ``SoundManager::PlayProbability``), and
  ``Random::rand`` (``UniformUnit``, L'Ecuyer with a shuffle table) under
  ``Random::RollDice``.
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


class LecuyerRand:
    """AC's ``Random::rand`` 0x42c4c0 (``UniformUnit``): L'Ecuyer's combined generator
    with a 32-entry shuffle table, read from the public decompile (acclient.c:105430
    ``Random::Seed``, 105457 ``Random::rand``; Numerical Recipes' ``ran2``).

    Values are ``iy x 4.656613057391769e-10`` held to at most 0.99999988: (0, 0.99999988].

    >>> r = LecuyerRand(1)
    >>> [round(r.unit(), 7) for _ in range(3)]
    [0.2853809, 0.2533582, 0.0934685]
    """

    __slots__ = ("seed", "idum2", "iv", "iy", "draws")

    IM1, IM2, IA1, IA2 = 2147483563, 2147483399, 40014, 40692
    IQ1, IQ2, NTAB = 53668, 52774, 32
    NDIV = 1 + (IM1 - 1) // NTAB  # 67108862
    AM = 4.656613057391769e-10
    RNMX = 0.99999988

    def __init__(self, seed: int) -> None:
        """``Random::Seed(int)``: 0 seeds as 1; eight warm-up steps, then the table."""
        value = _int32(seed) or 1
        self.idum2 = value
        self.iv = [0] * self.NTAB
        for j in range(self.NTAB + 7, -1, -1):
            value = _schrage(value, self.IA1, self.IQ1, self.IM1)
            if j < self.NTAB:
                self.iv[j] = value
        self.iy = self.iv[0]
        self.seed = value
        self.draws = 0

    def unit(self) -> float:
        """The next draw (``Random::rand``)."""
        self.seed = _schrage(self.seed, self.IA1, self.IQ1, self.IM1)
        self.idum2 = _schrage(self.idum2, self.IA2, self.IQ2, self.IM2)
        j = self.iy // self.NDIV
        self.iy = self.iv[j] - self.idum2
        self.iv[j] = self.seed
        if self.iy < 1:
            self.iy += self.IM1 - 1
        self.draws += 1
        return min(self.iy * self.AM, self.RNMX)


def _int32(value: int) -> int:
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value & 0x80000000 else value


def _schrage(value: int, a: int, q: int, m: int) -> int:
    """``a x value mod m`` as the client computes it: ``a v - m (v / q)`` (C division,
    toward zero; the 32-bit wrap-around of the product cancels), plus ``m`` if negative."""
    k = abs(value) // q * (1 if value >= 0 else -1)
    value = a * value - m * k
    return value + m if value < 0 else value


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
        self._streams: dict[str, MsvcRand | OniRandom | LecuyerRand] = {}

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

    def lecuyer(self, name: str) -> LecuyerRand:
        """The AC ``Random::rand`` stream called ``name`` (created on first use)."""
        stream = self._streams.get(name)
        if stream is None:
            stream = self._streams[name] = LecuyerRand(_int32(self._derive(name)))
        if not isinstance(stream, LecuyerRand):
            raise TypeError(f"random stream {name!r} is not an L'Ecuyer stream")
        return stream

    def oni(self, name: str) -> OniRandom:
        """The Oni generator stream called ``name`` (created on first use)."""
        stream = self._streams.get(name)
        if stream is None:
            stream = self._streams[name] = OniRandom(self._derive(name))
        if not isinstance(stream, OniRandom):
            raise TypeError(f"random stream {name!r} is not an Oni stream")
        return stream
