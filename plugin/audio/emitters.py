"""Generic positional emitters and one-shots for the ``modern`` profile.

A game puts an ``Emitter`` (``soundscape.components.emitter``) on an entity
with a ``Position``; ``play_at(ctx, sound, position)`` fires a one-shot. Each
tick the plugin sets every such voice from the first active ``Listener``
(``soundscape.laws.spatial``):

* gain: ``volume`` x the distance model (``rolloff``: OpenAL's inverse, linear
  or exponential clamped models, none, or a custom curve) x the cone (the
  emitter's ``heading_rad``) x the walls (``occlusion=True``: the summed
  ``Wall.transmission_db`` of the walls crossed, from ``ctx.occlusion``);
* pan: equal-power from the bearing against the listener's heading;
* pitch: ``pitch`` x the doppler factor (``Settings.speed_of_sound_mps``,
  ``Settings.doppler_factor``) from the emitter's and the listener's
  ``Velocity``, or, without one, the change of their ``Position`` since the
  last tick;
* low-pass: a cutoff that falls with the walls crossed
  (``laws.spatial.wall_cutoff_hz``, ``Channel.lowpass_hz``), run per voice in
  the mixer.

No listener, or a non-finite position, silences the voice without stopping it.

The emitters are kept as rows (``soundscape.audio.emitter_rows``): from
``ARRAY_EMITTERS`` emitters on, each tick reads every position, computes every
gain, pan and doppler factor in one array pass and steers every playing voice with
one write a column of the bank's (``soundscape.audio.emitter_hearing``); below it the
same rows go one emitter at a time through the per-source law (numpy's cost per call
is more than the work for a handful). An emitter's
settings are read again only after a write to it (``Emitter.revision``), and only
the emitters with something to start, stop or log take the per-emitter path. The
numbers are those of the per-source law (``EmitterService.hear``) to the bit
either way.

Example:
    >>> import esper
    >>> from soundscape import Settings, SoundscapePlugin, synth
    >>> from soundscape.components import Listener, Position
    >>> from soundscape.components.emitter import Emitter, check_distances
    >>> esper.switch_world("doctest-emitters")
    >>> plugin = SoundscapePlugin(Settings(backend="offline", features=("audio",))).install()
    >>> _ = synth.add_to(plugin.context.sounds, "hum", synth.tone(220, 1.0))
    >>> _ = esper.create_entity(Listener(), Position(0, 0, 0))
    >>> _ = esper.create_entity(Emitter("hum", min_distance_m=2), Position(4, 0, 0))
    >>> esper.process(1 / 60)
    >>> ch = plugin.context.channels["modern"].channels[0]
    >>> round(ch.volume, 3), round(ch.pan, 3)
    (0.5, 1.0)
    >>> plugin.uninstall(); esper.switch_world("default"); esper.delete_world("doctest-emitters")
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import esper
import numpy as np

from soundscape.audio.channels import ChannelBank, Handle, SoundHandle
from soundscape.audio.emitter_hearing import hear_rows, steer_rows, update_few
from soundscape.audio.emitter_rows import EmitterRows
from soundscape.audio.emitter_types import (
    SILENT,
    STILL,
    Ears,
    Heard,
    OneShot,
    Spatial,
    Track,
    Vec3,
    finite_position,
    listener_pose,
    spatial_of,
)
from soundscape.audio.play2d import check_bus
from soundscape.audio.pymath import all_set
from soundscape.components.emitter import Emitter, check_distances, check_seconds, check_spatial
from soundscape.components.spatial import Position, Velocity
from soundscape.errors import SoundscapeError
from soundscape.laws.modern import bearing_pan
from soundscape.laws.spatial import (
    DistanceModel,
    cone_gain,
    distance_gain,
    doppler_pitch,
    facing_angle,
    transmission_gain,
    wall_cutoff_hz,
)
from soundscape.listener import usable
from soundscape.names import check_sound_name

if TYPE_CHECKING:
    from soundscape.context import Context
    from soundscape.seams import OcclusionForEmitters

__all__ = [  # the records live in emitter_types; these names stay importable here
    "ARRAY_EMITTERS", "BANK", "Ears", "EmitterService", "Heard", "OneShot", "Spatial",
    "finite_position", "listener_pose", "play_at", "spatial_of",
]

BANK = "modern"
ARRAY_EMITTERS = 20
"""From this many emitters ``EmitterService.update`` runs the laws as arrays
(``_update_rows``); below it one emitter at a time (``emitter_hearing.update_few``), where numpy's
fixed cost per call is more than the work (bench_scaling's whole tick, arrays against
one by one: 5 emitters 0.29 / 0.23 ms, 16: 0.57 / 0.54, 24: 0.65 / 0.66, 32: 0.79 /
0.84). Both give the same numbers to the bit."""

class EmitterService:
    """Starts, moves and stops emitter voices on the ``modern`` bank (``ctx.emitters``).

    Attributes:
        speed_of_sound_mps, doppler_factor: from ``Settings`` (doppler factor 0:
            no doppler at all).
    """

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.one_shots: list[OneShot] = []
        self.by_entity: dict[int, Handle] = {}
        self._bad_positions: set[int] = set()
        self._tracks: dict[int, Track] = {}
        self._seen: set[int] = set()
        self._no_walls_logged = False
        self._shots_fired = 0
        self._epochs: dict[int, float] = {}
        """entity -> the tick its looping sound's frame 0 fell on (``restart=False``)."""
        self._rows = EmitterRows()
        self.speed_of_sound_mps = float(ctx.settings.speed_of_sound_mps)
        self.doppler_factor = float(ctx.settings.doppler_factor)
        ctx.emitters = self

    @property
    def bank(self) -> ChannelBank:
        return self.ctx.channels[BANK]

    # -- the laws ----------------------------------------------------------------

    def _walls(self) -> OcclusionForEmitters | None:
        """The occlusion feature, or None (logged once) when it is not installed."""
        if self.ctx.has("occlusion"):
            occlusion: OcclusionForEmitters = self.ctx.occlusion
            return occlusion
        if not self._no_walls_logged:
            self._no_walls_logged = True
            self.ctx.events.emit("emitters", "no_occlusion",
                                 reason="occlusion=True needs the 'occlusion' feature: "
                                        "heard without walls")
        return None

    def hear(self, key: int, place: Vec3, source: Spatial, velocity: Vec3,
             ears: Ears | None) -> Heard:
        """The gain, pan, doppler factor and cutoff of a source at ``place`` (finite).

        ``key`` names the source in the walls' cache (an entity; a one-shot's
        negative key).
        """
        if ears is None:
            return SILENT
        lx, ly, lz = ears.xyz
        dx, dy, dz = place[0] - lx, place[1] - ly, place[2] - lz
        distance = math.sqrt(dx * dx + dy * dy + dz * dz)
        gain = source.volume * distance_gain(distance, source.model)
        inner, outer, outer_gain = source.cone
        if inner < 360.0:
            gain *= cone_gain(facing_angle(source.heading_rad, -dx, -dy, -dz), inner, outer,
                              outer_gain)
        heard = Heard(gain, bearing_pan(dx, dz, ears.heading_rad))
        if source.occlusion and gain > 0.0:  # a silent source casts no ray
            walls = self._walls()
            if walls is not None:
                count, loss_db = walls.hear_through(key, place, ears.xyz)
                if count:
                    heard.gain = gain * transmission_gain(loss_db)
                    heard.lowpass_hz = wall_cutoff_hz(count)
        if source.doppler and self.doppler_factor != 0.0:
            heard.doppler = doppler_pitch(place, velocity, ears.xyz, ears.velocity,
                                          self.speed_of_sound_mps, self.doppler_factor)
        return heard

    def velocity_of(self, entity: int, xyz: Vec3) -> Vec3:
        """The entity's ``Velocity``, else its move since the last tick over that time.

        A move at the speed of sound or faster is a teleport: velocity 0. The first
        tick an entity is seen, 0.
        """
        found = esper.try_component(entity, Velocity)
        if found is not None:
            v = found.as_tuple()
            return v if math.isfinite(v[0] + v[1] + v[2]) else STILL
        tick = self.ctx.clock.tick
        track = self._tracks.get(entity)
        if track is None:
            self._tracks[entity] = Track(xyz, tick, STILL)
            return STILL
        if track.tick == tick:
            return track.velocity
        rate = self.ctx.clock.tick_hz / (tick - track.tick)
        v = ((xyz[0] - track.xyz[0]) * rate, (xyz[1] - track.xyz[1]) * rate,
             (xyz[2] - track.xyz[2]) * rate)
        if not v[0] * v[0] + v[1] * v[1] + v[2] * v[2] < self.speed_of_sound_mps ** 2:
            v = STILL  # a teleport (or a NaN)
        track.xyz, track.tick, track.velocity = xyz, tick, v
        return v

    def ears(self) -> Ears | None:
        """This tick's listener (None: no usable one)."""
        found = usable()
        if found is None:
            return None
        xyz = found.xyz
        rows, row = self._rows, self._rows.row_of.get(found.entity)
        if row is not None and rows.tracked[row] and found.entity not in self._tracks:
            # an emitter's entity became the listener: its track goes on, shared
            self._tracks[found.entity] = Track(
                tuple(rows.track_xyz[:, row].tolist()), int(rows.track_tick[row]),
                tuple(rows.track_velocity[:, row].tolist()))
        velocity = self.velocity_of(found.entity, xyz) if self.doppler_factor else STILL
        return Ears(xyz, found.heading_rad, velocity)

    def _steer(self, handle: Handle, heard: Heard, pitch: float) -> None:
        bank = self.bank
        bank.set_volume(handle, heard.gain)
        bank.set_pan(handle, heard.pan)
        bank.set_pitch(handle, pitch * heard.doppler)
        bank.set_lowpass(handle, heard.lowpass_hz)

    def _forget(self, key: int) -> None:
        """A source is gone: drop its track and its walls' cache."""
        self._tracks.pop(key, None)
        if self.ctx.has("occlusion"):
            self.ctx.occlusion.forget(key)

    # -- one-shots ---------------------------------------------------------------

    def play_at(self, sound: str, position: tuple[float, float, float], volume: float = 1.0,
                *, min_distance_m: float = 1.0, max_distance_m: float = 50.0,
                pitch: float = 1.0, rolloff: str = "inverse", rolloff_factor: float = 1.0,
                curve: Any = (), occlusion: bool = False,
                velocity: tuple[float, float, float] | None = None, bus: str = "sfx",
                fade_in_s: float = 0.0) -> SoundHandle | None:
        """Play ``sound`` once at ``position``; its handle, or None when it cannot start.

        The distance model (``rolloff``, ``rolloff_factor``, ``curve``) and
        ``occlusion`` are as ``Emitter``'s. A one-shot stays where it was fired;
        given a ``velocity`` (m/s) it is heard with that doppler shift (the listener's
        own motion counts either way). ``bus``: the bus it plays on (``sfx``);
        ``fade_in_s``: it rises from silence over that many seconds.

        None also for a position that is not three finite numbers (logged as an
        ``emitters``/``bad_value`` event: a NaN from physics must not stop the
        game). Distances that make no sense, or a sound name that cannot be a file
        name, are a programming error: InputError.
        """
        check_sound_name(sound, "play_at")
        check_bus(self.ctx, bus, "play_at")
        fade_in_s = check_seconds(fade_in_s, "play_at", "fade_in_s")
        check_distances(min_distance_m, max_distance_m, "play_at")
        points = check_spatial(rolloff, rolloff_factor, curve, (360.0, 360.0, 0.0), "play_at")
        place = finite_position(position)
        if place is None:
            self.ctx.events.emit("emitters", "bad_value", sound=sound,
                                 reason=f"play_at: position {position!r} is not finite: not played")
            return None
        moving = finite_position(velocity) if velocity is not None else None
        spatial = Spatial(float(volume), DistanceModel(rolloff, min_distance_m, max_distance_m,
                                                       rolloff_factor, points),
                          bool(occlusion), True)
        bank = self.bank
        handle = bank.acquire(sound=sound)
        if handle is None:
            return None
        self._shots_fired += 1
        key = -self._shots_fired  # entities are 1 and up
        heard = self.hear(key, place, spatial, moving or STILL, self.ears())
        if not bank.play(handle, sound, volume=heard.gain, pan=heard.pan,
                         pitch=pitch * heard.doppler, position=place, bus=bus):
            self._forget(key)
            return None
        bank.set_lowpass(handle, heard.lowpass_hz)
        self._fade_in(handle, fade_in_s)
        self.one_shots.append(OneShot(handle, key, place, spatial, float(pitch),
                                      moving or STILL))
        return SoundHandle.of(bank, handle)

    def _fade_in(self, handle: Handle, seconds: float) -> None:
        """A voice just started rises from silence over ``seconds`` (0: none)."""
        channel = self.bank.get(handle)
        if seconds > 0.0 and channel is not None:
            channel.level = 0.0
            self.bank.fade_to(handle, 1.0, seconds)

    # -- every tick --------------------------------------------------------------

    def update(self) -> None:
        """One tick: start, steer and stop every emitter and one-shot.

        The emitters are kept as ``EmitterRows``, rebuilt when esper's query list is
        new and does not hold the rows' entities and components (``EmitterRows.holds``).
        From ``ARRAY_EMITTERS`` rows on, every place, gain, pan and doppler factor is
        computed in one pass (``emitter_hearing.hear_rows``), then every playing voice
        steered at once (``emitter_hearing.steer_rows``); fewer rows go one at a time
        (``emitter_hearing.update_few``), with the same numbers, tracks and writes. Only
        the emitters with something to start, stop or log take the per-emitter path
        (``_update_emitter``), in esper's order, after every voice is steered.
        """
        ears = self.ears()
        bank = self.bank
        query = esper.get_components(Emitter, Position)
        rows = self._rows
        reindexed = query is not rows.query
        if reindexed and rows.holds(query):
            rows.query, reindexed = query, False  # another entity came or went
        elif reindexed:
            rows = self._rows = EmitterRows(query, rows)
        rows.refresh(bank)
        if rows.count >= ARRAY_EMITTERS:
            self._update_rows(rows, ears)
        elif rows.count:
            update_few(self, rows, ears)
        if reindexed:
            seen = set(rows.row_of)
            self._bad_positions &= seen
            for ent in [e for e in self.by_entity if e not in seen]:
                bank.stop(self.by_entity.pop(ent), reason="entity gone")
            for ent in self._seen - seen:
                self._forget(ent)
                self._epochs.pop(ent, None)
            self._seen = seen
        alive = []
        for shot in self.one_shots:
            if not bank.is_playing(shot.handle):
                self._forget(shot.key)
                continue
            self._steer(shot.handle, self.hear(shot.key, shot.position, shot.spatial,
                                               shot.velocity, ears), shot.pitch)
            alive.append(shot)
        self.one_shots = alive

    def _update_rows(self, rows: EmitterRows, ears: Ears | None) -> None:
        xyz = rows.places()
        with np.errstate(all="ignore"):  # NaN and inf places are expected: silenced below
            # x + y + z finite: each is (an infinity in the sum would leave inf or NaN)
            finite = np.isfinite(xyz.sum(axis=0))
            moved = (xyz != rows.xyz).any(axis=0)
            gain, pan, doppler, lowpass = hear_rows(self, rows, xyz, finite, ears)
            pitch = doppler if rows.unit_pitch else rows.pitch * doppler  # (x * 1.0 is x)
        rows.xyz = xyz
        update = set(steer_rows(rows, gain, pan, pitch, lowpass, moved, self.bank))
        update.update(np.flatnonzero(~(rows.idle | rows.live)).tolist())
        check = set() if all_set(finite) else set(
            np.flatnonzero(~np.isfinite(xyz).all(axis=0)).tolist())
        self._follow_up(rows, update, check, lambda row: Heard(
            float(gain[row]), float(pan[row]), float(doppler[row]), float(lowpass[row])))

    def _follow_up(self, rows: EmitterRows, update: set[int], check: set[int],
                   heard: Callable[[int], Heard]) -> None:
        """The rows to log (``check``) or to start, stop or restart (``update``, as
        ``heard``), in row order; the rows of logged bad places are checked again."""
        check.update(row for ent in self._bad_positions
                     if (row := rows.row_of.get(ent)) is not None)
        for row in sorted(update | check):
            ent, emitter, pos = rows.entities[row], rows.emitters[row], rows.positions[row]
            if row in check:
                self._check_position(ent, emitter, pos)
            if row in update:
                self._update_emitter(ent, emitter, pos.as_tuple(), heard(row))
                rows.reread(row, self.bank)  # its channel may be another, or its serial

    def _check_position(self, ent: int, emitter: Emitter, pos: Position) -> None:
        """Log an emitter whose position turns non-finite, once until it is finite again."""
        if pos.is_finite():
            self._bad_positions.discard(ent)
        elif ent not in self._bad_positions:
            self._bad_positions.add(ent)
            self.ctx.events.emit("emitters", "bad_value", sound=emitter.sound, entity=ent,
                                 reason="non-finite Position: silenced until it is finite")

    def _update_emitter(self, ent: int, emitter: Emitter, position: Vec3, heard: Heard) -> None:
        """One emitter that is not simply steered: stop it (disabled), restart it (its
        sound changed), end it (a one-shot finished) or start it, heard as ``heard``."""
        bank = self.bank
        if not emitter.enabled:
            if emitter.handle is not None:
                bank.stop(emitter.handle, reason="disabled", fade_out_s=emitter.fade_out_s)
                emitter.handle = None
                self.by_entity.pop(ent, None)
                if emitter.restart:
                    self._epochs.pop(ent, None)
            if emitter.finished:
                emitter.finished = False
            return
        channel = bank.get(emitter.handle)
        if channel is not None and channel.playing and channel.sound != emitter.sound:
            bank.stop(emitter.handle, reason="sound changed")  # restarted below
            emitter.handle, emitter.finished = None, False
            self._epochs.pop(ent, None)
        elif channel is not None and channel.playing:
            self._steer(emitter.handle, heard, emitter.pitch)
            bank.set_position(emitter.handle, position)
            return
        if emitter.handle is not None and not emitter.loop:
            emitter.finished, emitter.handle = True, None  # a one-shot emitter ended
            self.by_entity.pop(ent, None)
        if emitter.finished:
            return
        handle = bank.acquire(owner=ent, sound=emitter.sound)
        offset = self._resume_offset(ent, emitter)
        if handle is not None and bank.play(handle, emitter.sound, volume=heard.gain,
                                            pan=heard.pan, pitch=emitter.pitch * heard.doppler,
                                            loop=emitter.loop, position=position,
                                            offset_frames=offset, bus=emitter.bus):
            bank.set_lowpass(handle, heard.lowpass_hz)
            self._fade_in(handle, emitter.fade_in_s)
            emitter.handle = SoundHandle.of(bank, handle)
            self.by_entity[ent] = handle

    def _resume_offset(self, ent: int, emitter: Emitter) -> float:
        """Where a looping emitter's sound starts: where its loop would be now, had it
        played on since it first started (``restart=False``), else frame 0.

        The loop's clock is the game's ticks at the emitter's own ``pitch`` (a
        doppler shift is not counted). One-shots and ``restart=True`` start over.
        """
        now = self.ctx.clock.tick
        epoch = self._epochs.get(ent)
        if epoch is None or not emitter.loop or emitter.restart:
            self._epochs[ent] = now
            return 0.0
        try:
            data = self.ctx.sounds.get(emitter.sound, self.bank.convert_rate_hz)
        except SoundscapeError:  # the play that follows reports the bad sound
            data = None
        if data is None or data.frames <= 0:
            return 0.0
        elapsed_s = (now - epoch) / self.ctx.clock.tick_hz
        rate = data.sample_rate_hz * max(float(emitter.pitch), 0.0)
        return math.fmod(elapsed_s * rate, data.frames) if math.isfinite(rate) else 0.0


def play_at(ctx: Context, sound: str, position: tuple[float, float, float], volume: float = 1.0,
            **kwargs: Any) -> SoundHandle | None:
    """Fire a positional one-shot on the ``modern`` bank (see ``EmitterService.play_at``)."""
    if not ctx.has("emitters"):
        raise RuntimeError("play_at: the audio feature is not installed")
    handle: SoundHandle | None = ctx.emitters.play_at(sound, position, volume, **kwargs)
    return handle
