"""Lazy package exports, so importing one module never imports the whole plugin.

A package ``__init__`` names what it exports and where each name lives; the
module holding it is imported the first time the name is read, and the name is
then kept in the package's namespace (later reads are plain attribute reads, and
tools that read a module's ``__dict__``, such as the API reference, see it).
Importing ``soundscape.audio.wav`` therefore loads the WAV decoder and
``soundscape.errors``, not the mixer, pyglet or the runtimes.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Mapping


def load(package: str, exports: Mapping[str, str], name: str) -> object:
    """The exported ``name`` of ``package``, importing its module on first use.

    Raises:
        AttributeError: ``name`` is not one of the package's exports.
    """
    module = exports.get(name)
    if module is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    setattr(sys.modules[package], name, value)
    return value
