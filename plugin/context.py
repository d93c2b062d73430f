"""The shared context every system receives by injection.

It holds the plugin's settings, clock, random source and event log, and one slot
per installed runtime service. A feature's ``install`` fills its slot; a system
reads the slots it needs (``ctx.channels`` for voices, ``ctx.occlusion`` for
wall counts...). Nothing here is global: two plugins in two esper worlds share
nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from soundscape.clock import Clock
from soundscape.events import EventLog
from soundscape.rng import Rng
from soundscape.settings import Settings


@dataclass(slots=True)
class Context:
    """Everything a soundscape system may use, passed to its constructor."""

    settings: Settings
    clock: Clock
    rng: Rng
    events: EventLog
    world: str = "default"
    sounds: Any = None
    """The sound bank (feature ``audio``): decoded float32 sounds by name."""
    channels: dict[str, Any] = field(default_factory=dict)
    """Channel banks by name (feature ``audio``)."""
    mixer: Any = None
    """The mixer and its backend (feature ``audio``)."""
    ac: Any = None
    """The Asheron's Call ambient runtime state (feature ``ac``)."""
    oni: Any = None
    """The Oni sound system: groups, ambients, impulses, scripts (feature ``oni``)."""
    occlusion: Any = None
    """Walls, the pymunk space and the occlusion cache (feature ``occlusion``)."""
    redguard: Any = None
    """The Redguard runtime: effect bank, tasks, dialogue (feature ``redguard``)."""
    emitters: Any = None
    """Generic positional emitters and ``play_at`` one-shots (feature ``audio``)."""

    @classmethod
    def create(cls, settings: Settings, world: str = "default") -> Context:
        """A fresh context with its own clock, seeded random source and event log."""
        clock = Clock(settings.tick_hz)
        return cls(
            settings=settings,
            clock=clock,
            rng=Rng(settings.seed),
            events=EventLog(clock, settings.event_log_path),
            world=world,
        )
