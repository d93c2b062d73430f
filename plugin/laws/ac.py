"""Asheron's Call ambient arithmetic as pure functions (seed 000 and FORMULAS.md, "AC").

Everything here is byte-checked retail arithmetic: the inverse-square cell weight
(``Ambient::CalcWeight``), the 8-way compass classification (``Ambient::CalcDir``),
the compass heading of a direction (``LandDefs::heading``), the block-corrected
offset (``Position::get_offset`` / ``LandDefs::get_block_offset``), the terrain-word
decode (``CLandBlock::add_ambient_sounds``), ``Random::RollDice`` and the ambient
volume chain (``SoundManager::GetAttenuation`` with the slider applied twice).

Float semantics: retail keeps these values in ``float`` members and compares
them with ``float`` constants. Where that matters the functions round each
operation to float32 (``f32``); this matches an SSE float build bit for bit and
the x87 build wherever its extended registers are stored back to floats.
"""

from __future__ import annotations

import math
from enum import IntEnum
from typing import Protocol

import numpy as np

MIN_DIST_M = 20.0
"""``Ambient::ambient_sound_min_dist`` 0x81f148: full-weight radius."""
MIN_DIST_SQ = 400.0
"""``Ambient::ambient_sound_min_dist_sq`` 0x81f14c."""
MAX_DIST_M = 120.0
"""``Ambient::ambient_sound_max_dist`` 0x81f150: cull radius."""
MAX_DIST_SQ = 14400.0
"""``Ambient::ambient_sound_max_dist_sq`` 0x81f154."""
IN_VIEWER_DIST_SQ = MIN_DIST_SQ * 0.5
"""``CalcDir``'s in-viewer-block threshold: 200 m^2 (14.142 m)."""
MIN_VOLUME = float(np.float32(0.03))
"""``Ambient::ambient_sound_min_vol`` 0x81f158 as the float it is (0.0299999993)."""
F_EPSILON = float(np.float32(0.0002))
"""``F_EPSILON`` 0x7cb0a0 as a float (axis degeneracy in ``CalcDir``)."""
DIAGONAL_RATIO = 2.0
"""0x7c5e24: both axis ratios at most 2 make a diagonal."""
HEADING_SPREAD_RAD = float(np.float32(math.pi / 8))
"""0x81f1b0: the 22.5 degree cone an intermittent sound is jittered in (+-11.25)."""
NEAR_MIN_DIST_M = 4.0
"""In-viewer-block shell inner radius (``5.0f - 1.0f``)."""
HALF_MIN_DIST_M = MIN_DIST_M * 0.5
"""10 m: the shell half-thickness and the in-viewer outer radius."""
VOL_MIN_DIST_M = 5.0
"""``VOL_MIN_DIST`` 0x7caeac: the attenuation knee."""
VOL_MIN_DIST_SQ = 25.0
"""``VOL_MIN_DIST_SQ`` 0x86f404."""
VOL_MIN_DB = -50
"""``VOL_MIN``: an integer dB below this is rejected (FORMULAS.md)."""
SQUARE_LENGTH_M = 24.0
"""``LandDefs::square_length`` 0x799128: one land cell."""
SIDE_CELL_COUNT = 8
SIDE_VERTEX_COUNT = 9
BLOCK_LENGTH_M = SQUARE_LENGTH_M * SIDE_CELL_COUNT
"""192 m per landblock."""
PAN_MAX = 15


F32_MAX = float(np.finfo(np.float32).max)


def f32(value: float) -> float:
    """``value`` rounded to the nearest float32, as a Python float.

    Beyond float32's range it is an infinity, as the x87 store gives, without
    numpy's overflow warning (a game that turns warnings into errors must not
    crash on a huge coordinate).

    >>> f32(0.1)
    0.10000000149011612
    >>> f32(1e300)
    inf
    """
    if -F32_MAX <= value <= F32_MAX:
        return float(np.float32(value))
    with np.errstate(over="ignore"):  # only out of range (or NaN): off the hot path
        return float(np.float32(value))


class Direction(IntEnum):
    """``LandDefs::Direction`` as ``Ambient::CalcDir`` returns it."""

    IN_VIEWER_BLOCK = 0
    NORTH_OF_VIEWER = 1
    SOUTH_OF_VIEWER = 2
    EAST_OF_VIEWER = 3
    WEST_OF_VIEWER = 4
    NORTHWEST_OF_VIEWER = 5
    SOUTHWEST_OF_VIEWER = 6
    NORTHEAST_OF_VIEWER = 7
    SOUTHEAST_OF_VIEWER = 8


_HEADINGS_RAD = (
    0.0,
    0.0,
    f32(math.pi),
    f32(math.pi / 2),
    f32(3 * math.pi / 2),
    f32(7 * math.pi / 4),
    f32(5 * math.pi / 4),
    f32(math.pi / 4),
    f32(3 * math.pi / 4),
)

IN_VIEWER_EXPANSION = (
    Direction.NORTH_OF_VIEWER, Direction.SOUTH_OF_VIEWER, Direction.EAST_OF_VIEWER,
    Direction.WEST_OF_VIEWER, Direction.NORTHWEST_OF_VIEWER, Direction.NORTHEAST_OF_VIEWER,
    Direction.SOUTHWEST_OF_VIEWER, Direction.SOUTHEAST_OF_VIEWER,
)
"""``IntermitSound::AddTo``'s order for an in-viewer source: N S E W NW NE SW SE, as the
public decompile has it (acclient.c:384259, 0x551450; the seed's l.464 lists NW SW NE SE)."""
IN_VIEWER_RANK = tuple(
    IN_VIEWER_EXPANSION.index(Direction(d)) if d else -1 for d in range(9))
"""Each direction's place in ``IN_VIEWER_EXPANSION`` (index by the direction; -1 for 0)."""


def direction_heading(d: int) -> float:
    """``LandDefs::heading`` 0x5a9a30: compass radians (north 0, clockwise).

    ``IN_VIEWER_BLOCK`` and any out-of-range value give 0.0 (the jump table's default).

    >>> round(direction_heading(Direction.WEST_OF_VIEWER), 6)
    4.712389
    >>> direction_heading(42)
    0.0
    """
    index = int(d)
    return _HEADINGS_RAD[index] if 0 <= index < len(_HEADINGS_RAD) else 0.0


def calc_weight(x: float, y: float, z: float = 0.0) -> float:
    """``Ambient::CalcWeight`` 0x550dd0: 1 inside 20 m, ``400/d^2`` out to 120 m, else 0.

    ``d^2`` is the float32 sum ``x*x + y*y + z*z``; the comparisons are strict
    (exactly 20 m already takes the ``400/d^2`` branch, which is 1.0 there;
    exactly 120 m is kept).

    >>> calc_weight(19.0, 0.0), calc_weight(20.0, 0.0), calc_weight(40.0, 0.0)
    (1.0, 1.0, 0.25)
    >>> round(calc_weight(120.0, 0.0), 7), calc_weight(120.01, 0.0)
    (0.0277778, 0.0)
    """
    x, y, z = f32(x), f32(y), f32(z)
    d2 = f32(f32(f32(x * x) + f32(y * y)) + f32(z * z))
    if d2 > MAX_DIST_SQ:
        return 0.0
    if d2 < MIN_DIST_SQ:
        return 1.0
    return f32(MIN_DIST_SQ / d2)


def calc_dir(x: float, y: float) -> Direction:
    """``Ambient::CalcDir`` 0x550e40: the 8-way compass wedge of a listener-to-source offset.

    AC frame: x east, y north; z is ignored. Within 14.142 m (``x^2+y^2 < 200``)
    the source is ``IN_VIEWER_BLOCK``. Otherwise a cardinal owns the wedge where
    one axis is more than twice the other; the diagonals own the 1:2..2:1 band.
    Ratios and the epsilon are float32.

    >>> calc_dir(14.0, 0.0).name, calc_dir(0.0, 30.0).name, calc_dir(30.0, 30.0).name
    ('IN_VIEWER_BLOCK', 'NORTH_OF_VIEWER', 'NORTHEAST_OF_VIEWER')
    >>> calc_dir(-30.0, 14.0).name, calc_dir(-30.0, 16.0).name
    ('WEST_OF_VIEWER', 'NORTHWEST_OF_VIEWER')
    """
    x, y = f32(x), f32(y)
    ax, ay = abs(x), abs(y)
    if f32(f32(x * x) + f32(y * y)) < IN_VIEWER_DIST_SQ:
        return Direction.IN_VIEWER_BLOCK
    if ax < F_EPSILON or f32(ay / ax) > DIAGONAL_RATIO:
        return Direction.SOUTH_OF_VIEWER if y < 0 else Direction.NORTH_OF_VIEWER
    if ay < F_EPSILON or f32(ax / ay) > DIAGONAL_RATIO:
        return Direction.WEST_OF_VIEWER if x < 0 else Direction.EAST_OF_VIEWER
    if x >= 0:
        return Direction.NORTHEAST_OF_VIEWER if y >= 0 else Direction.SOUTHEAST_OF_VIEWER
    return Direction.NORTHWEST_OF_VIEWER if y >= 0 else Direction.SOUTHWEST_OF_VIEWER


def decode_terrain_word(word: int) -> tuple[int, int]:
    """(terrain type, scene index) of a land vertex's terrain word.

    ``CLandBlock::add_ambient_sounds`` 0x530310: ``t = (w >> 2) & 0x1F``, ``s = w >> 11``.

    >>> decode_terrain_word((3 << 11) | (5 << 2))
    (5, 3)
    """
    return (word >> 2) & 0x1F, word >> 11


def block_of(objcell_id: int) -> tuple[int, int]:
    """Landblock (x, y) of an objcell id: bits 24-31 and 16-23."""
    return (objcell_id >> 24) & 0xFF, (objcell_id >> 16) & 0xFF


def outdoor_cell_id(block_x: int, block_y: int, cell_x: int, cell_y: int) -> int:
    """The objcell id of land cell (``cell_x``, ``cell_y``) of a landblock.

    The low 16 bits are ``cell_x * 8 + cell_y + 1`` (1..64; x-major like the
    landblock's vertex and cell arrays).

    >>> hex(outdoor_cell_id(0xA9, 0xB4, 0, 0)), hex(outdoor_cell_id(0xA9, 0xB4, 7, 7))
    ('0xa9b40001', '0xa9b40040')
    """
    return (block_x << 24) | (block_y << 16) | (cell_x * SIDE_CELL_COUNT + cell_y + 1)


def get_block_offset(from_cell: int, to_cell: int) -> tuple[float, float, float]:
    """``LandDefs::get_block_offset`` 0x43e630: metres from one landblock's origin to another's.

    0 for the same landblock; else the landblock difference in land-cell units
    times 24 m in x and y, 0 in z.

    >>> get_block_offset(0x0A0B0001, 0x0B0A0001)
    (192.0, -192.0, 0.0)
    """
    if (from_cell >> 16) == (to_cell >> 16):
        return (0.0, 0.0, 0.0)
    bx1, by1 = block_of(from_cell)
    bx2, by2 = block_of(to_cell)
    dx = (bx2 * SIDE_CELL_COUNT - bx1 * SIDE_CELL_COUNT) * SQUARE_LENGTH_M
    dy = (by2 * SIDE_CELL_COUNT - by1 * SIDE_CELL_COUNT) * SQUARE_LENGTH_M
    return (dx, dy, 0.0)


def get_offset(
    from_cell: int,
    from_origin: tuple[float, float, float],
    to_cell: int,
    to_origin: tuple[float, float, float],
) -> tuple[float, float, float]:
    """``Position::get_offset`` 0x509f60: ``block_offset + to.origin - from.origin`` in float32.

    Origins are landblock-local (AC frame: x east, y north, z up).

    >>> get_offset(0x0A0A0001, (10.0, 10.0, 0.0), 0x0B0A0001, (0.0, 0.0, 5.0))
    (182.0, -10.0, 5.0)
    """
    blk = get_block_offset(from_cell, to_cell)
    return (
        f32(f32(blk[0] + to_origin[0]) - from_origin[0]),
        f32(f32(blk[1] + to_origin[1]) - from_origin[1]),
        f32(f32(blk[2] + to_origin[2]) - from_origin[2]),
    )


class UnitSource(Protocol):
    """Anything with a unit draw: AC's ``Random::rand`` (``soundscape.rng.LecuyerRand``)
    for ``RollDice``, MSVC ``rand() x 3.0518509e-05`` (``MsvcRand``) for the
    ``probability_`` roll."""

    def unit(self) -> float: ...


def roll_dice(lo: float, hi: float, rng: UnitSource) -> float:
    """``Random::RollDice`` 0x42c600: ``UniformUnit() x (hi - lo) + lo`` from one draw.

    The draw is ``Random::rand`` 0x42c4c0 (``soundscape.rng.LecuyerRand``: values in
    (0, 0.99999988]), not MSVC ``rand()``. Equal bounds return ``lo`` without
    drawing; inverted bounds are swapped. The sum is kept in double (x87
    registers); callers compare it with their float fields.

    >>> from soundscape.rng import LecuyerRand
    >>> r = LecuyerRand(1)
    >>> roll_dice(3.0, 3.0, r), r.draws
    (3.0, 0)
    >>> round(roll_dice(10.0, 0.0, r), 6)  # swapped: 0 + 10 x the first draw
    2.853809
    """
    if lo == hi:
        return lo
    if hi < lo:
        lo, hi = hi, lo
    return lo + (hi - lo) * rng.unit()


INT_INDEFINITE = -(2**31)
"""What x87 ``fistp``/``_ftol`` store for a NaN, an infinity or an out-of-range value."""


def x87_int(value: float) -> int:
    """C's float-to-int truncation as the x87 client does it (``_ftol``).

    A NaN, an infinity or a value outside the int32 range converts to the
    integer indefinite ``-2**31`` instead of failing.

    >>> x87_int(7.9), x87_int(-7.9), x87_int(math.nan), x87_int(math.inf)
    (7, -7, -2147483648, -2147483648)
    """
    if not math.isfinite(value):
        return INT_INDEFINITE
    result = math.trunc(value)
    return result if -(2**31) <= result < 2**31 else INT_INDEFINITE


def get_attenuation(distance_m: float, volume: float, ambient_volume: float = 1.0) -> int | None:
    """``SoundManager::GetAttenuation`` 0x550020 with ``isAmbient = 1``: integer dB or None.

    ``volume`` is what ``PlayAmbientSound[FromCenter]`` passes (already times the
    slider once). Past the 5 m knee ``v = 25 * volume / d^2``; ``v`` is clamped to
    1.0, multiplied by the slider again, and ``ceil(20 log10 v)`` below
    ``VOL_MIN`` (-50 dB) or ``v <= 0`` is rejected (None). ``volume`` and the
    distance are float arguments: they are rounded to float32 first, which is why
    a volume of 0.1 gives -19 dB, not -20.

    >>> get_attenuation(0.0, 0.5), get_attenuation(10.0, 1.0), get_attenuation(0.0, 0.1)
    (-6, -12, -19)

    The knee test is the byte code's ``fcomp 5.0; test ah,5; jp .far``: only a
    distance *below* 5 m takes the near path, so exactly 5.0 (and a NaN) takes
    the far one (``25 v / 25`` is ``v`` again at 5.0; a NaN is rejected).

    >>> get_attenuation(5.0, 0.5) == get_attenuation(4.0, 0.5), get_attenuation(math.nan, 1.0)
    (True, None)
    """
    dist, v = f32(distance_m), f32(volume)
    if not dist < VOL_MIN_DIST_M:
        v = VOL_MIN_DIST_SQ * v / (dist * dist)
    if v > 1.0:
        v = 1.0
    v *= f32(ambient_volume)
    if not v > 0.0:
        return None
    db = x87_int(math.ceil(20.0 * math.log10(v)) if math.isfinite(v) else v)
    return None if db < VOL_MIN_DB else db


def attenuation_db(distance_m: float, volume: float, ambient_volume: float = 1.0) -> int | None:
    """The whole ambient volume chain: slider in ``PlayAmbient*``, then ``GetAttenuation``.

    ``volume`` is the ambient's ``GetVolume()`` (constant: the crossfaded volume,
    intermittent: the authored volume). The slider applies twice, so at 0.5 an
    ambient is 0.25 (-12 dB). Returns integer dB, or None when rejected.

    >>> attenuation_db(0.0, 1.0, 0.5), attenuation_db(0.0, 1.0, 1.0)
    (-12, 0)
    """
    return get_attenuation(distance_m, f32(f32(volume) * f32(ambient_volume)), ambient_volume)


def db_to_gain(db: int) -> float:
    """Linear gain of an integer dB (DirectSound: 100 * dB hundredths, 10^(mB/2000)).

    >>> round(db_to_gain(-6), 4)
    0.5012
    """
    return 10.0 ** (db / 20.0)


def bearing_deg(dx: float, dy: float) -> float:
    """Compass bearing in degrees (north 0, clockwise) of an AC-frame offset.

    >>> bearing_deg(1.0, 0.0), bearing_deg(0.0, -1.0)
    (90.0, 180.0)
    """
    return math.degrees(math.atan2(dx, dy)) % 360.0


DEG_TO_RAD_F32 = float(np.float32(0.017453292))
"""``PlaySoundInternal``'s degrees-to-radians constant (0.017453292, a float)."""


def ftol64_low32(value: float) -> int:
    """``(int)(unsigned __int64)value``: the 64-bit ``_ftol`` truncation, low 32 bits.

    A NaN, an infinity or a value outside the int64 range converts to
    0x8000000000000000, whose low dword is 0.

    >>> ftol64_low32(-14.9), ftol64_low32(math.nan), ftol64_low32(2.0**32 + 3.5)
    (-14, 0, 3)
    """
    if not math.isfinite(value) or not -(2.0**63) <= value < 2.0**63:
        return 0
    low = math.trunc(value) & 0xFFFFFFFF
    return low - (1 << 32) if low & 0x80000000 else low


def pan(bearing_deg: float, listener_heading_deg: float, distance_m: float) -> int:
    """Pan of a positioned sound, -15..15, positive to the right (FORMULAS.md "AC").

    ``SoundManager::PlaySoundInternal`` 0x550170 (acclient.c:383151) as the public
    decompile has it: ``angle = Position::heading(sound -> listener)``, the
    listener's ``Frame::get_heading``, ``d = fmod(angle - heading, 360)`` less 360
    above 180, and ``pan = (int)(sin(d x 0.017453292) x -15)``; no pan when
    ``|(int)distance| < 5``. Both headings are ``fmod(450 - atan2(...), 360)``:
    compass degrees, clockwise from north (``Frame::set_heading`` builds its
    direction as ``(sin h, cos h)``), so ``bearing_deg`` (listener to sound) gives
    ``angle = bearing + 180``, and a source due east of a north-facing listener
    is ``d = -90``, pan +15: the right ear (DirectSound attenuates the left side).

    ``angle`` and the heading are floats; the conversions are the client's 64-bit
    ``_ftol`` (``ftol64_low32``: a NaN gives 0). The constant 0.017453292 is just
    below pi/180, so a sound exactly abeam gets ``sin`` a hair under 1 and pan 14,
    not 15.

    >>> pan(90.0, 0.0, 20.0), pan(270.0, 0.0, 20.0), pan(45.0, 0.0, 20.0), pan(90.0, 0.0, 4.9)
    (14, -14, 10, 0)
    """
    if abs(ftol64_low32(f32(distance_m))) < int(VOL_MIN_DIST_M):
        return 0
    angle = f32(math.fmod(bearing_deg + 180.0, 360.0))  # Position::heading(pos, player)
    heading = f32(math.fmod(listener_heading_deg, 360.0) % 360.0)  # Frame::get_heading
    d = math.fmod(angle - heading, 360.0)
    if d > 180.0:
        d -= 360.0
    return ftol64_low32(math.sin(d * DEG_TO_RAD_F32) * -float(PAN_MAX))
