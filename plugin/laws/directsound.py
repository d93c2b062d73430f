"""DirectSound volume and pan: hundredths of a decibel to linear side gains.

Asheron's Call and Oni both hand DirectSound buffers a volume and a pan in
hundredths of a decibel (``IDirectSoundBuffer::SetVolume``/``SetPan``; AC via
``SoundManager``, Oni at 0x485480 and 0x4853b0). FORMULAS.md, "DirectSound
units": gain = 10^(mB / 2000), -10,000 is silence; a positive pan attenuates
the left side by that many hundredths of a dB, a negative pan the right side.

>>> round(mb_to_gain(-1000), 3)
0.316
>>> l, r = side_gains(0, 1500)
>>> round(l, 4), r
(0.1778, 1.0)
"""

from __future__ import annotations

import math

from soundscape.laws.oni import to_centibels

DSBVOLUME_MIN = -10_000
"""Silence (``DSBVOLUME_MIN``)."""
DSBVOLUME_MAX = 0
DSBPAN_LEFT = -10_000
DSBPAN_RIGHT = 10_000


def mb_to_gain(mb: float) -> float:
    """Linear gain of ``mb`` hundredths of a dB; -10,000 or less is silence (0).

    >>> mb_to_gain(0), mb_to_gain(-10_000), round(mb_to_gain(-600), 4)
    (1.0, 0.0, 0.5012)
    """
    if mb <= DSBVOLUME_MIN:
        return 0.0
    return 10.0 ** (min(float(mb), 0.0) / 2000.0)


def side_gains(volume_mb: float, pan_mb: float) -> tuple[float, float]:
    """(left, right) gains of a buffer at ``volume_mb`` and ``pan_mb``.

    Volume is held to -10,000..0 and pan to -10,000..10,000 as DirectSound does;
    a side whose total attenuation reaches -10,000 is silent.

    >>> side_gains(-1000, -1500)[1] == mb_to_gain(-2500)
    True
    """
    if not (math.isfinite(volume_mb) and math.isfinite(pan_mb)):
        return 0.0, 0.0
    volume = min(max(float(volume_mb), DSBVOLUME_MIN), DSBVOLUME_MAX)
    pan = min(max(float(pan_mb), DSBPAN_LEFT), DSBPAN_RIGHT)
    left = volume - max(pan, 0.0)
    right = volume - max(-pan, 0.0)
    return mb_to_gain(left), mb_to_gain(right)


def ac_gains(volume_db: float, pan: float) -> tuple[float, float]:
    """Asheron's Call: integer dB and pan -15..15, each x100 to DirectSound.

    >>> [round(g, 3) for g in ac_gains(-10, 0)]
    [0.316, 0.316]
    >>> round(ac_gains(0, 15)[0], 4) == round(10 ** (-1500 / 2000), 4)
    True
    """
    return side_gains(100.0 * volume_db, 100.0 * pan)


def oni_centibels(volume: float) -> int:
    """Oni's buffer volume (0x485480), ``soundscape.laws.oni.to_centibels``:
    round(3333 v) - 3333 above 0.05, else -10,000.

    >>> oni_centibels(1.0), oni_centibels(0.5), oni_centibels(0.05)
    (0, -1667, -10000)
    """
    return int(to_centibels(volume))


def oni_gains(volume: float, pan_mb: float) -> tuple[float, float] | None:
    """Oni: linear volume product and pan in hundredths of a dB.

    None when ``volume`` is above 1: DirectSound refuses the value (the seed's
    inferred failure) and the buffer keeps its previous volume.

    >>> [round(g, 3) for g in oni_gains(0.5, 0)]
    [0.147, 0.147]
    >>> oni_gains(1.2, 0) is None
    True
    """
    if not math.isfinite(volume) or volume > 1.0:
        return None
    return side_gains(oni_centibels(volume), pan_mb)
