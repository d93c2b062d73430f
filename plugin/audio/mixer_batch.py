"""One ``Mixer.send``'s commands, taken apart on the game thread for the audio side.

Most of what a game sends is ``set`` commands (a voice's new gains and step, a
tick at a time). ``Batch.of`` splits a send's commands once, on the game thread
that sends them: the ``set`` commands' voice ids, params, each params past its
gains and step (what must match the voice's own for the set to be written in
place), as lists, their gains and steps as arrays, and the other commands in
order. The audio thread then maps over those lists and writes those arrays
(``mixer_inplace``) instead of reading every command at the start of a block: the
work moves to the thread that is not producing sound, none is added.

The mixer's stream is a ``collections.deque`` of batches: the game thread appends
one per send and never waits; the audio thread pops every queued batch at the start
of a block and joins them (``Batch.join``) when more than one tick's came.

>>> from soundscape.audio import commands as cmd
>>> from soundscape.audio.commands import VoiceParams
>>> b = Batch.of([cmd.set_params(3, VoiceParams(0.5, 0.25, 1.0)), cmd.stop(4)])
>>> b.keys, b.gains.tolist(), b.steps.tolist(), [c.op for c in b.others]
([3], [[0.5], [0.25]], [1.0], ['stop'])
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any, NamedTuple, cast

import numpy as np

from soundscape.audio import commands as cmd
from soundscape.audio.commands import Command, VoiceParams

_LEFT, _RIGHT, _STEP = itemgetter(0), itemgetter(1), itemgetter(2)
_REST = itemgetter(slice(3, None))


class Batch(NamedTuple):
    """A send's commands (``commands``, in order) and its ``set`` commands taken apart:
    ``keys``, ``params``, ``rests`` (each params past its two gains and its step),
    ``gains`` and ``steps``, in order; ``others``: every command that is not a ``set``
    with params, in order."""

    commands: list[Command]
    keys: list[int]
    params: list[VoiceParams]
    rests: list[tuple[Any, ...]]
    gains: np.ndarray
    """(2, sets) float32: each set's left and right gain."""
    steps: np.ndarray
    """(sets,) float64: each set's step (doppler moves it every tick)."""
    others: list[Command]

    @classmethod
    def of(cls, commands: list[Command]) -> Batch:
        """Take ``commands`` apart (the game thread, in ``Mixer.send``)."""
        set_op = cmd.SET
        sets = [c for c in commands if c.op == set_op and c.params is not None]
        others = [c for c in commands if c.op != set_op] if len(sets) < len(commands) else []
        params: list[VoiceParams] = [c.params for c in sets]  # type: ignore[misc]
        gains = np.array([list(map(_LEFT, params)), list(map(_RIGHT, params))],
                         dtype=np.float32).reshape(2, len(params))
        steps = np.array(list(map(_STEP, params)), dtype=np.float64)
        return cls(commands, [c.voice for c in sets], params, list(map(_REST, params)), gains,
                   steps, others)

    @classmethod
    def join(cls, batches: Sequence[Batch]) -> Batch:
        """Several sends' batches as one, in order (``batches`` not empty)."""
        if len(batches) == 1:
            return batches[0]
        fields: list[list[Any]] = [[] for _ in cls._fields]
        for batch in batches:
            for field, values in zip(fields, batch, strict=True):
                field.extend(cast(list[Any], values) if isinstance(values, list) else [values])
        commands, keys, params, rests, gains, steps, others = fields
        return cls(commands, keys, params, rests, np.concatenate(gains, axis=1),
                   np.concatenate(steps), others)
