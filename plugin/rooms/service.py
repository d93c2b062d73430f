"""The rooms service (``plugin.rooms``): zones, the listener's zone, sends and ears.

Once a tick, just before CHANNELS (so a voice started this tick carries its room
in its start), the service

* refreshes the ``ReverbZone`` components it knows (a changed zone gets a new
  reverb; a walled zone's flood fill is redone when it or the walls change, by the
  occlusion's rule: ``soundscape.walls``),
* finds the zone the listener stands in and tells the mixer (the reverb the
  listener hears crossfades over ``CROSSFADE_S``; one ``rooms``/``zone`` event),
* sets each playing voice's ``Channel.send`` (the zone its position is in) for the
  banks in ``send_banks`` (``modern`` by default), and in headphone output its
  ``Channel.ear_rad`` (azimuth from the listener's heading) for the ``modern``
  bank's positional mono voices.

Retail profiles (``ac``, ``oni``, ``redguard``) are untouched: they never go
through the head, and send to a zone only when the game asks
(``send_bank("oni")``); their dry mix stays bit-exact either way (the reverb is
added beside it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import esper

from soundscape.audio.reverb import ReverbParams, reverb_params
from soundscape.components.channel import PLAYING
from soundscape.components.occlusion import Wall
from soundscape.components.rooms import ReverbZone
from soundscape.errors import InputError
from soundscape.listener import ActiveListener, usable
from soundscape.rooms.geometry import RoomGrid, Segment, area, check_zone, in_shape, room_grid
from soundscape.settings import OUTPUTS

if TYPE_CHECKING:
    from soundscape.audio.room_mix import RoomMix
    from soundscape.context import Context

EAR_BANKS = frozenset({"modern"})
"""Banks whose positional voices go through the head in headphone output."""


@dataclass(slots=True)
class _Zone:
    """A known zone: what it was built from, its reverb and its room."""

    key: tuple[object, ...]
    params: ReverbParams
    order: tuple[int, float, int]
    zone: ReverbZone
    grid: RoomGrid | None


def _key(zone: ReverbZone) -> tuple[object, ...]:
    return (zone.preset, zone.polygon, zone.center_m, zone.radius_m, zone.decay_s, zone.wet_db,
            zone.predelay_ms, zone.damping, zone.walls, zone.anchor_m, zone.priority, zone.send,
            zone.enabled)


class RoomsService:
    """Reverb zones and the headphone switch (``ctx.rooms``)."""

    def __init__(self, ctx: Context, mix: RoomMix | None) -> None:
        self.ctx = ctx
        self.mix = mix
        self._output = ctx.settings.output
        self.send_banks: set[str] = {"modern"}
        """Banks whose positional voices send to the zone they are in."""
        self.zones: dict[int, _Zone] = {}
        self._order: list[int] = []
        self._walls: tuple[Segment, ...] = ()
        """Every wall as a segment, as last read while a zone was walled."""
        self._wall_reader = ctx.walls.reader()
        """Which walls changed (``soundscape.walls``): looked at only while a zone is walled."""
        self._bad: dict[int, tuple[object, ...]] = {}
        """Zones refused (one ``bad_value`` event), by the values refused."""
        self.listener_zone: int | None = None
        self._touched: set[str] = set()
        """Banks whose channels this service set last tick (cleared when they stop)."""
        ctx.rooms = self

    # -- the game's controls --------------------------------------------------------

    @property
    def output(self) -> str:
        """``"speakers"`` (side gains, the default) or ``"headphones"`` (the head model);
        settable at run time (the voices switch at the next tick)."""
        return self._output

    @output.setter
    def output(self, value: str) -> None:
        if value not in OUTPUTS:
            raise InputError(f"rooms.output: {value!r} is not one of {OUTPUTS}")
        if value != self._output:
            self._output = value
            self.ctx.events.emit("rooms", "output", reason=value)

    def toggle_output(self) -> str:
        """Speakers to headphones or back; the new output."""
        self.output = "speakers" if self._output == "headphones" else "headphones"
        return self._output

    def send_bank(self, name: str, on: bool = True) -> None:
        """Let the voices of bank ``name`` (``"oni"``, ``"ac"``...) send to zones, or not."""
        (self.send_banks.add if on else self.send_banks.discard)(name)

    def zone_at(self, x_m: float, z_m: float) -> int | None:
        """The zone (its entity) a floor-plan point is in, or None."""
        for ent in self._order:
            known = self.zones[ent]
            if in_shape(known.zone, x_m, z_m) and (
                    known.grid is None or known.grid.contains(x_m, z_m)):
                return ent
        return None

    # -- once a tick ----------------------------------------------------------------

    def update(self) -> None:
        self._refresh()
        pose = usable()
        zone = None if pose is None else self.zone_at(pose.xyz[0], pose.xyz[2])
        if zone != self.listener_zone:
            self.listener_zone = zone
            if self.mix is not None:
                self.mix.listen(zone)
            preset = None if zone is None else self.zones[zone].zone.preset
            self.ctx.events.emit("rooms", "zone", sound=preset, reason=f"listener in {zone}")
        self._voices(pose)

    def _refresh(self) -> None:
        present = {ent: zone for ent, zone in esper.get_component(ReverbZone) if zone.enabled}
        walls_moved = False
        if any(z.walls for z in present.values()):  # the reader catches up on what it missed
            changed_walls, gone = self._wall_reader.changes(esper.get_component(Wall))
            if changed_walls or gone:
                walls = tuple((w.ax_m, w.az_m, w.bx_m, w.bz_m)
                              for w in self._wall_reader.components.values())
                walls_moved = walls != self._walls
                self._walls = walls
        walls = self._walls
        changed = False
        for ent in [e for e in self.zones if e not in present]:
            del self.zones[ent]
            changed = True
            if self.mix is not None:
                self.mix.remove(ent)
        for ent, zone in present.items():
            key = _key(zone)
            known = self.zones.get(ent)
            if known is not None and known.key == key and not (zone.walls and walls_moved):
                continue
            if known is None and self._bad.get(ent) == key:
                continue  # refused as it is: said once
            try:
                self._build(ent, zone, key, list(walls))
            except InputError as error:
                self._bad[ent] = key
                if self.zones.pop(ent, None) is not None and self.mix is not None:
                    self.mix.remove(ent)
                self.ctx.events.emit("rooms", "bad_value", reason=str(error))
            changed = True
        if changed:
            self._order = sorted(self.zones, key=lambda e: self.zones[e].order)

    def _build(self, ent: int, zone: ReverbZone, key: tuple[object, ...],
               walls: list[Segment]) -> None:
        where = f"ReverbZone(entity {ent})"
        check_zone(zone, where)
        try:
            params = reverb_params(zone.preset, decay_s=zone.decay_s, wet_db=zone.wet_db,
                                   predelay_ms=zone.predelay_ms, damping=zone.damping)
        except InputError as error:
            raise InputError(f"{where}: {error}") from None
        grid = room_grid(zone, walls, where) if zone.walls else None
        old = self.zones.get(ent)
        self.zones[ent] = _Zone(key, params, (-zone.priority, area(zone), ent), zone, grid)
        self._bad.pop(ent, None)
        if self.mix is not None and (old is None or old.params != params):
            self.mix.configure(ent, params)

    def _voices(self, found: ActiveListener | None) -> None:
        heads = self._output == "headphones" and found is not None
        sounds = self.ctx.sounds if self.ctx.has("sounds") else None
        touched = self._touched
        for bank in self.ctx.channels.values():
            sends = bank.name in self.send_banks and bool(self.zones)
            ears = heads and bank.name in EAR_BANKS
            if not (sends or ears):
                if bank.name in touched:  # clear what was set once, then cost nothing
                    touched.discard(bank.name)
                    for channel in bank.channels:
                        channel.send = channel.ear_rad = None
                continue
            touched.add(bank.name)
            for channel in bank.channels:
                if not channel.flags & PLAYING:
                    continue
                place = channel.position
                if place is None or not all(math.isfinite(c) for c in place):
                    channel.send = channel.ear_rad = None
                    continue
                channel.send = None
                if sends:
                    zone = self.zone_at(place[0], place[2])
                    if zone is not None:
                        channel.send = (zone, self.zones[zone].zone.send)
                channel.ear_rad = None
                if ears and found is not None:
                    sound = sounds.get(channel.sound) if sounds and channel.sound else None
                    if sound is not None and sound.channels == 1:
                        lx, _, lz = found.xyz
                        bearing = math.atan2(place[0] - lx, place[2] - lz)
                        channel.ear_rad = bearing - found.heading_rad
