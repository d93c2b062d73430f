"""Shared test set-up: pyglet options before anything imports pyglet.media, and a
fresh esper world for every test."""

from __future__ import annotations

import itertools
import os
import tempfile

import pyglet

pyglet.options["headless"] = True
pyglet.options["shadow_window"] = False
pyglet.options["audio"] = ("silent",)
os.environ.setdefault("PYGLET_HEADLESS", "1")
# The demo's sound cache goes to a folder of this run, never the user's ~/.cache.
os.environ.setdefault("SOUNDSCAPE_CACHE_DIR", tempfile.mkdtemp(prefix="soundscape-test-cache-"))

import esper  # noqa: E402
import pytest  # noqa: E402

_world_ids = itertools.count()


@pytest.fixture(autouse=True)
def world():
    """Each test runs in its own esper world, deleted afterwards."""
    name = f"test-world-{next(_world_ids)}"
    previous = esper.current_world
    esper.switch_world(name)
    yield name
    esper.switch_world(previous if previous != name else "default")
    esper.delete_world(name)


class VirtualClock:
    """pyglet's default clock on a virtual time source: ``run(seconds)`` calls every
    scheduled function as pyglet's event loop would, at 60 frames a second of
    virtual time, with no sleeping and no wall-clock dependence."""

    def __init__(self) -> None:
        import pyglet.clock

        self.now_s = 1000.0
        self.clock = pyglet.clock.Clock(time_function=lambda: self.now_s)

    def run(self, seconds: float, fps: int = 60) -> int:
        """Advance ``seconds`` of virtual time in ``1/fps`` steps; the frames run."""
        frames = int(round(seconds * fps))
        for _ in range(frames):
            self.now_s += 1.0 / fps
            self.clock.tick()
        return frames


@pytest.fixture
def virtual_clock():
    """pyglet's default clock replaced by a ``VirtualClock`` for the test, then restored."""
    import pyglet.clock

    previous = pyglet.clock.get_default()
    virtual = VirtualClock()
    pyglet.clock.set_default(virtual.clock)
    yield virtual
    pyglet.clock.set_default(previous)
