"""Phase CHANNELS: every channel bank moves on (fades, cursors, sound ends)."""

from __future__ import annotations

from soundscape.phase import Phase
from soundscape.system import SoundSystem


class ChannelSystem(SoundSystem):
    """Advances every bank in ``ctx.channels`` by the ticks this frame stepped."""

    phase = Phase.CHANNELS
    source = "channels"

    def _tick(self, ticks: int) -> None:
        for bank in list(self.ctx.channels.values()):
            bank.advance(ticks)
