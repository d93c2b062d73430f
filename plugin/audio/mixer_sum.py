"""The mixer's sums: voice rows times their side gains, added in a fixed order.

Float rows (``ac``, ``oni``, ``modern``) are summed with ``np.einsum`` without
``optimize``, which runs numpy's own loops and no BLAS: every output sample is
one float32 multiply and one add per row, row after row. A BLAS sgemm sums in a
kernel-dependent order and may fuse multiply-adds, so the same scene gave other
bytes under another ``OPENBLAS_CORETYPE``; this order gives the same bytes on
every CPU, BLAS kernel and thread count.

Redguard rows take the Miles integer path of seed 002 ("Mixer gain and pan
law"): ``floor(floor(s a / 128) t / 128)`` per side on 16-bit sample units,
exact in float32 because every intermediate is an integer below 2^24.
"""

from __future__ import annotations

import numpy as np

MILES_FULL_SCALE = 32768.0
"""Miles sums are in signed 16-bit units; this brings them to -1..1."""

Gains = tuple[np.ndarray, list[tuple[int, int, np.ndarray]], np.ndarray | slice | None]
"""Float rows' gains: (2, rows) over the left/mono samples, (lo, hi, (1, hi - lo))
over the right samples of each run of stereo rows, and the rows summed (None: all).
A row whose gains are both 0 (a voice heard only through the ears, ``room_mix``; a
voice restored from virtual, rising from 0 across its first block) adds exact zeros
(its samples are finite: ``sounds`` checks them), and an exact zero leaves a float32
sum that started at +0 bit for bit. So rows at 0 are left out when they are many
(``SILENT_SHARE``), which saves their products, and summed when they are few, which
saves gathering the other rows' samples into a copy: the same bytes either way."""

SILENT_SHARE = 4
"""Rows at 0 are left out of the sum when at least 1 in ``SILENT_SHARE`` rows is."""

GainBuffers = tuple[np.ndarray, list[tuple[int, int, np.ndarray]], np.ndarray]
"""Preallocated ``Gains`` (``gain_buffers``): written in place block after block."""


def stereo_runs(flags: np.ndarray) -> list[tuple[int, int]]:
    """(start, end) of each run of True in ``flags``.

    >>> stereo_runs(np.array([False, True, True, False, True]))
    [(1, 3), (4, 5)]
    """
    edges = np.diff(np.concatenate(([0], flags.astype(np.int8), [0])))
    return list(zip(np.flatnonzero(edges == 1).tolist(), np.flatnonzero(edges == -1).tolist(),
                    strict=True))


def gain_buffers(runs: list[tuple[int, int]], mono_mask: np.ndarray, rows: int) -> GainBuffers:
    """Where ``gain_matrices`` writes the gains of ``rows`` float rows whose stereo rows
    are ``runs`` (``mono_mask``: 1 for a mono row, 0 for a stereo one): a (2, rows)
    array and a (1, hi - lo) array a run, each contiguous, and the (2, rows) factors
    (1, mono_mask) that make the first from the gains in one multiply."""
    factors = np.stack([np.ones(rows, dtype=np.float32), mono_mask[:rows]]).astype(np.float32)
    return (np.zeros((2, rows), dtype=np.float32),
            [(lo, hi, np.zeros((1, hi - lo), dtype=np.float32)) for lo, hi in runs], factors)


def gain_matrices(g: np.ndarray, mono_mask: np.ndarray, runs: list[tuple[int, int]], rows: int,
                  bufs: GainBuffers | None = None) -> Gains:
    """The first ``rows`` rows' gains (``g``: (2, >= rows), left and right): left, and
    right for mono rows (their one channel), over S_L; the right gains of each stereo
    run over S_R. Rows whose two gains are 0 are left out when they are many (``Gains``;
    the third item lists the rows kept); each stereo run keeps its own partial sum, so
    the order of the adds is unchanged. ``bufs`` (``gain_buffers``): written in place
    when no row is left out (the same values, x 1.0 being exact, in arrays of the same
    shape: the same sums)."""
    gl, gr = g[0], g[1]
    # rows at 0 on the left bound the silent ones: one count settles most blocks
    few = not rows or SILENT_SHARE * (rows - int(np.count_nonzero(gl[:rows]))) < rows
    silent = None if few else (gl[:rows] == 0.0) & (gr[:rows] == 0.0)
    if silent is None or SILENT_SHARE * int(np.count_nonzero(silent)) < rows:
        if bufs is not None:
            mono, stereo, factors = bufs
            np.multiply(g[:, :rows], factors, out=mono)
            for lo, hi, row in stereo:
                np.copyto(row[0], gr[lo:hi])
            return mono, stereo, None
        mono = np.ascontiguousarray(np.stack([gl[:rows], (gr * mono_mask)[:rows]]))
        return mono, [(lo, hi, np.ascontiguousarray(gr[None, lo:hi])) for lo, hi in runs], None
    live = np.flatnonzero(~silent)
    mono = np.ascontiguousarray(np.stack([gl[live], (gr * mono_mask)[live]]))
    stereo = []
    for lo, hi in runs:
        a, b = np.searchsorted(live, [lo, hi]).tolist()
        if a < b:
            stereo.append((a, b, np.ascontiguousarray(gr[None, live[a:b]])))
    if len(live) and live[-1] - live[0] == len(live) - 1:  # one run of rows: no copy
        return mono, stereo, slice(int(live[0]), int(live[-1]) + 1)
    return mono, stereo, live


def weigh(gains: np.ndarray, src: np.ndarray, n: int, out: np.ndarray) -> np.ndarray:
    """out[k] = sum over rows i of gains[k, i] * src[i, :n], in row order (no BLAS).

    >>> src = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32)
    >>> weigh(np.array([[1.0, 0.5]], dtype=np.float32), src, 2, np.zeros((1, 2), np.float32))
    array([[2.5, 4. ]], dtype=float32)
    """
    np.einsum("ki,ij->kj", gains, src[:, :n], out=out)
    return out


def weigh_all(gains: Gains, sl: np.ndarray, sr: np.ndarray, n: int, out: np.ndarray,
              scratch: np.ndarray) -> np.ndarray:
    """out = (left, right) of the float rows ``sl``/``sr`` under ``gains``: S_L first,
    then each stereo run's S_R, always in that order. ``scratch``: a (1, >= n) buffer."""
    mono, stereo, live = gains
    if live is not None:
        sl = sl[live, :n]
        sr = sr[live, :n] if stereo else sr
    weigh(mono, sl, n, out)
    for lo, hi, row in stereo:
        out[1] += weigh(row, sr[lo:hi], n, scratch[:, :n])[0]
    return out


def mix_miles(acc: np.ndarray, sl: np.ndarray, sr: np.ndarray, stereo: np.ndarray,
              a: np.ndarray, t: np.ndarray, outer: bool, tmp: np.ndarray,
              total: np.ndarray, bus: np.ndarray | None = None) -> None:
    """Add Redguard rows ``sl``/``sr`` (n frames each) to ``acc`` (2, n).

    Per side ``floor(floor(s a / 128) t / 128)`` (``a``, ``t``: (rows, 2) already
    divided by 128; ``outer`` False skips the t step when every t is 128), summed
    as integers, then scaled by 1/32768 (a power of two: exact). A mono row
    supplies both sides. ``tmp`` (rows, n) and ``total`` (n,) are scratch.
    ``bus`` (rows, n): each voice's bus gain (``mixer_buses``), multiplied into its
    integer contribution before the sum; None at unity (the sum stays integer).

    >>> acc = np.zeros((2, 1), np.float32)
    >>> s = np.array([[1000.0]], np.float32)
    >>> f = np.array([[100 / 128, 100 / 128]], np.float32)
    >>> mix_miles(acc, s, s.copy(), np.array([False]), f, f * 0 + 1, False,
    ...           np.zeros((1, 1), np.float32), np.zeros(1, np.float32))
    >>> float(acc[0, 0] * 32768)  # floor(1000 x 100 / 128)
    781.0
    """
    for row in np.flatnonzero(~stereo).tolist():
        sr[row] = sl[row]
    for side, src in ((0, sl), (1, sr)):
        np.multiply(src, a[:, side, None], out=tmp)
        np.floor(tmp, out=tmp)
        if outer:
            np.multiply(tmp, t[:, side, None], out=tmp)
            np.floor(tmp, out=tmp)
        if bus is not None:
            tmp *= bus
        np.add.reduce(tmp, axis=0, out=total)
        total *= np.float32(1.0 / MILES_FULL_SCALE)
        acc[side] += total
