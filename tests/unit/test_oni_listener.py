"""Oni's listener (``OSrUpdate`` 0x514f20): the player's ears in the follow camera, else
the camera."""

from __future__ import annotations

import math

import esper
import pytest
from test_oni_harness import OniHarness

from soundscape.components.oni import OniCamera, OniPlayer
from soundscape.components.spatial import Listener, Position
from soundscape.oni.listener import find_ears

TOML = """
[groups.g]
permutations = [{ sound = "s" }]
[impulses.i]
group = "g"
distance = [0.0, 100.0]
"""


def test_default_is_the_active_listener():
    esper.create_entity(Listener(heading_rad=1.0, active=False), Position(9.0, 9.0, 9.0))
    esper.create_entity(Listener(heading_rad=0.5), Position(1.0, 2.0, 3.0))
    ears = find_ears()
    assert ears.xyz == (1.0, 2.0, 3.0) and ears.heading_rad == 0.5 and ears.source == "camera"


def test_follow_camera_hears_from_the_players_head_facing_her_way():
    esper.create_entity(Listener(heading_rad=0.0), OniCamera("follow"), Position(0.0, 5.0, 0.0))
    esper.create_entity(OniPlayer(facing_rad=1.0, facing_offset_rad=0.25, head_y_m=1.7),
                        Position(10.0, 0.0, 20.0))
    ears = find_ears()
    assert ears.xyz == (10.0, 1.7, 20.0) and ears.source == "player"
    assert ears.heading_rad == pytest.approx(0.75)


def test_without_an_active_part_the_ears_are_15_units_above_her():
    esper.create_entity(Listener(), OniCamera(), Position())
    esper.create_entity(OniPlayer(), Position(1.0, 2.0, 3.0))
    assert find_ears(units_per_m=1.0).xyz == (1.0, 17.0, 3.0)
    assert find_ears(units_per_m=10.0).xyz == (1.0, 3.5, 3.0)


def test_another_camera_mode_hears_from_the_camera():
    esper.create_entity(Listener(heading_rad=2.0), OniCamera("manual"), Position(4.0, 4.0, 4.0))
    esper.create_entity(OniPlayer(head_y_m=1.0), Position(1.0, 2.0, 3.0))
    ears = find_ears()
    assert ears.xyz == (4.0, 4.0, 4.0) and ears.heading_rad == 2.0


def test_no_listener_is_none_and_logged_once():
    assert find_ears() is None
    h = OniHarness(TOML, {"s": 0.1})
    esper.delete_entity(h.listener, immediate=True)
    h.step(3)
    assert len(h.events("no_listener")) == 1


def test_the_runtime_pans_by_the_players_facing():
    h = OniHarness(TOML, {"s": 0.1})
    esper.add_component(h.listener, OniCamera("follow"))
    esper.create_entity(OniPlayer(facing_rad=math.pi / 2, head_y_m=0.0), Position(0.0, 0.0, 0.0))
    h.step(1)
    # she faces east: a sound to the north is on her left
    h.oni.play_impulse("i", (0.0, 0.0, 30.0))
    assert h.events("impulse")[0]["pan"] == -1667
