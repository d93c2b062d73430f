"""A block's commands written into the mixer's rows in place (audio thread).

What a game sends most blocks is gain changes: a ``set`` for every voice it
moves, and now and then a retriggered sound (a ``stop`` and a ``start`` of the
same row kind, ``mixer_rows.kind_of``). ``apply_in_place`` writes such a block
into the rows without syncing, sorting or laying them out:

* The ``set`` commands that change only gains and steps (the rest of each voice's
  params, taken apart on the game thread by ``mixer_batch.Batch``, compared as one
  list with its row's, ``Mixer._rests``) are written as arrays: the gains with one
  fancy-index write a side (``Rows.set_gains``; retail rows jump, ``modern`` rows
  ramp across the block), the steps that move (doppler moves every moving voice's,
  every tick) with one for all the resampled rows (``Rows.set_steps``). A ``set``
  that moves a low-pass, a send or an ear is written one by one, and so is one that
  moves the step of a row at its own rate or of a streamed voice (which lays out).
* A ``stop`` frees its voice's row for a ``start`` of the same kind in the same
  batch (``Rows.replace``). A cut ``modern`` voice fades out across the block
  beside the rows, as a ``Tail``: its samples read from its row's cursor as its row
  would have been filled (frame by frame near an end, ``mixer_rows.read_frames``)
  times its gains falling to 0, added to the mix after the float rows' sum
  (``fade_tails``). So a retriggered modern sound costs one row read, not a layout.

A bus change (``BUSES``, a fade or a duck moving every tick) is handed to the bus
stage (``BusStage.set``), which ramps each row to its bus's new gain across the block.

Anything else (a silent or streamed voice, a start with no row to take, a freed row
nobody takes, a Redguard row, a cut voice with a low-pass, a send, an ear or a
moving bus gain) leaves the rows alone and returns False: the
mixer applies the batch one command at a time and lays the rows out again
(``Mixer._drain``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple, cast

import numpy as np

from soundscape.audio import commands as cmd
from soundscape.audio.commands import Command, VoiceParams
from soundscape.audio.mixer_batch import Batch
from soundscape.audio.mixer_rows import Kind, Source, kind_of, lerp, read_frames
from soundscape.audio.mixer_voice import Voice, faded_in
from soundscape.audio.pymath import all_set
from soundscape.audio.streams import is_streamed

if TYPE_CHECKING:
    from soundscape.audio.mixer import Mixer

Placed = list[tuple[int, Voice]]
"""New voices and the freed rows they take."""



class SetRows(NamedTuple):
    """The last block's sets (``Mixer._set_rows``), while the rows hold them."""

    keys: list[int]
    """Their voice ids, in order."""
    rows: np.ndarray
    voices: list[Voice]
    rests: list[tuple[Any, ...]]
    """The voices' params past their gains and step."""
    plain: bool
    """Every row resampled, none streamed and none twice: their steps can be written
    at once without checking them (``_moved_steps``). Kinds and streams change only
    at a layout, which drops these rows."""


class Tail(NamedTuple):
    """A cut ``modern`` voice's last block: where it reads from and the gains (times
    its bus's gain) it falls from."""

    src: Source
    cur_i: int
    cur_f: float
    step: float
    gain_left: float
    gain_right: float


class Gains(NamedTuple):
    """A batch's gain writes and what else its ``set`` commands need."""

    rows: np.ndarray | list[int]
    values: np.ndarray | tuple[list[float], list[float]]
    """(2, sets): each set's left and right gain."""
    recount: bool
    """A step changed and the rows' safe frames were not counted again (``Rows.recount``)."""
    rooms: bool
    """A send or an ear changed (the rooms read the voices again)."""
    wake: bool
    """A low-pass cutoff was set (``VoiceDsp.wake``)."""


def apply_in_place(mixer: Mixer, batch: Batch, n: int) -> bool:
    """Write ``batch`` into ``mixer``'s rows in place before a block of ``n`` frames and
    return True, or change nothing and return False (see the module docstring)."""
    if mixer._has_dying:
        return False  # a cut voice faded out in its row last block: lay out, so its row goes
    cuts = _cuts(mixer, batch) if batch.others else ([], [], [], False)
    if cuts is None:
        return False
    stopped, placed, tails, wake = cuts
    gains = _gain_sets(mixer, batch, stopped, placed, n)
    if gains is None:
        return False
    rows = mixer._rows
    if wake or gains.wake:
        mixer.dsp.wake()
    if len(gains.rows):
        rows.set_gains(gains.rows, gains.values)
    if gains.recount:
        rows.recount()
    if placed:
        _place(mixer, stopped, placed)
    elif gains.rooms:
        mixer._voices = list(mixer._voices)  # a new list: the rooms read sends and ears again
    mixer._tails = tails
    return True


def _cuts(mixer: Mixer, batch: Batch) -> tuple[list[int], Placed, list[Tail], bool] | None:
    """The batch's stops and starts (``others``, in order) as (voices cut, new voices in
    the cut ones' rows, the cut modern voices' tails, a low-pass to wake), or None."""
    commands, others, keys = batch.commands, batch.others, batch.keys
    live, rows_of = mixer._live, mixer._row_of
    free: dict[Kind, list[int]] = {}
    stopped: list[int] = []
    placed: Placed = []
    tails: list[Tail] = []
    wake = False
    for command in others:
        op, key = command.op, command.voice
        if op == cmd.START:
            new = _new_row_voice(mixer, command, placed)
            kind = kind_of(new) if new is not None else None
            if new is None or kind is None or not free.get(kind):
                return None
            wake = wake or new.spec.lowpass_hz > 0.0
            placed.append((free[kind].pop(), new))
            continue
        if op == cmd.BUSES:  # in order: a start after it begins at the new gain
            mixer.buses.set(command.gains)  # the same again if the batch is laid out
            continue
        if op != cmd.STOP:
            return None
        cut = live.get(key)
        if cut is None:
            if any(key == v.key for _row, v in placed):
                return None  # a voice started in this batch
            continue  # finished or cut already: nothing to do
        row = rows_of.get(key, -1)
        if row < 0 or cut.fate != "live" or cut.stream is not None or key in stopped:
            return None
        kind = kind_of(cut)
        if kind[0]:
            return None  # Redguard rows keep their Miles factors: laid out
        if cut.spec.ramp:
            tail = _tail(mixer, cut, row, _last_set(commands, keys, command, cut.spec))
            if tail is None:
                return None
            tails.append(tail)
        free.setdefault(kind, []).append(row)
        stopped.append(key)
    if any(free.values()):
        return None  # a cut voice's row nobody takes: lay out again
    return stopped, placed, tails, wake


def _last_set(batch: list[Command], keys: list[int], stop: Command,
              spec: VoiceParams) -> VoiceParams | None:
    """The params a voice has when ``stop`` cuts it: its last ``set`` before the stop in
    ``batch`` (its gains aside: a cut modern voice fades from the gains it had), else
    ``spec``; None when that set changes more than gains and step. ``keys``: the
    batch's set voices (``Batch.keys``): a culled virtual voice is not among them."""
    if stop.voice not in keys:
        return spec
    for command in reversed(batch[: batch.index(stop)]):
        if command.voice == stop.voice and command.op == cmd.SET and command.params is not None:
            params = command.params
            return params if params[3:] == spec[3:] else None
    return spec


def _tail(mixer: Mixer, voice: Voice, row: int, spec: VoiceParams | None) -> Tail | None:
    """A cut modern voice's fade from its row's cursor and current gains at ``spec``'s
    step, or None when more than its side gains shape it (a low-pass, a send, an ear,
    a moving bus gain) or ``spec`` is None."""
    if spec is None:
        return None
    if spec.send is not None or spec.ear is not None or spec.lowpass_hz > 0.0 \
            or voice.key in mixer.dsp.state:
        return None
    bus = mixer.buses.steady(row)
    if bus is None:
        return None
    rows, seg = mixer._rows, voice.seg
    return Tail(Source(seg.left, seg.right - seg.left, seg.frames, seg.stereo, spec.loop),
                int(rows.cur_i[row]), float(rows.cur_f[row]), spec.step,
                float(rows.g0l[row]) * bus, float(rows.g0r[row]) * bus)


def _gain_sets(mixer: Mixer, batch: Batch, stopped: list[int],
               placed: Placed, n: int) -> Gains | None:
    """The ``set`` commands' writes, or None (a set the rows cannot take in place).
    Sets of voices cut in this batch do nothing (before the stop or after it). Moved
    steps are written for the next ``n`` frames (``Rows.set_steps``)."""
    keys, params = batch.keys, batch.params
    if placed and not {v.key for _row, v in placed}.isdisjoint(keys):
        return None  # a set of a voice started in this batch
    # a set of a voice cut in this batch is written into its row, which a start then
    # takes (``_place`` writes the new voice over it), or is skipped one by one
    found = _set_rows(mixer, keys, stopped)
    if found is None or batch.rests != found.rests:  # more than gains and steps change
        return _sets_one_by_one(mixer, keys, params, stopped)
    at, voices = found.rows, found.voices
    moved = _moved_steps(mixer, found, batch.steps)
    if moved is None:
        return _sets_one_by_one(mixer, keys, params, stopped)
    if moved[0].size:
        mixer._rows.set_steps(at, batch.steps, *moved, n, premake=not mixer._streamed)
    for voice, p in zip(voices, params, strict=True):
        voice.spec = p
    return Gains(at, batch.gains, False, False, False)


def _set_rows(mixer: Mixer, keys: list[int], stopped: list[int]) -> SetRows | None:
    """The rows, voices and rests of the voices ``keys`` names, or None when one has no
    row. They are kept for the next block's sets, which are most often the same
    voices', or those but the ones ``stopped`` in this batch (culled virtual voices)."""
    cached = mixer._set_rows
    if cached is not None:
        if cached.keys == keys:
            return cached
        if stopped and len(keys) + len(stopped) == len(cached.keys):
            kept = _without(cached, stopped)
            if kept is not None and kept.keys == keys:
                mixer._set_rows = kept
                return kept
    found = list(map(mixer._row_of.get, keys))
    if None in found:
        return None
    rows = cast(list[int], found)
    voices = list(map(mixer._voices.__getitem__, rows))
    rests = list(map(mixer._rests.__getitem__, rows))
    plain = len(set(rows)) == len(rows) and (
        mixer._rows.all_resampled or bool(mixer._rows.resampled[rows].all())) and (
        not mixer._streamed or {row for row, _v in mixer._streamed}.isdisjoint(rows))
    mixer._set_rows = SetRows(keys, np.array(rows, dtype=np.intp), voices, rests, plain)
    return mixer._set_rows


def _without(cached: SetRows, stopped: list[int]) -> SetRows | None:
    """``cached`` without the sets of the voices ``stopped`` (None: one has none)."""
    keys = cached.keys
    try:
        if len(stopped) == 1:  # (most often: one voice culled in a tick)
            i = keys.index(stopped[0])
            j, rows = i + 1, cached.rows
            return SetRows(keys[:i] + keys[j:], np.concatenate((rows[:i], rows[j:])),
                           cached.voices[:i] + cached.voices[j:],
                           cached.rests[:i] + cached.rests[j:], cached.plain)
        cut = {keys.index(key) for key in stopped}
    except ValueError:
        return None
    kept = [i for i in range(len(keys)) if i not in cut]
    return SetRows([keys[i] for i in kept], cached.rows[kept], [cached.voices[i] for i in kept],
                   [cached.rests[i] for i in kept], cached.plain)


def _moved_steps(mixer: Mixer, found: SetRows, steps: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray] | None:
    """The rows among ``found``'s whose step ``steps`` moves and the steps they had, or
    None when one of them cannot take it in place: a row at its own rate (its kind
    changes) or a streamed voice's (its ring's reserve follows the step:
    ``Streams.before_fill``). When every one of plain rows moves (doppler, every tick),
    the rows themselves (``Rows.set_steps`` then takes ``steps`` as they are)."""
    rows, at = mixer._rows, found.rows
    had = rows.step[at]
    changed = steps != had
    if found.plain and all_set(changed):
        return at, had
    moved = at[changed]
    if not moved.size or found.plain:
        return moved, had[changed]
    if not all_set(rows.resampled[moved]):
        return None
    if mixer._streamed and not {row for row, _v in mixer._streamed}.isdisjoint(moved.tolist()):
        return None
    return moved, had[changed]


def _sets_one_by_one(mixer: Mixer, keys: list[int], sets: list[VoiceParams],
                     stopped: list[int]) -> Gains | None:
    """The ``set`` commands one at a time: a resampled row's new step, a low-pass, a
    send or an ear changes with the gains; a voice cut in this batch is skipped."""
    rows_of, live, voices, rests = mixer._row_of, mixer._live, mixer._voices, mixer._rests
    mixer._set_rows = None  # the rows' rests change
    rows: list[int] = []
    left: list[float] = []
    right: list[float] = []
    recount = rooms = wake = False
    for key, params in zip(keys, sets, strict=True):
        wake = wake or params.lowpass_hz > 0.0
        row = rows_of.get(key)
        if row is None or key in stopped:
            if row is None and key in live:
                return None  # a silent voice (culled or paused)
            continue  # finished or cut already: nothing to do
        voice = voices[row]
        if voice.stream is not None:
            params = params._replace(loop=True)
        step = voice.spec.step
        if not _same_row(mixer, row, voice, params):
            return None
        recount = recount or params.step != step
        if params.send != voice.spec.send or params.ear != voice.spec.ear:
            rooms = True
        voice.spec = params  # the row's kind holds: the same if laid out again
        rests[row] = params[3:]
        rows.append(row)
        left.append(params.gain_left)
        right.append(params.gain_right)
    return Gains(rows, (left, right), recount, rooms, wake)


def _same_row(mixer: Mixer, row: int, voice: Voice, params: VoiceParams) -> bool:
    """Whether ``params`` can be written into ``voice``'s row in place: only its
    gains, step (a resampled row; doppler moves it every tick), low-pass, send or
    ear change. A row at its own rate whose step leaves 1, a streamed voice whose
    step changes, or any change of loop, pause, audibility, ramp, Miles factors
    or bus needs a layout."""
    spec = voice.spec
    if params[3:8] != spec[3:8] or params.bus != spec.bus:
        return False
    if params.step != spec.step:
        return voice.stream is None and mixer._rows.set_step(row, params.step)
    return True


def _new_row_voice(mixer: Mixer, command: Command, placed: Placed) -> Voice | None:
    """The voice a ``start`` makes when it can take a cut voice's row (a sound in
    the store, audible, not paused, not already ended, its id new), else None."""
    params, sound = command.params, command.sound
    if params is None or sound is None or command.voice in mixer._live \
            or any(command.voice == v.key for _row, v in placed) \
            or is_streamed(sound) or not params.audible or params.paused:
        return None
    seg = mixer.store.segment(sound, params.miles is not None)
    begin = command.offset - mixer._delay(command) * params.step
    if not params.loop and begin >= seg.frames:
        return None
    return faded_in(Voice(command.voice, params, seg, begin, mixer.buses.gain(params.bus)),
                     command)


def _place(mixer: Mixer, stopped: list[int], placed: Placed) -> None:
    """Cut ``stopped`` and put each new voice in its freed row (same kind)."""
    live, rows_of = mixer._live, mixer._row_of
    was = {rows_of[key]: key for key in stopped}
    for key in stopped:
        del live[key]
        del rows_of[key]
    voices = mixer._voices = list(mixer._voices)  # a new list: the rooms lay out again
    rows = mixer._rows
    for row, voice in placed:
        live[voice.key] = voice
        rows_of[voice.key] = row
        voices[row] = voice
        mixer._rests[row] = voice.spec[3:]
        rows.replace(row, voice)
        mixer.buses.place(row, voice.spec.bus, voice.bus_gain)
    mixer._set_rows = _retriggered(mixer._set_rows, was, placed, rows.resampled)


def _retriggered(cached: SetRows | None, was: dict[int, int], placed: Placed,
                 resampled: np.ndarray) -> SetRows | None:
    """The last block's set rows with each retriggered voice in its cut one's place: a
    game sets a retriggered sound where it set the cut one (its channel's slot), so the
    next block's sets find their rows again. A new voice whose cut one had no set (a
    culled virtual voice: its stop came instead) comes last, in the order they were
    placed, where voices restored from virtual are set (``channel_stream.restore``, in
    the order of the starts). ``resampled``: the rows' (``Rows.resampled``), so the
    rows stay ``plain`` only while each is. None when there were no set rows."""
    if cached is None:
        return None
    if len(placed) == 1 and was[placed[0][0]] not in cached.keys:  # (a tick's one restore)
        row, voice = placed[0]
        return SetRows(cached.keys + [voice.key], np.concatenate((cached.rows, (row,))),
                       cached.voices + [voice], cached.rests + [voice.spec[3:]],
                       cached.plain and resampled.item(row))
    keys, voices, rests = list(cached.keys), list(cached.voices), list(cached.rests)
    added: list[int] = []
    for row, voice in placed:
        if was[row] in keys:  # (a test, not an index's ValueError: ~1.5 us raised)
            i = keys.index(was[row])
            keys[i], voices[i], rests[i] = voice.key, voice, voice.spec[3:]
            continue
        added.append(row)  # its row was not among them: each row is there once still
        keys.append(voice.key)
        voices.append(voice)
        rests.append(voice.spec[3:])
    if not added:
        return cached._replace(keys=keys, voices=voices, rests=rests)  # the same rows
    plain = cached.plain and all(map(resampled.item, added))  # (no numpy call for one)
    return SetRows(keys, np.concatenate((cached.rows, added)), voices, rests, plain)


def fade_tails(tails: list[Tail], data: np.ndarray, ar: np.ndarray, fall: np.ndarray,
               acc: np.ndarray, buf: np.ndarray) -> None:
    """Add each tail's ``n = len(fall)`` frames times its gains falling to 0 (``fall``:
    (n - 1) / n down to 0, the mirror of the ramp a gain change takes) to ``acc``
    (2, n). ``ar``: 0, 1, 2, ... (int64, >= n); ``buf``: (5, >= n) float32 scratch."""
    n = fall.shape[0]
    sides, weights, frac = buf[0:2, :n], buf[2:4, :n], buf[4, :n]
    for tail in tails:
        _read_tail(data, tail, ar[:n], frac, weights, sides)
        np.multiply(fall, np.array([[tail.gain_left], [tail.gain_right]], dtype=np.float32),
                    out=weights)
        weights *= sides if tail.src.stereo else sides[0]  # a mono voice's one on both sides
        acc += weights


def _read_tail(data: np.ndarray, tail: Tail, ar: np.ndarray, frac: np.ndarray,
               scratch: np.ndarray, sides: np.ndarray) -> None:
    """A tail's ``len(ar)`` frames into ``sides`` (2, n; only the first for a mono
    voice), as its row would have been filled: a slice at its own rate, else a linear
    interpolation from float32 offsets (``Rows.resample_rows``); frame by frame near
    a start, an end or a loop point (``read_frames``). ``scratch``: (2, n)."""
    src, n, cur_i = tail.src, ar.shape[0], tail.cur_i
    stereo = src.stereo
    if cur_i < 0 or cur_i + tail.cur_f + tail.step * n + 2.0 >= src.length:
        read_frames(data, src, cur_i, tail.cur_f, tail.step, ar, sides[0],
                    sides[1] if stereo else None)
        return
    start = src.left + cur_i
    if tail.step == 1.0 and tail.cur_f == 0.0:
        sides[0] = data[start : start + n]
        if stereo:
            sides[1] = data[start + src.delta : start + src.delta + n]
        return
    # ``step`` x 0, 1, 2, ... as float32 (``Rows.step_row``'s products, for this block's
    # frames only: a cut voice's step is seldom seen again)
    offsets = (tail.step * ar).astype(np.float32)
    np.add(offsets, np.float32(tail.cur_f), out=frac)
    whole = np.floor(frac)
    frac -= whole
    if stereo:  # both sides in one gather each: left at start, right at start + delta
        idx = np.add(whole.astype(np.intp), np.array([[start], [start + src.delta]]))
        lerp(data, idx, sides, scratch, frac)
    else:
        idx1 = whole.astype(np.intp)
        idx1 += start
        lerp(data, idx1, sides[0], scratch[0], frac)
