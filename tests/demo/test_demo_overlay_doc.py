"""docs/overlay.md's example runs as written (headless, EGL) and draws the overlay."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pyglet

from soundscape.overlay.style import LISTENER_COLOUR, WALL_COLOUR

DOC = Path(__file__).resolve().parents[2] / "docs" / "overlay.md"


def _example() -> str:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)
    if len(blocks) != 1:
        raise AssertionError(f"docs/overlay.md should hold one python example, has {len(blocks)}")
    return blocks[0]


def _frame() -> np.ndarray:
    buffer = pyglet.image.get_buffer_manager().get_color_buffer().get_image_data()
    data = np.frombuffer(buffer.get_data("RGBA", buffer.width * 4), dtype=np.uint8)
    return data.reshape(buffer.height, buffer.width, 4)[:, :, :3].astype(int)


def _near(frame: np.ndarray, xy: tuple[float, float], colour, radius: int = 2) -> bool:
    x, y = int(xy[0]), int(xy[1])
    patch = frame[y - radius: y + radius + 1, x - radius: x + radius + 1]
    return bool((np.abs(patch - np.array(colour)) <= 12).all(axis=2).any())


def test_the_documented_example_draws_cells_listener_wall_and_panel(world):
    namespace: dict[str, object] = {"__name__": "overlay_doc", "VISIBLE": False}
    exec(compile(_example(), str(DOC), "exec"), namespace)
    window = namespace["window"]
    overlay = namespace["overlay"]
    try:
        for _ in range(30):
            namespace["step"](1 / 60)  # what the example's pyglet clock calls, 30 frames
        window.switch_to()
        namespace["on_draw"]()
        frame = _frame()
        view = overlay.view
        snap = overlay.snapshot
        assert view is not None and snap.listener is not None
        assert len(snap.cells) == 64 and all(c.terrain == 1 for c in snap.cells)
        assert _near(frame, view.to_screen(96.0, 96.0), LISTENER_COLOUR, radius=0)
        assert _near(frame, view.to_screen(90.0, 110.0), WALL_COLOUR)
        # The grass cell (terrain 1) south-west of her, shaded by its ambient weight.
        cell = next(c for c in snap.cells if (c.x_m, c.z_m) == (72.0, 72.0))
        shade = 0.4 + 0.6 * math.sqrt(cell.weight)
        assert 0.0 < cell.weight < 1.0
        assert _near(frame, view.to_screen(80.0, 90.0), [int(c * shade) for c in (96, 168, 72)])
        assert snap.channels  # the banks exist, so the panel is drawn
        panel = frame[-40:, -300:]
        assert (panel.max(axis=2) > 200).any()  # its header text
        namespace["on_key_press"](pyglet.window.key.F1, 0)
        assert overlay.visible is False
    finally:
        pyglet.clock.unschedule(namespace["step"])
        window.close()
        namespace["plugin"].uninstall()
