"""The AC runtime's state as the overlay draws it: land cells and intermittent bearings.

Reads ``ctx.ac`` (an ``AcRuntime``): the latest rebuild's ring of land cells
(``last_rebuild``: objcell ids and weights, ``CLandBlock::add_ambient_sounds``
order), the loaded landblocks' terrain words, and every ``IntermitSound``'s
accumulated (direction, min, max) slots. Nothing is drawn indoors: retail adds
no cell there, so the rebuild has no ring.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from soundscape.ac.sounds import AmbientSound, IntermitSound
from soundscape.laws.ac import BLOCK_LENGTH_M, SQUARE_LENGTH_M, direction_heading
from soundscape.overlay.views import BearingView, CellView, ListenerView

if TYPE_CHECKING:
    from soundscape.context import Context


def _terrain_type(word: int) -> int:
    """The terrain word's 5-bit terrain type (bits 2..6)."""
    return (word >> 2) & 0x1F


def ac_cells(ctx: Context, listener: ListenerView | None) -> list[CellView]:
    """The land cells of the latest rebuild's 3 x 3 landblocks, with their weights.

    A cell beyond the 120 m cull has weight 0 (drawn dark); world metres come
    from the objcell id and the runtime's ``origin_block``.
    """
    if not ctx.has("ac"):
        return []
    ac = ctx.ac
    snap = ac.last_rebuild
    if snap is None:
        return []
    landscape = ac.landscape
    ox, oy = landscape.origin_block
    out = []
    for cell_id, weight in zip(snap.cell_ids.tolist(), snap.weight.tolist(), strict=False):
        bx, by = (cell_id >> 24) & 0xFF, (cell_id >> 16) & 0xFF
        block = landscape.blocks.get((bx, by))
        low = (cell_id & 0xFFFF) - 1
        if block is None or not 0 <= low < 64:
            continue
        cx, cy = divmod(low, 8)
        x_m = (bx - ox) * BLOCK_LENGTH_M + cx * SQUARE_LENGTH_M
        z_m = (by - oy) * BLOCK_LENGTH_M + cy * SQUARE_LENGTH_M
        word = block.cells[low].terrain_word
        out.append(CellView(x_m, z_m, SQUARE_LENGTH_M, _terrain_type(word), float(weight)))
    return out


def ac_cells_key(ctx: Context) -> object:
    """What identifies the cells ``ac_cells`` would return: the rebuild they come from."""
    if not ctx.has("ac"):
        return ()
    ac = ctx.ac
    snap = ac.last_rebuild
    return (id(snap), ac.rebuilds, tuple(ac.landscape.origin_block))


def _sound_name(sound: AmbientSound) -> str:
    """The sound-table name behind an ambient (its label when the table is not loaded)."""
    table = sound.desc.sound_table
    if table is not None:
        entries = table.entries.get(sound.sound_desc.stype)
        if entries:
            return str(entries[0].sound)
    return str(sound.label)


def ac_bearings(ctx: Context) -> list[BearingView]:
    """Every intermittent ambient with a chance to play: its bearings and distance shells.

    ``IN_VIEWER_BLOCK`` (direction 0) has no bearing: it is drawn as a full ring
    (heading NaN).
    """
    if not ctx.has("ac"):
        return []
    ac = ctx.ac
    out = []
    for sound in ac.ambient.sounds:
        if not isinstance(sound, IntermitSound) or sound.play_chance <= 0.0:
            continue
        name = _sound_name(sound)
        for direction, lo, hi in sound.slots():
            heading = direction_heading(direction) if int(direction) else float("nan")
            out.append(BearingView(name, heading, float(lo), float(hi), float(sound.play_chance)))
    return out
