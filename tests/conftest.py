"""Shared test set-up: pyglet options before anything imports pyglet.media, and a
fresh esper world for every test."""

from __future__ import annotations

import itertools
import os

import pyglet

pyglet.options["headless"] = True
pyglet.options["shadow_window"] = False
pyglet.options["audio"] = ("silent",)
os.environ.setdefault("PYGLET_HEADLESS", "1")

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
