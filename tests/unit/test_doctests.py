"""Every docstring example in the package runs and gives what it shows."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import soundscape


def _modules() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(soundscape.__path__, "soundscape."):
        if ".demo_world" in info.name or info.name.endswith("backend_pyglet"):
            continue  # opening windows and audio devices is the demo tests' job
        names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
