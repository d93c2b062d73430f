"""Every docstring example in the package runs and gives what it shows."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import soundscape
import soundscape.components
import soundscape.systems

# The folders map to separate import paths, so each mapped package is walked.
PACKAGES = (soundscape, soundscape.components, soundscape.systems)


def _modules() -> list[str]:
    names = set()
    for package in PACKAGES:
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if ".demo_world" in info.name or info.name.endswith("backend_pyglet"):
                continue  # opening windows and audio devices is the demo tests' job
            names.add(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
