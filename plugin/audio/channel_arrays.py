"""A ``modern`` bank's channels as columns: one numpy array a field, one element a slot.

A bank of thousands of generic emitters steers, advances, runs the law of and
ranks every voice every tick. Done one ``Channel`` at a time, each tick is tens
of Python attribute reads and writes a voice; kept as columns, each step is a
few numpy operations over the whole bank (``channel_advance.advance_columns``,
``channel_laws.modern_laws``, ``channel_cull``, ``emitter_hearing.steer_rows``).

The ``Channel`` of such a bank is an ``ArrayChannel``: the same dataclass, whose
fields in ``COLUMNS`` read and write its slot of the bank's ``ChannelColumns``,
so everything that works on a ``Channel`` (the rules, the setters, the retail
paths, a game reading ``channel.volume``) works unchanged, one field at a time,
while the bank's hot paths work on the columns. The columns hold the same
Python floats and ints a plain ``Channel`` would (float64 holds a double
exactly), so the numbers are the same to the bit.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

import numpy as np

from soundscape.audio.profiles import MODERN_INPUTS
from soundscape.audio.pymath import Array
from soundscape.components.channel import Channel
from soundscape.errors import InputError

LAW_ROWS = MODERN_INPUTS
"""What the ``modern`` law reads of a channel: the rows of one float64 matrix,
``ChannelColumns.law``, so the law step reads them in one go (the two ints,
``sample_rate_hz`` and ``serial``, are held exactly: below 2**53)."""
GAIN_ROWS = ("gain_left", "gain_right")
"""What the ``modern`` law writes of a channel's sides: the rows of one float64 matrix,
``ChannelColumns.gains``, so the law step writes them in one go."""
FLOATS = ("cursor_frames", "step", "lowpass_hz", "level_rate_per_tick")
INTS = ("flags", "generation", "length_frames", "voice_id")
BOOLS = ("fading", "audible", "loop")
ARRAYS_FROM = 16
"""A bank with columns steps its cursors, laws and cull as arrays from this many
channels on; a smaller one goes one channel at a time (numpy's cost a call is more
than the work for a handful), reading each channel's fields from the columns
(``channel_advance.advance_few``, ``channel_laws.few_modern_laws``), with the same
numbers."""
COLUMNS = LAW_ROWS + GAIN_ROWS + FLOATS + INTS + BOOLS + ("bus", "position")
"""The ``Channel`` fields an ``ArrayChannel`` keeps in its bank's columns (``bus`` as
an interned id, ``ChannelColumns.bus_id``; ``position`` as ``place``, three floats,
and ``placed``, False for None)."""


class ChannelColumns:
    """The ``COLUMNS`` of a bank's channels, indexed by slot (grown by doubling).

    Attributes:
        size: slots the arrays have room for.
        law: the ``LAW_ROWS`` as one matrix (``volume``... are its rows).
        gains: the ``GAIN_ROWS`` as one matrix (``gain_left``, ``gain_right``).
        bus_id, bus_names: each slot's bus as an index into ``bus_names``.
        advanced: ticks each slot advanced since the last publish (-1: none), what
            ``channel_stream.ticks_advanced`` reads.
    """

    volume: Array
    pan: Array
    pitch: Array
    rate_hz: Array
    level: Array
    rate_scale: Array
    sample_rate_hz: Array
    serial: Array
    cursor_frames: Array
    gain_left: Array
    gain_right: Array
    step: Array
    lowpass_hz: Array
    level_rate_per_tick: Array
    flags: Array
    generation: Array
    length_frames: Array
    voice_id: Array
    fading: Array
    audible: Array
    loop: Array

    def __init__(self) -> None:
        self.size = 0
        self.bus_names: list[str] = []
        self._bus_ids: dict[str, int] = {}
        self.law = np.zeros((len(LAW_ROWS), 0))
        self.gains = np.zeros((len(GAIN_ROWS), 0))
        self._row_views()
        for name in FLOATS:
            setattr(self, name, np.zeros(0))
        for name in INTS:
            setattr(self, name, np.zeros(0, np.int64))
        for name in BOOLS:
            setattr(self, name, np.zeros(0, bool))
        self.bus_id = np.zeros(0, np.int64)
        self.place = np.zeros((3, 0))
        self.placed = np.zeros(0, bool)
        self.advanced = np.zeros(0, np.int64)

    def grow(self, size: int) -> None:
        """Room for ``size`` slots (amortised doubling; new slots zero)."""
        if size <= self.size:
            return
        new = max(size, 2 * self.size, 16)
        for name in (*FLOATS, *INTS, *BOOLS, "bus_id", "placed", "advanced"):
            old = getattr(self, name)
            grown = np.zeros(new, old.dtype)
            grown[: old.shape[0]] = old
            setattr(self, name, grown)
        for name in ("place", "law", "gains"):
            old = getattr(self, name)
            grown = np.zeros((old.shape[0], new))
            grown[:, : self.size] = old
            setattr(self, name, grown)
        self._row_views()
        self.advanced[self.size:] = -1
        self.size = new

    def _row_views(self) -> None:
        """``volume``, ``pan``... : the rows of ``law``, ``gain_left`` and ``gain_right``
        those of ``gains`` (views, after each growth)."""
        for row, name in enumerate(LAW_ROWS):
            setattr(self, name, self.law[row])
        for row, name in enumerate(GAIN_ROWS):
            setattr(self, name, self.gains[row])

    def bus_of(self, name: str) -> int:
        """The id of bus ``name`` (interned on first sight)."""
        found = self._bus_ids.get(name)
        if found is None:
            found = self._bus_ids[name] = len(self.bus_names)
            self.bus_names.append(name)
        return found


class ArrayChannel(Channel):
    """A ``Channel`` whose ``COLUMNS`` live in its bank's ``ChannelColumns`` at its
    ``index`` (see the module docstring); its other fields are its own. Made without
    ``columns`` (``dataclasses.replace`` of one), it has columns of its own: a copy
    that no bank steps."""

    __slots__ = ("columns",)

    def __init__(self, *args: Any, columns: ChannelColumns | None = None, **kwargs: Any) -> None:
        if columns is None:
            columns = ChannelColumns()
            columns.grow(int(kwargs.get("index", args[1] if len(args) > 1 else 0)) + 1)
        self.columns = columns
        super().__init__(*args, **kwargs)


def _column_property(name: str) -> property:
    column = attrgetter(name)
    if name in ("sample_rate_hz", "serial"):  # ints held in the law's float rows
        def get(self: ArrayChannel) -> Any:
            return int(column(self.columns).item(self.index))
    else:
        def get(self: ArrayChannel) -> Any:
            return column(self.columns).item(self.index)  # a Python float, int or bool

    def put(self: ArrayChannel, value: Any) -> None:
        column(self.columns)[self.index] = value

    return property(get, put, doc=f"``Channel.{name}``, kept in the bank's columns.")


def _bus_property() -> property:
    def get(self: ArrayChannel) -> str:
        columns = self.columns
        return columns.bus_names[columns.bus_id[self.index]]

    def put(self: ArrayChannel, value: str) -> None:
        self.columns.bus_id[self.index] = self.columns.bus_of(value)

    return property(get, put, doc="``Channel.bus``, kept in the bank's columns as an id.")


for _name in (*LAW_ROWS, *GAIN_ROWS, *FLOATS, *INTS, *BOOLS):
    setattr(ArrayChannel, _name, _column_property(_name))


def _position_property() -> property:
    def get(self: ArrayChannel) -> tuple[float, float, float] | None:
        columns, slot = self.columns, self.index
        if not columns.placed[slot]:
            return None
        x, y, z = columns.place[:, slot].tolist()
        return (x, y, z)

    def put(self: ArrayChannel, value: tuple[float, float, float] | None) -> None:
        columns, slot = self.columns, self.index
        if value is not None:
            try:
                x, y, z = (float(c) for c in value)
            except (TypeError, ValueError):
                raise InputError(f"Channel.position: {value!r} is not three numbers") from None
            columns.place[:, slot] = (x, y, z)
        columns.placed[slot] = value is not None

    return property(get, put, doc="``Channel.position``, kept in the bank's columns "
                                  "(read back as three floats).")


setattr(ArrayChannel, "bus", _bus_property())  # noqa: B010 (mypy: a slot of Channel)
setattr(ArrayChannel, "position", _position_property())  # noqa: B010
