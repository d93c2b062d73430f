"""A generic positional sound source for game developers (the ``modern`` profile)."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any

from soundscape.errors import InputError
from soundscape.names import check_sound_name

_REVISIONS = itertools.count(1)
"""Every write to any ``Emitter`` takes the next number (``Emitter.revision``)."""


def revision_stamp() -> int:
    """A number no ``Emitter`` write has taken (it takes the next one). A reader that
    takes one again and gets the very next number knows no ``Emitter`` anywhere was
    written in between (``EmitterRows.refresh``: one call, not a pass over the rows).

    >>> first = revision_stamp()
    >>> revision_stamp() == first + 1
    True
    """
    return next(_REVISIONS)


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


ROLLOFFS = ("inverse", "linear", "exponential", "none", "custom")
"""``Emitter.rolloff``: OpenAL's clamped distance models, none, or a custom curve
(``soundscape.laws.spatial.distance_gain``)."""


def _finite(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def check_spatial(rolloff: str, rolloff_factor: float, curve: object, cone: tuple[float, ...],
                  where: str) -> tuple[tuple[float, float], ...]:
    """Raise InputError for a spatial setting that makes no sense; the curve as a tuple.

    ``rolloff`` one of ``ROLLOFFS``; ``rolloff_factor`` finite, 0 or more; ``curve``
    (distance m, gain) points of finite numbers, distances rising, gains 0 or more
    (at least one for ``"custom"``); ``cone`` (inner deg, outer deg, outer gain) with
    0 <= inner <= outer <= 360 and the gain in 0..1.

    >>> check_spatial("custom", 1.0, [(0, 1), (10, 0.5)], (360, 360, 0), "Emitter")
    ((0.0, 1.0), (10.0, 0.5))
    >>> check_spatial("cubic", 1.0, (), (360, 360, 0), "Emitter")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    soundscape.errors.InputError: Emitter: rolloff 'cubic' is not one of ...
    """
    if rolloff not in ROLLOFFS:
        raise InputError(f"{where}: rolloff {rolloff!r} is not one of {ROLLOFFS}")
    if not (_finite(rolloff_factor) and rolloff_factor >= 0.0):
        raise InputError(f"{where}: rolloff_factor {rolloff_factor!r} must be finite, 0 or more")
    try:
        points = tuple((float(d), float(g)) for d, g in curve)  # type: ignore[attr-defined]
    except (TypeError, ValueError) as error:
        raise InputError(f"{where}: curve {curve!r} must be (distance_m, gain) points") from error
    if any(not (math.isfinite(d) and math.isfinite(g) and g >= 0.0) for d, g in points) or any(
            b[0] < a[0] for a, b in zip(points, points[1:], strict=False)):
        raise InputError(f"{where}: curve {curve!r} needs finite points, rising distances "
                         "and gains of 0 or more")
    if rolloff == "custom" and not points:
        raise InputError(f"{where}: rolloff 'custom' needs a curve of (distance_m, gain) points")
    inner, outer, gain = cone
    if not (all(_finite(v) for v in cone) and 0.0 <= inner <= outer <= 360.0
            and 0.0 <= gain <= 1.0):
        raise InputError(f"{where}: cone_inner_deg {inner!r}, cone_outer_deg {outer!r} and "
                         f"cone_outer_gain {gain!r} need 0 <= inner <= outer <= 360, gain 0..1")
    return points


def check_seconds(value: object, where: str, name: str) -> float:
    """``value`` as seconds (finite, >= 0), else an ``InputError`` naming ``name``.

    >>> check_seconds(0.5, "Emitter", "fade_in_s")
    0.5
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not (math.isfinite(value) and value >= 0.0):
        raise InputError(f"{where}: {name} {value!r} must be finite seconds >= 0")
    return float(value)


@dataclass(slots=True)
class Emitter:
    """A sound that plays from its entity's ``Position`` (feature ``audio``).

    The plugin starts it on the ``modern`` channel bank, and every tick sets its
    gain from the distance to the active ``Listener`` (the ``rolloff`` model:
    OpenAL's inverse-distance-clamped by default, full inside ``min_distance_m``,
    ``min / d`` beyond, held from ``max_distance_m`` on), its cone, the walls
    (``occlusion=True``), its equal-power pan from the bearing, and its pitch from
    the doppler shift (``soundscape.laws.spatial``).

    A non-finite ``Position`` silences the voice (it keeps playing, silently,
    until the position is finite again); distances with ``min > max`` or a
    negative ``min``, or a sound name that cannot be a file name (a NUL, a lone
    surrogate, over 255 bytes) raise InputError when the component is made.

    Example (a looping fountain heard up to 40 m away, and a radio behind walls
    facing east)::

        esper.create_entity(Position(3.0, 0.0, 8.0),
                            Emitter("fountain", volume=0.8, min_distance_m=2.0,
                                    max_distance_m=40.0, rolloff="linear"))
        esper.create_entity(Position(9.0, 0.0, 2.0),
                            Emitter("radio", occlusion=True, heading_rad=math.pi / 2,
                                    cone_inner_deg=90, cone_outer_deg=240,
                                    cone_outer_gain=0.3))

    Attributes:
        sound: the sound's name in the sound bank (set another name to switch:
            the old sound stops and the new one starts the next tick).
        volume: linear gain at or inside ``min_distance_m``.
        loop: repeat whole; a non-looping emitter plays once.
        min_distance_m: distance of full volume (OpenAL's reference distance).
        max_distance_m: the distance is held here: the gain stops falling
            (``"linear"`` with factor 1 is silent from here on).
        rolloff: ``"inverse"`` ``min / (min + f (d - min))``, ``"linear"``
            ``1 - f (d - min) / (max - min)``, ``"exponential"`` ``(d / min)^-f``,
            ``"none"``, or ``"custom"`` (``curve``).
        rolloff_factor: ``f`` above (0: no fall).
        curve: for ``"custom"``: (distance m, gain) points, distances rising,
            joined by straight lines, flat past both ends.
        pitch: playback-rate ratio (1 = the sound's own rate); the doppler
            factor multiplies it.
        occlusion: heard through the ``Wall`` components (needs the
            ``occlusion`` feature): each wall crossed takes its
            ``transmission_db`` and a low-pass closes in with every wall.
        doppler: shift the pitch by the emitter's and the listener's motion
            (their ``Velocity``, else the change of their ``Position``).
        heading_rad: the compass heading the emitter faces (for its cone).
        cone_inner_deg, cone_outer_deg, cone_outer_gain: OpenAL's sound cone
            around ``heading_rad``: full gain within half the inner angle,
            ``cone_outer_gain`` outside half the outer one, a straight line
            between. 360 (the default) has no cone.
        enabled: set False to stop it; True again plays it again (``restart``).
        bus: the bus it plays on (``ctx.buses``: ``"sfx"`` by default).
        fade_in_s: each start rises from silence over this many seconds.
        fade_out_s: ``enabled = False`` fades it out over this many seconds
            before it stops (0: at once).
        restart: what re-enabling a looping emitter does: False (default)
            resumes where the loop would be now, had it played on all along
            (ambience keeps its phase); True starts the sound over. A
            one-shot emitter always plays from its start again.
        handle: the channel handle while it plays (set by the plugin).
        finished: a one-shot emitter that has played to its end.
        revision: bookkeeping, not a setting: a new number after every write to
            the emitter, so the plugin reads an emitter's settings again only when
            one was written (``soundscape.audio.emitter_rows``).
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
    rolloff: str = "inverse"
    rolloff_factor: float = 1.0
    curve: tuple[tuple[float, float], ...] = ()
    occlusion: bool = False
    doppler: bool = True
    heading_rad: float = 0.0
    cone_inner_deg: float = 360.0
    cone_outer_deg: float = 360.0
    cone_outer_gain: float = 0.0
    bus: str = "sfx"
    fade_in_s: float = 0.0
    fade_out_s: float = 0.0
    restart: bool = False
    revision: int = field(default=0, init=False, repr=False, compare=False)

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        object.__setattr__(self, "revision", next(_REVISIONS))

    def __post_init__(self) -> None:
        if not isinstance(self.bus, str) or not self.bus:
            raise InputError(f"Emitter: bus {self.bus!r} must be a bus name")
        self.fade_in_s = check_seconds(self.fade_in_s, "Emitter", "fade_in_s")
        self.fade_out_s = check_seconds(self.fade_out_s, "Emitter", "fade_out_s")
        check_sound_name(self.sound, "Emitter")
        check_distances(self.min_distance_m, self.max_distance_m, "Emitter")
        self.curve = check_spatial(self.rolloff, self.rolloff_factor, self.curve,
                                   (self.cone_inner_deg, self.cone_outer_deg,
                                    self.cone_outer_gain), "Emitter")
