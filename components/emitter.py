"""A generic positional sound source for game developers (the ``modern`` profile)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(slots=True)
class Emitter:
    """A sound that plays from its entity's ``Position`` (feature ``audio``).

    The plugin starts it on the ``modern`` channel bank, and every tick sets its
    gain from the distance to the active ``Listener`` (full inside
    ``min_distance_m``, ``min / d`` beyond, silent past ``max_distance_m``) and
    its equal-power pan from the bearing.

    Attributes:
        sound: the sound's name in the sound bank.
        volume: linear gain at or inside ``min_distance_m``.
        loop: repeat whole; a non-looping emitter plays once.
        min_distance_m: distance of full volume.
        max_distance_m: distance beyond which it is silent.
        pitch: playback-rate ratio (1 = the sound's own rate).
        enabled: set False to stop it (True again restarts it).
        handle: the channel handle while it plays (set by the plugin).
        finished: a one-shot emitter that has played to its end.
    """

    sound: str
    volume: float = 1.0
    loop: bool = True
    min_distance_m: float = 1.0
    max_distance_m: float = 50.0
    pitch: float = 1.0
    enabled: bool = True
    handle: Any = None
    finished: bool = False
