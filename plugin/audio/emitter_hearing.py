"""The emitter laws over every row of an ``EmitterRows`` at once (``EmitterService.update``).

``hear_rows`` is the array twin of ``EmitterService.hear``: every distance, gain
(``EmitterRows.gains``), pan (``bearing_pans``), derived velocity (``row_velocities``)
and doppler factor (``doppler_pitches``) in a few array operations, the same numbers
to the bit (see ``soundscape.audio.emitter_rows``); ``steer_rows`` writes them to the
playing voices, one write a column on a bank with columns (``channel_arrays``).
``update_few`` is the same tick one row at a time through ``hear``, for a handful of
emitters (numpy's cost a call is more than their work).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from soundscape.audio.emitter_rows import PLACE, EmitterRows
from soundscape.audio.emitter_types import NOWHERE, STILL, Heard, Spatial, Vec3
from soundscape.audio.pymath import Array, all_set, any_set, positive_max, positive_min, py_min
from soundscape.components.channel import PLAYING
from soundscape.laws.modern import PAN_SCALE_RANGE
from soundscape.laws.spatial import (
    DOPPLER_MAX_PITCH,
    DOPPLER_MIN_PITCH,
    transmission_gain,
    wall_cutoff_hz,
)

if TYPE_CHECKING:
    from soundscape.audio.channel_arrays import ChannelColumns
    from soundscape.audio.channels import ChannelBank
    from soundscape.audio.emitters import Ears, EmitterService
    from soundscape.seams import OcclusionForEmitters


def bearing_pans(dx: Array, dz: Array, heading_rad: float, planar_sq: Array | None = None
                 ) -> Array:
    """``laws.modern.bearing_pan`` of every row: ``(dx cos h - dz sin h) / r``, 0 where
    the source is straight above or below, the same operations as the law;
    ``planar_sq``: ``dx dx + dz dz``, if already computed.

    >>> bearing_pans(np.array([1.0, 0.0]), np.array([0.0, 0.0]), 0.0).tolist()
    [1.0, 0.0]
    """
    cos_h, sin_h = math.cos(heading_rad), math.sin(heading_rad)
    with np.errstate(all="ignore"):  # the squares of far or near offsets: scaled below
        r = np.sqrt(dx * dx + dz * dz if planar_sq is None else planar_sq)
        low, high = PAN_SCALE_RANGE
        overhead = None
        if r.size and not (r.min() > low and r.max() < high):
            # (rare) scaled by the larger offset first, as the law; a source straight
            # above or below (r = 0) is among these
            odd = ~((r > low) & (r < high))
            overhead = (dx == 0.0) & (dz == 0.0)
            dx, dz, r = dx.copy(), dz.copy(), r.copy()
            larger = np.maximum(np.abs(dx[odd]), np.abs(dz[odd]))
            dx[odd], dz[odd] = dx[odd] / larger, dz[odd] / larger
            r[odd] = np.sqrt(dx[odd] * dx[odd] + dz[odd] * dz[odd])
        pan = (dx * cos_h - dz * sin_h) / r
    if overhead is not None:
        pan[overhead] = 0.0
    return pan


def doppler_pitches(offset: Array, source_velocity: Array,
                    listener_velocity: tuple[float, float, float], speed_of_sound_mps: float,
                    doppler_factor: float, distance: Array | None = None) -> Array:
    """``laws.spatial.doppler_pitch`` of every row; ``offset`` each source's place minus
    the listener's (3 x rows: the law's line from the source to the listener is
    ``-offset``), ``source_velocity`` 3 x rows; ``distance``: its length, if already
    computed (the squares of ``-offset`` are those of ``offset``, to the bit)."""
    c, factor = speed_of_sound_mps, doppler_factor
    n = offset.shape[1]
    if factor == 0.0 or not c > 0.0:
        return np.ones(n)
    if distance is None:
        distance = np.sqrt((offset * offset).sum(axis=0))
    usable = (distance > 0.0) & (distance < math.inf)
    limit = c / abs(factor)
    # a finite factor: limit and the pitch bounds are numbers above 0 (``positive_min``)
    plain = math.isfinite(factor)
    hold_below = positive_min if plain else py_min
    # a still listener or still sources: (c - factor * 0) is c to the bit
    top: Any = c
    if not (plain and listener_velocity == (0.0, 0.0, 0.0)):
        # each sum over axis 0 adds the x, y, z terms in that order, as the per-row law;
        # (-dx) * v is dx * (-v) to the bit, so the velocity is negated, not the offsets
        toward = np.array([-listener_velocity[0], -listener_velocity[1],
                           -listener_velocity[2]])[:, None]
        v_l = (offset * toward).sum(axis=0) / distance
        usable &= np.isfinite(v_l)
        top = c - factor * hold_below(v_l, limit)
    denominator: Any = c
    if not (plain and not any_set(source_velocity)):
        v_s = (-offset * source_velocity).sum(axis=0) / distance
        usable &= np.isfinite(v_s)
        denominator = c - factor * hold_below(v_s, limit)
    if top is c and denominator is c:
        return np.ones(n)  # c / c, for every row
    pitch = positive_min(positive_max(top / denominator, DOPPLER_MIN_PITCH), DOPPLER_MAX_PITCH)
    if denominator is c:  # c > 0: no source outruns its sound
        return pitch if all_set(usable) else np.where(usable, pitch, 1.0)
    return np.where(usable, np.where(denominator <= 0.0, DOPPLER_MAX_PITCH, pitch), 1.0)


def hear_rows(service: EmitterService, rows: EmitterRows, xyz: Array, finite: Array,
              ears: Ears | None) -> tuple[Array, Array, Array, Array]:
    """``hear`` of every emitter row at ``xyz`` (3 x rows, this tick's places): (gain,
    pan, doppler factor, cutoff) arrays.

    An emitter that is disabled has its values computed but not used (and no
    track or walls); a non-finite place is silent.
    """
    n = rows.count
    heard = rows.enabled & finite
    moving = heard & rows.doppler if service.doppler_factor else np.zeros(n, bool)
    velocity = row_velocities(service, rows, moving, xyz)
    if ears is None:
        return np.zeros(n), np.zeros(n), np.ones(n), np.zeros(n)
    offset = xyz - np.array(ears.xyz)[:, None]
    dx, dy, dz = offset
    squares = offset * offset
    # the sum over axis 0 adds the squares in x, y, z order, as the per-row law
    distance = np.sqrt(squares.sum(axis=0))
    every_finite = all_set(finite)
    gain = rows.gains(dx, dy, dz, distance, no_nan=every_finite)
    pan = bearing_pans(dx, dz, ears.heading_rad, squares[0] + squares[2])
    lowpass = np.zeros(n)
    walled = np.flatnonzero(heard & rows.occlusion & (gain > 0.0)) if rows.any_occlusion \
        else None
    walls = service._walls() if walled is not None and walled.size else None
    if walls is not None and walled is not None:
        hear_walls(walls, rows, walled.tolist(), ears.xyz, gain, lowpass)
    doppler = np.ones(n)
    if service.doppler_factor != 0.0 and any_set(moving):
        shift = doppler_pitches(offset, velocity, ears.velocity, service.speed_of_sound_mps,
                                service.doppler_factor, distance)
        doppler = shift if all_set(moving) else np.where(moving, shift, 1.0)
    if not every_finite:
        gain[~finite], pan[~finite], doppler[~finite], lowpass[~finite] = 0.0, 0.0, 1.0, 0.0
    return gain, pan, doppler, lowpass


def hear_walls(walls: OcclusionForEmitters, rows: EmitterRows, walled: list[int], ears: Vec3,
               gain: Array, lowpass: Array) -> None:
    """The walls between the listener and each of the ``walled`` rows (``hear_through``,
    cached per emitter): each row behind a wall has its gain times the walls'
    transmission and their cutoff, as ``EmitterService.hear``."""
    entities, positions = rows.entities, rows.positions
    every = len(walled) == rows.count  # every row occluded and heard: no gathers
    if every:
        found = walls.hear_through_many(entities, lambda i: PLACE(positions[i]), ears)
    else:
        found = walls.hear_through_many([entities[row] for row in walled],
                                        lambda i: PLACE(positions[walled[i]]), ears)
    counts, losses = zip(*found, strict=True)
    behind = np.flatnonzero(counts).tolist()
    if not behind:
        return
    at = behind if every else [walled[i] for i in behind]
    # whole walls: a few distinct counts and losses, each law once
    lost = [losses[i] for i in behind]
    crossed = [counts[i] for i in behind]
    factors = {loss: transmission_gain(loss) for loss in set(lost)}
    cutoffs = {count: wall_cutoff_hz(count) for count in set(crossed)}
    gain[at] = gain[at] * np.array([factors[loss] for loss in lost])
    lowpass[at] = [cutoffs[count] for count in crossed]


def row_velocities(service: EmitterService, rows: EmitterRows, moving: Array, xyz: Array
                   ) -> Array:
    """``velocity_of`` where ``moving`` is set (3 x rows; 0 elsewhere): a
    ``Velocity`` component, else the derived one (a listener's entity keeps its
    track in ``_tracks``, shared with ``ears``)."""
    n = rows.count
    if not any_set(moving):
        return np.zeros((3, n))
    tick, tick_hz = service.ctx.clock.tick, service.ctx.clock.tick_hz
    shared = [row for ent in service._tracks if (row := rows.row_of.get(ent)) is not None]
    if not shared and not rows.any_given and all_set(moving):  # every row derived
        return rows.derived_velocity(rows.every_row, xyz, tick, tick_hz,
                                     service.speed_of_sound_mps ** 2)
    velocity = np.zeros((3, n))
    derive = moving & ~rows.given
    for row in np.flatnonzero(moving & rows.given).tolist():
        v = rows.velocities[row].as_tuple()  # type: ignore[union-attr]
        if math.isfinite(v[0] + v[1] + v[2]):
            velocity[:, row] = v
    for row in shared:  # a listener's entity: its track is shared with ``ears``
        if derive[row]:
            derive[row] = False
            velocity[:, row] = service.velocity_of(rows.entities[row],
                                                   rows.positions[row].as_tuple())
    at = np.flatnonzero(derive)
    if at.size:
        velocity[:, at] = rows.derived_velocity(at, xyz, tick, tick_hz,
                                                service.speed_of_sound_mps ** 2)
    return velocity


def steer_rows(rows: EmitterRows, gain: Array, pan: Array, pitch: Array, lowpass: Array,
               moved: Array, bank: ChannelBank) -> list[int]:
    """Set every playing emitter voice's volume, pan, pitch and cutoff (and its
    position when it moved), as ``EmitterService._steer`` would; the rows whose voice
    ended, was stopped or plays another sound are returned for ``_update_emitter``.
    A bank with columns (``channel_arrays``) is steered with one write a column, the
    places from ``rows.xyz`` (this tick's)."""
    columns = bank.columns
    if columns is None:
        return steer_objects(rows, gain, pan, pitch, lowpass, moved)
    run = rows.slot_run()
    if run is not None and steer_run(rows, slice(*run), gain, pan, pitch, lowpass, moved,
                                     columns):
        return []
    live = rows.live
    if not live.any():
        return []
    slot = np.where(live, rows.slot, 0)
    ok = (live & (columns.generation[slot] == rows.generation_at)
          & (columns.flags[slot] & PLAYING != 0) & (columns.serial[slot] == rows.serial_at)
          & rows.sound_ok)
    if ok.all():
        columns.volume[slot], columns.pan[slot] = gain, pan
        columns.pitch[slot], columns.lowpass_hz[slot] = pitch, lowpass
        move = moved
    else:
        at = np.flatnonzero(ok)
        slot = slot[at]
        columns.volume[slot], columns.pan[slot] = gain[at], pan[at]
        columns.pitch[slot], columns.lowpass_hz[slot] = pitch[at], lowpass[at]
        move = moved[at]
    if move.any():
        xyz = rows.xyz
        columns.place[:, slot[move]] = xyz[:, move] if move.size == xyz.shape[1] \
            else xyz[:, at[move]]
    return np.flatnonzero(live & ~ok).tolist()


def steer_run(rows: EmitterRows, run: slice, gain: Array, pan: Array, pitch: Array,
              lowpass: Array, moved: Array, columns: ChannelColumns) -> bool:
    """``steer_rows`` when row ``i`` plays on slot ``run.start + i`` (``slot_run``): every
    voice steered with one slice write a column and True, or nothing written and False
    when a voice is no longer its row's (``steer_rows`` then sorts them out)."""
    ok = ((columns.generation[run] == rows.generation_at) & (columns.serial[run] == rows.serial_at)
          & (columns.flags[run] & PLAYING != 0) & rows.sound_ok)
    if not all_set(ok):
        return False
    columns.volume[run], columns.pan[run] = gain, pan
    columns.pitch[run], columns.lowpass_hz[run] = pitch, lowpass
    if all_set(moved):
        columns.place[:, run] = rows.xyz
    elif any_set(moved):
        np.copyto(columns.place[:, run], rows.xyz, where=moved)
    return True


def steer_objects(rows: EmitterRows, gain: Array, pan: Array, pitch: Array, lowpass: Array,
                  moved: Array) -> list[int]:
    """``steer_rows`` one ``Channel`` at a time (a bank without columns)."""
    live = np.flatnonzero(rows.live)
    if not live.size:
        return []
    if live.size == rows.count:  # every emitter plays: no gathering
        channels, generations, sounds = rows.channels, rows.generation_at.tolist(), rows.sounds
        positions, values = rows.positions, (gain, pan, pitch, lowpass, moved)
    else:
        at = live.tolist()
        channels = [rows.channels[row] for row in at]
        generations = rows.generation_at[live].tolist()
        sounds = [rows.sounds[row] for row in at]
        positions = [rows.positions[row] for row in at]
        values = (gain[live], pan[live], pitch[live], lowpass[live], moved[live])
    stale = []
    for i, (channel, generation, sound, volume, p, q, cutoff, move) in enumerate(zip(
            channels, generations, sounds, *(v.tolist() for v in values), strict=True)):
        if channel is None or channel.generation != generation \
                or not channel.flags & PLAYING or channel.sound != sound:
            stale.append(int(live[i]))
            continue
        channel.volume, channel.pan, channel.pitch, channel.lowpass_hz = volume, p, q, cutoff
        if move:
            channel.position = PLACE(positions[i])
    return stale


# -- fewer than ``emitters.ARRAY_EMITTERS`` rows: one at a time, the same numbers -----


def update_few(service: EmitterService, rows: EmitterRows, ears: Ears | None) -> None:
    """``EmitterService._update_rows`` one emitter at a time (fewer than
    ``emitters.ARRAY_EMITTERS``): each row through ``hear`` and steered, with the same
    tracks, walls, writes and events, then the follow-ups in row order
    (``EmitterService._follow_up``)."""
    doppler_on = bool(service.doppler_factor)
    old = rows.xyz.tolist()
    xs, ys, zs = [], [], []
    heard_rows: list[Heard] = []
    generations = rows.generation_at.tolist()
    update: set[int] = set()
    check: set[int] = set()
    for row, (ent, pos, enabled, live, idle, moving, volume, pitch, occlusion) in enumerate(
            zip(rows.entities, rows.positions, rows.enabled.tolist(), rows.live.tolist(),
                rows.idle.tolist(), rows.doppler.tolist(), rows.volume.tolist(),
                rows.pitch.tolist(), rows.occlusion.tolist(), strict=True)):
        place = PLACE(pos)
        x, y, z = float(place[0]), float(place[1]), float(place[2])
        xs.append(x)
        ys.append(y)
        zs.append(z)
        if not (math.isfinite(x) and math.isfinite(y) and math.isfinite(z)):
            check.add(row)
        if not enabled or not math.isfinite(x + y + z):
            heard = NOWHERE  # silent (a disabled row's values are not used)
        else:
            velocity = STILL
            if doppler_on and moving:
                velocity = row_velocity(service, rows, row, ent, place, (x, y, z))
            heading, inner, outer, outer_gain = rows.cones[row]
            heard = service.hear(ent, place, Spatial(volume, rows.models[row], occlusion,
                                                  moving, heading,
                                                  (inner, outer, outer_gain)),
                              velocity, ears)
        heard_rows.append(heard)
        if not live:
            if not idle:
                update.add(row)
            continue
        channel = rows.channels[row]
        if channel is None or channel.generation != generations[row] \
                or not channel.flags & PLAYING or channel.sound != rows.sounds[row]:
            update.add(row)
            continue
        channel.volume, channel.pan = heard.gain, heard.pan
        channel.pitch, channel.lowpass_hz = pitch * heard.doppler, heard.lowpass_hz
        if not (x == old[0][row] and y == old[1][row] and z == old[2][row]):
            channel.position = place
    rows.xyz = np.array((xs, ys, zs), np.float64)
    service._follow_up(rows, update, check, heard_rows.__getitem__)

def row_velocity(service: EmitterService, rows: EmitterRows, row: int, ent: int, place: Vec3,
                 xyz: Vec3) -> Vec3:
    """``emitter_hearing.row_velocities`` of one row: its ``Velocity`` (0 unless
    finite), a listener's shared track (``velocity_of``), else its row's track."""
    given = rows.velocities[row]
    if given is not None:
        v = given.as_tuple()
        return v if math.isfinite(v[0] + v[1] + v[2]) else STILL
    if ent in service._tracks:
        return service.velocity_of(ent, place)
    return rows.track_one(row, xyz, service.ctx.clock.tick, service.ctx.clock.tick_hz,
                          service.speed_of_sound_mps ** 2)
