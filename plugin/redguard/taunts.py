"""Combat taunts: an actor's RTX line presented through the shared cache (seed 002).

Each actor keeps one RTX cache reference (``RgCombat.cache_ref``). Replacing it
releases the old entry only when that entry remembers a sample; the actor
always drops the reference. Unlike ordinary dialogue reuse, the new label's
remembered sample is stopped and cleared after lookup, even when the label was
already cached. The result is 0 with text disabled, else the retained record's
signed active word (0 for an absent record).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from soundscape.components.redguard import RgCombat
from soundscape.redguard.emitter import object_state
from soundscape.redguard.rtx_tasks import request_group

if TYPE_CHECKING:
    from soundscape.redguard.runtime import RedguardRuntime


def combat_of(entity: int) -> RgCombat:
    """The actor's ``RgCombat`` (combat construction adds it when absent)."""
    return object_state(entity, RgCombat)


def present_taunt(rt: RedguardRuntime, actor: int, label: str | None, animation: int = 0) -> int:
    """Present taunt ``label`` (None or "" is the zero label) for ``actor``; the result."""
    combat = combat_of(actor)
    print_text = rt.config.dialog_print_text != 0
    if label:
        release_reference(rt, combat)
        if print_text and rt.dialogue.is_active(combat.record):
            rt.dialogue.clear(combat.record, "taunt")
        index = rt.rtx.lookup(label)
        if index is not None:
            entry = rt.rtx.entries[index]
            rt.stop_slot(entry.sample, "taunt")
            entry.sample = None
            combat.cache_ref = index
            if rt.config.dialog_use_speech == 1:
                rt.rtx.speak(index)
            if print_text:
                combat.record = rt.dialogue.create(actor, entry)
        if animation:
            request_group(rt, actor, animation)
    combat.result = taunt_result(rt, combat) if print_text else 0
    return combat.result


def release_reference(rt: RedguardRuntime, combat: RgCombat) -> None:
    """Drop the actor's cache reference, releasing the entry if it remembers a sample."""
    if combat.cache_ref is not None:
        entry = rt.rtx.entries[combat.cache_ref]
        if entry.sample is not None:
            rt.rtx.release(combat.cache_ref)
        combat.cache_ref = None


def taunt_result(rt: RedguardRuntime, combat: RgCombat) -> int:
    """The retained record's signed active word, 0 for the absent record."""
    if not 0 <= combat.record < len(rt.dialogue.records):
        return 0
    return rt.dialogue.records[combat.record].active
