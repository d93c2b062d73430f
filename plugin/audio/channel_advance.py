"""Moving a bank's channels on in time (``ChannelBank.advance``): Oni's fades and
overall-volume slide, the faders, the cursors and the ends, a ``modern`` bank's
plainly playing cursors in one array step over its columns."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from soundscape.audio.profiles import MAX_STEP
from soundscape.audio.pymath import py_max, py_min
from soundscape.components.channel import PAUSED, PLAYING, UPDATING, Channel

if TYPE_CHECKING:
    from soundscape.audio.channel_arrays import ChannelColumns
    from soundscape.audio.channels import ChannelBank

OVERALL_SLIDE_PER_FRAME = 0.05
"""Oni's overall volume moves to its target by at most this much a frame (0x483bd0;
``SS2iVolume_Update`` runs once per ``SS2rUpdate``, whatever the ticks the frame took)."""


def advance_one(bank: ChannelBank, channel: Channel, ticks: int,
                held: frozenset[str] | set[str], *, moved: bool = False) -> None:
    """One channel's fade, fader, cursor and end (``advance``); ``moved``: its cursor
    has already moved this tick (``advance_columns``), only its end is left."""
    if not moved:
        if channel.fading:
            fade_step(channel, ticks)
        flags = channel.flags
        if flags & UPDATING:
            channel.flags = flags = flags & ~UPDATING
        if flags & (PLAYING | PAUSED) != PLAYING or (held and channel.bus in held):
            return  # paused, or its bus is: time stands still for it
        if channel.level_rate_per_tick and level_step(bank, channel, ticks):
            return
        channel.cursor_frames += bank.playback_rate_hz(channel) * ticks / bank.ctx.clock.tick_hz
    if channel.cursor_frames < channel.length_frames:
        return
    if channel.loop and channel.length_frames > 0:
        channel.cursor_frames %= channel.length_frames
        return
    overshoot = channel.cursor_frames - channel.length_frames
    channel.flags = (channel.flags & ~PLAYING) | UPDATING
    bank.ctx.events.emit(bank.name, "end", sound=channel.sound, channel=channel.index)
    handle = bank.handle(channel)
    for callback in list(bank.on_end):  # one that raises is reported once
        bank.ctx.events.call(bank.name, callback, bank, handle, channel, overshoot,
                             role="on_end")


def advance_columns(bank: ChannelBank, ticks: int, held: frozenset[str] | set[str]) -> None:
    """``advance`` of a ``modern`` bank (``channel_arrays``) with no ``on_end`` callback:
    the cursors of its plainly playing channels (not paused, fading or held) move in
    one array step over the columns (``held_rate_hz``'s float operations, so the same
    numbers); the channels with anything else to do, and those that reached their
    end, go one by one in slot order (``advance_one``)."""
    columns, n = bank.columns, len(bank.channels)
    assert columns is not None
    if not n:
        return
    columns.advanced[:n] = ticks
    flags, fading = columns.flags[:n], columns.fading[:n]
    plain = (flags & (PLAYING | PAUSED | UPDATING) == PLAYING) & ~fading \
        & (columns.level_rate_per_tick[:n] == 0.0)
    if held:
        ids = [columns.bus_of(name) for name in held]
        plain &= ~np.isin(columns.bus_id[:n], ids)
    if plain.all():  # every channel plainly plays (a bank of emitters): no gathers
        at, todo = None, np.zeros(n, bool)
    else:
        # stopped or paused, not fading and no end to clear: nothing to do
        todo = ~plain & (fading | (flags & UPDATING != 0) | (flags & (PLAYING | PAUSED) == PLAYING))
        at = plain.nonzero()[0]
    if at is None or at.size:
        move_cursors(bank, columns, n, at, ticks, todo)
    channels = bank.channels
    for i in todo.nonzero()[0].tolist():
        advance_one(bank, channels[i], ticks, held, moved=bool(plain[i]))


def move_cursors(bank: ChannelBank, columns: ChannelColumns, n: int, at: np.ndarray | None,
                 ticks: int, todo: np.ndarray) -> None:
    """The array step of ``advance_columns``: the cursors of the slots ``at`` (None: the
    first ``n``) move on; loops that reach their end wrap, the other ends are marked
    in ``todo``."""
    def part(column: np.ndarray) -> np.ndarray:
        return column[:n] if at is None else column[at]

    cap = MAX_STEP * float(bank.ctx.settings.sample_rate_hz)
    rate = part(columns.sample_rate_hz) * part(columns.pitch)
    with np.errstate(all="ignore"):  # a NaN or infinite rate holds still
        low, high = rate.min(), rate.max()
        if low >= 0.0 and high <= cap:  # (a NaN fails both) each held rate is its rate
            held_rate = rate
        else:
            held_rate = np.where(np.isfinite(rate), py_min(py_max(rate, 0.0), cap), 0.0)
        cursor = part(columns.cursor_frames) + held_rate * ticks / bank.ctx.clock.tick_hz
        length = part(columns.length_frames)
        ended = ~(cursor < length)
    if at is None:
        columns.cursor_frames[:n] = cursor
    else:
        columns.cursor_frames[at] = cursor
    if ended.any():  # loops wrap here; one-shots end one by one
        slots = np.arange(n) if at is None else at
        wraps = ended & part(columns.loop) & (length > 0)
        if wraps.any():
            columns.cursor_frames[slots[wraps]] = np.remainder(cursor[wraps], length[wraps])
        todo[slots[ended & ~wraps]] = True


def slide_overall(bank: ChannelBank) -> None:
    """One frame's slide (``SS2iVolume_Update``): 0.05 at most, however many ticks
    the frame stepped, like the placed ambients' 0.05 slew of the same frame."""
    delta = bank.overall_target - bank.overall_volume
    step = OVERALL_SLIDE_PER_FRAME
    if abs(delta) <= step:
        bank.overall_volume = bank.overall_target
    else:
        bank.overall_volume += step if delta > 0 else -step


def level_step(bank: ChannelBank, channel: Channel, ticks: int) -> bool:
    """Move the fader toward its target; True when a fade-out stopped the voice."""
    delta = channel.level_target - channel.level
    step = channel.level_rate_per_tick * ticks
    if abs(delta) <= step:
        channel.level, channel.level_rate_per_tick = channel.level_target, 0.0
    else:
        channel.level += step if delta > 0 else -step
    if channel.level_stop and channel.level <= 0.0:
        return bank.stop(bank.handle(channel), reason="faded out")
    return False


def fade_step(channel: Channel, ticks: int) -> None:
    delta = channel.fade_target - channel.volume
    step = channel.fade_rate_per_tick * ticks
    if abs(delta) <= step:
        channel.volume = channel.fade_target
        channel.fading = False
    else:
        channel.volume += step if delta > 0 else -step
