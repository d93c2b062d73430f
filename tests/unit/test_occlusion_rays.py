"""RayCaster: the lean Chipmunk query gives what pymunk's ``Space.segment_query`` gives."""

from __future__ import annotations

import math
import random

import pymunk

from soundscape.occlusion.rays import RayCaster


def test_lean_cast_matches_segment_query() -> None:
    rng = random.Random(11)
    space = pymunk.Space()
    rays = RayCaster(space, pymunk.ShapeFilter())
    for i in range(120):
        x, z = rng.uniform(0.0, 100.0), rng.uniform(0.0, 100.0)
        angle = rng.uniform(0.0, math.pi)
        shape = pymunk.Segment(
            space.static_body, (x, z), (x + 6 * math.cos(angle), z + 6 * math.sin(angle)), 0.0
        )
        space.add(shape)
        rays.register(shape, (i, -1, 0.0, 1.0, -9.0))
    assert rays.fast
    total = 0
    for _ in range(300):
        a = (rng.uniform(0.0, 100.0), rng.uniform(0.0, 100.0))
        b = (rng.uniform(0.0, 100.0), rng.uniform(0.0, 100.0))
        lean = sorted(rays.cast(a, b))
        public = sorted(rays._public_cast(a, b))
        assert lean == public
        total += len(lean)
    assert total > 100  # the rays did meet walls


def test_forgotten_shape_is_not_reported_once_removed() -> None:
    space = pymunk.Space()
    rays = RayCaster(space, pymunk.ShapeFilter())
    shape = pymunk.Segment(space.static_body, (1.0, -1.0), (1.0, 1.0), 0.0)
    space.add(shape)
    rays.register(shape, (0, -1, 1.0, 0.0, -9.0))
    assert len(rays.cast((0.0, 0.0), (2.0, 0.0))) == 1
    rays.forget(shape)
    space.remove(shape)
    assert rays.cast((0.0, 0.0), (2.0, 0.0)) == []
