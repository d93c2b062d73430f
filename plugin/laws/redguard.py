"""Redguard's positional-sound arithmetic as pure integer functions (seed 002).

Units: engine positions are world units x 256, angles 2048 a turn, Miles
volume 0..127 and pan 0..127 (64 centre). ``radius``/``divisor`` come from
SYSTEM.INI ``sound_distance``; ``volume``/``pan`` are the positional curve and
the abeam-centred triangle; ``playback_rate`` the clamped start rate; the
``miles_*`` functions the statically linked Miles mixer's gain and pan law.
Every addition the retail code does in 32 bits wraps here the same way.
"""

from __future__ import annotations

import functools
import math
import struct

import numpy as np

from soundscape.laws.angles import within_one_turn

SOUND_DISTANCE = 64
"""SYSTEM.INI [system] sound_distance as shipped."""
RADIUS_PER_SOUND_DISTANCE = 36
"""Sound radius R = 36 x sound_distance world units."""
ENGINE_UNIT_SHIFT = 8
"""Engine positions carry eight fractional bits (world units x 256)."""
ANGLE_UNITS = 2048
"""Angles are 2048 units a turn."""
VOLUME_MAX = 127
PAN_CENTRE = 64
RATE_MIN_HZ = 512
RATE_MAX_HZ = 44000
MASTER_SHIPPED = 255
"""SYSTEM.INI [system] volume as shipped (the engine default before the file is 256)."""
MASTER_ENGINE_DEFAULT = 256
DRIVER_MASTER = 127
"""The Miles driver master volume starts at 127 and the game never changes it."""
CHANNELS = 16
"""Sample channels."""
START_INDEX_PLAYER = 0
"""Start index of the player's own animation sounds and of speech."""
START_INDEX_COMBAT = 4
"""Start index of the effect a combat message response (0xd001, 0xd005) plays."""
START_INDEX_SHARED = 6
"""The shared start index every other start uses, once a start has reset it."""


def wrap32(value: int) -> int:
    """``value`` as a signed 32-bit integer (two's-complement wrap).

    >>> wrap32(2**31), wrap32(-2**31 - 1), wrap32(5)
    (-2147483648, 2147483647, 5)
    """
    return ((int(value) + 0x80000000) & 0xFFFFFFFF) - 0x80000000


def clamp(value: int, lo: int, hi: int) -> int:
    """``value`` limited to ``lo..hi`` (a signed compare)."""
    return lo if value < lo else hi if value > hi else value


def radius(sound_distance: int = SOUND_DISTANCE) -> int:
    """The "Sound radius" R = 36 x sound_distance world units.

    >>> radius()
    2304
    """
    return RADIUS_PER_SOUND_DISTANCE * int(sound_distance)


@functools.lru_cache(maxsize=8)
def divisor(sound_distance: int = SOUND_DISTANCE) -> int:
    """The "Sound divisor" D = floor(65536 / floor(R / 128)).

    A sound_distance of 3 or less makes floor(R / 128) zero, a division by zero
    in the original: refused with ``ValueError``.

    >>> divisor()
    3640
    """
    if int(sound_distance) <= 3:
        raise ValueError(
            f"SYSTEM.INI [system] sound_distance {sound_distance} is unsupported: "
            "values of 3 or less make floor(R / 128) zero (a division by zero in Redguard)"
        )
    return 65536 // (radius(sound_distance) // 128)


def volume(d: int, off: int = 0, sound_distance: int = SOUND_DISTANCE) -> int:
    """The positional volume 0..127 at distance ``d`` world units with offset ``off``.

    ``a = clamp((d x D) >> 16, 0, 127)``, ``v = clamp(wrap32(127 - a + off), 0, 127)``,
    0 beyond R whatever the offset.

    >>> volume(1000), volume(2287), volume(2286), volume(2305, off=200)
    (72, 0, 1, 0)
    >>> volume(0, off=2**31 - 1)   # the offset overflows 32 bits: silence
    0
    """
    r = radius(sound_distance)
    if d > r:
        return 0
    a = clamp((int(d) * divisor(sound_distance)) >> 16, 0, VOLUME_MAX)
    return clamp(wrap32(VOLUME_MAX - a + int(off)), 0, VOLUME_MAX)


_FLOAT32 = struct.Struct("<f")
FLOAT32_LIMIT = 3.0e38


def _float32(value: float) -> float:
    """``value`` stored into a single-precision variable (round to nearest even)."""
    return _FLOAT32.unpack(_FLOAT32.pack(value))[0]


def distance(dx: int, dy: int, dz: int) -> int:
    """Whole world units between two engine positions (differences in world units x 256).

    ``floor(round(sqrt(dx^2 + dy^2 + dz^2)) / 256)``. The root is kept in a
    single-precision variable, then rounded (x87 round-to-nearest-even) and
    shifted. The seed says the float32 intermediate "only matters beyond about
    65536 world units" (where whole engine units stop being exact); it is kept at
    every distance, so a root just under a half (sqrt(k^2 + k)) that float32
    rounds up to k + 0.5 also rounds as the original does
    (``docs/divergences.md``).

    >>> distance(256 * 1000, 0, 0), distance(300, 400, 0), distance(0, 0, 383)
    (1000, 1, 1)
    >>> distance(2528, 400, 16)   # sqrt = 2559.49998: float32 2559.5 -> 2560 -> 10
    10
    """
    root = math.sqrt(float(dx) * dx + float(dy) * dy + float(dz) * dz)
    if not root < FLOAT32_LIMIT:  # past float32's range (or inf): beyond any radius
        return int(min(root, FLOAT32_LIMIT)) >> ENGINE_UNIT_SHIFT
    return round(_float32(root)) >> ENGINE_UNIT_SHIFT


def _atan_table() -> tuple[int, ...]:
    return tuple(int(math.atan(i / 512) * 65536 / math.pi) >> 6 for i in range(513))


ATAN_TABLE = _atan_table()
"""T[i] = trunc(atan(i / 512) x 65536 / pi) >> 6 for i = 0..512 (built at startup)."""


def heading(dx: int, dz: int) -> int:
    """The engine's integer heading of (dx, dz): 0 along +Z, 512 +X, 1024 -Z, 1536 -X.

    >>> heading(100, 100), heading(0, -5), heading(-7, 0), heading(100, 0)
    (256, 1024, 1536, 512)
    """
    ax, az = abs(int(dx)), abs(int(dz))
    while ax > 511 or az > 511:
        ax >>= 1
        az >>= 1
    if ax == 0:
        return 0 if dz >= 0 else 1024
    if az == 0:
        return 512 if dx >= 0 else 1536
    if ax == az:
        base = 256
    else:
        small, big = (ax, az) if ax < az else (az, ax)
        t = ATAN_TABLE[small * 512 // big]
        base = t if ax < az else 512 - t
    if dx < 0 and dz < 0:
        angle = base + 1024
    elif dx < 0:
        angle = -base
    elif dz < 0:
        angle = 1024 - base
    else:
        angle = base
    return angle % ANGLE_UNITS


def pan_from_angle(u: int) -> int:
    """The triangle wave: relative angle ``u`` (0..2047) to pan 1..127.

    At exactly u = 512 and u = 1536 the ``& 511`` gives zero: abeam is centred.

    >>> pan_from_angle(256), pan_from_angle(511), pan_from_angle(512), pan_from_angle(1535)
    (96, 127, 64, 1)
    """
    u %= ANGLE_UNITS
    if u < 512:
        p = u >> 3
    elif u < 1024:
        p = ((1024 - u) & 511) >> 3
    elif u < 1536:
        p = -((u - 1024) >> 3)
    else:
        p = -(((2048 - u) & 511) >> 3)
    return PAN_CENTRE + p


def pan(dx: int, dz: int, yaw: int = 0) -> int:
    """Pan 1..127 of an emitter at (dx, dz) from a listener facing ``yaw``.

    >>> pan(100, 100), pan(100, 100, yaw=512), pan(100, 0)
    (96, 32, 64)
    """
    return pan_from_angle((heading(dx, dz) - int(yaw)) % ANGLE_UNITS)


def playback_rate(sample_rate: int, offset_hz: int) -> int:
    """Start rate: clamp(wrap32(sample_rate + offset), 512, 44000) Hz.

    >>> playback_rate(22050, -10000), playback_rate(22050, -8 * 64), playback_rate(11025, 2**31)
    (12050, 21538, 512)
    """
    return clamp(wrap32(int(sample_rate) + int(offset_hz)), RATE_MIN_HZ, RATE_MAX_HZ)


def miles_volume(v: int, master: int = MASTER_SHIPPED) -> int:
    """What a volume set sends to Miles: (v x master) >> 8.

    >>> miles_volume(127), miles_volume(127, 256), miles_volume(72, 128)
    (126, 127, 36)
    """
    return (int(v) * int(master)) >> 8


def miles_pan_table() -> tuple[int, ...]:
    """The Miles pan table: T[p] = 2p for p 0..62, 128 for 63..127.

    >>> t = miles_pan_table(); len(t), t[0], t[62], t[63], t[127]
    (128, 0, 124, 128, 128)
    """
    return tuple(2 * p if p <= 62 else 128 for p in range(128))


MILES_PAN_TABLE = miles_pan_table()


def miles_effective_volume(volume: int) -> int:
    """v = clamp(trunc(volume x driver_master / 127), 0, 127), volume clamped first."""
    vol = clamp(int(volume), 0, VOLUME_MAX)
    return clamp(int(vol * DRIVER_MASTER / 127), 0, VOLUME_MAX)


def miles_side_tables(pan_value: int) -> tuple[int, int]:
    """(left, right) pan-table entries: T[127 - pan] and T[pan], pan clamped 0..127."""
    p = clamp(int(pan_value), 0, VOLUME_MAX)
    return MILES_PAN_TABLE[127 - p], MILES_PAN_TABLE[p]


def miles_coefficients_16(volume: int, pan: int) -> tuple[int, int]:
    """16-bit PCM per-side coefficients c = floor(t x v / 127) (left, right).

    >>> miles_coefficients_16(127, 64), miles_coefficients_16(100, 64)
    ((128, 128), (100, 100))
    >>> miles_coefficients_16(127, 0)
    (128, 0)
    """
    v = miles_effective_volume(volume)
    t_left, t_right = miles_side_tables(pan)
    return (t_left * v) // 127, (t_right * v) // 127


def miles_mix(samples: np.ndarray, volume: int, pan: int, sample_bits: int) -> np.ndarray:
    """One sample's contribution to the Miles stereo mix, int32 of shape (frames, 2).

    16-bit (``samples`` int16): each side is floor(s x c / 128) with
    ``miles_coefficients_16``; a mono sample supplies both sides, a stereo one
    its own side. 8-bit (``samples`` uint8, 128 = silence): s = (u - 128) x 256
    in signed 16-bit units, a = v + 1 when v is non-zero else 0, and each side is
    floor(floor(s x a / 128) x t / 128).

    >>> miles_mix(np.array([1000, -1000], dtype=np.int16), 100, 64, 16).tolist()
    [[781, 781], [-782, -782]]
    >>> miles_mix(np.array([255, 0], dtype=np.uint8), 127, 127, 8).tolist()
    [[0, 32512], [0, -32768]]
    """
    data = np.asarray(samples)
    if data.ndim == 1:
        data = data[:, None]
    if data.ndim != 2 or data.shape[1] not in (1, 2):
        raise ValueError("miles_mix: samples must be mono or stereo frames")
    if sample_bits == 16:
        s = data.astype(np.int64)
        c_left, c_right = miles_coefficients_16(volume, pan)
        coefficients = (c_left, c_right)
        out = np.empty((data.shape[0], 2), dtype=np.int64)
        for side in (0, 1):
            column = s[:, side if data.shape[1] == 2 else 0]
            out[:, side] = (column * coefficients[side]) >> 7
        return out.astype(np.int32)
    if sample_bits == 8:
        s = (data.astype(np.int64) - 128) << 8
        v = miles_effective_volume(volume)
        a = v + 1 if v else 0
        tables = miles_side_tables(pan)
        out = np.empty((data.shape[0], 2), dtype=np.int64)
        for side in (0, 1):
            column = s[:, side if data.shape[1] == 2 else 0]
            out[:, side] = (((column * a) >> 7) * tables[side]) >> 7
        return out.astype(np.int32)
    raise ValueError(f"miles_mix: sample_bits must be 8 or 16, got {sample_bits}")


def yaw_from_heading_rad(heading_rad: float) -> int:
    """A compass heading in radians as 2048-unit engine yaw (0 north/+Z, 512 east/+X).

    >>> yaw_from_heading_rad(math.pi / 2), yaw_from_heading_rad(-math.pi / 2)
    (512, 1536)
    >>> yaw_from_heading_rad(1e308)  # a huge heading is still an angle, not an overflow
    1865
    """
    # The turns drop out first: a huge finite heading would overflow the product.
    return round(within_one_turn(heading_rad) * ANGLE_UNITS / (2 * math.pi)) % ANGLE_UNITS


def rtx_duration_256(pcm_bytes: int, channels: int, sample_rate: int, bytes_per_sample: int) -> int:
    """Audio length in 1/256 s: (PCM_bytes << 8) / (channels x rate x bytes_per_sample).

    >>> rtx_duration_256(44100, 1, 22050, 2)
    256
    """
    denominator = int(channels) * int(sample_rate) * int(bytes_per_sample)
    if denominator <= 0:
        raise ValueError("rtx_duration_256: channels, rate and sample size must be positive")
    return (int(pcm_bytes) << 8) // denominator
