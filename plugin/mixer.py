"""The numpy mixer: float32 stereo blocks from the latest voice snapshot.

The game thread calls ``publish(snapshot)`` once a tick (a reference swap);
``render(frames)`` runs on the audio side (pyglet's worker thread or the
offline backend) and never waits on the game thread.

Per block every voice is a row of a (voices, frames) matrix, filled with one
``np.take`` from the packed sample store per group of rows: voices at their own
rate copy frames; resampled voices interpolate linearly between two gathers
with a fractional cursor that carries across blocks. Rows near a sound's end,
a loop point or a delayed start are redone one by one (rare). Float profiles
are then summed with per-side gains in a fixed row order (``mixer_sum``: no
BLAS, the same bytes on every machine; ``modern`` ramps from the previous gains
across the block, so changes never click; ``ac``/``oni`` jump at the block
boundary as DirectSound did). Redguard rows take the Miles integer path
(``mixer_sum.mix_miles``).
"""

from __future__ import annotations

import math

import numpy as np

from soundscape.errors import InputError
from soundscape.mixer_store import SampleStore, Segment
from soundscape.mixer_sum import Gains, gain_matrices, mix_miles, stereo_runs, weigh_all
from soundscape.snapshot import Snapshot, VoiceKey, VoiceSpec


class _Voice:
    """One rendered or silent voice between rebuilds (audio side only)."""

    __slots__ = ("key", "spec", "seg", "cur_i", "cur_f", "g_left", "g_right", "fate")

    def __init__(self, key: VoiceKey, spec: VoiceSpec, seg: Segment, start: float) -> None:
        self.key, self.spec, self.seg = key, spec, seg
        whole = math.floor(start)
        self.cur_i, self.cur_f = int(whole), float(start - whole)
        self.g_left, self.g_right = spec.gain_left, spec.gain_right
        self.fate = "live"


class Mixer:
    """Renders the published voices to float32 stereo at ``sample_rate_hz``.

    Args:
        sample_rate_hz: output rate (48 kHz by default).
        block_frames: the largest block rendered in one pass; longer requests
            are split, buffers are sized for this.
        max_voices: initial row capacity (grows when more voices play).
    """

    def __init__(self, sample_rate_hz: int = 48_000, block_frames: int = 1024,
                 max_voices: int = 64) -> None:
        self.sample_rate_hz = int(sample_rate_hz)
        self.block_frames = int(block_frames)
        self._master_gain = 1.0
        self.muted = False
        """True: every block is silence (voices go on; unmuting resumes them in place)."""
        self.store = SampleStore()
        self._pending: Snapshot | None = None
        self._applied: Snapshot | None = None
        self._voices: list[_Voice] = []
        self._silent: list[_Voice] = []
        self._dirty = False
        self._ar64 = np.arange(self.block_frames, dtype=np.int64)
        self._ramps: dict[int, np.ndarray] = {}
        self._out = np.zeros((self.block_frames, 2), dtype=np.float32)
        self.frames_rendered = 0
        self.backend: object | None = None
        """The output that pulls blocks (offline or pyglet), closed with the mixer."""
        self._alloc(max_voices)
        self._set_rows([])

    # -- game thread -----------------------------------------------------------

    @property
    def master_gain(self) -> float:
        """Linear gain on the whole output (1 by default), read at each block."""
        return self._master_gain

    @master_gain.setter
    def master_gain(self, gain: float) -> None:
        value = float(gain)
        if not math.isfinite(value) or value < 0.0:
            raise InputError(f"mixer.master_gain: {gain!r} is not a finite gain >= 0")
        self._master_gain = value

    def publish(self, snapshot: Snapshot) -> None:
        """Hand the mixer a new snapshot (game thread): pack new sounds, swap the reference."""
        for spec in snapshot.voices:
            self.store.segment(spec.sound, spec.miles is not None)
        self._pending = snapshot

    # -- buffers ---------------------------------------------------------------

    def _alloc(self, rows: int) -> None:
        shape = (max(rows, 1), self.block_frames)
        self._cap = shape[0]
        self._sl = np.zeros(shape, dtype=np.float32)
        self._sr = np.zeros(shape, dtype=np.float32)
        self._s1 = np.zeros(shape, dtype=np.float32)
        self._t = np.zeros(shape, dtype=np.float32)
        self._idx = np.zeros(shape, dtype=np.intp)  # take() would convert anything else
        self._idx32 = np.zeros(shape, dtype=np.int32)  # float32 -> int32 casts are SIMD
        self._acc = np.zeros((5, self.block_frames), dtype=np.float32)
        self._whole = np.zeros(shape, dtype=np.float32)

    def _set_rows(self, voices: list[_Voice]) -> None:
        """Order ``voices`` (float rows, then Miles rows; each: own-rate mono, own-rate
        stereo, resampled mono, resampled stereo) and lay their state out in arrays."""
        def group(v: _Voice) -> tuple[bool, bool, bool]:
            interp = v.spec.step != 1.0 or v.cur_f != 0.0
            return (v.spec.miles is not None, interp, v.seg.stereo)

        voices.sort(key=group)
        self._voices = voices
        n = len(voices)
        if n > self._cap:
            self._alloc(max(n, 2 * self._cap))
        keys = [group(v) for v in voices]
        self._n_float = sum(1 for k in keys if not k[0])
        # per kind (float, Miles): (first row, first resampled row, first resampled stereo, end)
        self._kinds: list[tuple[int, int, int, int, bool]] = []
        for miles, lo, hi in ((False, 0, self._n_float), (True, self._n_float, n)):
            if hi > lo:
                interp = next((i for i in range(lo, hi) if keys[i][1]), hi)
                stereo = next((i for i in range(interp, hi) if keys[i][2]), hi)
                self._kinds.append((lo, interp, stereo, hi, miles))
        self._stereo = np.array([v.seg.stereo for v in voices], dtype=bool)
        self._mono_mask = (~self._stereo).astype(np.float32)
        self._stereo_mask = self._stereo.astype(np.float32)
        # the float rows' stereo runs (own-rate stereo, resampled stereo), in row order
        self._stereo_runs = stereo_runs(self._stereo[: self._n_float])
        self._left = np.array([v.seg.left for v in voices], dtype=np.int64)
        self._delta = np.array([v.seg.right - v.seg.left for v in voices], dtype=np.int64)
        self._delta_col = self._delta[:, None]
        self._delta_list = [v.seg.right - v.seg.left for v in voices]
        self._length = np.array([v.seg.frames for v in voices], dtype=np.int64)
        self._cur_i = np.array([v.cur_i for v in voices], dtype=np.int64)
        self._cur_f = np.array([v.cur_f for v in voices], dtype=np.float64)
        self._step = np.array([v.spec.step for v in voices], dtype=np.float64)
        # offsets of each output frame within the block, in source frames (float32
        # offsets from a float64 cursor: at most ~1e-4 frame off at a block's end)
        self._stepar = (self._step[:, None] * self._ar64[None, :]).astype(np.float32)
        self._loop = np.array([v.spec.loop for v in voices], dtype=bool)
        g1 = [(0.0, 0.0) if v.fate == "dying" else (v.spec.gain_left, v.spec.gain_right)
              for v in voices]
        self._g0l = np.array([v.g_left for v in voices], dtype=np.float32)
        self._g0r = np.array([v.g_right for v in voices], dtype=np.float32)
        self._g1l = np.array([g[0] for g in g1], dtype=np.float32)
        self._g1r = np.array([g[1] for g in g1], dtype=np.float32)
        self._ramping = bool(n) and bool(
            np.any(self._g0l != self._g1l) or np.any(self._g0r != self._g1r))
        self._has_dying = any(v.fate == "dying" for v in voices)
        self._gains: Gains | None = None
        factors = [v.spec.miles or (0, 0, 0, 0) for v in voices[self._n_float:]]
        m = np.array(factors, dtype=np.float32).reshape(-1, 4)
        self._miles_a = m[:, :2] / np.float32(128.0)
        self._miles_t = m[:, 2:] / np.float32(128.0)
        self._miles_outer = bool(np.any(m[:, 2:] != 128.0))
        self._recount()

    def _recount(self) -> None:
        """Output frames every row can render before it may start, end or wrap."""
        if not len(self._voices):
            self._safe_frames = 1 << 62
            return
        remaining = (self._length - 3) - (self._cur_i + self._cur_f)
        frames = np.where(self._cur_i < 0, 0.0, remaining / np.maximum(self._step, 1e-9))
        self._safe_frames = max(int(np.floor(frames.min())) - 1, 0)

    # -- snapshot application (audio side) -------------------------------------

    def _collect(self) -> dict[VoiceKey, _Voice]:
        """Write the row cursors back into their voices; the voices by key."""
        by_key: dict[VoiceKey, _Voice] = {}
        for row, voice in enumerate(self._voices):
            voice.cur_i, voice.cur_f = int(self._cur_i[row]), float(self._cur_f[row])
            voice.g_left, voice.g_right = float(self._g1l[row]), float(self._g1r[row])
            by_key[voice.key] = voice
        for voice in self._silent:
            by_key[voice.key] = voice
        return by_key

    def _apply(self, snapshot: Snapshot | None) -> None:
        old = self._collect()
        rows: list[_Voice] = []
        silent: list[_Voice] = []
        seen: set[VoiceKey] = set()
        if snapshot is not None:
            for spec in snapshot.voices:
                seen.add(spec.key)
                voice = old.get(spec.key)
                if voice is None or voice.fate == "dying":
                    seg = self.store.segment(spec.sound, spec.miles is not None)
                    voice = _Voice(spec.key, spec, seg, spec.start_cursor_frames)
                else:
                    voice.spec = spec
                    if not spec.ramp:  # retail: the new gains apply at once
                        voice.g_left, voice.g_right = spec.gain_left, spec.gain_right
                if self._ended(voice):
                    continue
                (rows if spec.audible and not spec.paused else silent).append(voice)
        cuts = snapshot.cuts if snapshot is not None else frozenset()
        for key, voice in old.items():
            if key in seen or voice.fate == "dying" or self._ended(voice):
                continue
            if key in cuts or snapshot is None and voice.fate != "orphan":
                if voice.spec.ramp and voice in self._voices:
                    voice.fate = "dying"  # modern: fade out over one block
                    rows.append(voice)
                continue
            if snapshot is not None and not voice.spec.loop and key not in cuts:
                voice.fate = "orphan"  # ended on the game side: play out the last frames
                rows.append(voice)
        self._silent = silent
        self._set_rows(rows)
        self._dirty = False

    @staticmethod
    def _ended(voice: _Voice) -> bool:
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
            done += n
        return out

    def render_into(self, out: np.ndarray) -> None:
        """Fill a caller's (frames, 2) float32 array."""
        out[:] = self.render(out.shape[0])

    def _block(self, out: np.ndarray, n: int) -> None:
        pending = self._pending
        if pending is not self._applied:
            self._applied = pending
            self._apply(pending)
        elif self._dirty:
            self._apply(self._applied)
        self._advance_silent(n)
        if not self._voices:
            out[:] = 0.0
            self.frames_rendered += n
            return
        data = self.store.data
        edges = n > self._safe_frames  # some row may start, end or wrap in this block
        slow = self._slow_rows(n) if edges else []
        slow_set = set(slow)
        for lo, interp, stereo, hi, _miles in self._kinds:
            if interp > lo:
                self._copy_rows(data, lo, interp, n, slow_set)
            if hi > interp:
                self._resample_rows(data, interp, stereo, hi, n)
        for row in slow:
            self._slow_row(data, row, n)
        for _lo, interp, _stereo, hi, miles in self._kinds:
            if miles and hi > interp:  # Redguard: integer samples after resampling
                np.floor(self._sl[interp:hi, :n], out=self._sl[interp:hi, :n])
                np.floor(self._sr[interp:hi, :n], out=self._sr[interp:hi, :n])
        self._mix(out, n)
        self._advance_rows(n, edges)
        self.frames_rendered += n

    def _copy_rows(self, data: np.ndarray, a: int, b: int, n: int, slow: set[int]) -> None:
        """Rows at the sound's own rate, not near an end: plain slices."""
        sl, sr, deltas = self._sl, self._sr, self._delta_list
        starts = (self._left[a:b] + self._cur_i[a:b]).tolist()
        for row, start in zip(range(a, b), starts, strict=True):
            if row in slow:
                continue
            sl[row, :n] = data[start : start + n]
            delta = deltas[row]
            if delta:
                sr[row, :n] = data[start + delta : start + delta + n]

    def _resample_rows(self, data: np.ndarray, a: int, st: int, b: int, n: int) -> None:
        """Resampled rows a..b (stereo from ``st``): linear interpolation of two gathers."""
        whole, idx, frac = self._whole[a:b, :n], self._idx[a:b, :n], self._t[a:b, :n]
        np.add(self._stepar[a:b, :n], self._cur_f[a:b, None].astype(np.float32), out=frac)
        np.floor(frac, out=whole)
        np.subtract(frac, whole, out=frac)
        # float32 -> int32 -> intp is cheaper than one float32 -> intp cast; the
        # store stays under 2^31 frames (``mixer_store.MAX_FRAMES``)
        idx32 = self._idx32[a:b, :n]
        np.copyto(idx32, whole, casting="unsafe")
        np.add(idx32, (self._left[a:b] + self._cur_i[a:b]).astype(np.int32)[:, None], out=idx32)
        np.copyto(idx, idx32)
        # rows flagged slow may point anywhere: "wrap" keeps them in bounds until redone
        self._lerp(data, idx, self._sl[a:b, :n], self._s1[a:b, :n], frac)
        if b > st:
            sidx = self._idx[st:b, :n]
            np.add(sidx, self._delta_col[st:b], out=sidx)
            self._lerp(data, sidx, self._sr[st:b, :n], self._s1[st:b, :n], self._t[st:b, :n])

    @staticmethod
    def _lerp(data: np.ndarray, idx: np.ndarray, dst: np.ndarray, tmp: np.ndarray,
              frac: np.ndarray) -> None:
        np.take(data, idx, out=dst, mode="wrap")
        np.take(data[1:], idx, out=tmp, mode="wrap")
        np.subtract(tmp, dst, out=tmp)
        np.multiply(tmp, frac, out=tmp)
        np.add(dst, tmp, out=dst)

    def _slow_rows(self, n: int) -> list[int]:
        """Rows that start late, reach their end or wrap a loop in this block."""
        last = self._cur_i + (self._cur_f + self._step * n)
        rows: list[int] = np.flatnonzero((self._cur_i < 0) | (last + 2.0 >= self._length)).tolist()
        return rows

    def _slow_row(self, data: np.ndarray, row: int, n: int) -> None:
        length = int(self._length[row])
        pos = float(self._cur_i[row]) + (self._cur_f[row] + self._step[row] * self._ar64[:n])
        i0 = np.floor(pos)
        frac = (pos - i0).astype(np.float32)
        i0 = i0.astype(np.int64)
        i1 = i0 + 1
        ok0, ok1 = i0 >= 0, i1 >= 0
        if self._loop[row]:
            j0, j1 = i0 % length, i1 % length
        else:
            ok0 &= i0 < length
            ok1 &= i1 < length
            j0, j1 = np.clip(i0, 0, length - 1), np.clip(i1, 0, length - 1)
        sides = [(self._sl, 0)]
        if self._voices[row].seg.stereo:
            sides.append((self._sr, int(self._delta[row])))
        for dst, delta in sides:
            base = int(self._left[row]) + delta
            x0 = np.where(ok0, data[base + j0], np.float32(0.0))
            x1 = np.where(ok1, data[base + j1], np.float32(0.0))
            dst[row, :n] = x0 + frac * (x1 - x0)

    def _ramp(self, n: int) -> np.ndarray:
        ramp = self._ramps.get(n)
        if ramp is None:
            ramp = self._ramps[n] = (np.arange(1, n + 1, dtype=np.float32) / np.float32(n))
        return ramp

    def _mix(self, out: np.ndarray, n: int) -> None:
        f = self._n_float
        acc = self._acc[:2, :n]
        if f:
            self._mix_float(acc, f, n)
        else:
            acc[:] = 0.0
        if f < len(self._voices):
            self._mix_miles(acc, f, n)
        gain = 0.0 if self.muted else self._master_gain
        if gain != 1.0:
            acc *= np.float32(gain)
        out[:, 0] = acc[0]
        out[:, 1] = acc[1]

    def _mix_float(self, acc: np.ndarray, f: int, n: int) -> None:
        sl, sr, scratch = self._sl[:f], self._sr[:f], self._acc[4:5]
        if self._gains is None:
            self._gains = gain_matrices(self._g0l, self._g0r, self._mono_mask,
                                        self._stereo_runs, f)
        weigh_all(self._gains, sl, sr, n, acc, scratch)
        if not self._ramping:
            return
        deltas = gain_matrices(self._g1l - self._g0l, self._g1r - self._g0r, self._mono_mask,
                               self._stereo_runs, f)
        change = weigh_all(deltas, sl, sr, n, self._acc[2:4, :n], scratch)
        change *= self._ramp(n)
        acc += change

    def _mix_miles(self, acc: np.ndarray, f: int, n: int) -> None:
        """Redguard rows through ``mixer_sum.mix_miles`` (the Miles integer path)."""
        end = len(self._voices)
        mix_miles(acc, self._sl[f:end, :n], self._sr[f:end, :n], self._stereo[f:end],
                  self._miles_a, self._miles_t, self._miles_outer, self._t[f:end, :n],
                  self._acc[2, :n])

    def _advance_rows(self, n: int, edges: bool) -> None:
        """Move every row's cursor on by ``n`` frames; ``edges``: some row met an end."""
        pos = self._cur_f + self._step * n
        whole = np.floor(pos)
        self._cur_f = pos - whole
        self._cur_i += whole.astype(np.int64)
        if self._ramping:
            self._g0l, self._g0r = self._g1l, self._g1r
            self._gains = None
            self._ramping = False
        self._safe_frames -= n
        if self._has_dying:
            self._dirty = True
        if not edges:
            return
        wrap = self._loop & (self._cur_i >= self._length)
        if wrap.any():
            self._cur_i[wrap] %= self._length[wrap]
        if (~self._loop & (self._cur_i >= self._length)).any():
            self._dirty = True
        self._recount()

    def _advance_silent(self, n: int) -> None:
        for voice in self._silent:
            if voice.spec.paused:
                continue
            pos = voice.cur_f + voice.spec.step * n
            whole = math.floor(pos)
            voice.cur_i += int(whole)
            voice.cur_f = pos - whole
            if voice.spec.loop and voice.cur_i >= voice.seg.frames:
                voice.cur_i %= voice.seg.frames

    def close(self) -> None:
        """Close the backend (stops a pyglet player); the mixer holds nothing else."""
        close = getattr(self.backend, "close", None)
        if close is not None:
            close()

    @property
    def voice_count(self) -> int:
        """Voices rendered in the latest block."""
        return len(self._voices)
