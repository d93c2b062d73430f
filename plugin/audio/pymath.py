"""Python's float rules over numpy arrays, for array laws that must give the
per-value laws' numbers to the bit (``emitter_rows``, ``profiles.modern_law_arrays``).

numpy's ``+ - * /``, ``sqrt``, ``sin`` and ``cos`` give what ``math`` gives (IEEE
correctly rounded, or the same C library); ``np.maximum``/``np.minimum`` do not
copy Python's ``max``/``min``, which keep their first argument on a tie (``-0.0``
against ``0.0``) and when the second is NaN. ``py_max``/``py_min`` do.
"""

from __future__ import annotations

from typing import Any

import numpy as np

Array = np.ndarray[Any, Any]


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
