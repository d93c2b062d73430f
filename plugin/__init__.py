"""soundscape: a game-audio plugin for esper + pyglet games.

It reproduces three documented retail sound runtimes (Asheron's Call terrain
ambience, Oni sound objects with occlusion and flybys, Redguard integer
positional sound) as esper components and ordered processors.

The names below are imported on first use, so ``import soundscape.audio.wav``
loads the decoder alone and never the mixer, pyglet or the runtimes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from soundscape import _lazy, _moved

if TYPE_CHECKING:
    from soundscape.clock import Clock
    from soundscape.context import Context
    from soundscape.errors import DataError, FeatureOffError, InputError, SoundscapeError
    from soundscape.events import EventLog
    from soundscape.phase import Phase, phase_priority
    from soundscape.plugin import SoundscapePlugin
    from soundscape.rng import Rng
    from soundscape.settings import Settings
    from soundscape.system import SoundSystem

    __version__: str

_EXPORTS = {
    "Clock": "soundscape.clock",
    "Context": "soundscape.context",
    "DataError": "soundscape.errors",
    "EventLog": "soundscape.events",
    "FeatureOffError": "soundscape.errors",
    "InputError": "soundscape.errors",
    "Phase": "soundscape.phase",
    "Rng": "soundscape.rng",
    "Settings": "soundscape.settings",
    "SoundSystem": "soundscape.system",
    "SoundscapeError": "soundscape.errors",
    "SoundscapePlugin": "soundscape.plugin",
    "phase_priority": "soundscape.phase",
    "__version__": "soundscape._version",
}

__all__ = [
    "Clock",
    "Context",
    "DataError",
    "EventLog",
    "FeatureOffError",
    "InputError",
    "Phase",
    "Rng",
    "Settings",
    "SoundSystem",
    "SoundscapeError",
    "SoundscapePlugin",
    "phase_priority",
    "__version__",
]

_moved.install_finder()


def __getattr__(name: str) -> object:
    return _lazy.load(__name__, _EXPORTS, name)
