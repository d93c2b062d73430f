"""Channel handles: the values runtimes name one start on one channel by, and the
bank's callback types (``soundscape.audio.channels``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from soundscape.components.channel import Channel

if TYPE_CHECKING:
    from soundscape.audio.channels import ChannelBank


class Handle(NamedTuple):
    """Names one start on one channel: (bank, channel index ``slot``, generation)."""

    bank: str
    slot: int
    generation: int


class SoundHandle(Handle):
    """A ``Handle`` that steers its own voice (``play_2d``, ``play_at``, ``Emitter.handle``).

    It equals (and hashes as) the plain ``Handle`` of the same start, so it works
    wherever a handle does; a stale one does nothing and returns False.
    """

    # no __slots__: the instance carries its bank
    bank_ref: ChannelBank

    @classmethod
    def of(cls, bank: ChannelBank, handle: Handle) -> SoundHandle:
        made = cls(*handle)
        made.bank_ref = bank
        return made

    @property
    def playing(bank) -> bool:
        """True while this start is still playing (paused counts)."""
        return bank.bank_ref.is_playing(bank)

    def fade(bank, volume: float, seconds: float) -> bool:
        """Fade the voice's fader to ``volume`` (linear, 1 = as played) over ``seconds``."""
        return bank.bank_ref.fade_to(bank, volume, seconds)

    def stop(bank, fade_out_s: float = 0.0) -> bool:
        """Stop it, after fading out over ``fade_out_s`` seconds (0: now)."""
        return bank.bank_ref.stop(bank, fade_out_s=fade_out_s)

    def pause(bank) -> bool:
        """Hold it where it is (``ChannelBank.pause``)."""
        return bank.bank_ref.pause(bank, True)

    def resume(bank) -> bool:
        """Go on from the frame where it was paused."""
        return bank.bank_ref.pause(bank, False)


EndCallback = Callable[["ChannelBank", Handle, Channel, float], None]
"""Called as ``fn(bank, handle, channel, overshoot_frames)`` when a sound ends. One that
raises is reported once (``EventLog.call``: a ``callback_error``); the tick goes on."""
StealCallback = Callable[["ChannelBank", Handle, Channel], None]
"""Called as ``fn(bank, old_handle, channel)`` before a channel is taken from its owner
(reported like ``EndCallback`` when it raises)."""
