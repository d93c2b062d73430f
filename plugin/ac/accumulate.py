"""The 576-cell accumulation of a rebuild (``LScape::add_ambient_sounds`` and everything below).

``accumulate_ring`` is the fast path: every per-cell step of ``Ambient::AddSound``
(block-corrected offset, 3D cull at 120 m, ``CalcWeight``, ``CalcDir``) runs on
float32 numpy arrays; the sums that retail builds cell by cell (the total, each
sound's ``sound_count``) are float32 sequential sums in the retail cell order
(``np.add.accumulate``), sounds are created in first-use order, and each
intermittent sound's ``AddDir`` slots are the per-direction min/max in
first-appearance order. The result is identical, bit for bit, to
``accumulate_reference``, the straightforward per-cell loop over
``Ambient.add_sound`` (tests hold them against each other).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from soundscape.ac.ambient import Ambient
from soundscape.ac.landscape import Landscape, Ring
from soundscape.ac.region import AmbientSTBDesc, Region
from soundscape.ac.sounds import IntermitSound, Vec3
from soundscape.events import EventLog
from soundscape.laws.ac import (
    DIAGONAL_RATIO,
    F_EPSILON,
    HALF_MIN_DIST_M,
    IN_VIEWER_DIST_SQ,
    IN_VIEWER_RANK,
    MAX_DIST_SQ,
    MIN_DIST_SQ,
    NEAR_MIN_DIST_M,
    Direction,
)

_F32 = np.float32
_NO_CELL = np.iinfo(np.int64).max
_RANK = np.array([max(r, 0) for r in IN_VIEWER_RANK], dtype=np.int64)


@dataclass(slots=True)
class RebuildSnapshot:
    """What one rebuild saw, per ring cell in retail order (for overlays and tests).

    ``weight`` is 0 and ``direction`` -1 for a cell that added nothing.
    """

    centre_cell: int
    cell_ids: np.ndarray
    stb: np.ndarray
    weight: np.ndarray
    direction: np.ndarray
    total: float

    def cell_weights(self) -> dict[int, float]:
        """Objcell id -> weight, for the cells that added something."""
        added = np.flatnonzero(self.direction >= 0)
        return {int(self.cell_ids[i]): float(self.weight[i]) for i in added}


def calc_dir_array(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``Ambient::CalcDir`` on float32 arrays (int8 ``Direction`` values)."""
    ax, ay = np.abs(x), np.abs(y)
    with np.errstate(divide="ignore", invalid="ignore"):
        ns = (ax < _F32(F_EPSILON)) | ((ay / ax) > DIAGONAL_RATIO)
        ew = ~ns & ((ay < _F32(F_EPSILON)) | ((ax / ay) > DIAGONAL_RATIO))
    north = y >= 0
    diag = np.where(x >= 0, np.where(north, 7, 8), np.where(north, 5, 6))
    out = np.where(ns, np.where(y < 0, 2, 1), np.where(ew, np.where(x < 0, 4, 3), diag))
    out[(x * x + y * y) < _F32(IN_VIEWER_DIST_SQ)] = 0
    return out.astype(np.int8)


def _init_table(region: Region, desc: AmbientSTBDesc, u: int, events: EventLog) -> None:
    """Load ``desc``'s table if it has none and is not negatively cached (one event per miss)."""
    if desc.sound_table is None and not desc.stb_not_found and not region.init_sound_table(desc):
        events.emit("ac", "stb_not_found", stb_id=desc.stb_id, stb=u)


def load_tables(region: Region, present: list[int], events: EventLog) -> np.ndarray:
    """``CRegionDesc::GetSTBDesc``'s lazy ``InitSoundTable`` for every desc in the ring.

    Returns a lookup by STB index (last slot: index -1) of "has a sound table".
    """
    loaded = np.zeros(len(region.stb_descs) + 1, dtype=bool)
    for u in present:
        desc = region.stb_descs[u]
        _init_table(region, desc, u, events)
        loaded[u] = desc.sound_table is not None
    return loaded


def accumulate_ring(
    ambient: Ambient, region: Region, ring: Ring, origin: Vec3, events: EventLog
) -> RebuildSnapshot:
    """Add every ring cell to ``ambient`` (after ``init_sounds``), the vectorised way.

    ``LScape::add_ambient_sounds`` 0x505810 -> ``CLandBlock::add_ambient_sounds``
    0x530310 -> ``Ambient::AddSound`` 0x551610 for every cell whose desc has a
    table: block-corrected offset, 3D cull beyond 120 m, ``CalcWeight``,
    ``CalcDir``, the total, then each sound's ``AddTo``. Returns what it saw.
    """
    loaded = load_tables(region, ring.stb_present, events)
    n_ring = len(ring.stb)
    weight_full = np.zeros(n_ring, dtype=np.float32)
    dir_full = np.full(n_ring, -1, dtype=np.int8)
    snap = RebuildSnapshot(ambient.player_cell, ring.cell_ids, ring.stb, weight_full, dir_full, 0.0)
    if not ambient.enabled or n_ring == 0:
        return snap
    ox = ring.x - _F32(origin[0])
    oy = ring.y - _F32(origin[1])
    oz = ring.z - _F32(origin[2])
    d2 = ox * ox + oy * oy
    d2 = d2 + oz * oz
    idx = np.flatnonzero(loaded[ring.stb] & (d2 <= _F32(MAX_DIST_SQ)))
    n = len(idx)
    if n == 0:
        return snap
    d2a = d2[idx]
    with np.errstate(divide="ignore"):
        w = np.where(d2a < _F32(MIN_DIST_SQ), _F32(1.0), _F32(MIN_DIST_SQ) / d2a).astype(_F32)
    dirs = calc_dir_array(ox[idx], oy[idx])
    weight_full[idx] = w
    dir_full[idx] = dirs
    total = float(np.add.accumulate(w)[-1])
    ambient.total_sound_count = total
    snap.total = total
    di = ring.stb[idx]
    order = np.argsort(di, kind="stable")
    ds, ws = di[order], w[order]
    starts = np.flatnonzero(np.concatenate(([True], ds[1:] != ds[:-1])))
    ends = np.append(starts[1:], n)
    slots = _Slots(region, di, dirs, np.sqrt(d2a))
    for g in np.argsort(order[starts], kind="stable"):
        desc = region.stb_descs[int(ds[starts[g]])]
        count = float(np.add.accumulate(ws[starts[g]:ends[g]])[-1])
        _add_desc(ambient, desc, count, slots)
    return snap


def _add_desc(ambient: Ambient, desc: AmbientSTBDesc, count: float, slots: _Slots) -> None:
    """``Ambient::GetSound`` 0x5510b0 and ``AddTo`` (0x551000 / 0x551450) for one desc's sounds.

    Every sound of a desc gets the same sequential weight sum; intermittent ones
    the desc's ``AddDir`` slots.
    """
    desc_slots = None
    for i in range(len(desc.ambient_sounds)):
        sound = ambient.get_sound(desc, i)
        sound.sound_count = count  # counts were reset: 0 + the sequential sum
        if isinstance(sound, IntermitSound):
            if desc_slots is None:
                desc_slots = slots.of(desc.index)
            sound.set_slots(desc_slots)


class _Slots:
    """``IntermitSound::AddDir`` results for every desc at once (same for all its sounds)."""

    def __init__(self, region: Region, di: np.ndarray, dirs: np.ndarray, dist: np.ndarray) -> None:
        self.region, self.di, self.dirs, self.dist = region, di, dirs, dist
        self._tables: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def _compute(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        shape = (len(self.region.stb_descs), 9)
        key = self.di.astype(np.int64) * 9 + self.dirs
        mins: np.ndarray = np.full(shape[0] * 9, np.inf, dtype=np.float32)
        maxs: np.ndarray = np.full(shape[0] * 9, -np.inf, dtype=np.float32)
        first: np.ndarray = np.full(shape[0] * 9, _NO_CELL, dtype=np.int64)
        np.minimum.at(mins, key, self.dist - _F32(HALF_MIN_DIST_M))
        np.maximum.at(maxs, key, self.dist + _F32(HALF_MIN_DIST_M))
        np.minimum.at(first, key, np.arange(len(key), dtype=np.int64))
        mins, maxs, first = mins.reshape(shape), maxs.reshape(shape), first.reshape(shape)
        # An in-viewer cell adds (4, 10) at all eight directions, in N S E W NW NE SW SE order
        # (``IN_VIEWER_EXPANSION``: slots it opens together are ordered by that, in ``of``).
        in_viewer = first[:, 0] < _NO_CELL
        mins[in_viewer, 1:] = np.minimum(mins[in_viewer, 1:], _F32(NEAR_MIN_DIST_M))
        maxs[in_viewer, 1:] = np.maximum(maxs[in_viewer, 1:], _F32(HALF_MIN_DIST_M))
        first[:, 1:] = np.minimum(first[:, 1:], first[:, :1])
        return mins, maxs, first

    def of(self, u: int) -> list[tuple[Direction, float, float]]:
        """Desc ``u``'s slots in ``AddDir`` append order: first appearance, then direction."""
        if self._tables is None:
            self._tables = self._compute()
        mins, maxs, first_all = self._tables
        first = first_all[u, 1:]
        seen = np.flatnonzero(first < _NO_CELL)
        # first appearance; slots one in-viewer cell opened together in AddTo's order
        key = first[seen] * 8 + _RANK[seen + 1]
        order = seen[np.argsort(key, kind="stable")] + 1
        return [(Direction(int(d)), float(mins[u, d]), float(maxs[u, d])) for d in order]


def accumulate_reference(
    ambient: Ambient, region: Region, landscape: Landscape, centre: tuple[int, int],
    events: EventLog,
) -> None:
    """The retail per-cell loop (``LScape``/``CLandBlock::add_ambient_sounds``), scalar."""
    for block in landscape.ring_blocks(centre):
        for cell in block.cells:
            u = region.stb_index(cell.terrain_word)
            if u < 0:
                continue
            desc = region.stb_descs[u]
            _init_table(region, desc, u, events)
            if desc.sound_table is not None:
                ambient.add_sound(desc, cell.objcell_id, cell.sw_vertex_m)
