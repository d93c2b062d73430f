"""Profile laws: a channel's volume, pan and pitch (profile units) to side gains and step.

Phase CHANNELS calls ``apply_law`` on every playing channel. The outputs are
``gain_left``/``gain_right`` (linear) and ``step`` (source frames per output
frame at the mixer's rate). Retail profiles keep their quantisation:

* ``ac``: integer dB and pan -15..15, x100 to DirectSound (``laws.directsound``).
* ``oni``: the linear product times the bank's overall volume to hundredths of
  a dB (0x485480), pan in hundredths of a dB; above 1 the set fails and the
  previous gains stay; the buffer runs at 22,050 x pitch Hz (0x485460), or at
  the sound's own rate x pitch under ``Settings.oni_buffer_rate = "source"``.
* ``redguard``: the Miles 16-bit coefficients ``floor(T[p] v / 127)`` / 128
  (8-bit: ``(v + 1) T[p] / 128^2``) and the channel's ``rate_hz``.
* ``modern``: equal-power pan of a linear gain; the sound's rate times pitch
  (the sound was converted to the output rate at load, so pitch 1 is a plain copy).

Oni and Redguard rates are multiplied by ``Channel.rate_scale``: a sound
converted for ``modern`` still plays as its original would.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from soundscape.audio.pymath import py_max, py_min
from soundscape.components.channel import Channel
from soundscape.laws.directsound import ac_gains, oni_gains
from soundscape.laws.modern import equal_power
from soundscape.laws.redguard import MILES_PAN_TABLE, miles_coefficients_16, miles_effective_volume

if TYPE_CHECKING:
    from soundscape.audio.channels import ChannelBank

MAX_STEP = 64.0
"""Source frames per output frame are held to this (a wild pitch cannot stall the mixer)."""

MAX_GAIN = 1e6
"""The largest side gain a voice (or the master) may have (+120 dB): a finite but
huge volume (1e308) would overflow the float32 mix to inf; it is a bad value."""
RETAIL_PROFILES = ("ac", "oni", "redguard")
"""The profiles of the retail runtimes; any other is ``modern`` (``modern_law``)."""
ONI_BUFFER_RATE_HZ = 22_050.0
"""Every Oni channel is a 22,050 Hz buffer; pitch sets its frequency (0x485460)."""


def miles_coefficients(volume: int, pan: int) -> tuple[int, int]:
    """Redguard's 16-bit Miles coefficients (left, right): ``laws.redguard.miles_coefficients_16``.

    >>> miles_coefficients(127, 64), miles_coefficients(100, 0)
    ((128, 128), (100, 0))
    """
    left, right = miles_coefficients_16(int(volume), int(pan))
    return int(left), int(right)


def miles_table_value(index: int) -> int:
    """T[index] of the Miles pan table (2p for p 0..62, 128 for 63..127)."""
    return int(MILES_PAN_TABLE[min(max(int(index), 0), 127)])


def miles_factors(volume: float, pan: float, bits: int) -> tuple[int, int, int, int]:
    """(a_left, a_right, t_left, t_right) of the Miles mixer for a sound of ``bits``.

    A sample ``s`` (16-bit units) adds ``floor(floor(s a / 128) t / 128)`` to a
    side (seed 002, "Mixer gain and pan law"): 16-bit PCM has ``a`` the scalar
    coefficient and ``t`` 128; 8-bit PCM has ``a = v + 1`` (0 at v = 0) and ``t``
    the pan table entry.

    >>> miles_factors(127, 64, 16), miles_factors(100, 64, 8)
    ((128, 128, 128, 128), (101, 101, 128, 128))
    """
    v = miles_effective_volume(int(volume))
    p = min(max(int(pan), 0), 127)
    if bits == 8:
        a = v + 1 if v else 0
        return a, a, miles_table_value(127 - p), miles_table_value(p)
    left, right = miles_coefficients(v, p)
    return left, right, 128, 128


def redguard_gains(volume: float, pan: float, bits: int) -> tuple[float, float]:
    """Linear side gains the Miles integer path amounts to: ``a t / 128^2`` a side.

    >>> redguard_gains(127, 64, 16), redguard_gains(100, 0, 16)
    ((1.0, 1.0), (0.78125, 0.0))
    """
    a_left, a_right, t_left, t_right = miles_factors(volume, pan, bits)
    return a_left * t_left / 16384.0, a_right * t_right / 16384.0


def playback_rate_hz(profile: str, channel: Channel) -> float:
    """Source frames a second for ``channel`` under ``profile``."""
    if profile == "oni":
        return ONI_BUFFER_RATE_HZ * channel.rate_scale * channel.pitch
    if profile == "redguard":
        return channel.rate_hz * channel.rate_scale
    return channel.sample_rate_hz * channel.pitch


def held_rate_hz(profile: str, channel: Channel, output_rate_hz: float) -> float:
    """``playback_rate_hz`` held to what the mixer plays: 0 up to ``MAX_STEP`` x the
    output rate; a NaN or infinite rate is 0 (the voice holds its place, silenced).

    The channel bank moves its cursor by this same rate, so the game side and the
    mixer agree on where a sound is and when it ends.

    >>> from soundscape.components.channel import Channel
    >>> held_rate_hz("oni", Channel("b", 0, pitch=-2.0), 48_000)
    0.0
    >>> held_rate_hz("oni", Channel("b", 0, pitch=float("nan")), 48_000)
    0.0
    >>> held_rate_hz("oni", Channel("b", 0, pitch=1e6), 48_000) == MAX_STEP * 48_000
    True
    """
    return hold_rate(playback_rate_hz(profile, channel), MAX_STEP * float(output_rate_hz))


def hold_rate(rate_hz: float, cap_hz: float) -> float:
    """A playback rate held as the mixer plays it: 0 up to ``cap_hz`` (``MAX_STEP`` x the
    output rate), 0 for a NaN or infinite one (``held_rate_hz``; ``hold_rates`` over
    arrays).

    >>> hold_rate(-5.0, 100.0), hold_rate(float("nan"), 100.0), hold_rate(150.0, 100.0)
    (0.0, 0.0, 100.0)
    """
    return min(max(rate_hz, 0.0), cap_hz) if math.isfinite(rate_hz) else 0.0


def hold_rates(rate_hz: np.ndarray[Any, Any], cap_hz: float) -> np.ndarray[Any, Any]:
    """``hold_rate`` of every element (Python's ``min``/``max``, ``pymath``): the array
    itself when every rate already lies in 0..``cap_hz`` (a NaN fails both tests).

    >>> hold_rates(np.array([-5.0, float("nan"), 150.0, 50.0]), 100.0).tolist()
    [0.0, 0.0, 100.0, 50.0]
    """
    if rate_hz.size and rate_hz.min() >= 0.0 and rate_hz.max() <= cap_hz:
        return rate_hz
    with np.errstate(invalid="ignore"):  # NaN compares: made 0 here
        return np.where(np.isfinite(rate_hz), py_min(py_max(rate_hz, 0.0), cap_hz), 0.0)


def apply_law(bank: ChannelBank, channel: Channel, output_rate_hz: int, bits: int = 16) -> bool:
    """Set ``channel.gain_left``, ``gain_right`` and ``step`` from its bank's profile law.

    ``bits`` is the sound's PCM width (the Redguard 8-bit table differs). A NaN or
    infinite volume, pan, pitch or rate, or a side gain above ``MAX_GAIN``, silences
    the voice (gains 0, step 0) and returns False; the caller logs it.
    """
    profile = bank.profile
    if profile not in RETAIL_PROFILES:
        law = modern_law(channel.volume, channel.pan, channel.pitch, channel.rate_hz,
                         channel.level, channel.sample_rate_hz, bank.overall_volume,
                         output_rate_hz)
        channel.gain_left, channel.gain_right, channel.step = law or (0.0, 0.0, 0.0)
        return law is not None
    values = (channel.volume, channel.pan, channel.pitch, channel.rate_hz, bank.overall_volume)
    if not all(math.isfinite(v) for v in values):
        channel.gain_left = channel.gain_right = channel.step = 0.0
        return False
    overall = float(bank.overall_volume)
    gains: tuple[float, float] | None
    if profile == "ac":
        gains = ac_gains(channel.volume, channel.pan)
    elif profile == "oni":
        gains = oni_gains(channel.volume * overall, channel.pan)
        overall = 1.0  # already inside the product
    else:
        gains = redguard_gains(channel.volume, channel.pan, bits)
    if channel.level != 1.0:
        overall *= channel.level  # the voice's fader (fades in seconds)
    if gains is not None:
        left, right = gains[0] * overall, gains[1] * overall
        if not (abs(left) <= MAX_GAIN and abs(right) <= MAX_GAIN):
            channel.gain_left = channel.gain_right = channel.step = 0.0
            return False
        channel.gain_left, channel.gain_right = left, right
    channel.step = held_rate_hz(profile, channel, output_rate_hz) / float(output_rate_hz)
    return True


def modern_law(volume: float, pan: float, pitch: float, rate_hz: float, level: float,
               sample_rate_hz: float, overall_volume: float, output_rate_hz: int
               ) -> tuple[float, float, float] | None:
    """``apply_law`` of the ``modern`` profile (any profile but ``RETAIL_PROFILES``) from
    a channel's values: (gain_left, gain_right, step), or None for a NaN or infinite
    volume, pan, pitch, rate or overall volume, or a side gain above ``MAX_GAIN``
    (the voice is silenced). ``equal_power`` times the overall volume and the fader;
    the step is ``held_rate_hz`` of the sound's rate times the pitch.

    >>> modern_law(1.0, -1.0, 2.0, 0.0, 0.5, 24_000, 1.0, 48_000)
    (0.5, 0.0, 1.0)
    >>> modern_law(float("nan"), 0.0, 1.0, 0.0, 1.0, 48_000, 1.0, 48_000) is None
    True
    """
    isfinite = math.isfinite  # (no generator: this runs a channel at a time)
    if not (isfinite(volume) and isfinite(pan) and isfinite(pitch) and isfinite(rate_hz)
            and isfinite(overall_volume)):
        return None
    overall = float(overall_volume)
    gain_left, gain_right = equal_power(volume, pan)
    if level != 1.0:
        overall *= level  # the voice's fader (fades in seconds)
    left, right = gain_left * overall, gain_right * overall
    if not (abs(left) <= MAX_GAIN and abs(right) <= MAX_GAIN):
        return None
    # playback_rate_hz, held as held_rate_hz holds it
    held = hold_rate(sample_rate_hz * pitch, MAX_STEP * float(output_rate_hz))
    return left, right, held / float(output_rate_hz)


MODERN_INPUTS = ("volume", "pan", "pitch", "rate_hz", "level", "rate_scale", "sample_rate_hz",
                 "serial")
"""What the ``modern`` law reads of a channel (``channel_laws.LAW_INPUTS``), in the order
of ``modern_law_arrays``' rows (a bank with columns keeps them as the rows of one
matrix, ``channel_arrays.ChannelColumns.law``)."""


def modern_law_arrays(overall_volume: float, inputs: np.ndarray[Any, Any], output_rate_hz: int,
                      held_rates: np.ndarray[Any, Any] | None = None,
                      out: tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]] | None = None
                      ) -> tuple[Any, ...]:
    """``apply_law`` of the ``modern`` profile over arrays: (gains, step, usable) from
    ``MODERN_INPUTS`` rows, ``gains`` the rows gain_left and gain_right (as
    ``channel_arrays.ChannelColumns.gains``), the unusable ones zero; ``usable`` is
    None when every one is. ``held_rates``: each column's ``held_rate_hz`` when the
    caller has them (``channel_advance.advance_columns`` held the same rates), the
    step's numerator. ``out``: (gains, step) arrays to write them into (a bank's
    columns: no new arrays to copy there), returned as the gains and step.

    The same float operations in the same order as ``equal_power``, ``apply_law`` and
    ``held_rate_hz``, over arrays (``soundscape.audio.pymath``): the same numbers to
    the bit. The tests on the whole arrays (finite, no tiny gain, no huge one, every
    rate held as it is) let the usual tick skip the per-element repairs.
    """
    volume, pan, pitch, rate, level, _, source_hz, _ = inputs
    overall = float(overall_volume)
    with np.errstate(all="ignore"):  # NaN and inf values are expected: silenced below
        usable = usable_inputs(inputs, overall)
        gains = equal_power_arrays(volume, pan, None if out is None else out[0])
        # overall * level is level itself when overall is 1 (x * 1.0 is x, NaN included)
        gains *= level if overall == 1.0 else overall * level
        if not gains_fit(gains):
            fits = (np.abs(gains) <= MAX_GAIN).all(axis=0)  # a NaN gain does not fit
            usable = fits if usable is None else usable & fits
        step = None if out is None else out[1]
        if held_rates is None:
            step = step_arrays(source_hz * pitch, output_rate_hz, step)
        else:
            step = np.divide(held_rates, float(output_rate_hz), out=step)
    if usable is None or usable.all():
        return gains, step, None
    unusable = ~usable
    gains[:, unusable] = 0.0  # (written in place: they may be the caller's out arrays)
    step[unusable] = 0.0
    return gains, step, usable


def usable_inputs(inputs: np.ndarray[Any, Any], overall: float) -> np.ndarray[Any, Any] | None:
    """Which columns of ``modern_law_arrays``' inputs have a finite volume, pan, pitch
    and rate (``apply_law``'s test), None when all do; none when ``overall`` is not
    finite. One sum over the four rows tells that all are (an inf or NaN in it leaves
    inf or NaN; a sum that overflows is checked again one by one)."""
    volume, pan, pitch, rate = inputs[:4]
    if not math.isfinite(overall):
        return np.zeros(volume.shape, bool)
    if math.isfinite(inputs[:4].sum()):
        return None
    return np.isfinite(volume) & np.isfinite(pan) & np.isfinite(pitch) & np.isfinite(rate)


def equal_power_arrays(volume: np.ndarray[Any, Any], pan: np.ndarray[Any, Any],
                       out: np.ndarray[Any, Any] | None = None) -> np.ndarray[Any, Any]:
    """``laws.modern.equal_power`` over arrays, before the finite test (a NaN or inf
    input gives what it gives: ``modern_law_arrays`` silences it): a matrix (``out``,
    or a new one), the left gains its first row, the right its second.

    np.maximum/np.minimum differ from Python's max/min only on a tie of signed zeros:
    none at the pan's bounds, and a volume of -0.0 gives gains of 0 either way.
    ``(p + 1) * pi / 4`` is computed as ``(p + 1) * (pi / 4)``: the same to the bit,
    as dividing by 4 is exact and commutes with the rounding while ``p + 1`` is 0 or
    at least 2**-53 (far from the subnormals).
    """
    theta = np.maximum(pan, -1.0)
    np.minimum(theta, 1.0, out=theta)
    theta += 1.0
    theta *= math.pi / 4.0
    gains = np.empty((2, theta.size)) if out is None else out
    np.cos(theta, out=gains[0])
    np.sin(theta, out=gains[1])
    # times the volume itself, not max(volume, 0): a volume <= 0 (-inf too) gives
    # gains <= 0 here, which the where below makes 0.0, as the 0 volume would
    gains *= volume
    # cos and sin of theta in [0, pi/2] are > 0: the gains are >= 0 but for a volume
    # <= 0 (or NaN); the where only when one is below 1e-12 (or NaN: the min is NaN)
    if gains.size and not gains.min() >= 1e-12:
        gains[gains < 1e-12] = 0.0  # (a NaN stays)
    return gains


def gains_fit(gains: np.ndarray[Any, Any]) -> bool:
    """Whether every gain lies within +-``MAX_GAIN`` (False on a NaN: its min is NaN),
    from the matrix's smallest and largest."""
    return gains.size == 0 or bool(gains.min() >= -MAX_GAIN and gains.max() <= MAX_GAIN)


def step_arrays(rate_hz: np.ndarray[Any, Any], output_rate_hz: int,
                out: np.ndarray[Any, Any] | None = None) -> np.ndarray[Any, Any]:
    """``held_rate_hz(...) / output_rate_hz`` over arrays of ``playback_rate_hz`` (into
    ``out`` when given; ``hold_rates``)."""
    output = float(output_rate_hz)
    return np.divide(hold_rates(rate_hz, MAX_STEP * output), output, out=out)
