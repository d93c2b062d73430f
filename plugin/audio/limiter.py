"""The master limiter: a soft-knee peak limiter on the mixed stereo block, with no latency.

The mixer calls ``Limiter.process`` once on every block it renders, after the voices
are summed and the master gain and mute applied, so it is the last stage before the
backend (pyglet's driver buffer or the offline backend's memory and WAV). It is not
part of any retail runtime (``docs/divergences.md``); ``Settings(limiter=False)``
leaves the output as the laws make it, clipping included.

The gain computer reads the louder side of each frame (linked stereo, so the image
does not move) through a static soft-knee curve: below ``ceiling - knee / 2`` no
gain change, over the knee a quadratic bend, above ``ceiling + knee / 2`` exactly
the ceiling. The gain falls at once (no look-ahead, so no added latency and offline
renders keep their frames) and recovers at ``release_db_per_s``. A block whose
frames all stay below the knee while the gain is at rest is left untouched, bit for
bit, so a quiet mix renders the same bytes with the limiter on or off.

The release is a running minimum: ``g[n] = min(0, need[n], g[n - 1] + r)`` is
``min(0, r n + min(g[-1] + r, min_k<=n (need[k] - r k)))``, one
``np.minimum.accumulate`` a block instead of a loop over frames.

>>> lim = Limiter(48_000)
>>> block = np.full((4, 2), 0.5, dtype=np.float32)
>>> lim.process(block); float(block[0, 0])   # below the knee: untouched
0.5
>>> loud = np.full((4, 2), 2.0, dtype=np.float32)
>>> lim.process(loud); round(20 * math.log10(float(loud[0, 0])), 3)   # held at the ceiling
-2.0
"""

from __future__ import annotations

import math

import numpy as np

from soundscape.errors import InputError

CEILING_DBFS = -2.0
"""No frame leaves above this (dB full scale); inter-sample peaks stay under -1 dBFS."""
KNEE_DB = 4.0
"""The soft knee's width, centred on the ceiling: limiting starts 2 dB below it."""
RELEASE_DB_PER_S = 20.0
"""How fast the gain recovers after a peak."""
_DB_TO_LN = math.log(10.0) / 20.0


class Limiter:
    """A stereo soft-knee peak limiter keeping its gain across blocks.

    Args:
        sample_rate_hz: the mixer's output rate.
        ceiling_dbfs: the highest sample level let out (below 0).
        knee_db: the soft knee's width (0 for a hard knee).
        release_db_per_s: the gain's recovery rate.

    Attributes:
        gain_db: the gain at the last frame processed (0 at rest, negative limiting).
        max_reduction_db: the deepest gain reduction so far (a positive number of dB).
    """

    def __init__(self, sample_rate_hz: int, ceiling_dbfs: float = CEILING_DBFS,
                 knee_db: float = KNEE_DB, release_db_per_s: float = RELEASE_DB_PER_S) -> None:
        values = (sample_rate_hz, ceiling_dbfs, knee_db, release_db_per_s)
        if not all(math.isfinite(v) for v in values) or sample_rate_hz <= 0:
            raise InputError(f"Limiter: non-finite or bad settings {values!r}")
        if not ceiling_dbfs < 0.0 or knee_db < 0.0 or release_db_per_s <= 0.0:
            raise InputError(f"Limiter: ceiling must be below 0 dBFS, knee >= 0 and release "
                             f"> 0 (got {ceiling_dbfs!r}, {knee_db!r}, {release_db_per_s!r})")
        self.ceiling_dbfs = float(ceiling_dbfs)
        self.knee_db = float(knee_db)
        self.release_db_per_frame = float(release_db_per_s) / float(sample_rate_hz)
        self.threshold = 10.0 ** ((self.ceiling_dbfs - self.knee_db / 2.0) / 20.0)
        """The level (linear) where the knee starts: below it nothing changes."""
        self.gain_db = 0.0
        self.max_reduction_db = 0.0
        self._ramps: dict[int, np.ndarray] = {}

    def curve_db(self, level: np.ndarray) -> np.ndarray:
        """The static curve's gain (dB, <= 0) for linear peak levels ``level``.

        >>> lim = Limiter(48_000, ceiling_dbfs=-1.0, knee_db=2.0)
        >>> [round(float(g), 3) for g in lim.curve_db(np.array([0.5, 10 ** (-1 / 20), 2.0]))]
        [0.0, -0.25, -7.021]
        """
        level = np.asarray(level, dtype=np.float64)
        need = np.zeros(level.shape)
        over = level >= self.threshold  # False for NaN
        need[over] = self._bend(level[over])
        return need

    def _bend(self, level: np.ndarray) -> np.ndarray:
        """The curve's gain (dB) for levels at or over the knee's start (all > 0)."""
        x_db = 20.0 * np.log10(level)
        over = x_db - (self.ceiling_dbfs - self.knee_db / 2.0)
        if self.knee_db == 0.0:
            return self.ceiling_dbfs - x_db
        return np.where(over < self.knee_db, over * over / (-2.0 * self.knee_db),
                        self.ceiling_dbfs - x_db)

    def process(self, block: np.ndarray) -> None:
        """Limit a (frames, 2) float32 block in place; the gain carries to the next block."""
        frames = block.shape[0]
        if frames == 0:
            return
        if self.gain_db >= 0.0 and not float(np.abs(block).max()) >= self.threshold:
            return  # at rest and under the knee: the bytes pass untouched
        level = np.maximum(np.abs(block[:, 0]), np.abs(block[:, 1]))
        need = np.zeros(frames)
        over = level >= self.threshold
        if over.any():
            need[over] = self._bend(level[over].astype(np.float64))
        ramp = self._ramp(frames)
        held = np.minimum.accumulate(need - ramp)
        gain_db = np.minimum(ramp + np.minimum(held, self.gain_db + self.release_db_per_frame),
                             0.0)
        self.gain_db = float(gain_db[-1])
        lowest = float(gain_db.min())
        if lowest < 0.0:
            self.max_reduction_db = max(self.max_reduction_db, -lowest)
            block *= np.exp(gain_db * _DB_TO_LN).astype(np.float32)[:, None]

    def _ramp(self, frames: int) -> np.ndarray:
        """``release x [0, 1, ... frames - 1]`` dB (cached per block length)."""
        ramp = self._ramps.get(frames)
        if ramp is None:
            ramp = self._ramps[frames] = self.release_db_per_frame * np.arange(frames,
                                                                               dtype=np.float64)
        return ramp

    def reset(self) -> None:
        """Forget the gain (the next block starts at rest)."""
        self.gain_db = 0.0
