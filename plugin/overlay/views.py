"""The plain values the overlay draws: one record per kind of thing on the map.

``soundscape.overlay.probe`` fills them from a plugin context (the AC ones in
``soundscape.overlay.ac``); ``soundscape.overlay.draw`` draws them.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class ListenerView:
    x_m: float
    z_m: float
    heading_rad: float
    outdoors: bool


@dataclass(slots=True)
class CellView:
    """One AC land cell: its south-west corner, size, terrain type and ambient weight 0..1."""

    x_m: float
    z_m: float
    size_m: float
    terrain: int
    weight: float


@dataclass(slots=True)
class BearingView:
    """An intermittent ambient's accumulated compass bearing and its distance shell."""

    sound: str
    heading_rad: float
    min_m: float
    max_m: float
    chance: float


@dataclass(slots=True)
class RayView:
    """An occlusion ray from a placed sound to the listener (floor plan, metres)."""

    ax_m: float
    az_m: float
    bx_m: float
    bz_m: float
    walls: int
    volume: float


@dataclass(slots=True)
class FlybyView:
    """A projectile's recent path and the points where its flyby impulse played."""

    path: list[tuple[float, float]]
    triggers: list[tuple[float, float]]


@dataclass(slots=True)
class ChannelView:
    """One voice slot, its values brought to bars: volume 0..1, pan -1..1."""

    bank: str
    index: int
    sound: str | None
    priority: int
    volume01: float
    pan11: float
    playing: bool


@dataclass(slots=True)
class BusView:
    """One bus and its meter: the voices on it and under it, their gains summed in
    power, times the bus gain (0..1 over -48..0 dB); ``depth`` is its level in the tree."""

    name: str
    depth: int
    gain: float
    level01: float
    paused: bool
    muted: bool
    duck_db: float


@dataclass(slots=True)
class Snapshot:
    """Everything the overlay draws for one frame."""

    listener: ListenerView | None = None
    cells: list[CellView] = field(default_factory=list)
    bearings: list[BearingView] = field(default_factory=list)
    walls: list[tuple[float, float, float, float]] = field(default_factory=list)
    rays: list[RayView] = field(default_factory=list)
    flybys: list[FlybyView] = field(default_factory=list)
    channels: list[ChannelView] = field(default_factory=list)
    buses: list[BusView] = field(default_factory=list)
    cells_key: object = None
    """Changes when the cells do (the AC rebuild); None: compare the cells themselves."""
