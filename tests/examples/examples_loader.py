"""Import an example from ``examples/`` (a folder of scripts, not a package) by file name."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load_example(name: str) -> ModuleType:
    """The module ``examples/<name>.py``, imported once."""
    module_name = f"soundscape_example_{name}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


def window_pixels() -> np.ndarray:
    """The current window's colour buffer as (height, width, 4) uint8 RGBA."""
    import pyglet

    image = pyglet.image.get_buffer_manager().get_color_buffer().get_image_data()
    data = image.get_data("RGBA", image.width * 4)
    return np.frombuffer(data, dtype=np.uint8).reshape(image.height, image.width, 4)
