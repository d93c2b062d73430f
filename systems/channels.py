"""Phase CHANNELS: every channel bank moves on, then its profile law sets the gains.

For each bank: ``advance`` (fades, the overall volume slide, cursors, sound
ends and their callbacks), then every playing channel's volume, pan and pitch
become ``gain_left``/``gain_right``/``step`` by the bank's profile
(``soundscape.audio.profiles.apply_law``), and a virtual bank marks its loudest
``real_voices`` audible.
"""

from __future__ import annotations

from typing import Any

from soundscape.audio.profiles import apply_law
from soundscape.components.channel import PLAYING
from soundscape.phase import Phase
from soundscape.system import SoundSystem


def voice_bank(bank: Any) -> None:
    """Virtual banks: only the loudest ``real_voices`` playing channels are audible.

    Loudness is the larger side gain; ties go to the lower channel index. A voice
    that goes virtual is logged once as ``cull`` (with its loudness and rank), one
    that comes back as ``restore``; a voice stays culled quietly while it is.
    """
    playing = [c for c in bank.channels if c.flags & PLAYING]
    limit = bank.real_voices
    if bank.policy != "virtual" or limit is None or len(playing) <= limit:
        ranked, limit = playing, len(playing)
    else:
        ranked = sorted(playing, key=lambda c: (-max(c.gain_left, c.gain_right), c.index))
    for rank, channel in enumerate(ranked):
        audible = rank < limit
        if audible != channel.audible:
            bank.ctx.events.emit(bank.name, "restore" if audible else "cull",
                                 sound=channel.sound, channel=channel.index,
                                 gain=max(channel.gain_left, channel.gain_right), rank=rank,
                                 real_voices=bank.real_voices)
        channel.audible = audible


class ChannelSystem(SoundSystem):
    """Advances every bank in ``ctx.channels`` and applies its profile law."""

    phase = Phase.CHANNELS
    source = "channels"

    def __init__(self, ctx: Any) -> None:
        super().__init__(ctx)
        self._reported: set[tuple[str, int, int]] = set()

    def _tick(self, ticks: int) -> None:
        rate = self.ctx.settings.sample_rate_hz
        sounds = self.ctx.sounds
        for bank in list(self.ctx.channels.values()):
            bank.advance(ticks)
            for channel in bank.channels:
                if not channel.flags & PLAYING:
                    continue
                sound = sounds.get(channel.sound) if sounds is not None and channel.sound else None
                if not apply_law(bank, channel, rate, sound.bits if sound is not None else 16):
                    self._report(bank.name, channel)
            voice_bank(bank)

    def _report(self, bank: str, channel: Any) -> None:
        """Log a voice with a non-finite volume, pan, pitch or rate once per start."""
        key = (bank, channel.index, channel.serial)
        if key not in self._reported:
            self._reported.add(key)
            self.ctx.events.emit(bank, "bad_value", sound=channel.sound, channel=channel.index,
                                 reason="non-finite or huge volume, pan, pitch or rate: silenced")
