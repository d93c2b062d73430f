"""The numpy mixer: float32 stereo blocks from the voice command stream.

The game thread appends commands (``soundscape.audio.commands``: start, set,
stop) with ``send``; ``render(frames)`` runs on the audio side (pyglet's worker
thread or the offline backend), pops them at the start of each block and never
waits on the game thread. The audio side owns every voice's render cursor: a
started voice plays from its first frame to its end or its stop exactly once
and is then forgotten, whatever the game side says later.

Per block every voice is a row of a (voices, frames) matrix (``mixer_rows``:
own-rate rows copy frames, resampled rows interpolate linearly with a
fractional cursor that carries across blocks). Float profiles are then summed
with per-side gains in a fixed row order (``mixer_sum``: no BLAS, the same
bytes on every machine; ``modern`` ramps from the previous gains across the
block, so changes never click; ``ac``/``oni`` jump at the block boundary as
DirectSound did). Redguard rows take the Miles integer path
(``mixer_sum.mix_miles``).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable
from typing import Any, NamedTuple

import numpy as np

from soundscape.audio import commands as cmd
from soundscape.audio.commands import Command, VoiceParams
from soundscape.audio.limiter import Limiter
from soundscape.audio.mixer_batch import Batch
from soundscape.audio.mixer_buses import BusStage
from soundscape.audio.mixer_dsp import VoiceDsp
from soundscape.audio.mixer_inplace import SetRows, Tail, apply_in_place, fade_tails
from soundscape.audio.mixer_rows import Rows
from soundscape.audio.mixer_store import SampleStore
from soundscape.audio.mixer_sum import gain_matrices, mix_miles, weigh, weigh_all
from soundscape.audio.mixer_voice import Voice, faded_in
from soundscape.audio.profiles import MAX_GAIN
from soundscape.audio.room_mix import RoomMix
from soundscape.audio.sounds import Sound
from soundscape.audio.streams import Streams, is_streamed
from soundscape.errors import InputError
from soundscape.seams import Backend


class Timeline(NamedTuple):
    """Where game ticks fall in the output (a tick-driven backend sets it).

    Tick ``first_tick`` starts at output frame ``frame`` plus ``owed / tick_hz``
    frames; each tick after it is ``sample_rate_hz / tick_hz`` frames on.
    """

    first_tick: int
    frame: int
    owed: int
    tick_hz: int


class Mixer:
    """Renders the started voices to float32 stereo at ``sample_rate_hz``.

    Args:
        sample_rate_hz: output rate (48 kHz by default).
        block_frames: the largest block rendered in one pass; longer requests
            are split, buffers are sized for this.
        max_voices: initial row capacity (grows when more voices play).
        limiter: the master limiter applied to each block after the master gain
            (the plugin passes one when ``Settings.limiter``; None: no limiting).
    """

    def __init__(self, sample_rate_hz: int = 48_000, block_frames: int = 1024,
                 max_voices: int = 64, limiter: Limiter | None = None) -> None:
        self.sample_rate_hz = int(sample_rate_hz)
        self.block_frames = int(block_frames)
        self._master_gain = 1.0
        self.muted = False
        """True: every block is silence (voices go on; unmuting resumes them in place)."""
        self.store = SampleStore()
        self.streams = Streams(self.store, self.block_frames)
        """Streamed voices' rings (``soundscape.audio.streams``)."""
        self._streamed: list[tuple[int, Voice]] = []
        self.commands: deque[Batch] = deque()
        """The command stream: the game thread appends a batch a send
        (``mixer_batch``), the audio thread pops them."""
        self.published_tick: int | None = None
        """The game tick of the latest ``send`` that gave one (phase PUBLISH)."""
        self.timeline: Timeline | None = None
        """Set by a tick-driven backend before it renders a tick interval; None: a
        real-time output, where a start plays at the next block."""
        self._live: dict[int, Voice] = {}
        self._voices: list[Voice] = []
        self._row_of: dict[int, int] = {}
        """Voice id -> its row in ``_voices`` (as laid out)."""
        self._rests: list[tuple[Any, ...]] = []
        """Each row's voice's params past its gains and step (``mixer_inplace``)."""
        self._set_rows: SetRows | None = None
        """The last block's gain sets (``mixer_inplace.SetRows``)."""
        self._silent: list[Voice] = []
        self._dying: list[Voice] = []
        self._dirty = False
        self._has_dying = False
        self._rows = Rows(self.block_frames, max_voices)
        self.buses = BusStage()
        """Bus gains, applied per row and ramped per block (``mixer_buses``)."""
        self._acc = np.zeros((5, self.block_frames), dtype=np.float32)
        self._ramps: dict[int, np.ndarray] = {}
        self._falls: dict[int, np.ndarray] = {}
        self._tails: list[Tail] = []
        """Cut ``modern`` voices fading out across the next block beside the rows
        (``mixer_inplace``)."""
        self._tail_buf = np.zeros((5, self.block_frames), dtype=np.float32)
        self._out = np.zeros((self.block_frames, 2), dtype=np.float32)
        self.dsp = VoiceDsp(self.sample_rate_hz)
        """The per-voice stage (low-pass cutoffs), between the rows and the sum."""
        self.frames_rendered = 0
        self.backend: Backend | None = None
        """The output that pulls blocks (offline or pyglet), closed with the mixer."""
        self.rooms: RoomMix | None = None
        """Reverb zones and headphone ears (feature ``rooms``): adds to each block."""
        self.limiter: Limiter | None = limiter
        """The master limiter on every rendered block (``soundscape.audio.limiter``), or None."""

    # -- game thread -----------------------------------------------------------

    @property
    def master_gain(self) -> float:
        """Linear gain on the whole output (1 by default), read at each block."""
        return self._master_gain

    @master_gain.setter
    def master_gain(self, gain: float) -> None:
        value = float(gain)
        # Above 1e6 (+120 dB) the float32 mix would overflow to inf (1e308 did).
        if not math.isfinite(value) or not 0.0 <= value <= MAX_GAIN:
            raise InputError(f"mixer.master_gain: {gain!r} is not a finite gain in 0..{MAX_GAIN:g}")
        self._master_gain = value

    def send(self, commands: Iterable[Command], tick: int | None = None) -> None:
        """Append ``commands`` to the stream (game thread; never waits).

        New sounds are packed into the sample store here, so the audio side
        only reads it. ``tick``: the game tick these commands complete.
        """
        batch = list(commands)
        if batch:
            split = Batch.of(batch)
            for command in split.others:  # (the starts are there, not among the sets)
                if command.op == cmd.START and command.sound is not None:
                    if is_streamed(command.sound):
                        self.streams.open(command)  # its ring and first blocks
                    else:
                        self.store.segment(command.sound, command.params is not None
                                           and command.params.miles is not None)
            self.commands.append(split)
        if tick is not None:
            self.published_tick = tick

    def start(self, voice: int, sound: Sound, params: VoiceParams, *, tick: int = 0,
              frame: float = 0.0, offset: float = 0.0) -> None:
        """Send one ``start`` (game thread): ``voice`` must be an id never used before."""
        self.send([cmd.start(voice, sound, params, tick=tick, frame=frame, offset=offset)])

    def set(self, voice: int, params: VoiceParams) -> None:
        """Send one ``set`` (game thread)."""
        self.send([cmd.set_params(voice, params)])

    def stop(self, voice: int) -> None:
        """Send one ``stop`` (game thread)."""
        self.send([cmd.stop(voice)])

    # -- the command stream (audio side) ------------------------------------------

    def _delay(self, command: Command) -> float:
        """Output frames from this block's start to where ``command`` starts its voice."""
        line = self.timeline
        if line is None:
            return max(command.frame, 0.0)
        ticks = command.tick - line.first_tick
        frames = line.frame + (ticks * self.sample_rate_hz + line.owed) // line.tick_hz
        return max(frames - self.frames_rendered + command.frame, 0.0)

    def _drain(self, n: int) -> None:
        """Apply every queued command (at the start of a block of ``n`` frames): in place
        when the rows can take them (``mixer_inplace``), else one by one, then lay the
        rows out."""
        batches = self.commands
        batch = batches.popleft() if len(batches) == 1 else \
            Batch.join([batches.popleft() for _ in range(len(batches))])
        if apply_in_place(self, batch, n):
            return
        self._sync()
        live = self._live
        for command in batch.commands:
            if command.params is not None and command.params.lowpass_hz > 0.0:
                self.dsp.wake()
            if command.op == cmd.START:
                self._start(command)
                continue
            if command.op == cmd.BUSES:
                self.buses.set(command.gains)
                continue
            voice = live.get(command.voice)
            if voice is None:
                continue  # finished or cut already: never started again
            if command.op == cmd.STOP:
                del live[command.voice]
                if voice.spec.ramp and voice.rendered and voice in self._voices:
                    voice.fate = "dying"  # modern: fade out over one block
                    self._dying.append(voice)
                continue
            params = command.params
            if params is None:
                continue
            voice.spec = params if voice.stream is None else params._replace(loop=True)
            if not params.ramp or not voice.rendered:  # retail: the new gains apply at once
                voice.g_left, voice.g_right = params.gain_left, params.gain_right
        self._layout()

    def _start(self, command: Command) -> None:
        params, sound = command.params, command.sound
        if params is None or sound is None or command.voice in self._live:
            return
        if is_streamed(sound):
            self._start_streamed(command, params, sound)
            return
        seg = self.store.segment(sound, params.miles is not None)
        begin = command.offset - self._delay(command) * params.step
        if not params.loop and begin >= seg.frames:
            return
        self._live[command.voice] = faded_in(
            Voice(command.voice, params, seg, begin, self.buses.gain(params.bus)), command)

    def _start_streamed(self, command: Command, params: VoiceParams, sound: Sound) -> None:
        """A streamed voice reads its ring (wrapping like a loop); the ring ends it."""
        ring = self.streams.ring_for(command)
        if ring is None:
            return
        begin = command.offset - self._delay(command) * params.step
        if not params.loop and begin >= sound.frames:
            self.streams.drop(ring)
            return
        voice = Voice(command.voice, params._replace(loop=True), ring.seg, 0.0,
                       self.buses.gain(params.bus))
        voice.cur_i, voice.cur_f = self.streams.start_cursor(ring, begin)
        voice.stream, voice.stream_frames = ring, voice.cur_i
        self._live[command.voice] = faded_in(voice, command)

    def _sync(self) -> None:
        """Write the row cursors and gains back into their voices."""
        rows = self._rows
        cur_i, cur_f = rows.cur_i.tolist(), rows.cur_f.tolist()
        g_left, g_right = rows.g1l.tolist(), rows.g1r.tolist()
        for row, voice in enumerate(self._voices):
            voice.cur_i, voice.cur_f = cur_i[row], cur_f[row]
            voice.g_left, voice.g_right = g_left[row], g_right[row]
            voice.rendered = True

    def _layout(self) -> None:
        """Lay the live voices out as rows (audible, not paused) and silent voices;
        forget the ones that have ended."""
        rows, self._dying = self._dying, []  # cut modern voices fade out in this block
        silent: list[Voice] = []
        for key, voice in list(self._live.items()):
            if self._ended(voice):
                del self._live[key]
                continue
            (rows if voice.spec.audible and not voice.spec.paused else silent).append(voice)
        self._silent = silent
        self._rows.layout(rows)
        self._voices = rows
        self._rests = [voice.spec[3:] for voice in rows]
        self._set_rows = None
        self._row_of = {voice.key: row for row, voice in enumerate(rows)}
        self._streamed = [(i, v) for i, v in enumerate(rows) if v.stream is not None]
        self.streams.sweep(self._live, rows)
        self.buses.layout(rows)
        self._has_dying = any(v.fate == "dying" for v in rows)
        self._dirty = False

    def _ended(self, voice: Voice) -> bool:
        if voice.stream is not None:
            return self.streams.ended(voice)
        return not voice.spec.loop and voice.cur_i >= voice.seg.frames

    # -- rendering (audio side) -------------------------------------------------

    def render(self, frames: int) -> np.ndarray:
        """``frames`` of float32 stereo, shape (frames, 2); a view valid until the next call."""
        if frames > self._out.shape[0]:
            self._out = np.zeros((frames, 2), dtype=np.float32)
        out = self._out[:frames]
        done = 0
        while done < frames:
            n = min(self.block_frames, frames - done)
            self._block(out[done : done + n], n)
            if self.limiter is not None:  # the last stage: the mixed block, master gain in
                self.limiter.process(out[done : done + n])
            done += n
        return out

    def render_into(self, out: np.ndarray) -> None:
        """Fill a caller's (frames, 2) float32 array."""
        out[:] = self.render(out.shape[0])

    def _block(self, out: np.ndarray, n: int) -> None:
        if self.commands:
            self._drain(n)
        elif self._dirty:
            self._sync()
            self._layout()
        self._advance_silent(n)
        if not self._voices and (self.rooms is None or not self.rooms.busy()):
            out[:] = 0.0
            self.frames_rendered += n
            return
        rows, streamed = self._rows, self._streamed
        if streamed:
            self.streams.before_fill(rows, streamed, n)
        edges = rows.fill(self.store.data, n)
        if streamed:
            self.streams.after_fill(rows, streamed, n, self.store.data)
        if self.dsp.active:
            self.dsp.process(rows.sl, rows.sr, rows.stereo, self._voices[:rows.n_float], n)
        miles_bus = self.buses.apply(rows, self._voices, n, self._ramp(n))
        self._mix(out, n, miles_bus)
        if streamed and self.streams.advanced(rows, streamed, n):
            self._dirty = True  # a streamed one-shot has played its last frame
        if rows.advance(n, edges) or self._has_dying:
            self._dirty = True  # a voice ended, or a cut voice has faded out
        self.frames_rendered += n

    def _ramp(self, n: int) -> np.ndarray:
        ramp = self._ramps.get(n)
        if ramp is None:
            ramp = self._ramps[n] = (np.arange(1, n + 1, dtype=np.float32) / np.float32(n))
        return ramp

    def _fall(self, n: int) -> np.ndarray:
        """(n - 1) / n down to 0: a cut voice's gain across its last block."""
        fall = self._falls.get(n)
        if fall is None:
            fall = self._falls[n] = np.arange(n - 1, -1, -1, dtype=np.float32) / np.float32(n)
        return fall

    def _mix(self, out: np.ndarray, n: int, miles_bus: np.ndarray | None = None) -> None:
        f = self._rows.n_float
        acc = self._acc[:2, :n]
        if f:
            self._mix_float(acc, f, n)
        else:
            acc[:] = 0.0
        if self._tails:
            fade_tails(self._tails, self.store.data, self._rows.ar64, self._fall(n), acc,
                       self._tail_buf)
            self._tails = []
        if f < len(self._voices):
            self._mix_miles(acc, f, n, miles_bus)
        if self.rooms is not None:
            self.rooms.mix(self._voices, self._rows, n, acc)
        gain = 0.0 if self.muted else self._master_gain
        if gain != 1.0:
            acc *= np.float32(gain)
        out[...] = acc.T  # (frames, 2) from (2, frames): one strided copy

    def _mix_float(self, acc: np.ndarray, f: int, n: int) -> None:
        rows = self._rows
        sl, sr, scratch = rows.sl[:f], rows.sr[:f], self._acc[4:5]
        if rows.gains is None:
            rows.gains = gain_matrices(rows.g0, rows.mono_mask, rows.stereo_runs, f,
                                       rows.gain_bufs)
        lo, hi = rows.ramp_lo, rows.ramp_hi
        if not rows.ramping or hi <= lo:
            weigh_all(rows.gains, sl, sr, n, acc, scratch)
            return
        # only ramped (modern) rows move inside a block, and they are one slice
        mono, delta = rows.delta_buf, rows.gain_delta
        np.subtract(rows.g1[:, lo:hi], rows.g0[:, lo:hi], out=delta)
        np.multiply(delta, rows.ramp_factors, out=mono)  # x 1 left, x mono mask right
        change = self._acc[2:4, :n]
        if rows.both_gains is not None and rows.gains[2] is None:
            # every float row ramps and none is left out: the sum over S_L and the ramp
            # pass's in one einsum (each output row is summed alone, in row order: the
            # bits of two), then each one's stereo runs over S_R as ``weigh_all`` adds them
            weigh(rows.both_gains, sl, n, self._acc[:4, :n])
            for run_lo, run_hi, row in rows.gains[1]:
                acc[1] += weigh(row, sr[run_lo:run_hi], n, scratch[:, :n])[0]
            for run_lo, run_hi, row in rows.ramp_stereo:
                change[1] += weigh(row, sr[run_lo:run_hi], n, scratch[:, :n])[0]
        else:
            weigh_all(rows.gains, sl, sr, n, acc, scratch)
            weigh_all((mono, rows.ramp_stereo, None), rows.sl[lo:hi], rows.sr[lo:hi], n,
                      change, scratch)
        change *= self._ramp(n)
        acc += change

    def _mix_miles(self, acc: np.ndarray, f: int, n: int, bus: np.ndarray | None) -> None:
        """Redguard rows through ``mixer_sum.mix_miles`` (the Miles integer path)."""
        rows, end = self._rows, len(self._voices)
        mix_miles(acc, rows.sl[f:end, :n], rows.sr[f:end, :n], rows.stereo[f:end],
                  rows.miles_a, rows.miles_t, rows.miles_outer, rows.t[f:end, :n],
                  self._acc[2, :n], bus)

    def _advance_silent(self, n: int) -> None:
        for voice in self._silent:
            if voice.spec.paused:
                continue
            pos = voice.cur_f + voice.spec.step * n
            whole = math.floor(pos)
            voice.cur_i += int(whole)
            voice.cur_f = pos - whole
            if voice.stream is not None:
                voice.stream_frames += int(whole)
                if self.streams.ended(voice):
                    self._dirty = True
            if voice.spec.loop and voice.cur_i >= voice.seg.frames:
                voice.cur_i %= voice.seg.frames

    def close(self) -> None:
        """Close the backend (stops a pyglet player); the mixer holds nothing else."""
        if self.backend is not None:
            self.backend.close()
        self.streams.close()

    @property
    def voice_count(self) -> int:
        """Voices rendered in the latest block."""
        return len(self._voices)
