"""A virtual bank's real voices: the loudest ``real_voices`` playing channels are
audible, the others culled (logged ``cull`` / ``restore``); culled voices whose inputs
hold still are parked and woken (``soundscape.audio.virtual``)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from soundscape.audio.channel_arrays import ARRAYS_FROM
from soundscape.audio.pymath import all_set, count_nonzero
from soundscape.audio.virtual import PARK_AFTER_TICKS, signature
from soundscape.components.channel import PAUSED, PLAYING, Channel

if TYPE_CHECKING:
    from soundscape.audio.channel_arrays import ChannelColumns
    from soundscape.audio.channels import ChannelBank


def cull_voices(bank: ChannelBank) -> None:
    """Virtual banks: only the loudest ``real_voices`` playing channels are audible.

    Loudness is the larger side gain; ties go to the lower channel index (one
    ``np.partition`` over the bank, not a sort). A voice that goes virtual is
    logged once as ``cull`` (with its loudness and rank), one that comes back as
    ``restore``; a voice stays culled quietly while it is. The audio side hears
    of a cull as a ``stop`` and of a restore as a new ``start`` (``commands``).
    Culled voices whose inputs hold still are then parked
    (``soundscape.audio.virtual``).
    """
    if bank.columns is not None:
        cull_columns(bank)
        return
    parked = bank._parked
    if parked is None:
        for rank, channel in enumerate(c for c in bank.channels if c.flags & PLAYING):
            if not channel.audible:
                set_audible(bank, channel, True, rank)
        return
    awake = awake_channels(bank)
    if not parked.count and voice_all(bank, awake):
        park(bank, awake)  # parks nothing: every playing voice is audible
        return
    slots = [c.index for c in awake]
    parked.playing[slots] = [c.flags & PLAYING != 0 for c in awake]
    # Python's max(gain_left, gain_right) (the left kept on a tie or a NaN right),
    # without a builtin call a channel
    parked.loud[slots] = [c.gain_right if c.gain_right > c.gain_left else c.gain_left
                          for c in awake]
    playing = np.flatnonzero(parked.playing[: len(bank.channels)])
    n, limit = playing.size, bank.real_voices
    if limit is None or n <= limit:
        for rank in np.flatnonzero(~parked.audible[playing]).tolist():
            set_audible(bank, bank.channels[int(playing[rank])], True, rank)
    else:
        rank_voices(bank, playing, limit, parked.loud[playing], parked.audible[playing])
    park(bank, awake)


def cull_columns(bank: ChannelBank, *, every_plays: bool = False) -> None:
    """``cull_voices`` of a ``modern`` bank (``channel_arrays``), from its columns: the
    same loudness (Python's ``max(gain_left, gain_right)``), ranks and events.
    ``every_plays``: the caller knows that every channel plays (the flags need no
    reading)."""
    columns, n = bank.columns, len(bank.channels)
    assert columns is not None
    if not n:
        return
    limit = bank.real_voices if bank.policy == "virtual" else None
    if n < ARRAYS_FROM:  # a handful: ranked as arrays only when too many play
        flags = columns.flags
        playing_slots = [slot for slot in range(n) if flags.item(slot) & PLAYING]
        if limit is None or len(playing_slots) <= limit:
            for rank, slot in enumerate(playing_slots):
                if not columns.audible.item(slot):
                    set_audible(bank, bank.channels[slot], True, rank)
            return
    is_playing = None if every_plays else columns.flags[:n] & PLAYING
    playing: np.ndarray | None
    if is_playing is None or all_set(is_playing):  # a bank of emitters: no gathers
        playing, audible = None, columns.audible[:n]
        left, right = columns.gain_left[:n], columns.gain_right[:n]
    else:
        playing = is_playing.nonzero()[0]
        audible = columns.audible[playing]
        left, right = columns.gain_left[playing], columns.gain_right[playing]
    if limit is None or audible.size <= limit:
        for rank in (~audible).nonzero()[0].tolist():
            set_audible(bank, bank.channels[rank if playing is None else int(playing[rank])],
                        True, rank)
        return
    loud = np.maximum(left, right)  # Python's max(left, right) when no gain is NaN
    if math.isnan(loud.max()):  # (np.maximum's NaN comes from either side)
        rank_voices(bank, playing, limit, loudness(left, right), audible)
    else:
        rank_voices(bank, playing, limit, loud, audible, nan_free=True)


def loudness(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Python's ``max(left, right)`` of each pair: the left on a tie or a NaN right,
    the NaN on a NaN left (a voice's loudness for the ranking)."""
    return np.where(right > left, right, left)


def voice_all(bank: ChannelBank, awake: list[Channel]) -> bool:
    """With no voice parked (``awake`` is every channel) and no more playing than
    ``real_voices``: voice each one, ranked in channel order, as the array ranking
    would, without its array writes (it writes every awake slot again when it next
    runs); False (nothing done) when there are more."""
    limit = bank.real_voices
    playing: list[Channel] = []
    for channel in awake:
        if channel.flags & PLAYING:
            if len(playing) == limit:
                return False  # more than real_voices: the ranking (stops at the first over)
            playing.append(channel)
    for rank, channel in enumerate(playing):
        if not channel.audible:
            set_audible(bank, channel, True, rank)
    return True


def rank_voices(bank: ChannelBank, playing: np.ndarray | None, limit: int, loud: np.ndarray,
                was_audible: np.ndarray, *, nan_free: bool = False) -> None:
    """Voice the loudest ``limit`` of the ``playing`` slots (None: every slot; ``loud``:
    their loudness, ``was_audible``: whether each is voiced now); log the changes.
    ``nan_free``: no loudness is NaN, so they are ranked as they are, loudest first
    (``loudest_of``, ``rank_of_loud``), without negating them for the NaN-last order."""
    if nan_free:
        audible = loudest_of(loud, limit)
    else:
        neg = -loud
        audible = loudest(neg, limit)
    changed = np.flatnonzero(audible != was_audible)
    if not changed.size:
        return
    if nan_free:
        ranks = [rank_of_loud(loud, i) for i in changed.tolist()] if changed.size <= 32 \
            else ranks_of(-loud, changed)
    else:
        ranks = ranks_of(neg, changed)
    columns = bank.columns
    for rank, i in sorted(zip(ranks, changed.tolist(), strict=True)):
        slot = i if playing is None else int(playing[i])
        if columns is None:
            set_audible(bank, bank.channels[slot], bool(audible[i]), rank)
        else:
            set_slot_audible(bank, columns, slot, audible.item(i), rank)


def loudest(neg: np.ndarray, limit: int) -> np.ndarray:
    """Which of the voices are the ``limit`` loudest (``neg``: their loudness negated;
    ties to the lower indices, NaNs last): the ones below the ``limit``-th smallest
    (one ``np.partition``), then the first of those equal to it. Mostly no other
    voice equals it: then the ones not above it are the answer."""
    if limit <= 0:
        return np.zeros(neg.shape, bool)
    edge = np.partition(neg, limit - 1)[limit - 1]
    audible = neg <= edge
    if count_nonzero(audible) == limit:
        return audible  # no tie at the edge (a NaN edge gives none: handled below)
    return with_ties(neg < edge, neg == edge, limit)


def loudest_of(loud: np.ndarray, limit: int) -> np.ndarray:
    """``loudest(-loud, limit)`` of loudnesses none of which is NaN: the ones from the
    ``limit``-th largest up (one ``np.partition``), the lower indices among equals
    at the edge."""
    n = loud.size
    if limit <= 0:
        return np.zeros(loud.shape, bool)
    edge = np.partition(loud, n - limit)[n - limit]
    audible = loud >= edge
    if count_nonzero(audible) == limit:
        return audible  # no tie at the edge
    return with_ties(loud > edge, loud == edge, limit)


def with_ties(beyond: np.ndarray, at_edge: np.ndarray, limit: int) -> np.ndarray:
    """``beyond`` (the voices louder than the ``limit``-th loudest) with the first of
    ``at_edge`` (as loud as it) added until ``limit`` are: the lower channel indices
    among equals (``loudest``, ``loudest_of``)."""
    ties = np.flatnonzero(at_edge)[: limit - int(count_nonzero(beyond))]
    beyond[ties] = True
    return beyond


def rank_of_loud(loud: np.ndarray, i: int) -> int:
    """``rank_of(-loud, i)`` when no loudness is NaN: the louder entries and the equal
    ones before it."""
    value = loud.item(i)
    return int(count_nonzero(loud > value)) + int(count_nonzero(loud[:i] == value))


def ranks_of(neg: np.ndarray, changed: np.ndarray) -> list[int]:
    """The rank of each of the ``changed`` entries when ``neg`` is sorted ascending,
    ties and NaNs (last) in index order; a few are counted, many sorted (``np.lexsort``)."""
    n = neg.size
    if changed.size > 32:
        ranks = np.empty(n, dtype=np.int64)
        ranks[np.lexsort((np.arange(n), neg))] = np.arange(n)
        return ranks[changed].tolist()
    return [rank_of(neg, i) for i in changed.tolist()]


def rank_of(neg: np.ndarray, i: int) -> int:
    """The rank of ``neg[i]`` (``ranks_of``): the entries below it and the equal ones
    before it; a NaN after every number, after the NaNs before it."""
    value = neg.item(i)
    if value == value:
        return int(count_nonzero(neg < value)) + int(count_nonzero(neg[:i] == value))
    head = neg[:i]
    return int(count_nonzero(neg == neg)) + int(count_nonzero(head != head))


def park(bank: ChannelBank, awake: list[Channel]) -> None:
    """Every ``PARK_AFTER_TICKS`` ticks: park the culled voices whose inputs are as
    they were at the last pass, not fading, not paused, their bus not held and
    the bank's overall volume still (a voice steered every tick never parks; the
    pass costs nothing on the ticks between)."""
    parked = bank._parked
    tick = bank.ctx.clock.tick
    if parked is None or tick < parked.next_pass or bank.overall_volume != bank.overall_target:
        return
    parked.next_pass = tick + PARK_AFTER_TICKS
    if parked.count and parked.overall != bank.overall_volume:
        parked.wake_all(bank.channels)
    parked.overall = bank.overall_volume
    held = bank.ctx.buses.paused_names if bank.ctx.has("buses") else frozenset()
    before, now = parked.pending, {}
    for channel in awake:
        if channel.audible or channel.flags & (PLAYING | PAUSED) != PLAYING \
                or channel.fading or channel.level_rate_per_tick or channel.bus in held:
            continue
        inputs = signature(channel)
        if before.get(channel.index) == inputs:
            parked.park(channel, bank.playback_rate_hz(channel),
                        max(channel.gain_left, channel.gain_right))
        else:
            now[channel.index] = inputs
    parked.pending = now


def set_audible(bank: ChannelBank, channel: Channel, audible: bool, rank: int) -> None:
    """Log one ``cull`` or ``restore`` and mark the channel."""
    bank.ctx.events.emit(bank.name, "restore" if audible else "cull", sound=channel.sound,
                         channel=channel.index,
                         gain=max(channel.gain_left, channel.gain_right), rank=rank,
                         real_voices=bank.real_voices)
    channel.audible = audible
    if bank._parked is not None:
        bank._parked.audible[channel.index] = audible
        if audible:
            bank._parked.wake(channel)
    if audible:
        bank._restored.append(channel.index)


def set_slot_audible(bank: ChannelBank, columns: ChannelColumns, slot: int, audible: bool,
                     rank: int) -> None:
    """``set_audible`` of a bank with columns (which parks nothing): the same record,
    its gain read from the columns, not through the channel's properties."""
    left, right = columns.gain_left.item(slot), columns.gain_right.item(slot)
    bank.ctx.events.emit(bank.name, "restore" if audible else "cull",
                         sound=bank.channels[slot].sound, channel=slot,
                         gain=right if right > left else left,  # max(left, right)
                         rank=rank, real_voices=bank.real_voices)
    columns.audible[slot] = audible
    if audible:
        bank._restored.append(slot)


def advance_parked(bank: ChannelBank, ticks: int, held: frozenset[str] | set[str]) -> list[Channel]:
    """A virtual bank's parked voices (``soundscape.audio.virtual``): wake the ones
    whose inputs changed, whose bus is held or whose bank's overall volume moved;
    move the others on in one step, waking those that end (the per-channel loop
    ends them); write their cursors back. Returns the channels to step one by one."""
    parked = bank._parked
    if parked is None:
        return bank.channels
    if parked.count:
        awake_channels(bank)
        if bank.overall_volume != parked.overall:
            parked.wake_all(bank.channels)
        else:
            for channel in parked.changed():
                parked.wake(channel)
            if held:
                for channel in list(parked.channels):
                    if channel.bus in held:
                        parked.wake(channel)
    awake_channels(bank)
    for slot in parked.advance(ticks, bank.ctx.clock.tick_hz):
        parked.wake(bank.channels[slot])
    awake_channels(bank)
    parked.write_back()
    return bank._awake


def awake_channels(bank: ChannelBank) -> list[Channel]:
    """A virtual bank's channels that are not parked (laid out again after a change)."""
    parked = bank._parked
    if parked is not None and parked.dirty:
        parked.layout(bank.channels)
        on = parked.on[: len(bank.channels)].tolist()
        bank._awake = [c for c, off in zip(bank.channels, on, strict=True) if not off]
    return bank._awake
