"""A bank's profile laws in phase CHANNELS (``ChannelBank.step``): ``apply_law`` on
each channel whose inputs changed since its last law; a ``modern`` bank's as arrays
over its columns (``profiles.modern_law_arrays``)."""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING

import numpy as np

from soundscape.audio.profiles import MODERN_INPUTS, apply_law, modern_law, modern_law_arrays
from soundscape.audio.pymath import all_set
from soundscape.components.channel import PLAYING, Channel

if TYPE_CHECKING:
    from soundscape.audio.channels import ChannelBank
    from soundscape.audio.sounds import SoundBank

LAW_INPUTS = attrgetter("volume", "pan", "pitch", "rate_hz", "level", "rate_scale",
                        "sample_rate_hz", "serial")
"""What ``profiles.apply_law`` reads of a channel (``serial`` stands for its sound, whose
bit depth the law reads): a channel whose inputs are as at its last law keeps its
gains and step (``ChannelBank.step``)."""
PAN_ROW = MODERN_INPUTS.index("pan")
"""The row of the pan in ``ChannelColumns.law`` (``moved_slots`` reads it first)."""


def laws(bank: ChannelBank, stepped: list[Channel], rate_hz: int, sounds: SoundBank | None) -> None:
    """``apply_law`` on each of ``stepped`` whose ``LAW_INPUTS`` changed."""
    if bank._law_rows is not None:
        bank._law_rows = None  # the arrays' memory is stale from here on
    done = bank._law_inputs
    for channel in stepped:
        inputs = LAW_INPUTS(channel)
        if done.get(channel.index) == inputs:
            continue  # the same law of the same inputs: gains and step stand
        done[channel.index] = inputs
        sound = sounds.get(channel.sound) if sounds is not None and channel.sound else None
        if not apply_law(bank, channel, rate_hz, sound.bits if sound is not None else 16):
            report_bad_value(bank, channel)


def few_modern_laws(bank: ChannelBank, rate_hz: int) -> None:
    """``laws`` of a bank with columns (``channel_arrays``) of fewer than ``ARRAYS_FROM``
    channels: the same channels stepped, the same skip and the same law
    (``profiles.modern_law``, what ``apply_law`` runs for them), the channels'
    ``MODERN_INPUTS`` read from the columns in one go (not eight properties a
    channel), and again after a ``bad_value`` (its listeners may change a later one,
    which the per-channel loop would read as its turn comes)."""
    columns, n = bank.columns, len(bank.channels)
    assert columns is not None
    if bank._law_rows is not None:
        bank._law_rows = None  # the arrays' memory is stale from here on
    unsent = bank._unsent
    flags = columns.flags[:n].tolist()
    voice_ids = columns.voice_id[:n].tolist() if unsent else None
    # a voice that started and ended since the last publish still gets its gains
    stepped = [slot for slot in range(n)
               if flags[slot] & PLAYING or (voice_ids is not None and voice_ids[slot] in unsent)]
    done, overall = bank._law_inputs, bank.overall_volume
    law_inputs = columns.law[:, :n].T.tolist()
    for slot in stepped:
        inputs = tuple(law_inputs[slot])
        if done.get(slot) == inputs:
            continue  # the same law of the same inputs: gains and step stand
        done[slot] = inputs
        volume, pan, pitch, rate, level, _, source_hz, _ = inputs
        law = modern_law(volume, pan, pitch, rate, level, source_hz, overall, rate_hz)
        columns.gain_left[slot], columns.gain_right[slot], columns.step[slot] = (
            law or (0.0, 0.0, 0.0))
        if law is None:
            report_bad_value(bank, bank.channels[slot])
            law_inputs = columns.law[:, :n].T.tolist()  # as the listeners left them


def modern_laws(bank: ChannelBank, rate_hz: int, rates: np.ndarray | None = None) -> bool:
    """The laws of a ``modern`` bank (``channel_arrays``) over its columns: the
    ``MODERN_INPUTS`` (``ChannelColumns.law``) of every playing channel (and of a voice
    that started and ended since the last publish) compared with the inputs of each
    slot's last law (``_law_rows``, a column a slot), and ``profiles.modern_law_arrays``
    on the ones that changed, written back to the columns.

    ``rates``: what ``channel_advance.advance_columns`` returned this step (every
    channel plays; their held rates, the step's numerator), or None. Returns whether
    every channel plays, as far as no ``bad_value`` listener ran (what the cull may
    take as it is).
    """
    columns, n = bank.columns, len(bank.channels)
    assert columns is not None
    if not n:
        return False
    rows = law_memory(bank, n)
    law = columns.law[:, :n]
    moved = moved_slots(law, rows[:, :n])
    every_plays = rates is not None or all_set(columns.flags[:n] & PLAYING)
    if every_plays:  # (a bank of emitters): each that moved steps
        changed = moved
    else:
        stepped = columns.flags[:n] & PLAYING != 0
        if bank._unsent:  # a voice that started and ended since the last publish
            stepped |= np.isin(columns.voice_id[:n], list(bank._unsent))
        changed = stepped if moved is None else moved & stepped
    if changed is None or all_set(changed):  # every channel changed: no gathers
        rows[:, :n] = law
        # written straight into the columns (no new arrays to copy there)
        usable = modern_law_arrays(bank.overall_volume, law, rate_hz, rates,
                                   (columns.gains[:, :n], columns.step[:n]))[2]
        if usable is not None:
            report_bad_values(bank, np.flatnonzero(~usable))
        return every_plays and usable is None
    slots = changed.nonzero()[0]
    if not slots.size:
        return every_plays
    inputs = law[:, slots]
    rows[:, slots] = inputs
    gains, step, usable = modern_law_arrays(bank.overall_volume, inputs, rate_hz)
    columns.gains[:, slots], columns.step[slots] = gains, step
    if usable is not None:
        report_bad_values(bank, slots[~usable])
    return every_plays and usable is None


def law_memory(bank: ChannelBank, n: int) -> np.ndarray:
    """The bank's ``_law_rows``, with room for ``n`` slots (new slots NaN: no law yet)."""
    rows = bank._law_rows
    if rows is None or rows.shape[1] < n:
        grown = np.full((len(MODERN_INPUTS), max(2 * n, 64)), np.nan)
        if rows is not None:
            grown[:, : rows.shape[1]] = rows
        elif bank._law_inputs:
            bank._law_inputs.clear()  # the per-channel memory is stale from here on
        rows = bank._law_rows = grown
    return rows


def report_bad_values(bank: ChannelBank, slots: np.ndarray) -> None:
    """``report_bad_value`` for each of ``slots``, in slot order."""
    for slot in slots.tolist():
        report_bad_value(bank, bank.channels[slot])


def moved_slots(law: np.ndarray, last: np.ndarray) -> np.ndarray | None:
    """Which columns of ``law`` differ from ``last`` in any row (a NaN always does);
    None when every one does. The pan row first: when the listener walks or turns
    every voice's pan moves, and that one row answers for all."""
    if all_set(law[PAN_ROW] != last[PAN_ROW]):
        return None
    return (law != last).any(axis=0)


def report_bad_value(bank: ChannelBank, channel: Channel) -> None:
    key = (channel.index, channel.serial)
    if key not in bank._reported:
        bank._reported.add(key)
        bank.ctx.events.emit(bank.name, "bad_value", sound=channel.sound, channel=channel.index,
                             reason="non-finite or huge volume, pan, pitch or rate: silenced")
