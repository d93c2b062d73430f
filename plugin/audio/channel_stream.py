"""A bank's side of the voice command stream (phase PUBLISH): the starts and stops
since the last publish, a ``set`` for each voice whose parameters changed, the
stops of culled voices and the starts of restored ones (``soundscape.audio.commands``)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from itertools import repeat
from typing import TYPE_CHECKING

import numpy as np

from soundscape.audio.commands import (
    SET,
    START,
    Command,
    VoiceParams,
    new_tuple,
    set_params,
    start,
    stop,
)
from soundscape.audio.profiles import apply_law, miles_factors
from soundscape.components.channel import PAUSED, PLAYING, Channel
from soundscape.errors import SoundscapeError

if TYPE_CHECKING:
    from soundscape.audio.channels import ChannelBank
    from soundscape.audio.sounds import Sound


SETS_FROM = 8
"""A bank with columns sending this many voices or more reads their parameters from the
columns at once (``sets``); fewer go one by one, cheaper than a gather a column."""


def cut(bank: ChannelBank, channel: Channel) -> None:
    """The channel's voice is stopped or stolen: a ``stop`` for the audio side
    when it has the voice (one started since the last publish is simply never
    sent; a culled one was stopped when it was culled)."""
    voice = channel.voice_id
    if bank._parked is not None:
        bank._parked.wake(channel)
    sent = bank._sent.pop(channel.index, None)
    if voice in bank._unsent:
        del bank._unsent[voice]
    elif sent is not None and sent[0] == voice:
        bank._ops.append((voice, -1, 0, 0.0, None))


def freeze(bank: ChannelBank, channel: Channel) -> None:
    """Before a channel is played again: a voice of it not yet published (one
    that started and ended since) keeps the parameters it had."""
    voice = channel.voice_id
    if voice in bank._unsent and bank._unsent[voice] is None:
        sound = next(op[4] for op in bank._ops if op[0] == voice)
        if sound is not None:
            apply_law(bank, channel, bank.ctx.settings.sample_rate_hz, sound.bits)
            bank._unsent[voice] = voice_params(bank, channel, sound)


def voice_params(bank: ChannelBank, channel: Channel, sound: Sound) -> VoiceParams:
    """What the mixer needs of ``channel``'s voice (after the profile law)."""
    miles = None
    if bank.profile == "redguard" and sound.bits:
        miles = miles_factors(channel.volume, channel.pan, sound.bits)
    left, right = float(channel.gain_left), float(channel.gain_right)
    send = ear = None
    if channel.send is not None or channel.ear_rad is not None:  # the rooms feature
        mono = math.sqrt((left * left + right * right) / 2.0)
        if channel.send is not None:
            send = (channel.send[0], channel.send[1] * mono)
        if channel.ear_rad is not None:
            ear, left, right = (channel.ear_rad, mono), 0.0, 0.0
    bus, paused = 0, channel.flags & PAUSED != 0
    if bank.ctx.has("buses"):
        bus, bus_paused = bank.ctx.buses.voice_bus(channel.bus)
        paused = paused or bus_paused
    # positional (VoiceParams' field order): a keyword call costs a voice ~0.2 us a tick
    return VoiceParams(left, right, float(channel.step), bool(channel.loop), paused,
                       bool(channel.audible), bank.profile == "modern", miles, send, ear,
                       float(channel.lowpass_hz), bus)


def commands(bank: ChannelBank, first_tick: int, out: list[Command]) -> None:
    """Append this bank's commands since the last publish to ``out`` (PUBLISH).

    Starts and stops in the order they happened (a start made before the
    channel phase sits at ``first_tick``, one chained after it at the tick
    after the frame's last), then a ``set`` for each voice whose parameters
    changed, a ``stop`` for each voice culled since (``cull_voices``), and a
    ``start`` for each voice restored: a new voice id, at the source frame the
    game side's cursor had at ``first_tick`` (a loop's phase), so the sound
    goes on where it would be. A voice culled at its start sends nothing, nor
    does one that stays culled or ends while it is culled.
    """
    for voice, slot, advanced, offset, sound in bank._ops:
        if slot < 0:
            out.append(stop(voice))
            continue
        if voice not in bank._unsent or sound is None:
            continue  # started and cut before this publish: never heard
        channel = bank.channels[slot]
        params = bank._unsent[voice]
        if params is None:
            params = voice_params(bank, channel, sound)
        if not params.audible:
            continue  # culled at its start: a restore starts it where it is then
        out.append(start(voice, sound, params, tick=first_tick + advanced, offset=offset))
        if channel.voice_id == voice:
            bank._sent[slot] = (voice, params, sound)
    sent = bank._sent
    if bank.columns is not None and len(sent) >= SETS_FROM and bank.profile != "redguard":
        sets(bank, out)
        sent = {}
    for slot, (voice, last, sound) in list(sent.items()):
        channel = bank.channels[slot]
        if channel.voice_id != voice or not channel.flags & PLAYING:
            del sent[slot]  # it ended: the audio side plays it out
            continue
        if not channel.audible:
            del sent[slot]  # culled: the audio side cuts it (``modern`` fades it)
            out.append(stop(voice))
            continue
        if voice in bank._unsent:
            continue  # its start has this tick's parameters
        params = voice_params(bank, channel, sound)
        if params != last:
            out.append(set_params(voice, params))
            sent[slot] = (voice, params, sound)
    for slot in bank._restored:
        restore(bank, bank.channels[slot], first_tick, out)


def sets(bank: ChannelBank, out: list[Command]) -> None:
    """The sent voices' part of ``commands`` for a bank with columns (``channel_arrays``)
    sending ``SETS_FROM`` voices or more:
    the voices that ended or were culled dropped (a ``stop`` for a culled one), a
    ``set`` for each whose parameters changed, the parameters read from the columns
    at once (``column_params``; the rooms' send and ear one by one)."""
    columns, sent = bank.columns, bank._sent
    assert columns is not None
    slots = list(sent)
    at = np.fromiter(slots, np.intp, len(slots))  # one index for every gather
    voice_ids, flags, audible = (columns.voice_id[at].tolist(), columns.flags[at].tolist(),
                                 columns.audible[at].tolist())
    rooms = bank.ctx.has("rooms")  # only the rooms feature gives a voice a send or an ear
    unsent, channels = bank._unsent, bank.channels
    for slot, voice_now, flag, heard, params in zip(
            slots, voice_ids, flags, audible, column_params(bank, at, flags), strict=True):
        voice, last, sound = sent[slot]
        if voice_now != voice or not flag & PLAYING:
            del sent[slot]  # it ended: the audio side plays it out
            continue
        if not heard:
            del sent[slot]  # culled: the audio side cuts it (``modern`` fades it)
            out.append(stop(voice))
            continue
        if voice in unsent:
            continue  # its start has this tick's parameters
        if rooms and ((channel := channels[slot]).send is not None
                      or channel.ear_rad is not None):
            params = voice_params(bank, channel, sound)  # the rooms feature's mix
        if params != last:
            # ``set_params`` inlined: a call a voice a tick is a tenth of this loop
            out.append(new_tuple(Command, (SET, voice, 0, 0.0, None, params, 0.0, (), False)))
            sent[slot] = (voice, params, sound)


def column_params(bank: ChannelBank, at: np.ndarray, flags: list[int]) -> list[VoiceParams]:
    """``voice_params`` of the heard voices of slots ``at`` (``flags``: theirs) of a
    ``modern`` or retail float bank with columns, without a send or an ear, made
    from the columns at once: each float field a gather, the tuples made by ``map``;
    the pause and the bus (a bank's voices most often on one) in Python, which costs
    less than a numpy call a step over a few dozen voices."""
    columns = bank.columns
    assert columns is not None
    n = len(at)
    paused: Iterable[bool] = [flag & PAUSED != 0 for flag in flags]
    bus: Iterable[int] = repeat(0, n)
    if bank.ctx.has("buses"):  # each bus name's (index, paused) asked once
        buses = bank.ctx.buses
        table = [buses.voice_bus(name) for name in columns.bus_names]
        if len(table) == 1:  # every voice on one bus: nothing to gather
            index, held = table[0]
            bus = repeat(index, n)
            if held:
                paused = repeat(True, n)
        else:
            ids = columns.bus_id[at].tolist()
            bus = [table[i][0] for i in ids]
            paused = [stopped or table[i][1] for stopped, i in zip(paused, ids, strict=True)]
    fields = zip(columns.gain_left[at].tolist(), columns.gain_right[at].tolist(),
                 columns.step[at].tolist(), columns.loop[at].tolist(), paused,
                 repeat(True, n), repeat(bank.profile == "modern", n), repeat(None, n),
                 repeat(None, n), repeat(None, n), columns.lowpass_hz[at].tolist(), bus,
                 strict=True)
    return list(map(new_tuple, repeat(VoiceParams, n), fields))


def sound_of(bank: ChannelBank, channel: Channel) -> Sound | None:
    """The sound data ``channel`` plays, as its ``play`` found it (the sound bank
    keeps a sound while a channel plays it, culled or not)."""
    if channel.sound is None or not bank.ctx.has("sounds"):
        return None
    try:
        return bank.ctx.sounds.get(channel.sound, bank.convert_rate_hz)
    except SoundscapeError:
        return None


def restore(bank: ChannelBank, channel: Channel, first_tick: int, out: list[Command]) -> None:
    """A voice back from virtual starts again on the audio side (a new voice id)
    at the source frame its game-side cursor had when this tick interval began."""
    if bank.columns is not None and bank.profile != "redguard" and channel.send is None \
            and channel.ear_rad is None:
        restore_from_columns(bank, channel, first_tick, out)
    else:
        restore_channel(bank, channel, first_tick, out)


def restore_channel(bank: ChannelBank, channel: Channel, first_tick: int,
                    out: list[Command]) -> None:
    """``restore`` read through the channel's fields (any bank, any profile)."""
    slot, sound = channel.index, sound_of(bank, channel)
    if not (channel.flags & PLAYING and channel.audible) or slot in bank._sent \
            or channel.voice_id in bank._unsent or sound is None:
        return  # stopped, culled again or played anew since: nothing to restore
    held = bank.ctx.buses.paused_names if bank.ctx.has("buses") else frozenset()
    offset = interval_start(bank, channel, channel.cursor_frames, channel.loop,
                            channel.length_frames,
                            moving=not channel.flags & PAUSED and channel.bus not in held)
    channel.voice_id = voice = next(bank.ctx.voice_ids)
    params = voice_params(bank, channel, sound)
    out.append(start(voice, sound, params, tick=first_tick, offset=offset, fade_in=True))
    bank._sent[slot] = (voice, params, sound)


def restore_from_columns(bank: ChannelBank, channel: Channel, first_tick: int,
                         out: list[Command]) -> None:
    """``restore_channel`` of a float bank's channel with columns and no send or ear: its
    fields read from the columns at its slot (``ndarray.item``: the values its
    properties give, without a property call each, ~19 -> ~12 us a restore in the 1k
    tick, where the loudest voices of a virtual bank change about once a tick as the
    listener walks)."""
    columns, slot = bank.columns, channel.index
    assert columns is not None
    flags = columns.flags.item(slot)
    if not (flags & PLAYING and columns.audible.item(slot)) or slot in bank._sent \
            or columns.voice_id.item(slot) in bank._unsent:
        return  # stopped, culled again or played anew since: nothing to restore
    sound = sound_of(bank, channel)
    if sound is None:
        return
    paused, bus, held = flags & PAUSED != 0, 0, False
    if bank.ctx.has("buses"):  # (held: the bus is among ``paused_names``)
        bus, held = bank.ctx.buses.voice_bus(columns.bus_names[columns.bus_id.item(slot)])
    loop = columns.loop.item(slot)
    offset = interval_start(bank, channel, columns.cursor_frames.item(slot), loop,
                            columns.length_frames.item(slot), moving=not paused and not held)
    voice = next(bank.ctx.voice_ids)
    columns.voice_id[slot] = voice
    # ``voice_params``' fields in its order (no Miles factors, send or ear here)
    params = new_tuple(VoiceParams, (
        columns.gain_left.item(slot), columns.gain_right.item(slot), columns.step.item(slot),
        loop, paused or held, True, bank.profile == "modern", None, None, None,
        columns.lowpass_hz.item(slot), bus))
    out.append(new_tuple(Command, (START, voice, first_tick, 0.0, sound, params, offset, (),
                                   True)))
    bank._sent[slot] = (voice, params, sound)


def interval_start(bank: ChannelBank, channel: Channel, cursor_frames: float, loop: bool,
                   length_frames: float, *, moving: bool) -> float:
    """The source frame a restored voice starts at: where its game-side cursor
    (``cursor_frames``) was when this tick interval began, back by the ticks it has
    advanced since when it is ``moving`` (not paused, its bus not held), wrapped into a
    loop, never before 0."""
    moved = 0.0
    if moving:
        ticks = ticks_advanced(bank, channel.index)
        moved = bank.playback_rate_hz(channel) * ticks / bank.ctx.clock.tick_hz
    offset = cursor_frames - moved
    if loop and length_frames > 0:
        offset %= length_frames
    return max(offset, 0.0)


def mark_published(bank: ChannelBank) -> None:
    """The mixer has this tick's commands: later plays start at the next interval."""
    bank._advanced_ticks.clear()
    if bank.columns is not None:
        bank.columns.advanced[:] = -1
    if bank._parked is not None:
        bank._parked.moved[:] = False
    bank._ops.clear()
    bank._unsent.clear()
    bank._restored.clear()


def ticks_advanced(bank: ChannelBank, slot: int) -> int:
    """Ticks channel ``slot`` has advanced since the last publish (0: a play on it
    starts at the interval's first tick; else at the tick after its last)."""
    if bank.columns is not None:
        return max(int(bank.columns.advanced[slot]), 0)
    ticks = bank._advanced_ticks.get(slot)
    if ticks is not None:
        return ticks
    parked = bank._parked
    return bank._last_ticks if parked is not None and parked.moved[slot] else 0
