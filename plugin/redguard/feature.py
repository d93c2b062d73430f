"""Feature ``redguard``: Redguard positional sound (seed 002).

``install(ctx)`` creates the 16-channel ``redguard`` bank (first idle channel at
or above the start index, no stealing), sets ``ctx.redguard`` to a
``RedguardRuntime`` and returns its processors, all in ``Phase.OBJECT_UPDATE``
in the retail order: sound maintenance (step 0), native tasks (1), the player
controller and torch (2), dialogue records (5), the RTX cache (7).

A game drives it through ``ctx.redguard``: ``.effects`` (load MAIN.SFX data),
``.rtx_store`` (RTX clips), ``.surface`` (SURFACE.INI), ``.script`` (the SOUP
sound calls), ``.engine`` (animation PlaySound, combat, ropes, torch),
``.player`` (the selected player's entity), ``.set_master``, and the world
lifecycle (``.enter_world_loop``, ``.world_teardown``, ``.restore_saved_state``).
The how-to is ``docs/redguard.md``.
"""

from __future__ import annotations

from soundscape.audio.channels import ensure_bank
from soundscape.audio.sounds import SoundBank
from soundscape.context import Context
from soundscape.laws import redguard as law
from soundscape.redguard.config import RgConfig
from soundscape.redguard.runtime import RedguardRuntime
from soundscape.system import SoundSystem
from soundscape.systems.redguard_dialogue import RgDialogueSystem
from soundscape.systems.redguard_maintenance import RgMaintenanceSystem
from soundscape.systems.redguard_player import RgPlayerSystem
from soundscape.systems.redguard_rtx import RgRtxCacheSystem
from soundscape.systems.redguard_tasks import RgTaskSystem


def install(ctx: Context) -> list[SoundSystem]:
    """Create the bank and ``ctx.redguard``; return the Redguard processors."""
    config = RgConfig.from_settings(ctx.settings.extra)
    if not ctx.has("sounds"):
        ctx.sounds = SoundBank()  # the audio feature was not installed: keep a bank of our own
    bank = ensure_bank(ctx, "redguard", count=law.CHANNELS, policy="redguard",
                       profile="redguard")
    runtime = RedguardRuntime(ctx, bank, config)
    runtime.effects.count = config.effect_count
    ctx.redguard = runtime
    return [
        RgMaintenanceSystem(ctx),
        RgTaskSystem(ctx),
        RgPlayerSystem(ctx),
        RgDialogueSystem(ctx),
        RgRtxCacheSystem(ctx),
    ]
