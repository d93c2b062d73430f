"""Issue 6, tick order (seed 002, "Sound maintenance runs after clock sampling..."):
maintenance after the clock and before object updates; dialogue after object
updates; the RTX cache after dialogue. Checked on the processors esper runs."""

from __future__ import annotations

import esper
from rg_world import RgWorld

from soundscape.systems.redguard_dialogue import RgDialogueSystem
from soundscape.systems.redguard_maintenance import RgMaintenanceSystem
from soundscape.systems.redguard_player import RgPlayerSystem
from soundscape.systems.redguard_rtx import RgRtxCacheSystem
from soundscape.systems.redguard_tasks import RgTaskSystem

RETAIL_ORDER = [RgMaintenanceSystem, RgTaskSystem, RgPlayerSystem, RgDialogueSystem,
                RgRtxCacheSystem]


def test_redguard_processors_run_in_the_seeds_order_after_the_clock():
    w = RgWorld()
    ran: list[tuple[type, int]] = []
    for item in w.plugin.installed:
        processor = item.processor
        if type(processor) in RETAIL_ORDER:
            original = processor._tick

            def record(ticks: int, _p=processor, _orig=original) -> None:
                ran.append((type(_p), w.ctx.clock.tick))
                _orig(ticks)

            processor._tick = record  # type: ignore[method-assign]
    esper.process(1 / 60)
    assert [kind for kind, _ in ran] == RETAIL_ORDER
    # the clock was sampled first: every stage already sees this tick
    assert {tick for _, tick in ran} == {1}
    # and esper's own order agrees (highest priority first)
    ours = [type(p) for p in esper._processors if type(p) in RETAIL_ORDER]
    assert ours == RETAIL_ORDER


def test_maintenance_clears_the_reset_flag_before_dialogue_and_cache_run():
    """A save-restore sets the reset flag; the next tick's maintenance clears it,
    so the RTX task (after dialogue) never sees it on that tick (seed 002 line 139)."""
    w = RgWorld()
    w.rt.restore_saved_state(lambda: None)
    assert w.rt.reset_flag
    seen: list[bool] = []
    dialogue = next(i.processor for i in w.plugin.installed
                    if isinstance(i.processor, RgDialogueSystem))
    original = dialogue._tick

    def record(ticks: int) -> None:
        seen.append(w.rt.reset_flag)
        original(ticks)

    dialogue._tick = record  # type: ignore[method-assign]
    w.step()
    assert seen == [False] and not w.rt.reset_flag
