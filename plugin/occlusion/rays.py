"""Every wall a ray meets in a pymunk space: Chipmunk's ``cpSpaceSegmentQuery``, lean.

``Space.segment_query`` builds, for each hit, two ``Vec2d``, a ``SegmentQueryInfo``
and two handle look-ups inside pymunk's Python callback, about 2 us a hit. The
occlusion rays only need each hit's shape and ``alpha``, so ``RayCaster`` runs the
same Chipmunk query with a callback that appends ``(alpha, shape pointer)`` and
maps the pointer to the wall's data itself. Where the platform refuses a cffi
callback (write+execute memory), it falls back to ``Space.segment_query``. The
hits come back unsorted, as Chipmunk finds them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pymunk

try:  # pymunk's own cffi binding (pymunk >= 6)
    from pymunk._chipmunk_cffi import ffi as _ffi
    from pymunk._chipmunk_cffi import lib as _lib
except ImportError:  # pragma: no cover - falls back to Space.segment_query
    _ffi = _lib = None

WallInfo = tuple[int, int, float, float, float]
"""What a ray needs of a wall: flags, object id, normal x, normal z, transmission dB."""

RawHit = tuple[float, WallInfo]
"""``(alpha, wall info)``: alpha 0 at the ray's start, 1 at its end."""


class RayCaster:
    """Segment queries against one space's registered shapes.

    Example:
        >>> space = pymunk.Space()
        >>> shape = pymunk.Segment(space.static_body, (2.0, -1.0), (2.0, 1.0), 0.0)
        >>> space.add(shape)
        >>> rays = RayCaster(space, pymunk.ShapeFilter())
        >>> rays.register(shape, (0, -1, 1.0, 0.0, -9.0))
        >>> rays.cast((0.0, 0.0), (4.0, 0.0))
        [(0.5, (0, -1, 1.0, 0.0, -9.0))]
    """

    def __init__(self, space: pymunk.Space, shape_filter: pymunk.ShapeFilter) -> None:
        self.space = space
        self.shape_filter = shape_filter
        self._info: dict[Any, WallInfo] = {}
        self._cast: Callable[[tuple[float, float], tuple[float, float]], list[RawHit]]
        self.fast = False
        try:
            self._cast = self._lean_cast()
            self.fast = True
        except (MemoryError, RuntimeError, AttributeError):  # pragma: no cover
            self._cast = self._public_cast

    def register(self, shape: pymunk.Shape, info: WallInfo) -> None:
        """Attach (or replace) the wall data a hit on ``shape`` reports."""
        self._info[shape._shape] = info
        shape_any: Any = shape
        shape_any.wall_info = info

    def forget(self, shape: pymunk.Shape) -> None:
        """The shape has left the space."""
        self._info.pop(shape._shape, None)

    def cast(self, start: tuple[float, float], end: tuple[float, float]) -> list[RawHit]:
        """Every registered shape on the segment ``start``-``end``, unsorted."""
        return self._cast(start, end)

    def _public_cast(self, start: tuple[float, float], end: tuple[float, float]) -> list[RawHit]:
        infos = self.space.segment_query(start, end, 0.0, self.shape_filter)
        return [(i.alpha, i.shape.wall_info) for i in infos]

    def _lean_cast(self) -> Callable[[tuple[float, float], tuple[float, float]], list[RawHit]]:
        if _ffi is None or _lib is None:  # pragma: no cover
            raise RuntimeError("pymunk's cffi binding is not available")
        ffi, lib = _ffi, _lib
        found: list[tuple[float, Any]] = []
        append = found.append

        def on_hit(shape: Any, point: Any, normal: Any, alpha: float, data: Any) -> None:
            append((alpha, shape))

        callback = ffi.callback("void(cpShape *, cpVect, cpVect, cpFloat, void *)", on_hit)
        cfilter = ffi.new("cpShapeFilter *", tuple(self.shape_filter))[0]
        space_ptr = self.space._space
        query = lib.cpSpaceSegmentQuery
        info = self._info
        null = ffi.NULL

        def cast(start: tuple[float, float], end: tuple[float, float]) -> list[RawHit]:
            found.clear()
            query(space_ptr, start, end, 0.0, cfilter, callback, null)
            if not found:
                return []
            return [(alpha, info[shape]) for alpha, shape in found]

        self._keep_alive = (callback, on_hit)
        return cast
