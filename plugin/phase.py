"""The plugin's tick order, one `Phase` per retail frame-loop stage.

esper runs processors from the highest ``priority`` down, and ``add_processor``
overwrites any class attribute ``priority``, so every processor is added with an
explicit priority computed here.
"""

from __future__ import annotations

from enum import IntEnum

PHASE_SPACING = 10
"""Priority distance between two phases; a phase may hold this many sub-steps."""


class Phase(IntEnum):
    """The stages of one tick, in the order they run (DESIGN.md, "One tick")."""

    CLOCK = 0
    """The plugin's clock takes the frame's ``dt`` and steps whole ticks."""
    CELL_REBUILD = 1
    """AC ``CellManager::ChangePosition``: rebuild only when the objcell changed."""
    OBJECT_UPDATE = 2
    """Emitters follow owners; Redguard maintenance, ambient tasks, dialogue."""
    AMBIENT_PLAYBACK = 3
    """AC ``Ambient::UseTime``: pop every deadline earlier than now."""
    OCCLUSION = 4
    """Oni ``OSiCalc_PositionAndVolume``: wall counts through pymunk."""
    PLACED_AMBIENTS = 5
    """Oni ``OSiAmbient_Update``: hearing, start, wait, stop, volume slew."""
    FLYBYS = 6
    """Oni flyby records: closest approach, impulse there."""
    SOUND_OBJECTS = 7
    """Oni ambient state machines, details, fades."""
    CHANNELS = 8
    """Laws turn each voice into gains, pan and rate; allocation, stealing; the banks'
    fades and Oni's overall volume slide (``ChannelBank.step``)."""
    PUBLISH = 9
    """The tick's voice commands (start, set, stop) are handed to the mixer."""


def phase_priority(phase: Phase, base_priority: int, step: int = 0) -> int:
    """The esper priority of sub-step ``step`` of ``phase``.

    Earlier phases get higher priorities so esper runs them first; every phase
    sits below ``base_priority`` so the game's own processors (priority 0 by
    default) run before sound sees the tick.

    >>> phase_priority(Phase.CELL_REBUILD, -100) > phase_priority(Phase.PUBLISH, -100)
    True
    >>> phase_priority(Phase.CHANNELS, -100, step=1) < phase_priority(Phase.CHANNELS, -100)
    True
    """
    if not 0 <= step < PHASE_SPACING:
        raise ValueError(f"phase step {step} outside 0..{PHASE_SPACING - 1}")
    return base_priority - int(phase) * PHASE_SPACING - step
