"""One rule for the ears (issue 10): every runtime hears from the first active
``Listener`` and drops it, the same way, when its position or heading is not finite."""

from __future__ import annotations

import ast
import math
from pathlib import Path

import esper

from soundscape import Settings, SoundscapePlugin
from soundscape.audio.emitters import listener_pose
from soundscape.components.spatial import Listener, Position
from soundscape.listener import first_active, is_finite, usable
from soundscape.oni.listener import find_ears
from soundscape.overlay.probe import listener_view

ROOT = Path(__file__).resolve().parents[2]
FEATURES = ("audio", "ac", "redguard", "occlusion", "oni")


def _plugin() -> SoundscapePlugin:
    return SoundscapePlugin(Settings(backend="none", features=FEATURES)).install()


def _ears_everywhere(plugin: SoundscapePlugin) -> dict[str, object]:
    ctx = plugin.context
    view = listener_view()
    return {
        "emitters": None if (pose := listener_pose(ctx)) is None else pose[0],
        "occlusion": ctx.occlusion.listener_xyz(),
        "oni": None if (ears := find_ears()) is None else ears.xyz,
        "overlay": None if view is None else (view.x_m, view.z_m),
    }


def test_the_rule():
    assert first_active() is None and usable() is None
    esper.create_entity(Listener(active=False), Position(9.0, 9.0, 9.0))
    first = esper.create_entity(Listener(heading_rad=0.5), Position(1.0, 2.0, 3.0))
    esper.create_entity(Listener(heading_rad=1.0), Position(4.0, 5.0, 6.0))
    assert usable().entity == first and usable().xyz == (1.0, 2.0, 3.0)
    for bad in (Position(math.nan, 0.0, 0.0), Position(0.0, 0.0, math.inf)):
        assert not is_finite(Listener(), bad)
    assert not is_finite(Listener(heading_rad=math.nan), Position())
    assert is_finite(Listener(heading_rad=-7.0), Position(-1e300, 0.0, 1e300))


def test_every_runtime_hears_from_the_first_active_listener_and_drops_it_when_not_finite():
    plugin = _plugin()
    esper.create_entity(Listener(active=False), Position(50.0, 0.0, 50.0))
    first = esper.create_entity(Listener(heading_rad=0.25), Position(1.0, 2.0, 3.0))
    esper.create_entity(Listener(heading_rad=0.5), Position(4.0, 5.0, 6.0))  # never heard
    esper.process(1 / 60)
    rt = plugin.redguard
    rt.refresh_listener()  # Redguard samples its camera on whole nominal ticks: ask now
    assert _ears_everywhere(plugin) == {"emitters": (1.0, 2.0, 3.0), "occlusion": (1.0, 2.0, 3.0),
                                        "oni": (1.0, 2.0, 3.0), "overlay": (1.0, 3.0)}
    good_rg = rt.listener
    assert good_rg == (1 * 20 * 256, 2 * 20 * 256, 3 * 20 * 256)

    # The first active listener's heading goes NaN: nobody falls back on the second one.
    esper.component_for_entity(first, Listener).heading_rad = math.nan
    for _ in range(2):
        esper.process(1 / 60)
        rt.refresh_listener()
    assert set(_ears_everywhere(plugin).values()) == {None}
    events = plugin.context.events
    assert len(events.where(source="ac", event="bad_listener")) == 1
    assert len(events.where(source="redguard", event="skip", reason="camera not finite")) == 1
    assert rt.listener == good_rg  # Redguard keeps its last good sample

    esper.component_for_entity(first, Listener).heading_rad = 0.0
    esper.component_for_entity(first, Position).x_m = 7.0
    esper.process(1 / 60)
    assert _ears_everywhere(plugin)["occlusion"] == (7.0, 2.0, 3.0)
    plugin.uninstall()


def _loops_over_listeners(path: Path) -> list[int]:
    """Lines where ``path`` asks esper for ``Listener`` components."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text())):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("get_components", "get_component")
                and any(isinstance(a, ast.Name) and a.id == "Listener" for a in node.args)):
            lines.append(node.lineno)
    return lines


def test_only_soundscape_listener_looks_for_the_listener():
    found = {}
    for folder in ("plugin", "systems"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == ROOT / "plugin" / "listener.py":
                continue
            if lines := _loops_over_listeners(path):
                found[str(path.relative_to(ROOT))] = lines
    assert not found, f"find the listener with soundscape.listener, not here: {found}"
    assert _loops_over_listeners(ROOT / "plugin" / "listener.py")
