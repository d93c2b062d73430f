"""Sound maintenance, the periodic sound reset, world teardown and save restores.

Maintenance runs after clock sampling and before ordinary object updates. Each
invocation clears the shared sample-reset flag, adds the whole ticks to its
accumulator when the runtime inhibition flag is clear, and above 1400 (exactly
1400 does not) resets: RTX text and audio released, dialogue records cleared,
all sample channels stopped, the reset flag set, the accumulator cleared.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from soundscape.laws import redguard as law

if TYPE_CHECKING:
    from collections.abc import Callable

    from soundscape.redguard.runtime import RedguardRuntime


def maintenance(rt: RedguardRuntime, ticks: int) -> None:
    """One sound-maintenance invocation (camera sampled for this tick's curves)."""
    rt.refresh_listener()
    rt.reset_flag = False
    if not rt.inhibit:
        rt.accumulator = law.wrap32(rt.accumulator + ticks)
    if rt.accumulator > rt.config.reset_ticks:
        periodic_reset(rt)


def periodic_reset(rt: RedguardRuntime) -> None:
    """The periodic sound reset (the walk-node ownership part has no sound analogue)."""
    rt.events.emit("redguard", "reset", reason="periodic", ticks=rt.accumulator)
    rt.rtx.release_payloads()
    rt.dialogue.clear_all("reset", active_only=True)
    rt.stop_all("reset")
    rt.reset_flag = True
    rt.accumulator = 0


def world_loop_entry(rt: RedguardRuntime) -> None:
    """World-loop entry resets only the accumulator."""
    rt.accumulator = 0


def player_controller_sample(rt: RedguardRuntime) -> None:
    """The player controller's inhibition sample.

    An active menu-state word or a non-zero WaitOnDialog sets the inhibition;
    with both zero it clears only when the player lockout is zero too.
    """
    if rt.menu_state or rt.dialogue.wait_on_dialog():
        rt.inhibit = True
    elif rt.player_lockout == 0:
        rt.inhibit = False


def world_teardown(rt: RedguardRuntime) -> None:
    """Leaving a world: dialogue cleared, the active-sound list stopped, all channels stopped."""
    rt.events.emit("redguard", "reset", reason="world teardown")
    rt.dialogue.clear_all("teardown")
    rt.tasks.clear()
    rt.engine.torch_slot = None
    rt.stop_all("world teardown")


def restore_saved_state(rt: RedguardRuntime, restore: Callable[[], None] | None = None) -> None:
    """Restoring SAVEGAME.SAV or a .TSG snapshot.

    RTX cache cleared, dialogue records cleared, all channels stopped, then the
    game's ``restore`` callback (actor and world records), then the shared
    sample-reset flag set; the next maintenance clears it. Native tasks keep
    their invocation counters, so they resume with non-zero elapsed input.
    """
    rt.events.emit("redguard", "reset", reason="restore")
    rt.rtx.full_reset()
    rt.dialogue.clear_all("restore")
    rt.stop_all("restore")
    if restore is not None:
        restore()
    rt.reset_flag = True
