"""Moving a bank's channels on in time (``ChannelBank.advance``): Oni's fades and
overall-volume slide, the faders, the cursors and the ends, a ``modern`` bank's
plainly playing cursors in one array step over its columns."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from soundscape.audio.profiles import MAX_STEP, hold_rate, hold_rates
from soundscape.audio.pymath import all_set, any_set
from soundscape.components.channel import PAUSED, PLAYING, UPDATING, Channel

if TYPE_CHECKING:
    from soundscape.audio.channel_arrays import ChannelColumns
    from soundscape.audio.channels import ChannelBank

OVERALL_SLIDE_PER_FRAME = 0.05
"""Oni's overall volume moves to its target by at most this much a frame (0x483bd0;
``SS2iVolume_Update`` runs once per ``SS2rUpdate``, whatever the ticks the frame took)."""
NO_SLOTS = np.zeros(0, np.int64)
"""No slot (``move_cursors`` when no cursor reached its end)."""


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


def advance_columns(bank: ChannelBank, ticks: int, held: frozenset[str] | set[str]
                    ) -> np.ndarray | None:
    """``advance`` of a ``modern`` bank (``channel_arrays``) with no ``on_end`` callback:
    the cursors of its plainly playing channels (not paused, fading or held) move in
    one array step over the columns (``held_rate_hz``'s float operations, so the same
    numbers); the channels with anything else to do, and those that reached their
    end, go one by one in slot order (``advance_one``).

    Returns every channel's held playback rate (``held_rate_hz``) when every one
    plainly played and none reached its end: then every channel still plays and no
    game code ran (no event, no callback), so the law step may take the rates and
    the plain state as they are (``ChannelBank.step``); else None.
    """
    columns, n = bank.columns, len(bank.channels)
    assert columns is not None
    if not n:
        return None
    columns.advanced[:n] = ticks
    channels = bank.channels
    if all_plain(columns, n, held):  # a bank of emitters: no masks, no gathers
        rates, ended = move_cursors(bank, columns, n, None, ticks)
        for i in ended.tolist():
            advance_one(bank, channels[i], ticks, held, moved=True)
        return None if ended.size else rates
    flags, fading = columns.flags[:n], columns.fading[:n]
    plain = (flags & (PLAYING | PAUSED | UPDATING) == PLAYING) & ~fading \
        & (columns.level_rate_per_tick[:n] == 0.0)
    if held:
        plain &= ~np.isin(columns.bus_id[:n], bus_ids(columns, held))
    # stopped or paused, not fading and no end to clear: nothing to do
    todo = ~plain & (fading | (flags & UPDATING != 0) | (flags & (PLAYING | PAUSED) == PLAYING))
    at = plain.nonzero()[0]
    if at.size:
        todo[move_cursors(bank, columns, n, at, ticks)[1]] = True
    for i in todo.nonzero()[0].tolist():
        advance_one(bank, channels[i], ticks, held, moved=bool(plain[i]))
    return None


def advance_few(bank: ChannelBank, ticks: int, held: frozenset[str] | set[str]) -> None:
    """``advance`` of a bank with columns (``channel_arrays``) of fewer than
    ``ARRAYS_FROM`` channels, on_end callbacks or not: each channel in slot order,
    its fields read from the columns as its turn comes (an end's callback may have
    changed a later one), as the per-channel loop does; a plainly playing one's cursor
    moves here (``advance_one``'s float operations, so the same numbers), anything
    else, or an end, goes to ``advance_one``."""
    columns = bank.columns
    assert columns is not None
    cap = MAX_STEP * float(bank.ctx.settings.sample_rate_hz)
    tick_hz = bank.ctx.clock.tick_hz
    # the columns are read through ``columns`` each time: a callback that acquires a
    # new channel grows them into new arrays
    for slot, channel in enumerate(bank.channels):
        columns.advanced[slot] = ticks
        state = columns.flags.item(slot) & (PLAYING | PAUSED | UPDATING)
        fading = columns.fading.item(slot)
        if state != PLAYING or fading or columns.level_rate_per_tick.item(slot) \
                or (held and channel.bus in held):
            if fading or state & (PLAYING | UPDATING):  # else nothing to do
                advance_one(bank, channel, ticks, held)
            continue
        # held_rate_hz of a modern channel, then advance_one's step
        rate = hold_rate(columns.sample_rate_hz.item(slot) * columns.pitch.item(slot), cap)
        moved = columns.cursor_frames.item(slot) + rate * ticks / tick_hz
        columns.cursor_frames[slot] = moved
        if not moved < columns.length_frames.item(slot):
            advance_one(bank, channel, ticks, held, moved=True)


def all_plain(columns: ChannelColumns, n: int, held: frozenset[str] | set[str]) -> bool:
    """Whether every one of the first ``n`` slots plainly plays: playing, not paused,
    no end to clear, no fade or fader moving (a NaN rate moves), its bus not held."""
    if any_set(columns.fading[:n]) or any_set(columns.level_rate_per_tick[:n]):
        return False
    if not all_set(columns.flags[:n] & (PLAYING | PAUSED | UPDATING) == PLAYING):
        return False
    return not held or not np.isin(columns.bus_id[:n], bus_ids(columns, held)).any()


def bus_ids(columns: ChannelColumns, names: frozenset[str] | set[str]) -> list[int]:
    """The ids (``ChannelColumns.bus_of``) of the buses ``names``."""
    return [columns.bus_of(name) for name in names]


def move_cursors(bank: ChannelBank, columns: ChannelColumns, n: int, at: np.ndarray | None,
                 ticks: int) -> tuple[np.ndarray, np.ndarray]:
    """The array step of ``advance_columns``: the cursors of the slots ``at`` (None: the
    first ``n``) move on; loops that reach their end wrap. Returns the slots' held
    rates and the other slots that reached their end, in slot order."""
    def part(column: np.ndarray) -> np.ndarray:
        return column[:n] if at is None else column[at]

    cap = MAX_STEP * float(bank.ctx.settings.sample_rate_hz)
    with np.errstate(all="ignore"):  # a NaN or infinite rate holds still
        held_rate = hold_rates(part(columns.sample_rate_hz) * part(columns.pitch), cap)
        # cursor + rate * ticks / tick_hz, as advance_one; x * 1 is x
        frames = (held_rate * ticks if ticks != 1 else held_rate) / bank.ctx.clock.tick_hz
        if at is None:
            cursor = columns.cursor_frames[:n]
            cursor += frames  # in place: the column's own slots
        else:
            cursor = columns.cursor_frames[at] + frames
            columns.cursor_frames[at] = cursor
        before_end = cursor < part(columns.length_frames)
    if all_set(before_end):
        return held_rate, NO_SLOTS
    return held_rate, ends(columns, n, at, cursor, ~before_end)


def ends(columns: ChannelColumns, n: int, at: np.ndarray | None, cursor: np.ndarray,
         ended: np.ndarray) -> np.ndarray:
    """``move_cursors``' slots that reached their end (``ended``, of ``at``): loops
    with frames wrap (``cursor_frames %= length_frames``); the others are returned."""
    slots = np.arange(n) if at is None else at
    length = columns.length_frames[slots]
    wraps = ended & columns.loop[slots] & (length > 0)
    if wraps.any():
        columns.cursor_frames[slots[wraps]] = np.remainder(cursor[wraps], length[wraps])
    return slots[ended & ~wraps]


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
