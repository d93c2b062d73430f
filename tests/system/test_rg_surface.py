"""Surface values from the ground under an actor (seed 002 l.185-193, issue 12).

The game's ground-support query supplies the model face or terrain tile; the laws
give the surface value animation PlaySound remaps through SURFACE.INI.
"""

from __future__ import annotations

import esper
import pytest
from rg_world import RgWorld

from soundscape.components.redguard import RgObject
from soundscape.errors import DataError, InputError
from soundscape.redguard.surface_value import GroundSupport, SurfaceTypes, support_surface

SURFACE_INI = """\
[surfaces]
; set, index, type
302, 5, SAND
302, 63, ROCK
302, 12, water
40, all, WOOD
41, 3, tile

[sand]
4 = 108
[wood]
4 = 89
[rock]
4 = 102
[scapewater]
4 = 69
"""


@pytest.fixture
def w(tmp_path):
    world = RgWorld()
    for index in (4, 69, 89, 102, 108):
        world.add_effect(index, seconds=0.5)
    ini = tmp_path / "SURFACE.INI"
    ini.write_text(SURFACE_INI, encoding="latin-1")
    world.rt.surface.load_ini(ini)
    world.rt.surface_types.load_ini(ini)
    return world


def surface_of(w, entity) -> int:
    return esper.component_for_entity(entity, RgObject).surface


def played(w) -> str:
    return w.events("rg_start")[-1]["sound"]


def test_model_faces_take_their_textures_surface_or_0(w):
    types = w.rt.surface_types
    assert support_surface(types, GroundSupport("model", texture=(40, 17))) == 7  # all: wood
    assert support_surface(types, GroundSupport("model", texture=(41, 3))) == 8  # tile
    assert support_surface(types, GroundSupport("model", texture=(41, 4))) == 0  # no entry
    assert support_surface(types, GroundSupport("model", texture=None)) == 0  # solid colour


def test_terrain_tiles_resolve_set_302_by_their_low_six_bits(w):
    types = w.rt.surface_types
    assert support_surface(types, GroundSupport("terrain", tile=5)) == 6  # sand
    assert support_surface(types, GroundSupport("terrain", tile=0x45)) == 6  # 0x45 & 63 = 5
    assert support_surface(types, GroundSupport("terrain", tile=-1)) == 10  # -1 -> 63: rock
    assert support_surface(types, GroundSupport("terrain", tile=7)) == 0  # unassigned
    # the blend mask's sand or rock at a dry shore pixel replaces the tile's value
    assert support_surface(types, GroundSupport("terrain", tile=7, shore=10)) == 10
    # a non-zero water result: scapewater, or scapedeepwater at full coverage
    assert support_surface(types, GroundSupport("terrain", tile=5, water=1)) == 3
    assert support_surface(types, GroundSupport("terrain", tile=5, water=1, shore=6,
                                                full_water=True)) == 4
    assert support_surface(types, GroundSupport("other")) == 0
    assert support_surface(types, GroundSupport("miss")) == 0


def test_the_support_wrapper_writes_only_with_collision_mask_0x04(w):
    actor = w.obj(0, 10)
    assert w.rt.ground_support(actor, GroundSupport("terrain", tile=5), collision_mask=0x04)
    assert surface_of(w, actor) == 6
    # without 0x04 (or on the excluded / query-only paths) the previous surface stays
    assert not w.rt.ground_support(actor, GroundSupport("model", texture=(40, 1)), 0x03)
    assert surface_of(w, actor) == 6
    # a miss clears the source kind: the ordinary path assigns 0
    assert w.rt.ground_support(actor, GroundSupport("miss"), collision_mask=0x07)
    assert surface_of(w, actor) == 0


def test_animation_playsound_remaps_through_the_derived_surface(w):
    # SURFACE.INI in the shipped numbers: effect 4 plays 108 on sand, 89 on wood, 102 on
    # rock and 69 on (scape)water
    actor = w.obj(0, 10)
    cases = [(GroundSupport("terrain", tile=5), "rg.sfx.108"),
             (GroundSupport("model", texture=(40, 2)), "rg.sfx.89"),
             (GroundSupport("terrain", tile=-1), "rg.sfx.102"),
             (GroundSupport("terrain", tile=12, water=1), "rg.sfx.69"),
             (GroundSupport("model", texture=None), "rg.sfx.4")]
    for support, sound in cases:
        w.rt.ground_support(actor, support, collision_mask=0x04)
        w.rt.engine.anim_play_sound(actor, 4, 0)
        assert played(w) == sound, support


def test_bad_surfaces_lines_and_calls_are_clear_errors(w, tmp_path):
    bad = tmp_path / "BAD.INI"
    bad.write_text("[surfaces]\n302, 5, MUD\n", encoding="latin-1")
    with pytest.raises(DataError, match="MUD"):
        SurfaceTypes().load_ini(bad)
    bad.write_text("[surfaces]\n302, five, SAND\n", encoding="latin-1")
    with pytest.raises(DataError, match="line 2"):
        SurfaceTypes().load_ini(bad)
    with pytest.raises(InputError, match="not a Redguard object"):
        w.rt.ground_support(esper.create_entity(), GroundSupport("miss"), 4)
    with pytest.raises(InputError, match="GroundSupport.kind"):
        w.rt.ground_support(w.obj(), GroundSupport("lava"), 4)
