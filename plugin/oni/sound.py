"""``ctx.oni``: the Oni sound system (seed 001, "How they play").

It owns the sound database, the 16 ambient slots, the impulses, the overall
volume, the listener and the channel plumbing on the ``oni`` channel bank.
A channel's volume is ``ambient or impulse volume x distance volume x
permutation volume x overall volume x group volume`` (the bank's ``oni``
profile turns it into hundredths of a dB with ``laws.oni.to_centibels``).

World places are metres in the shared frame; Oni units are metres times the
setting ``extra["oni_units_per_m"]`` (default 1), and sound distances compare
with the world distance divided by 3 (FORMULAS.md).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from soundscape.audio.channels import ChannelBank, Handle
from soundscape.components.channel import ChannelKind
from soundscape.errors import InputError, SoundscapeError
from soundscape.laws.oni import ONI_BUFFER_HZ, distance_volume, pan_centibels
from soundscape.names import check_sound_name
from soundscape.oni.ambients import AmbientSlot, AmbientSlots, Track
from soundscape.oni.data import Ambient, Group, Impulse, OniDatabase
from soundscape.oni.groups import (
    draw_group,
    group_kind,
    play_permutation,
    select_permutation,
)
from soundscape.oni.impulses import Impulses
from soundscape.oni.listener import Ears, find_ears
from soundscape.oni.osbd import load_osbd
from soundscape.oni.placed import PlacedTable
from soundscape.oni.scripts import Scripts
from soundscape.oni.toml import load_toml, loads_toml

if TYPE_CHECKING:
    from soundscape.audio.sounds import Sound
    from soundscape.context import Context
    from soundscape.oni.level_file import OniLevelFile
    from soundscape.seams import OcclusionQuery

SOURCE = "oni"
LEVEL_LOADER = ""
"""The sound bank loader prefix of a level's SNDD sounds (every name: they have no prefix)."""
DISTANCE_DIVISOR = 3.0
"""Sound distances compare with the world distance / 3 (FORMULAS.md, 0x52b134)."""

Vec3 = tuple[float, float, float]


BUSES_BY_TAG = {"script": "music", "dialog": "dialogue"}
"""The bus of an ambient's voices by who started it (docs/audio.md, "Buses"): script
ambients (``sound_music_*``, ``sound_ambient_*``) on ``music``, dialogue on
``dialogue``; placed ambients, impulses and flybys on the bank's ``sfx``."""


def bus_of_tag(tag: str) -> str:
    """The bus for an ambient slot's ``tag``.

    >>> bus_of_tag("script"), bus_of_tag("dialog"), bus_of_tag("")
    ('music', 'dialogue', 'sfx')
    """
    return BUSES_BY_TAG.get(tag, "sfx")


class OniSound:
    """The Oni runtime service (``ctx.oni``).

    Attributes:
        db: the ``OniDatabase`` (groups, ambients, impulses).
        ambients: the 16 ``AmbientSlots``.
        scripts: the script commands (``Scripts``), set by the feature.
        placed: the 1024 placed-ambient records (``PlacedTable``), set by the feature.
        impulses: the impulses playing (``Impulses``).
        ears: the listener this tick.
        overall_volume: the overall volume (the bank's: ``ChannelBank`` slides it and
            its ``oni`` law applies it).
    """

    def __init__(self, ctx: Context, bank: ChannelBank, units_per_m: float = 1.0) -> None:
        self.ctx, self.bank, self.units_per_m = ctx, bank, float(units_per_m)
        self.db = OniDatabase()
        self.local = ctx.rng.oni("oni.local")
        self.random = ctx.rng.oni("oni.random")
        self.ambients = AmbientSlots(self)
        self.ears = Ears((0.0, 0.0, 0.0), 0.0, "unset")
        self.ears_tick = -1
        self.impulses = Impulses(self)
        self.channel_groups: dict[Handle, Group] = {}
        """The group each channel this runtime started plays (channel ``group``, the
        impulses' alternate threshold counts them)."""
        bank.on_end.append(self._on_end)
        bank.on_steal.append(self._on_steal)
        self.scripts = Scripts(self)
        self.placed = PlacedTable(self)
        self.level: OniLevelFile | None = None
        """The retail level ``load_level`` opened, if any."""
        self._refused_sounds: dict[str, SoundscapeError] = {}

    def emit(self, event: str, **fields: Any) -> None:
        self.ctx.events.emit(SOURCE, event, **fields)

    # -- data -------------------------------------------------------------------------

    def load_toml(self, path: str | Path) -> OniDatabase:
        """Load a TOML file into the database (objects of existing names reload in place)."""
        load_toml(path, database=self.db, max_bytes=self.ctx.settings.max_file_bytes)
        return self.db

    def loads_toml(self, text: str, source: str = "<toml>") -> OniDatabase:
        loads_toml(text, source=source, database=self.db)
        return self.db

    def load_osbd(self, instances: list[tuple[str, bytes]], raw: bytes,
                  source: str = "OSBD") -> OniDatabase:
        """Load OSBD instances ``(name, 8 bytes: size, offset)`` pointing into ``raw``."""
        load_osbd(instances, raw, source=source, database=self.db)
        return self.db

    def load_level(self, path: str | Path) -> OniLevelFile:
        """Run on a retail level: ``levelN_Final.dat`` with its ``.raw`` (and ``.sep``).

        Its OSBD instances load into the database now (objects of existing names
        reload in place); its SNDD sound data is decoded into the sound bank the
        first time a permutation plays it (the sound bank's loader for names of no
        prefix, ``soundscape.oni.level_file``). A level opened before is closed and
        its sounds not yet played are no longer found.

        Raises:
            DataError: a missing or malformed file (names the file, offset and field).
        """
        from soundscape.oni.level_file import OniLevelFile

        level = OniLevelFile(path)
        try:
            level.read_osbd(self.db)
        except BaseException:
            level.close()
            raise
        previous, self.level = self.level, level
        if previous is not None:
            previous.close()
        self._refused_sounds = {}
        if self.ctx.has("sounds"):
            sounds = self.ctx.sounds
            sounds.loaders[LEVEL_LOADER] = self._level_sound
            sounds.missing.clear()  # names missing before may be the level's
        self.emit("level", sound=str(path), platform=level.platform,
                  instances=len(level.descriptors), **self.db.counts())
        return level

    def _level_sound(self, name: str) -> Sound | None:
        """The sound bank's loader: an SNDD of the open level, decoded and registered.

        A sound that fails to decode raises its ``DataError`` again on every later
        ask without reading the file again."""
        level = self.level
        if level is None or level.file.closed:
            return None
        refused = self._refused_sounds.get(name)
        if refused is not None:
            raise refused
        try:
            found = level.read_sound(name)
        except SoundscapeError as error:
            self._refused_sounds[name] = error
            raise
        if found is None:
            return None
        pcm, rate = found
        sound = self.ctx.sounds.add(name, pcm.astype(np.float32) / np.float32(32768.0), rate,
                                    pcm=pcm, bits=16)
        sound.reloadable = True  # unload_unused may let it go: decoded again when next played
        return sound

    def load_osbd_xml(self, paths: str | Path | list[str | Path]) -> OniDatabase:
        """Load OSBD records OniSplit exported as XML (``soundscape.oni.osbd_xml``)."""
        from soundscape.oni.osbd_xml import load_osbd_xml

        load_osbd_xml(paths, database=self.db)
        return self.db

    def group(self, name: str) -> Group | None:
        return self.db.groups.get(name)

    def ambient(self, name: str) -> Ambient | None:
        return self.db.ambients.get(name)

    def impulse(self, name: str) -> Impulse | None:
        """The impulse record (``.far``, ``.near``, ``.min_occlusion``), or None."""
        return self.db.impulses.get(name)

    def occlusion(self) -> OcclusionQuery | None:
        """The walls (``OSiCalc_PositionAndVolume``) when the occlusion feature is installed."""
        return self.ctx.occlusion if self.ctx.has("occlusion") else None

    # -- the listener and positions -----------------------------------------------------

    def update_listener(self) -> Ears:
        """Find the ears once a tick (the follow camera's player, else the camera)."""
        tick = self.ctx.clock.tick
        if self.ears_tick != tick:
            ears = find_ears(self.units_per_m)
            if ears is None and self.ears.source != "none":
                self.emit("no_listener")
            self.ears = ears or Ears(self.ears.xyz, self.ears.heading_rad, "none")
            self.ears_tick = tick
        return self.ears

    def listener_xyz(self) -> Vec3:
        """Where Oni hears from, world metres (the occlusion rays may use it)."""
        return self.ears.xyz

    def distance_units(self, place: Vec3) -> float:
        """``|place - listener|`` in Oni units (inf for a place too far to square)."""
        lx, ly, lz = self.ears.xyz
        u = self.units_per_m
        dx, dy, dz = place[0] - lx, place[1] - ly, place[2] - lz
        # x * x overflows to inf where x ** 2 raises OverflowError (a 1e200 place).
        return math.sqrt(dx * dx + dy * dy + dz * dz) * u

    def spatial(self, place: Vec3 | None, near: float, far: float) -> tuple[float, int]:
        """Distance volume and pan (hundredths of a dB) of a sound at ``place``
        (``SSiSoundChannel_Spatialize``): the distance volume from the 3D distance / 3,
        the pan from the horizontal offset (``laws.oni.pan_centibels``)."""
        if place is None:
            return 1.0, 0
        lx, _ly, lz = self.ears.xyz
        d = self.distance_units(place)
        if not math.isfinite(d):
            return 0.0, 0  # a NaN place is silent rather than a NaN gain
        u = self.units_per_m
        pan = pan_centibels((place[0] - lx) * u, (place[2] - lz) * u, self.ears.heading_rad)
        return distance_volume(d / DISTANCE_DIVISOR, near, far), pan

    # -- channels ---------------------------------------------------------------------

    def acquire(self, slot: AmbientSlot, group: Group) -> Handle | None:
        """A locked channel of ``group``'s kind at the slot's priority."""
        return self.bank.acquire(priority=slot.priority, kind=group_kind(group), owner=slot.index,
                                 lock=True, ambient=True, sound=group.name)

    def playing_group_count(self, group: Group, limit: int) -> int:
        """How many channels play ``group`` now, counted up to ``limit``
        (``SSrImpulse_Play``'s scan of the group's channels)."""
        count = 0
        for handle, playing in self.channel_groups.items():
            if playing is group and self.bank.is_playing(handle):
                count += 1
                if count >= limit:
                    break
        return count

    def sound_kind(self, sound: str) -> ChannelKind | None:
        """The channel kind ``sound`` plays on (``SSrSound_GetNumChannels``: 1 mono, 2
        stereo), or None when it is not in the sound bank: ``SSiGroup_PlaySpatialized``
        returns before the channel search when the permutation has no sound data (the
        missing name is logged once, as the bank logs it)."""
        try:
            data = self.ctx.sounds.get(sound) if self.ctx.has("sounds") else None
        except SoundscapeError as error:  # a corrupt file or a name outside the root
            data, problem = None, str(error)
        else:
            problem = "missing"
        if data is None or data.channels not in (1, 2):
            if sound not in self.bank.missing_reported:
                self.bank.missing_reported.add(sound)
                event = "missing" if problem == "missing" else "bad_sound"
                self.ctx.events.emit(self.bank.name, event, sound=sound, reason=problem)
            return None
        return ChannelKind.STEREO if data.channels == 2 else ChannelKind.MONO

    def track_volume(self, slot: AmbientSlot, track: Track) -> tuple[float, int]:
        amb = slot.ambient
        if amb is None or track.draw is None:
            return 0.0, 0
        dist, pan = self.spatial(slot.position, slot.near, slot.far)
        volume = track.part_volume * dist * track.draw.volume
        return volume, pan if amb.can_pan and slot.position is not None else 0

    def play_track(self, slot: AmbientSlot, track: Track, group: Group, *, loop: bool,
                   offset_s: float = 0.0) -> bool:
        """``SSrGroup_Play`` 0x47ff50 on the track's channel; False when nothing plays."""
        if track.handle is None or slot.ambient is None:
            return False
        draw = draw_group(group, self.local, self.random)
        if draw is None:
            return False
        track.draw, track.looping = draw, loop
        self.channel_groups[track.handle] = group
        volume, pan = self.track_volume(slot, track)
        can_pan = slot.ambient.can_pan and slot.position is not None
        return self.bank.play(track.handle, draw.sound, volume=volume, pan=pan, pitch=draw.pitch,
                              can_pan=can_pan, position=slot.position,
                              offset_frames=offset_s * ONI_BUFFER_HZ * draw.pitch,
                              bus=bus_of_tag(slot.tag))

    def refresh_tracks(self, slot: AmbientSlot) -> None:
        """Each tick: the tracks' channel volume and pan from the place and the volumes."""
        for track in slot.tracks:
            if track.handle is None or track.draw is None:
                continue
            channel = self.bank.get(track.handle)
            if channel is None or not channel.playing:
                continue
            channel.volume, channel.pan = self.track_volume(slot, track)
            channel.position = slot.position

    def play_detail(self, slot: AmbientSlot, amb: Ambient) -> bool:
        """A detail at a random offset up to the detail range in x and z (priority 0).

        ``SSiPAUpdate_BodyPlaying`` / ``SSiPAUpdate_DetailOnly``: around the ambient's
        place, or around the listener for an ambient without one; played through
        ``SSiGroup_PlaySpatialized`` (its channel may pan; nothing plays where the
        distance volume is 0) at the ambient's volume.
        """
        group = amb.detail
        if group is None:
            return False
        place = slot.position if slot.position is not None else self.ears.xyz
        r, u = amb.detail_range, self.units_per_m
        dx, dz = self.random.uniform(-r, r) / u, self.random.uniform(-r, r) / u
        place = (place[0] + dx, place[1], place[2] + dz)
        # SSiGroup_PlaySpatialized: permutation, channel, spatialising, then volume/pitch
        index = select_permutation(group, self.local)
        if index is None:
            return False
        sound = group.permutations[index].sound
        kind = self.sound_kind(sound)
        if kind is None:
            return False
        handle = self.bank.acquire(priority=0, kind=kind, sound=sound)
        if handle is None:
            return False
        dist, pan = self.spatial(place, amb.near, amb.far)
        if not dist > 0.0:
            self.bank.release(handle)  # found free (priority 0) and left unplayed
            self.emit("detail_inaudible", sound=sound, pos=place, id=slot.id,
                      ambient=amb.name)
            return False
        draw = play_permutation(group, index, self.random)
        volume = slot.volume * dist * draw.volume
        played = self.bank.play(handle, draw.sound, volume=volume, pan=pan, pitch=draw.pitch,
                                can_pan=True, position=place, bus=bus_of_tag(slot.tag))
        self.channel_groups[handle] = group
        self.emit("detail", sound=draw.sound, pos=place, gain=volume, channel=handle.slot,
                  id=slot.id, ambient=amb.name)
        return played

    # -- ambients (by name) -------------------------------------------------------------

    def ambient_start(self, name: str, *, volume: float = 1.0, position: Vec3 | None = None,
                      priority: int | None = None, tag: str = "") -> int | None:
        """Start the ambient called ``name``; its id, or None when the start was refused
        (no such ambient, its threshold, no free slot). A start that found nothing to
        play still has an id, which is at once no longer active (``SSrAmbient_Start``).
        A name that cannot be a file name is an ``InputError``."""
        check_sound_name(name, "oni ambient_start")
        amb = self.db.ambients.get(name)
        if amb is None:
            self.emit("missing_ambient", sound=name)
            return None
        return self.ambients.start(amb, priority=priority, volume=volume, position=position,
                                   tag=tag)

    def ambient_stop(self, ambient_id: int | None) -> bool:
        """``SSrAmbient_Stop``: loops off, the base ends, then the out sound."""
        return self.ambients.stop(ambient_id)

    def ambient_halt(self, ambient_id: int | None) -> bool:
        """``SSrAmbient_Halt``: cut its channels and free the slot now."""
        return self.ambients.halt(ambient_id)

    def ambient_update(self, ambient_id: int | None, position: Vec3 | None, volume: float) -> bool:
        """``SSrAmbient_Update``: a new place (None: none) and volume (held to 0..2)."""
        return self.ambients.update(ambient_id, position, volume)

    def ambient_fade(self, ambient_id: int | None, volume: float, time_s: float) -> bool:
        """``SSrAmbient_SetVolume``: fade to ``volume`` (held to 0..1) over ``time_s``."""
        return self.ambients.fade(ambient_id, volume, time_s)

    def ambient_playing(self, ambient_id: int | None) -> bool:
        """Whether the ambient started as ``ambient_id`` is still in its slot."""
        return self.ambients.is_active(ambient_id)

    # -- impulses (oni_impulses) ----------------------------------------------------------

    def play_impulse(self, name: str, pos: Vec3 | None, volume: float = 1.0) -> bool:
        """``SSrImpulse_Play`` 0x480440 at ``pos`` (world metres; None: at the listener).

        ``volume`` is e.g. the occlusion volume the flyby system computed.
        """
        return self.impulses.play(name, pos, volume)

    def impulse_at(self, name: str, pos: Vec3, volume: float = 1.0) -> bool:
        """An impulse at a place heard through the walls (``ctx.occlusion.query``)."""
        return self.impulses.at(name, pos, volume)

    # -- overall volume, ticks, channel events --------------------------------------------

    @property
    def overall_volume(self) -> float:
        """The bank's overall volume (``ChannelBank`` slides it, its ``oni`` law applies it)."""
        return float(self.bank.overall_volume)

    def set_overall_volume(self, target: float) -> None:
        """The overall volume's target; it slides there by at most 0.05 a frame (0x483bd0)."""
        if not math.isfinite(target):
            raise InputError(f"overall volume must be finite, got {target!r}")
        self.emit("overall_volume", gain=target)
        self.bank.set_overall_volume(target)

    def tick(self, ticks: int) -> None:
        """Phase SOUND_OBJECTS: ambient machines, fades, queued dialogue (the bank slides
        the overall volume)."""
        self.update_listener()
        self.ambients.tick(ticks)
        if self.scripts is not None:
            self.scripts.tick()
        if len(self.channel_groups) > 2 * len(self.bank.channels):
            self.channel_groups = {h: g for h, g in self.channel_groups.items()
                                   if self.bank.is_playing(h)}

    def _on_end(self, bank: ChannelBank, handle: Handle, channel: object,
                overshoot: float) -> None:
        owner = getattr(channel, "owner", -1)
        if owner >= 0 and (found := self.ambients.track_of(owner, handle)) is not None:
            self.ambients.on_end(found[0], found[1], overshoot)

    def _on_steal(self, bank: ChannelBank, handle: Handle, channel: object) -> None:
        owner = getattr(channel, "owner", -1)
        if owner >= 0 and (found := self.ambients.track_of(owner, handle)) is not None:
            self.ambients.on_steal(found[0], found[1])
