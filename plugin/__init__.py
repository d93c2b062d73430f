"""soundscape: a game-audio plugin for esper + pyglet games.

It reproduces three documented retail sound runtimes (Asheron's Call terrain
ambience, Oni sound objects with occlusion and flybys, Redguard integer
positional sound) as esper components and ordered processors.
"""

from __future__ import annotations

from soundscape.clock import Clock
from soundscape.context import Context
from soundscape.errors import DataError, InputError, SoundscapeError
from soundscape.events import EventLog
from soundscape.phase import Phase, phase_priority
from soundscape.plugin import SoundscapePlugin
from soundscape.rng import Rng
from soundscape.settings import Settings
from soundscape.system import SoundSystem

__all__ = [
    "Clock",
    "Context",
    "DataError",
    "EventLog",
    "InputError",
    "Phase",
    "Rng",
    "Settings",
    "SoundSystem",
    "SoundscapeError",
    "SoundscapePlugin",
    "phase_priority",
]
