"""What the overlay draws, read from a plugin context as plain values.

``probe(ctx)`` gathers the listener, the AC land cells around it with their
terrain and ambient weight, the bearings and distance shells of the
intermittent ambients, the walls, the occlusion rays, the flyby paths and
trigger points, and every channel of every bank. It only reads: drawing code
(``soundscape.overlay``) and tests use the same snapshot, and a runtime that is
not installed simply contributes nothing.

Channel volumes and pans are brought to 0..1 and -1..1 from each profile's units:

>>> channel_volume01("ac", -25.0), channel_volume01("redguard", 127.0)
(0.5, 1.0)
>>> channel_pan11("redguard", 64.0), channel_pan11("ac", -15.0)
(0.0, -1.0)
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import esper

from soundscape.components.channel import PAUSED
from soundscape.components.occlusion import Occluded, Wall
from soundscape.listener import usable
from soundscape.overlay.ac import ac_bearings, ac_cells, ac_cells_key
from soundscape.overlay.views import (
    BearingView,
    BusView,
    CellView,
    ChannelView,
    FlybyView,
    ListenerView,
    RayView,
    Snapshot,
)

if TYPE_CHECKING:
    from soundscape.context import Context
    from soundscape.occlusion.service import RayTrace

__all__ = [
    "AC_VOLUME_FLOOR_DB", "RAY_MAX_AGE_TICKS", "BearingView", "CellView", "ChannelView",
    "FlybyView", "ListenerView", "RayView", "Snapshot", "channel_pan11", "channel_volume01",
    "channels_view", "flybys_view", "listener_view", "probe", "rays_view", "walls_view",
]

AC_VOLUME_FLOOR_DB = -50.0
"""AC's VOL_MIN (FORMULAS.md): the bottom of the channel panel's dB bar."""
RAY_MAX_AGE_TICKS = 30
"""A ray older than this (its record went out of hearing) is not drawn."""


def _clamp(value: float, lo: float, hi: float, fallback: float | None = None) -> float:
    """``value`` held to lo..hi; NaN gives ``fallback`` (default ``lo``)."""
    if math.isnan(value):
        return lo if fallback is None else fallback
    return lo if value < lo else hi if value > hi else value


def channel_volume01(profile: str, volume: float) -> float:
    """A channel's volume on a 0..1 bar, from its profile's units."""
    if profile == "ac":
        return _clamp(1.0 - volume / AC_VOLUME_FLOOR_DB, 0.0, 1.0)
    if profile == "redguard":
        return _clamp(volume / 127.0, 0.0, 1.0)
    return _clamp(volume, 0.0, 1.0)


def channel_pan11(profile: str, pan: float) -> float:
    """A channel's pan on a -1..1 bar (negative left), from its profile's units.

    A NaN pan shows centred (a hard-left tick would claim a pan nobody set).
    """
    if profile == "ac":
        return _clamp(pan / 15.0, -1.0, 1.0, 0.0)
    if profile == "oni":
        return _clamp(pan / 3333.0, -1.0, 1.0, 0.0)
    if profile == "redguard":
        return _clamp((pan - 64.0) / 63.0, -1.0, 1.0, 0.0)
    return _clamp(pan, -1.0, 1.0, 0.0)


def listener_view() -> ListenerView | None:
    """The first active listener, or None when it is not finite (``soundscape.listener``)."""
    found = usable()
    if found is None:
        return None
    pos = found.position
    return ListenerView(pos.x_m, pos.z_m, found.heading_rad, found.listener.outdoors)


def walls_view() -> list[tuple[float, float, float, float]]:
    return [(w.ax_m, w.az_m, w.bx_m, w.bz_m) for _e, w in esper.get_component(Wall)]


def rays_view(ctx: Context) -> list[RayView]:
    """The last ray of every placed record still in hearing, and the recent uncached
    queries (impulses, flybys) cast within ``RAY_MAX_AGE_TICKS``."""
    if not ctx.has("occlusion"):
        return []
    service = ctx.occlusion
    tick = ctx.clock.tick
    out = []
    for entity, ray in list(service.last_rays.items()):
        if tick - ray.tick > RAY_MAX_AGE_TICKS or not esper.entity_exists(entity):
            continue
        occluded = esper.try_component(entity, Occluded)
        if occluded is not None and not occluded.in_hearing:
            continue
        out.append(_ray(ray))
    for ray in service.recent_queries:
        if ray.in_hearing and tick - ray.tick <= RAY_MAX_AGE_TICKS:
            out.append(_ray(ray))
    return out


def _ray(ray: RayTrace) -> RayView:
    (ax, _ay, az), (bx, _by, bz) = ray.from_xyz, ray.to_xyz
    return RayView(ax, az, bx, bz, int(ray.walls), float(ray.volume))


def flybys_view(ctx: Context) -> list[FlybyView]:
    """Every flyby record in use (its path) and every record's trigger points."""
    table = ctx.occlusion.flybys if ctx.has("occlusion") else None
    if table is None:
        return []
    out = []
    for record in table.records:
        triggers = [(t.point[0], t.point[2]) for t in record.triggers[-8:]]
        path = [(p[0], p[2]) for p in record.path] if record.in_use else []
        if path or triggers:
            out.append(FlybyView(path, triggers))
    return out


def channels_view(ctx: Context) -> list[ChannelView]:
    out = []
    for name, bank in sorted(ctx.channels.items()):
        for channel in bank.channels:
            out.append(
                ChannelView(
                    bank=name,
                    index=channel.index,
                    sound=channel.sound if channel.playing else None,
                    priority=int(channel.priority),
                    volume01=channel_volume01(channel.profile, channel.volume)
                    if channel.playing else 0.0,
                    pan11=channel_pan11(channel.profile, channel.pan) if channel.playing else 0.0,
                    playing=channel.playing,
                )
            )
    return out


METER_FLOOR_DB = -48.0
"""A bus meter's bar is empty at this level and full at 0 dB."""


def buses_view(ctx: Context) -> list[BusView]:
    """Each bus with its meter: the playing, audible, unpaused voices on it or under
    it, their larger side gains (after the fader) summed in power, times their bus's
    gain; in dB from ``METER_FLOOR_DB`` to 0, as 0..1."""
    if not ctx.has("buses"):
        return []
    buses = ctx.buses
    gains = buses.gains()
    power = [0.0] * len(buses)
    held = buses.paused_names
    for bank in ctx.channels.values():
        for channel in bank.channels:
            if not channel.playing or not channel.audible or channel.flags & PAUSED \
                    or channel.bus in held or channel.bus not in buses:
                continue
            bus = buses[channel.bus]
            loud = max(abs(channel.gain_left), abs(channel.gain_right)) * gains[bus.index]
            for up in bus.lineage():
                power[up.index] += loud * loud
    out = []
    for bus in buses:
        level_db = 10.0 * math.log10(power[bus.index]) if power[bus.index] > 0 else -math.inf
        level01 = _clamp(1.0 - level_db / METER_FLOOR_DB, 0.0, 1.0, 0.0) if math.isfinite(
            level_db) else 0.0
        out.append(BusView(bus.name, sum(1 for _ in bus.lineage()) - 1, gains[bus.index],
                           level01, bus.name in held, bus.muted, bus.duck_db))
    return out


def probe(ctx: Context, previous: Snapshot | None = None) -> Snapshot:
    """One frame's snapshot of everything the overlay draws (the current esper world).

    With ``previous`` (last frame's snapshot), the land cells are reused while the
    AC runtime has not rebuilt since.
    """
    listener = listener_view()
    key = ac_cells_key(ctx)
    if previous is not None and previous.cells_key is not None and previous.cells_key == key:
        cells = previous.cells
    else:
        cells = ac_cells(ctx, listener)
    return Snapshot(
        listener=listener,
        cells=cells,
        bearings=ac_bearings(ctx),
        walls=walls_view(),
        rays=rays_view(ctx),
        flybys=flybys_view(ctx),
        channels=channels_view(ctx),
        buses=buses_view(ctx),
        cells_key=key,
    )
