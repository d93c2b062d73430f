"""Python's float rules over numpy arrays, for array laws that must give the
per-value laws' numbers to the bit (``emitter_rows``, ``profiles.modern_law_arrays``).

numpy's ``+ - * /``, ``sqrt``, ``sin`` and ``cos`` give what ``math`` gives (IEEE
correctly rounded, or the same C library); ``np.maximum``/``np.minimum`` do not
copy Python's ``max``/``min``, which keep their first argument on a tie (``-0.0``
against ``0.0``) and when the second is NaN. ``py_max``/``py_min`` do.

Against a bound that is a number above 0 (no NaN, no zero), neither case can arise:
``np.maximum``/``np.minimum`` then give Python's answer to the bit in one pass, where
``py_max``/``py_min`` take two (``positive_max``/``positive_min`` say so at the call).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np

Array = np.ndarray[Any, Any]


def _c_count_nonzero() -> Callable[[Any], int]:
    """The C function ``np.count_nonzero`` calls when given no axis: the mask tests
    run a few dozen times a tick, and the Python wrapper costs about as much as the
    count of a thousand flags. ``np.count_nonzero`` itself where it cannot be found."""
    for module in ("numpy._core.multiarray", "numpy.core.multiarray"):  # numpy 2, 1.26
        try:
            return importlib.import_module(module).count_nonzero
        except (ImportError, AttributeError):
            continue
    return np.count_nonzero  # pragma: no cover


count_nonzero = _c_count_nonzero()
"""``np.count_nonzero(values)`` of an array (no axis): how many elements are nonzero."""


def py_max(a: Any, b: Any) -> Array:
    """Python's ``max(a, b)`` elementwise: ``b`` only where ``b > a`` (a NaN ``a`` stays).

    >>> py_max(np.array([1.0, float("nan")]), 0.0).tolist()
    [1.0, nan]
    """
    return np.where(b > a, b, a)


def py_min(a: Any, b: Any) -> Array:
    """Python's ``min(a, b)`` elementwise: ``b`` only where ``b < a``.

    >>> py_min(np.array([1.0, 3.0]), np.array([2.0, float("nan")])).tolist()
    [1.0, 3.0]
    """
    return np.where(b < a, b, a)


def positive_max(a: Any, bound: Any) -> Array:
    """``py_max(a, bound)`` for a ``bound`` (a number or an array) above 0 everywhere:
    a NaN ``a`` stays NaN and an equal pair has one value, as Python's ``max``.

    >>> positive_max(np.array([0.5, float("nan"), 3.0]), 1.0).tolist()
    [1.0, nan, 3.0]
    """
    return np.maximum(a, bound)


def positive_min(a: Any, bound: Any) -> Array:
    """``py_min(a, bound)`` for a ``bound`` above 0 everywhere (or +inf).

    >>> positive_min(np.array([0.5, float("nan"), 3.0]), 1.0).tolist()
    [0.5, nan, 1.0]
    """
    return np.minimum(a, bound)


def all_set(values: Array) -> bool:
    """``values.all()`` (every element nonzero) as one C count (``count_nonzero``),
    without the reduction machinery of ``ndarray.all`` (the column paths test a few
    masks a tick).

    >>> all_set(np.array([1, 2])), all_set(np.array([True, False])), all_set(np.zeros(0))
    (True, False, True)
    """
    return int(count_nonzero(values)) == values.size


def any_set(values: Array) -> bool:
    """``values.any()`` as one C count (a NaN counts, as for ``any``).

    >>> any_set(np.array([0.0, -0.0])), any_set(np.array([0.0, float("nan")]))
    (False, True)
    """
    return bool(count_nonzero(values))
