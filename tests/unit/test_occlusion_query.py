"""``ctx.occlusion.query``: OSiCalc_PositionAndVolume uncached, for impulses and flybys."""

from __future__ import annotations

import math

import esper
import pytest

from soundscape import Settings, SoundscapePlugin
from soundscape.components.occlusion import Wall
from soundscape.components.spatial import Listener, Position
from soundscape.errors import DataError, InputError


def make_plugin(**extra: object) -> SoundscapePlugin:
    settings = Settings(seed=1, backend="none", features=("occlusion",), extra=dict(extra))
    return SoundscapePlugin(settings).install()


def test_query_through_walls_from_the_active_listener() -> None:
    plugin = make_plugin()
    service = plugin.context.occlusion
    esper.create_entity(Listener(active=False), Position(100.0, 0.0, 100.0))
    esper.create_entity(Listener(), Position(0.0, 0.0, 0.0))
    esper.create_entity(Wall(5.0, -5.0, 5.0, 5.0))
    esper.create_entity(Wall(7.0, -5.0, 7.0, 5.0))
    esper.process(1 / 60)
    result = service.query((10.0, 0.0, 0.0), far=10.0)
    assert result.in_hearing and result.walls == 2
    assert result.volume == pytest.approx(0.8 - 4 / 12)
    assert service.query((10.0, 0.0, 0.0), 10.0, 0.6).volume == 0.6
    assert service.query((10.0, 0.0, 0.0), 10.0, 0.999) == (1.0, 0, True)
    # An explicit listener beyond the walls hears it clear.
    assert service.query((10.0, 0.0, 0.0), 10.0, listener_xyz=(9.0, 0.0, 0.0)).walls == 0
    # Each query's ray is kept for drawing.
    ray = service.recent_queries[-1]
    assert ray.from_xyz == (10.0, 0.0, 0.0) and ray.to_xyz == (9.0, 0.0, 0.0)
    assert ray.walls == 0 and len(service.recent_queries) == 4
    plugin.uninstall()


def test_query_hearing_limit_scales_with_units() -> None:
    plugin = make_plugin(oni_units_per_m=2.0)
    service = plugin.context.occlusion
    listener = (0.0, 0.0, 0.0)
    # far 30 units: heard up to 90 units = 45 m.
    assert service.query((45.0, 0.0, 0.0), 30.0, listener_xyz=listener).in_hearing
    assert not service.query((45.1, 0.0, 0.0), 30.0, listener_xyz=listener).in_hearing
    plugin.uninstall()


def test_query_bad_input() -> None:
    plugin = make_plugin()
    service = plugin.context.occlusion
    with pytest.raises(InputError, match="no usable listener"):
        service.query((1.0, 0.0, 0.0), 10.0)
    with pytest.raises(InputError, match="place"):
        service.query((math.nan, 0.0, 0.0), 10.0, listener_xyz=(0.0, 0.0, 0.0))
    with pytest.raises(InputError, match="far"):
        service.query((1.0, 0.0, 0.0), math.inf, listener_xyz=(0.0, 0.0, 0.0))
    with pytest.raises(InputError, match="min_occlusion"):
        service.query((1.0, 0.0, 0.0), 10.0, math.nan, listener_xyz=(0.0, 0.0, 0.0))
    with pytest.raises(InputError, match="listener"):
        service.query((1.0, 0.0, 0.0), 10.0, listener_xyz=(math.nan, 0.0, 0.0))
    plugin.uninstall()


def test_bad_units_setting_is_a_data_error() -> None:
    with pytest.raises(DataError, match="oni_units_per_m"):
        make_plugin(oni_units_per_m=-1.0)
