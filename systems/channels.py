"""Phase CHANNELS: every channel bank moves on, then its profile law sets the gains.

For each bank (``ChannelBank.step``): ``advance`` (fades, the overall volume
slide, cursors, sound ends and their callbacks), then every playing channel's
volume, pan and pitch become ``gain_left``/``gain_right``/``step`` by the bank's
profile (``soundscape.audio.profiles.apply_law``), and a virtual bank marks its
loudest ``real_voices`` audible (``ChannelBank.cull_voices``).
"""

from __future__ import annotations

from soundscape.audio.channels import step_banks
from soundscape.phase import Phase
from soundscape.system import SoundSystem


class ChannelSystem(SoundSystem):
    """Steps every bank in ``ctx.channels`` (``soundscape.audio.channels.step_banks``)."""

    phase = Phase.CHANNELS
    source = "channels"

    def _tick(self, ticks: int) -> None:
        step_banks(self.ctx, ticks)
