"""A generic positional sound source for game developers (the ``modern`` profile)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from soundscape.errors import InputError
from soundscape.names import check_sound_name


def check_distances(min_distance_m: float, max_distance_m: float, where: str) -> None:
    """Raise InputError unless 0 <= min <= max (min finite; max may be infinite).

    >>> check_distances(2.0, float("inf"), "Emitter")
    >>> check_distances(5.0, 1.0, "Emitter")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    soundscape.errors.InputError: Emitter: min_distance_m 5.0 and max_distance_m 1.0 ...
    """
    lo, hi = float(min_distance_m), float(max_distance_m)
    if not (math.isfinite(lo) and 0.0 <= lo <= hi):
        raise InputError(f"{where}: min_distance_m {min_distance_m!r} and max_distance_m "
                         f"{max_distance_m!r} need 0 <= min <= max")


@dataclass(slots=True)
class Emitter:
    """A sound that plays from its entity's ``Position`` (feature ``audio``).

    The plugin starts it on the ``modern`` channel bank, and every tick sets its
    gain from the distance to the active ``Listener`` (full inside
    ``min_distance_m``, ``min / d`` beyond, silent past ``max_distance_m``) and
    its equal-power pan from the bearing.

    A non-finite ``Position`` silences the voice (it keeps playing, silently,
    until the position is finite again); distances with ``min > max`` or a
    negative ``min``, or a sound name that cannot be a file name (a NUL, a lone
    surrogate, over 255 bytes) raise InputError when the component is made.

    Example (a looping fountain heard up to 40 m away)::

        esper.create_entity(Position(3.0, 0.0, 8.0),
                            Emitter("fountain", volume=0.8, min_distance_m=2.0,
                                    max_distance_m=40.0))

    Attributes:
        sound: the sound's name in the sound bank (set another name to switch:
            the old sound stops and the new one starts the next tick).
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

    def __post_init__(self) -> None:
        check_sound_name(self.sound, "Emitter")
        check_distances(self.min_distance_m, self.max_distance_m, "Emitter")
