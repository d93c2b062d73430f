"""A bank's profile laws in phase CHANNELS (``ChannelBank.step``): ``apply_law`` on
each channel whose inputs changed since its last law, many ``modern`` ones at once as
arrays (``profiles.apply_modern_laws``)."""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING

import numpy as np

from soundscape.audio.profiles import MODERN_INPUTS, apply_law, apply_modern_laws, modern_inputs
from soundscape.components.channel import Channel

if TYPE_CHECKING:
    from soundscape.audio.channels import ChannelBank
    from soundscape.audio.sounds import SoundBank

LAW_INPUTS = attrgetter("volume", "pan", "pitch", "rate_hz", "level", "rate_scale",
                        "sample_rate_hz", "serial")
"""What ``profiles.apply_law`` reads of a channel (``serial`` stands for its sound, whose
bit depth the law reads): a channel whose inputs are as at its last law keeps its
gains and step (``ChannelBank.step``)."""
MODERN_ARRAY_LAWS = 16
"""From this many changed channels on, a ``modern`` bank runs their laws as arrays
(``profiles.apply_modern_laws``: the same numbers, less per-channel Python)."""


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


def modern_laws(bank: ChannelBank, stepped: list[Channel], rate_hz: int) -> None:
    """The ``modern`` laws of many channels as arrays: their inputs read at once,
    compared with the inputs of their last law (``_law_rows``, a column a slot), and
    ``profiles.apply_modern_laws`` on the ones that changed."""
    inputs = modern_inputs(stepped)
    slots = np.fromiter([c.index for c in stepped], np.int64, len(stepped))
    rows = bank._law_rows
    if rows is None or rows.shape[1] < len(bank.channels):
        grown = np.full((len(MODERN_INPUTS), max(2 * len(bank.channels), 64)), np.nan)
        if rows is not None:
            grown[:, : rows.shape[1]] = rows
        elif bank._law_inputs:
            bank._law_inputs.clear()  # the dict's memory is stale from here on
        rows = bank._law_rows = grown
    changed = np.flatnonzero((inputs != rows[:, slots]).any(axis=0))
    if not changed.size:
        return
    if changed.size < len(stepped):
        slots, inputs = slots[changed], inputs[:, changed]
        stepped = [stepped[i] for i in changed.tolist()]
    rows[:, slots] = inputs  # (every channel changed, as when all move: no gathers)
    for channel in apply_modern_laws(bank.overall_volume, stepped, rate_hz, inputs):
        report_bad_value(bank, channel)


def report_bad_value(bank: ChannelBank, channel: Channel) -> None:
    key = (channel.index, channel.serial)
    if key not in bank._reported:
        bank._reported.add(key)
        bank.ctx.events.emit(bank.name, "bad_value", sound=channel.sound, channel=channel.index,
                             reason="non-finite or huge volume, pan, pitch or rate: silenced")
