"""Checks on the values a game or a script hands the Redguard runtime.

Script calls validate their arguments when they are made, so a bad value is an
``InputError`` at the call site and never reaches a task running inside
``esper.process``.
"""

from __future__ import annotations

import operator

from soundscape.errors import InputError
from soundscape.names import check_sound_name
from soundscape.redguard.rtx import RTX_PREFIX


def int_arg(call: str, name: str, value: object) -> int:
    """A script argument as an int (bool, float, None and strings are refused).

    Raises:
        InputError: naming the call and the argument.

    >>> int_arg("Sound", "effect", 3)
    3
    """
    if not isinstance(value, bool):
        try:
            return operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise InputError(f"redguard {call}: {name} must be an integer, not {value!r}")


def int_args(call: str, **values: object) -> tuple[int, ...]:
    """The named arguments as ints, in order.

    >>> int_args("Sound", effect=3, rate_offset=-10000)
    (3, -10000)
    """
    return tuple(int_arg(call, name, value) for name, value in values.items())


def label_arg(call: str, label: object) -> str:
    """An RTX label: a non-empty string that can be a sound name (``rg.rtx.<label>``).

    Raises:
        InputError: naming the call.
    """
    if not isinstance(label, str) or not label:
        raise InputError(f"redguard {call}: label must be a non-empty string, not {label!r}")
    check_sound_name(RTX_PREFIX + label, f"redguard {call}", "label")
    return label
