"""One ambient slot's records: its state, its two tracks and their fades (seed 001).

A ``Track`` is one of a slot's two channels (base 1's and base 2's); its
``part_volume`` is the ambient's share of the channel volume (channel +0x44),
faded by a rate per tick toward ``fade_target`` (0x482000, 0x481860).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from soundscape.audio.channels import Handle
from soundscape.oni.data import Ambient, Group
from soundscape.oni.groups import Draw

Vec3 = tuple[float, float, float]


class State(IntEnum):
    """The slot states of the seed's table (0x480c20); FREE is an unused slot."""

    FREE = 0
    START = 1
    IN = 2
    IN_WAIT = 3
    BASE = 4
    BODY = 5
    END_WAIT = 6
    OUT = 7
    OUT_WAIT = 8
    RELEASE = 9


@dataclass(slots=True)
class Track:
    """One of a slot's two channels (base 1's and base 2's)."""

    group: Group | None = None
    handle: Handle | None = None
    draw: Draw | None = None
    looping: bool = False
    lost: bool = False
    part_volume: float = 1.0
    fade_target: float = 1.0
    fade_rate: float = 0.0
    fading: bool = False


@dataclass(slots=True)
class AmbientSlot:
    """One of the 16 ambient slots; ``id`` is the sound system's id of the start."""

    index: int
    id: int = -1
    ambient: Ambient | None = None
    state: State = State.FREE
    priority: int = 0
    volume: float = 1.0
    position: Vec3 | None = None
    near: float = 0.0
    far: float = 0.0
    """The tracks' distances: the caller's with a place (a placed record's), else the
    ambient's own (``SSrAmbient_Start``)."""
    tracks: list[Track] = field(default_factory=lambda: [Track(), Track()])
    next_detail_tick: int = -1
    """A detail plays on the first tick after this one (retail ``detail_time < now``);
    -1 at the start, so a details-only ambient plays its first detail at once."""
    details_only: bool = False
    """The start found no channel and the ambient plays details only."""

    @property
    def counts_as_playing(self) -> bool:
        """Whether this slot counts toward its ambient's threshold (``SSrAmbient_Start``):
        a slot from its start up to its end wait; not once its out sound has begun,
        nor while it plays details only (BFW_SoundSystem2.c's count skips
        ``stage >= OutSoundStart``, which includes ``DetailOnly``)."""
        return State.START <= self.state < State.OUT and not self.details_only
    tag: str = ""


def fade_step(track: Track, ticks: int) -> None:
    """Move the part volume toward the fade target by the rate times ``ticks``."""
    delta = track.fade_target - track.part_volume
    step = track.fade_rate * ticks
    # Within a rounding error of the target counts as there (retail pins to the target).
    if abs(delta) <= step * (1.0 + 1e-9):
        track.part_volume, track.fading = track.fade_target, False
    else:
        track.part_volume += step if delta > 0 else -step
