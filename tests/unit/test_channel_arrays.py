"""A ``modern`` bank keeps its channels as columns (``soundscape.audio.channel_arrays``):
its ``Channel``s read and write their slot, with the types a plain ``Channel`` has."""

from __future__ import annotations

import dataclasses

import esper
import numpy as np
import pytest

from soundscape import Context, Settings
from soundscape.audio.channel_arrays import ArrayChannel
from soundscape.audio.channels import ensure_bank
from soundscape.audio.sounds import SoundBank
from soundscape.components.channel import PLAYING, Channel
from soundscape.errors import InputError


def modern_bank(name: str = "modern"):
    ctx = Context.create(Settings(backend="none"))
    ctx.sounds = SoundBank()
    ctx.sounds.add("tone", np.zeros(4_800, dtype=np.float32), 48_000)
    return ctx, ensure_bank(ctx, name, count=0, policy="virtual", profile="modern",
                            real_voices=4)


def test_fields_keep_their_types_and_values_through_the_columns():
    ctx, bank = modern_bank()
    handle = bank.acquire()
    assert bank.play(handle, "tone", volume=0.25, pan=-0.5, pitch=1.5, loop=True,
                     position=(1, 2.5, 3), bus="music")
    channel = bank.get(handle)
    assert isinstance(channel, ArrayChannel) and isinstance(channel, Channel)
    assert (channel.volume, channel.pan, channel.pitch) == (0.25, -0.5, 1.5)
    assert type(channel.volume) is float and type(channel.flags) is int
    assert type(channel.serial) is int and type(channel.sample_rate_hz) is int
    assert channel.sample_rate_hz == 48_000 and channel.length_frames == 4_800
    assert channel.loop is True and channel.fading is False and channel.flags & PLAYING
    assert channel.bus == "music" and channel.position == (1.0, 2.5, 3.0)
    channel.position = None
    assert channel.position is None
    with pytest.raises(InputError, match="Channel.position"):
        channel.position = (1.0, 2.0)  # a clear error where the bad write is
    assert channel.position is None
    assert bank.columns.volume[channel.index] == 0.25  # the column is the field


def test_values_survive_the_columns_growing():
    ctx, bank = modern_bank()
    handles = []
    for i in range(3):
        handles.append(handle := bank.acquire())  # played at once: else it counts as free
        bank.play(handle, "tone", volume=0.1 * (i + 1), loop=True)
    size = bank.columns.size
    while bank.columns.size == size:  # more channels than the arrays had room for
        bank.play(bank.acquire(), "tone", volume=0.9, loop=True)
    assert [round(bank.get(h).volume, 6) for h in handles] == [0.1, 0.2, 0.3]


def test_a_replaced_channel_is_a_copy_no_bank_steps():
    ctx, bank = modern_bank()
    handle = bank.acquire()
    bank.play(handle, "tone", volume=0.5, loop=True)
    channel = bank.get(handle)
    copy = dataclasses.replace(channel)
    copy.volume = 0.9
    assert copy.volume == 0.9 and channel.volume == 0.5
    assert copy == dataclasses.replace(channel, volume=0.9)


def test_esper_finds_the_channels_under_channel():
    esper.switch_world("test-channel-arrays")
    try:
        ctx, bank = modern_bank()
        for _ in range(3):
            bank.play(bank.acquire(), "tone", volume=0.5)
        found = {id(channel) for _, channel in esper.get_component(Channel)}
        assert found == {id(channel) for channel in bank.channels}
    finally:
        esper.switch_world("default")
        esper.delete_world("test-channel-arrays")
