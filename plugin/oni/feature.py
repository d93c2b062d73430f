"""Feature ``oni``: the Oni sound system (seed 001) on its own 16-channel bank.

``install`` creates the ``oni`` channel bank (16 channels, 7 stereo, Oni's
allocation policy and profile), sets ``ctx.oni`` to an ``OniSound`` with its
``scripts`` and ``placed`` table, and returns the PLACED_AMBIENTS and
SOUND_OBJECTS systems. The setting ``extra["oni_units_per_m"]`` (default 1,
``OniConfig``) scales world metres to Oni units.
"""

from __future__ import annotations

from soundscape.audio.channels import ensure_bank
from soundscape.context import Context
from soundscape.oni.config import OniConfig
from soundscape.oni.sound import OniSound
from soundscape.system import SoundSystem
from soundscape.systems.placed_ambients import PlacedAmbientSystem
from soundscape.systems.sound_objects import SoundObjectSystem

CHANNELS = 16
STEREO_CHANNELS = 7
"""16 channels, 7 stereo and 9 mono (0x4830c0: 16 x 0.4, rounded)."""


def install(ctx: Context) -> list[SoundSystem]:
    """Create the ``oni`` bank and ``ctx.oni``; return the Oni processors."""
    config = OniConfig.from_settings(ctx.settings.extra)
    bank = ensure_bank(ctx, "oni", count=CHANNELS, policy="oni", profile="oni",
                       stereo_count=STEREO_CHANNELS)
    ctx.oni = OniSound(ctx, bank, config.units_per_m)
    return [PlacedAmbientSystem(ctx), SoundObjectSystem(ctx)]
