"""The numpy mixer: float32 stereo blocks from the latest voice snapshot.

The game thread calls ``publish(snapshot)`` once a tick (a reference swap);
``render(frames)`` runs on the audio side (pyglet's worker thread or the
offline backend) and never waits on the game thread.

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

import numpy as np

from soundscape.audio.mixer_rows import Rows
from soundscape.audio.mixer_store import SampleStore, Segment
from soundscape.audio.mixer_sum import gain_matrices, mix_miles, weigh_all
from soundscape.audio.profiles import MAX_GAIN
from soundscape.audio.snapshot import Snapshot, VoiceKey, VoiceSpec
from soundscape.errors import InputError
from soundscape.seams import Backend


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
        self._has_dying = False
        self._rows = Rows(self.block_frames, max_voices)
        self._acc = np.zeros((5, self.block_frames), dtype=np.float32)
        self._ramps: dict[int, np.ndarray] = {}
        self._out = np.zeros((self.block_frames, 2), dtype=np.float32)
        self.frames_rendered = 0
        self.backend: Backend | None = None
        """The output that pulls blocks (offline or pyglet), closed with the mixer."""

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

    def publish(self, snapshot: Snapshot) -> None:
        """Hand the mixer a new snapshot (game thread): pack new sounds, swap the reference."""
        for spec in snapshot.voices:
            self.store.segment(spec.sound, spec.miles is not None)
        self._pending = snapshot

    # -- snapshot application (audio side) -------------------------------------

    def _collect(self) -> dict[VoiceKey, _Voice]:
        """Write the row cursors back into their voices; the voices by key."""
        rows = self._rows
        by_key: dict[VoiceKey, _Voice] = {}
        for row, voice in enumerate(self._voices):
            voice.cur_i, voice.cur_f = int(rows.cur_i[row]), float(rows.cur_f[row])
            voice.g_left, voice.g_right = float(rows.g1l[row]), float(rows.g1r[row])
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
        self._rows.layout(rows)
        self._voices = rows
        self._has_dying = any(v.fate == "dying" for v in rows)
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
        rows = self._rows
        edges = rows.fill(self.store.data, n)
        self._mix(out, n)
        if rows.advance(n, edges) or self._has_dying:
            self._dirty = True  # a voice ended, or a cut voice has faded out
        self.frames_rendered += n

    def _ramp(self, n: int) -> np.ndarray:
        ramp = self._ramps.get(n)
        if ramp is None:
            ramp = self._ramps[n] = (np.arange(1, n + 1, dtype=np.float32) / np.float32(n))
        return ramp

    def _mix(self, out: np.ndarray, n: int) -> None:
        f = self._rows.n_float
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
        rows = self._rows
        sl, sr, scratch = rows.sl[:f], rows.sr[:f], self._acc[4:5]
        if rows.gains is None:
            rows.gains = gain_matrices(rows.g0l, rows.g0r, rows.mono_mask, rows.stereo_runs, f)
        weigh_all(rows.gains, sl, sr, n, acc, scratch)
        if not rows.ramping:
            return
        deltas = gain_matrices(rows.g1l - rows.g0l, rows.g1r - rows.g0r, rows.mono_mask,
                               rows.stereo_runs, f)
        change = weigh_all(deltas, sl, sr, n, self._acc[2:4, :n], scratch)
        change *= self._ramp(n)
        acc += change

    def _mix_miles(self, acc: np.ndarray, f: int, n: int) -> None:
        """Redguard rows through ``mixer_sum.mix_miles`` (the Miles integer path)."""
        rows, end = self._rows, len(self._voices)
        mix_miles(acc, rows.sl[f:end, :n], rows.sr[f:end, :n], rows.stereo[f:end],
                  rows.miles_a, rows.miles_t, rows.miles_outer, rows.t[f:end, :n],
                  self._acc[2, :n])

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
        if self.backend is not None:
            self.backend.close()

    @property
    def voice_count(self) -> int:
        """Voices rendered in the latest block."""
        return len(self._voices)
