"""The mixer's voice rows: one row of samples per voice, filled a block at a time.

``Rows`` lays the voices being played out as arrays (packed-store offsets,
cursors, steps, gains) and fills a (voices, frames) matrix per block: voices at
their own rate copy a slice of the packed store; resampled voices interpolate
linearly between two ``np.take`` gathers, with a fractional cursor that carries
across blocks. Rows near a sound's end, a loop point or a delayed start are
redone one by one (rare). Redguard (Miles) rows are floored to whole 16-bit
sample units after resampling, so the integer mixing that follows is exact.
A block of n frames fills contiguous (voices, n) buffers (``Rows.shape_for``), and
the steps a block's sets move (doppler, every tick) are written all at once
(``Rows.set_steps``), most often straight into the next fill's offsets (``Rows.premake``).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from soundscape.audio.mixer_sum import MILES_FULL_SCALE, Gains, gain_buffers, stereo_runs
from soundscape.audio.pymath import any_set

Kind = tuple[bool, bool, bool, bool]
"""A row's kind: (Miles integer path, resampled, stereo, ramped gains)."""


def kind_of(voice: Any) -> Kind:
    """The kind of row ``voice`` needs."""
    spec = voice.spec
    miles = spec.miles is not None
    return (miles, spec.step != 1.0 or voice.cur_f != 0.0, voice.seg.stereo,
            bool(spec.ramp) and not miles)


def row_order(voice: Any) -> tuple[int, int, int]:
    """Where ``voice``'s row goes. Float rows: own-rate steady, own-rate ramped,
    resampled ramped mono, resampled ramped stereo, resampled steady stereo,
    resampled steady mono; then Miles rows: own-rate, resampled mono, resampled
    stereo. So the resampled stereo rows are one slice, and so are the ramped rows
    (the only ones whose gains may move inside a block: ``modern``)."""
    miles, resampled, stereo, ramp = kind_of(voice)
    if miles:
        return (2, resampled, stereo)
    if not resampled:
        return (0, ramp, stereo)
    return (1, 0, stereo) if ramp else (1, 1, not stereo)


class Rows:
    """The per-row state and sample buffers of the voices being rendered.

    Args:
        block_frames: the largest block filled in one pass.
        capacity: initial row capacity (doubles when more voices play).
    """

    def __init__(self, block_frames: int, capacity: int) -> None:
        self.block_frames = int(block_frames)
        self.ar64 = np.arange(self.block_frames, dtype=np.int64)
        self.arf64 = self.ar64.astype(np.float64)
        self._steps: dict[float, np.ndarray] = {}
        """step -> its row of ``stepar`` (the same for every layout)."""
        self.safe_frames = 0
        """Output frames every row can render before one may start, end or wrap (a
        bound: ``recount``)."""
        self.alloc(capacity)
        self.layout([])

    def alloc(self, rows: int) -> None:
        """(Re)allocate the sample buffers for ``rows`` rows."""
        self.cap = max(rows, 1)
        size = self.cap * self.block_frames
        self._flat_l = np.zeros(size, dtype=np.float32)
        self._flat_r = np.zeros(size, dtype=np.float32)
        self._flat_s1 = np.zeros(size, dtype=np.float32)
        self._flat_t = np.zeros(size, dtype=np.float32)
        self._flat_idx = np.zeros(size, dtype=np.intp)  # take() would convert anything else
        # scratch shares the memory of a buffer written only after it is read (a smaller
        # working set: the game's own phases run between two blocks): ``idx32`` is cast
        # into ``idx`` before ``take`` writes ``sl``, ``whole`` into ``idx32`` before
        # ``lerp`` writes ``s1``
        self._flat_idx32 = self._flat_l.view(np.int32)  # float32 -> int32 casts are SIMD
        self._flat_whole = self._flat_s1
        self.stepar_buf = np.zeros((self.cap, self.block_frames), dtype=np.float32)
        self._products = self._flat_idx.view(np.float64)
        """Where ``step_rows`` writes: ``idx``'s memory (the products are cast into
        ``stepar`` before a fill makes ``idx``), grown apart for a row set twice."""
        self.shaped_for = 0
        """The frames a row of the block buffers holds (``shape_for``)."""
        self.shape_for(self.block_frames)

    def shape_for(self, n: int) -> None:
        """View the block buffers as (rows, ``n``): a block of ``n`` frames fills
        contiguous rows, which numpy's loops run over about twice as fast as the first
        ``n`` columns of wider rows. ``sl``, ``sr``: each row's left (or mono) and right
        samples; ``s1``, ``t``, ``idx``, ``idx32``, ``whole``: the fill's scratch.
        Nothing in them outlives a block, so a new shape keeps nothing."""
        if n == self.shaped_for:
            return
        self.shaped_for = n
        shape, size = (self.cap, n), self.cap * n
        self.sl = self._flat_l[:size].reshape(shape)
        self.sr = self._flat_r[:size].reshape(shape)
        self.s1 = self._flat_s1[:size].reshape(shape)
        self.t = self._flat_t[:size].reshape(shape)
        self.idx = self._flat_idx[:size].reshape(shape)
        self.idx32 = self._flat_idx32[:size].reshape(shape)
        self.whole = self._flat_whole[:size].reshape(shape)

    def layout(self, voices: list[Any]) -> None:
        """Sort ``voices`` in place (``row_order``) and lay their state out.

        A voice has ``spec`` (a ``VoiceSpec``), ``seg`` (its ``Segment``), the cursor
        ``cur_i``/``cur_f``, the gains it had ``g_left``/``g_right`` and its ``fate``.
        """
        voices.sort(key=row_order)
        n = self.count = len(voices)
        if n > self.cap:
            self.alloc(max(n, 2 * self.cap))
        keys = [kind_of(v) for v in voices]
        self.n_float = sum(1 for k in keys if not k[0])
        # per kind (float, Miles): (first row, first resampled, first resampled stereo, end)
        # per part (float, Miles): (first row, first resampled, the resampled stereo
        # rows' start and end, end, Miles)
        self.kinds: list[tuple[int, int, int, int, int, bool]] = []
        for miles, lo, hi in ((False, 0, self.n_float), (True, self.n_float, n)):
            if hi > lo:
                interp = next((i for i in range(lo, hi) if keys[i][1]), hi)
                st = [i for i in range(interp, hi) if keys[i][2]]
                s0, s1 = (st[0], st[-1] + 1) if st else (hi, hi)
                self.kinds.append((lo, interp, s0, s1, hi, miles))
        ramped = [i for i in range(self.n_float) if keys[i][3]]
        self.ramp_lo, self.ramp_hi = (ramped[0], ramped[-1] + 1) if ramped else (0, 0)
        self.stereo = np.array([v.seg.stereo for v in voices], dtype=bool)
        self.mono_mask = (~self.stereo).astype(np.float32)
        self.stereo_runs = stereo_runs(self.stereo[: self.n_float])
        self.left = np.array([v.seg.left for v in voices], dtype=np.int64)
        self.delta = np.array([v.seg.right - v.seg.left for v in voices], dtype=np.int64)
        self.delta_col = self.delta[:, None]
        self.delta_list = self.delta.tolist()
        self.length = np.array([v.seg.frames for v in voices], dtype=np.int64)
        self.cur_i = np.array([v.cur_i for v in voices], dtype=np.int64)
        self.cur_f = np.array([v.cur_f for v in voices], dtype=np.float64)
        self.step = np.array([v.spec.step for v in voices], dtype=np.float64)
        # offsets of each output frame within the block, in source frames (float32
        # offsets from a float64 cursor: at most ~1e-4 frame off at a block's end)
        # only resampled rows read it; each step's row is made once
        self.stepar = self.stepar_buf[:n]
        for _lo, interp, _s0, _s1, hi, _miles in self.kinds:
            for row in range(interp, hi):
                self.stepar[row] = self.step_row(float(self.step[row]))
        self.stepar_frames = self.block_frames
        """The first columns of ``stepar`` every resampled row has made (``set_steps``
        writes only a block's); the rows a stream or a row at its own rate has are
        always whole."""
        self.resampled = np.zeros(n, dtype=bool)
        """Rows that interpolate (``kind_of``): their step can move in place (``set_steps``)."""
        for _lo, interp, _s0, _s1, hi, _miles in self.kinds:
            self.resampled[interp:hi] = True
        self.all_resampled = bool(self.resampled.all())
        """Every row interpolates (a scene of moving sources: doppler moves every step)."""
        self.resampled_count = int(np.count_nonzero(self.resampled))
        self.premade = 0
        """Frames of the next block whose offsets ``set_steps`` made straight into every
        resampled row's ``t`` (the fill's ``frac``), ``stepar`` left unmade (0: none)."""
        self.loop = np.array([v.spec.loop for v in voices], dtype=bool)
        g1 = [(0.0, 0.0) if v.fate == "dying" else (v.spec.gain_left, v.spec.gain_right)
              for v in voices]
        self.g0 = np.array([[v.g_left for v in voices], [v.g_right for v in voices]],
                           dtype=np.float32).reshape(2, n)
        """Each row's (left, right) gains at the block's start; ``g1``: at its end
        (they differ while a ``modern`` gain change ramps). ``g0l``... are their rows."""
        self.g1 = np.array([[g[0] for g in g1], [g[1] for g in g1]],
                           dtype=np.float32).reshape(2, n)
        self.g0l, self.g0r = self.g0
        self.g1l, self.g1r = self.g1
        self.jumps = np.array([not v.spec.ramp for v in voices], dtype=bool)
        self.any_jumps = bool(self.jumps.any())
        """Rows whose gain changes apply at once (retail); the others ramp (``modern``)."""
        self.ramping = bool(n) and bool(
            np.any(self.g0l != self.g1l) or np.any(self.g0r != self.g1r))
        self.gains: Gains | None = None
        self.gain_bufs = gain_buffers(self.stereo_runs, self.mono_mask, self.n_float)
        """Where ``mixer_sum.gain_matrices`` writes the float rows' gains."""
        ramp_runs = stereo_runs(self.stereo[self.ramp_lo : self.ramp_hi])
        k = self.ramp_hi - self.ramp_lo
        self.delta_buf = np.zeros((2, k), dtype=np.float32)
        """The ramp pass's gains over S_L: left changes, right changes of mono rows."""
        self.both_gains: np.ndarray | None = None
        """When every float row ramps (``modern``): one (4, rows) array whose first two
        rows are ``gain_bufs``' gains over S_L and last two ``delta_buf``, so the sum and
        the ramp pass over S_L are one ``einsum`` (``Mixer._mix_float``)."""
        if k and k == self.n_float:
            self.both_gains = np.zeros((4, k), dtype=np.float32)
            self.gain_bufs = (self.both_gains[:2], *self.gain_bufs[1:])
            self.delta_buf = self.both_gains[2:]
        self.gain_delta = np.zeros((2, k), dtype=np.float32)
        """The ramped rows' (left, right) gain changes across the block."""
        self.ramp_factors = np.stack([np.ones(k, dtype=np.float32),
                                      self.mono_mask[self.ramp_lo : self.ramp_hi]])
        self.ramp_stereo = [(a, b, self.gain_delta[1:2, a:b]) for a, b in ramp_runs]
        """The ramp pass's right-side gain changes over each stereo run of ramped rows."""
        factors = [v.spec.miles or (0, 0, 0, 0) for v in voices[self.n_float:]]
        m = np.array(factors, dtype=np.float32).reshape(-1, 4)
        self.miles_a = m[:, :2] / np.float32(128.0)
        self.miles_t = m[:, 2:] / np.float32(128.0)
        self.miles_outer = bool(np.any(m[:, 2:] != 128.0))
        self.recount()

    def replace(self, row: int, voice: Any) -> None:
        """Put ``voice`` in ``row`` in place of a cut voice of the same kind
        (``kind_of``, not Miles): the row keeps its place, so nothing is sorted
        or laid out again (a retriggered sound, ``mixer_inplace``). Only this row's
        frames are counted again (``recount_row``)."""
        seg, spec = voice.seg, voice.spec
        self.left[row] = seg.left
        self.delta[row] = self.delta_list[row] = seg.right - seg.left
        self.length[row] = seg.frames
        self.cur_i[row], self.cur_f[row] = voice.cur_i, voice.cur_f
        if self.step[row] != spec.step:
            self.step[row] = spec.step
            if self.resampled[row]:  # ``step_row``'s products, not kept: doppler's steps
                self.stepar[row] = spec.step * self.arf64  # are seldom seen twice
                if self.premade:  # the next block's offsets were made with the cut one's
                    self.t[row] = self.stepar[row, : self.premade]
        self.loop[row] = spec.loop
        self.jumps[row] = not spec.ramp
        self.any_jumps = self.any_jumps or not spec.ramp
        self.g0l[row], self.g0r[row] = voice.g_left, voice.g_right
        self.g1l[row], self.g1r[row] = spec.gain_left, spec.gain_right
        self.gains = None
        if not self.ramping:
            self.ramping = voice.g_left != spec.gain_left or voice.g_right != spec.gain_right
        elif self.g0l[row] == self.g1l[row] and self.g0r[row] == self.g1r[row]:
            # the cut voice's row may have been the one moving (a voice back from
            # virtual rises from 0: its own row moves, and no test of all is needed)
            self.ramping = any_set(self.g0 != self.g1)
        self.recount_row(row, voice.cur_i, voice.cur_f, seg.frames, spec.step)

    def set_step(self, row: int, step: float) -> bool:
        """A new ``step`` for a resampled ``row``, in place (True); False for a row
        at its own rate (its kind changes: lay the rows out again). A resampled row
        whose step becomes 1 stays resampled: its interpolation is then exact."""
        if not self.resampled[row]:
            return False
        self.step[row] = step
        self.stepar[row] = self.step_row(float(step))
        return True

    def set_steps(self, rows: np.ndarray, steps: np.ndarray, moved: np.ndarray,
                  had: np.ndarray, frames: int | None = None, premake: bool = False) -> None:
        """New ``steps`` for ``rows`` in place (the sets of a block, every tick while
        doppler moves them), where the resampled rows ``moved`` (among ``rows``) change
        step from ``had``: their ``stepar`` rows are made again all at once
        (``step_rows``) and the safe frames shrink with them (``sped_up``). A row set
        twice takes its last step; ``moved`` may be ``rows`` itself when every row
        moved and none is set twice (``steps`` are then theirs as they are).

        ``frames``: only the first ``frames`` columns of ``stepar`` are made (the next
        block's; a longer block makes the rest first, ``fill``), None: all of them.
        ``premake`` (no streamed voice reads ``stepar`` after the fill): when most
        resampled rows moved (doppler: every moving voice's, every block), the next
        block's offsets of every resampled row go straight into the fill's ``frac``
        (``premake``)."""
        self.step[rows] = steps
        now = steps if moved is rows else self.step[moved]
        width = self.block_frames if frames is None else min(frames, self.block_frames)
        if premake and frames is not None and 2 * len(moved) >= self.resampled_count:
            self.premake(width)
        elif self.stepar_frames < width:  # (rows whose columns are not made: all of them)
            self.make_steps(width)
        else:
            self.stepar[moved, :width] = self.step_rows(now, width)
            self.stepar_frames = width
        self.sped_up(had, now)

    def premake(self, n: int) -> None:
        """The next block's ``n`` offsets of every resampled row, ``f32(step x k)``, made
        into ``t`` (the fill's ``frac``, which then adds each row's ``cur_f``) in row
        order, not into ``stepar`` (left unmade: ``stepar_frames`` 0): a contiguous cast,
        not a scatter into ``stepar`` and a read of it by the fill. The same bits."""
        self.shape_for(n)
        for _lo, interp, _s0, _s1, hi, _miles in self.kinds:
            if hi > interp:
                np.copyto(self.t[interp:hi], self.step_rows(self.step[interp:hi], n),
                          casting="same_kind")
        self.premade = n
        self.stepar_frames = 0

    def sped_up(self, had: np.ndarray, now: np.ndarray) -> None:
        """``safe_frames`` after rows went from steps ``had`` to ``now``, without counting
        every row again (``recount``): a row's frames left scale by had / now, and every
        row had at least ``safe_frames + 1`` left, so the smallest ratio bounds them all.
        Never more than ``recount`` would count (which only decides when ``slow_rows``
        looks for rows near an end), and exact again at the next ``recount``."""
        ratio = float((had / np.maximum(now, 1e-9)).min())
        if ratio < 1.0:
            self.safe_frames = max(math.floor((self.safe_frames + 1) * ratio) - 1, 0)

    def step_rows(self, steps: np.ndarray, width: int) -> np.ndarray:
        """Each of ``steps`` x 0, 1, 2, ... ``width - 1`` as float64 (``len(steps)``,
        ``width``): the same products as ``step_row`` (one float64 multiply each, made
        float32 when stored). ``einsum``'s outer product runs about twice as fast as a
        broadcast multiply, whose inner loop of a column times a row is not vectorised.
        A contiguous view of a buffer the next call writes again."""
        k = steps.shape[0]
        if self._products.shape[0] < k * width:  # (more than ``cap``: a row set twice)
            self._products = np.zeros(max(k, self.cap) * self.block_frames, dtype=np.float64)
        out = self._products[: k * width].reshape(k, width)
        return np.einsum("i,j->ij", steps, self.arf64[:width], out=out)

    def restep(self) -> None:
        """Every resampled row's ``stepar`` made again across all its columns (a block
        longer than the one ``set_steps`` wrote for, or after ``premake``)."""
        self.make_steps(self.block_frames)

    def make_steps(self, width: int) -> None:
        """Every resampled row's first ``width`` columns of ``stepar`` made again."""
        for _lo, interp, _s0, _s1, hi, _miles in self.kinds:
            if hi > interp:
                self.stepar[interp:hi, :width] = self.step_rows(self.step[interp:hi], width)
        self.stepar_frames = width

    def step_row(self, step: float) -> np.ndarray:
        """``step`` x 0, 1, 2, ... as float32 (made once a step)."""
        row = self._steps.get(step)
        if row is None:
            if len(self._steps) >= 1024:
                self._steps.clear()
            row = self._steps[step] = (step * self.ar64).astype(np.float32)
        return row

    def recount(self) -> None:
        """Output frames every row can render before it may start, end or wrap."""
        if not self.count:
            self.safe_frames = 1 << 62
            return
        if self.cur_i.min() < 0:  # a delayed start: frame by frame from the next block
            self.safe_frames = 0
            return
        remaining = (self.length - 3) - (self.cur_i + self.cur_f)
        frames = remaining / np.maximum(self.step, 1e-9)
        self.safe_frames = max(math.floor(frames.min()) - 1, 0)

    def recount_row(self, row: int, cur_i: int, cur_f: float, length: int,
                    step: float) -> None:
        """``recount`` after only ``row`` changed (to this cursor, length and step): the
        other rows' frames still hold, so the smaller of the two counts is safe."""
        if cur_i < 0:
            self.safe_frames = 0
            return
        remaining = (length - 3) - (cur_i + cur_f)
        frames = math.floor(remaining / max(step, 1e-9)) - 1
        self.safe_frames = min(self.safe_frames, max(frames, 0))

    # -- filling ---------------------------------------------------------------

    def fill(self, data: np.ndarray, n: int) -> bool:
        """Fill ``n`` frames of every row from the packed store ``data``.

        Returns True when some row may start, end or wrap in this block (pass it
        to ``advance``).
        """
        self.shape_for(n)
        premade, self.premade = self.premade == n, 0
        if not premade and n > self.stepar_frames:
            self.restep()
        edges = n > self.safe_frames
        slow = self.slow_rows(n) if edges else []
        slow_set = set(slow)
        for lo, interp, s0, s1, hi, _miles in self.kinds:
            if interp > lo:
                self.copy_rows(data, lo, interp, n, slow_set)
            if hi > interp:
                self.resample_rows(data, interp, s0, s1, hi, n, premade)
        for row in slow:
            self.slow_row(data, row, n)
        for lo, interp, _s0, _s1, hi, miles in self.kinds:
            if miles:  # Redguard: 16-bit units (x 32768, exact), integers after resampling
                scale_miles(self.sl[lo:hi, :n], self.sr[lo:hi, :n], hi - interp)
        return edges

    def copy_rows(self, data: np.ndarray, a: int, b: int, n: int, slow: set[int]) -> None:
        """Rows at the sound's own rate, not near an end: plain slices."""
        sl, sr, deltas = self.sl, self.sr, self.delta_list
        starts = (self.left[a:b] + self.cur_i[a:b]).tolist()
        for row, start in zip(range(a, b), starts, strict=True):
            if row in slow:
                continue
            sl[row, :n] = data[start : start + n]
            delta = deltas[row]
            if delta:
                sr[row, :n] = data[start + delta : start + delta + n]

    def resample_rows(self, data: np.ndarray, a: int, s0: int, s1: int, b: int, n: int,
                      premade: bool = False) -> None:
        """Resampled rows a..b (stereo from ``st``): linear interpolation of two gathers.
        ``premade``: their offsets are in ``t`` already (``premake``), else in ``stepar``."""
        whole, idx, frac = self.whole[a:b, :n], self.idx[a:b, :n], self.t[a:b, :n]
        offsets = frac if premade else self.stepar[a:b, :n]
        np.add(offsets, self.cur_f[a:b, None].astype(np.float32), out=frac)
        np.floor(frac, out=whole)
        np.subtract(frac, whole, out=frac)
        # float32 -> int32 -> intp is cheaper than one float32 -> intp cast; the
        # store stays under 2^31 frames (``mixer_store.MAX_FRAMES``)
        idx32 = self.idx32[a:b, :n]
        np.copyto(idx32, whole, casting="unsafe")
        base = np.add(self.left[a:b], self.cur_i[a:b], dtype=np.int32, casting="unsafe")
        np.add(idx32, base[:, None], out=idx32)
        np.copyto(idx, idx32)
        # rows flagged slow may point anywhere: "wrap" keeps them in bounds until redone
        lerp(data, idx, self.sl[a:b, :n], self.s1[a:b, :n], frac)
        if s1 > s0:
            sidx = self.idx[s0:s1, :n]
            np.add(sidx, self.delta_col[s0:s1], out=sidx)
            lerp(data, sidx, self.sr[s0:s1, :n], self.s1[s0:s1, :n], self.t[s0:s1, :n])

    def slow_rows(self, n: int) -> list[int]:
        """Rows that start late, reach their end or wrap a loop in this block."""
        last = self.cur_i + (self.cur_f + self.step * n)
        rows: list[int] = np.flatnonzero((self.cur_i < 0) | (last + 2.0 >= self.length)).tolist()
        return rows

    def slow_row(self, data: np.ndarray, row: int, n: int) -> None:
        """One row frame by frame (``read_frames``)."""
        stereo = bool(self.stereo[row])
        read_frames(data, Source(int(self.left[row]), int(self.delta[row]),
                                 int(self.length[row]), stereo, bool(self.loop[row])),
                    int(self.cur_i[row]), float(self.cur_f[row]), float(self.step[row]),
                    self.ar64[:n], self.sl[row, :n], self.sr[row, :n] if stereo else None)

    # -- time ------------------------------------------------------------------

    def advance(self, n: int, edges: bool) -> bool:
        """Move every row's cursor on by ``n`` frames (``edges``: from ``fill``).

        The ramped gains become the current ones. Returns True when a
        non-looping row has passed its end (the voices need laying out again).
        """
        # divmod by 1 gives floor(pos) and pos - floor(pos) to the bit, in one call
        whole, self.cur_f = np.divmod(self.cur_f + self.step * n, 1.0)
        np.add(self.cur_i, whole, out=self.cur_i, casting="unsafe")  # whole frames: exact
        if self.ramping:  # copies: a later set writes g1 in place (Mixer._set_gains)
            np.copyto(self.g0, self.g1)
            self.gains = None
            self.ramping = False
        self.safe_frames -= n
        if not edges:
            return False
        wrap = self.loop & (self.cur_i >= self.length)
        if any_set(wrap):
            self.cur_i[wrap] %= self.length[wrap]
        ended = any_set(~self.loop & (self.cur_i >= self.length))
        self.recount()
        return ended


    def set_gains(self, rows: np.ndarray | list[int],
                  gains: np.ndarray | tuple[list[float], list[float]]) -> None:
        """New (left, right) ``gains`` (2, len(rows)) for ``rows``, in place (one
        fancy-index write): taken at once by the rows in ``jumps`` (retail), else ramped
        to across the next block (``modern``). A row in ``jumps`` has its two gains equal
        outside a block (every write keeps them so), so copying them all where ``jumps``
        is the same as copying the rows set."""
        self.g1[:, rows] = gains
        if self.any_jumps:  # (no row of a ``modern`` bank's does)
            np.copyto(self.g0, self.g1, where=self.jumps)
        self.gains = None
        self.ramping = any_set(self.g0 != self.g1)


class Source(NamedTuple):
    """Where a voice's samples are in the packed store (a ``Segment`` as numbers)."""

    left: int
    delta: int
    """Right side minus left side (stereo)."""
    length: int
    stereo: bool
    loop: bool


def read_frames(data: np.ndarray, src: Source, cur_i: int, cur_f: float, step: float,
                ar: np.ndarray, left: np.ndarray, right: np.ndarray | None) -> None:
    """``len(ar)`` frames of ``src`` from cursor ``cur_i + cur_f`` at ``step`` into
    ``left`` (and ``right``), frame by frame: silence before a delayed start and after
    the end, a loop wrapped at its length. ``ar``: 0, 1, 2, ... as int64."""
    length = src.length
    pos = float(cur_i) + (cur_f + step * ar)
    i0 = np.floor(pos)
    frac = (pos - i0).astype(np.float32)
    i0 = i0.astype(np.int64)
    if src.loop and min(i0[0], i0[-1]) >= 0:  # (i0 is monotonic) a loop from its start on
        _read_cycle(data, src, i0, frac, left, right)
        return
    i1 = i0 + 1
    ok0, ok1 = i0 >= 0, i1 >= 0
    if src.loop:
        j0, j1 = i0 % length, i1 % length
    else:
        ok0 &= i0 < length
        ok1 &= i1 < length
        j0, j1 = np.clip(i0, 0, length - 1), np.clip(i1, 0, length - 1)
    for dst, delta in ((left, 0), (right, src.delta)):
        if dst is None:
            continue
        base = src.left + delta
        x0 = np.where(ok0, data[base + j0], np.float32(0.0))
        x1 = np.where(ok1, data[base + j1], np.float32(0.0))
        dst[:] = x0 + frac * (x1 - x0)


def _read_cycle(data: np.ndarray, src: Source, i0: np.ndarray, frac: np.ndarray,
                left: np.ndarray, right: np.ndarray | None) -> None:
    """``read_frames`` of a loop whose frames ``i0`` (and so ``i0 + 1``) are all past its
    start: nothing is silent, each frame wraps into the loop's cycle, and each side is
    gathered from its own cycle (the bytes ``read_frames`` gives: the same samples and
    the same float32 interpolation)."""
    j0 = i0 % src.length
    j1 = j0 + 1  # (i0 + 1) % length: wrapped by the gather
    for dst, delta in ((left, 0), (right, src.delta)):
        if dst is None:
            continue
        cycle = data[src.left + delta : src.left + delta + src.length]
        x0 = cycle.take(j0)
        x1 = cycle.take(j1, mode="wrap")
        x1 -= x0
        x1 *= frac
        np.add(x0, x1, out=dst)


def scale_miles(sl: np.ndarray, sr: np.ndarray, resampled: int) -> None:
    """Miles rows from the store's floats (8/16-bit PCM kept as ``s / 32768``) back to
    signed 16-bit units: x 32768 is exact, so a resampled row's linear interpolation
    gives the same bits it gave in 16-bit units. The last ``resampled`` rows are then
    floored to whole units (``mixer_sum.mix_miles`` mixes integers)."""
    sl *= np.float32(MILES_FULL_SCALE)
    sr *= np.float32(MILES_FULL_SCALE)
    if resampled:
        np.floor(sl[-resampled:], out=sl[-resampled:])
        np.floor(sr[-resampled:], out=sr[-resampled:])


def lerp(data: np.ndarray, idx: np.ndarray, dst: np.ndarray, tmp: np.ndarray,
          frac: np.ndarray) -> None:
    """dst = x0 + frac (x1 - x0) with x0 = data[idx], x1 = data[idx + 1]."""
    data.take(idx, out=dst, mode="wrap")  # (the method: ``np.take`` is a Python call more)
    data[1:].take(idx, out=tmp, mode="wrap")
    np.subtract(tmp, dst, out=tmp)
    np.multiply(tmp, frac, out=tmp)
    np.add(dst, tmp, out=dst)
