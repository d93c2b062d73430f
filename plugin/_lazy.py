"""Lazy package exports, so importing one module never imports the whole plugin.

A package ``__init__`` names what it exports and where each name lives; the
module holding it is imported the first time the name is read. Importing
``soundscape.audio.wav`` therefore loads the WAV decoder and ``soundscape.errors``,
not the mixer, pyglet or the runtimes.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping


def load(package: str, exports: Mapping[str, str], name: str) -> object:
    """The exported ``name`` of ``package``, importing its module on first use.

    Raises:
        AttributeError: ``name`` is not one of the package's exports.
    """
    module = exports.get(name)
    if module is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
