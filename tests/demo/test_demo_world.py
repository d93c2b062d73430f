"""The demo's world: generator, region data, village, route, walking, bad input."""

from __future__ import annotations

import math

import esper
import numpy as np
import pytest

from soundscape import Settings, SoundscapePlugin
from soundscape.ac.region_toml import load_region
from soundscape.audio.sounds import SoundBank
from soundscape.components.spatial import Listener, Position
from soundscape.demo_world.game import DemoGame
from soundscape.demo_world.population import data_path
from soundscape.demo_world.route import ROUTE, Autopilot, route_for
from soundscape.demo_world.sounds import AC_SOUNDS, ONI_SOUNDS, RG_SOUNDS, synthesize
from soundscape.demo_world.village import build_village
from soundscape.demo_world.walker import Walker, WalkSystem, blocked, place_listener
from soundscape.demo_world.world import (
    CELL_M,
    LANDBLOCKS_X,
    LANDBLOCKS_Z,
    TERRAIN_IDS,
    generate_terrain,
    terrain_word,
)


def test_terrain_is_seeded_and_at_least_4_by_4_landblocks():
    a, b, c = generate_terrain(5), generate_terrain(5), generate_terrain(6)
    assert (a.types == b.types).all() and (a.heights_m == b.heights_m).all()
    assert not (a.types == c.types).all()
    assert LANDBLOCKS_X >= 4 and LANDBLOCKS_Z >= 4
    assert a.types.shape == (LANDBLOCKS_X * 8 + 1, LANDBLOCKS_Z * 8 + 1)
    assert a.block_words(3, 3).shape == (9, 9)
    with pytest.raises(ValueError, match="seed must be 0 or more"):
        generate_terrain(-1)
    with pytest.raises(ValueError, match="4 x 4"):
        generate_terrain(0, blocks_x=3)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_every_terrain_exists_and_every_stop_is_on_its_terrain(seed):
    terrain = generate_terrain(seed)
    present = set(np.unique(terrain.types[:-1, :-1]).tolist())
    assert set(TERRAIN_IDS.values()) <= present
    for stop in route_for(terrain):
        if stop.terrain is not None:
            assert terrain.terrain_name(stop.x_m, stop.z_m) == stop.terrain, (seed, stop)
    assert terrain.terrain_name(384.0, 384.0) == "grassland"


def test_terrain_word_layout_matches_ac():
    assert terrain_word(15, 1) == (15 << 2) | (1 << 11)
    with pytest.raises(ValueError, match="out of range"):
        terrain_word(32)
    with pytest.raises(ValueError, match="4 x 4"):
        generate_terrain(0, blocks_x=3)
    terrain = generate_terrain(0)
    assert terrain.cell_terrain(math.nan, 10.0) is None
    assert terrain.cell_terrain(-1.0, 10.0) is None


def test_region_toml_ships_and_names_only_synthesised_sounds():
    region = load_region(data_path("region.toml"))
    bank = SoundBank()
    names = set(synthesize(bank))
    for terrain_id in TERRAIN_IDS.values():
        assert len(region.terrain_scenes[terrain_id]) == 2
    for table in region.sound_tables.values():
        for entries in table.entries.values():
            assert {e.sound for e in entries} <= names
    assert data_path("oni.toml").exists()


def test_synthesis_is_deterministic():
    for table in (AC_SOUNDS, ONI_SOUNDS, RG_SOUNDS):
        for name, recipe in table.items():
            a, b = recipe(), recipe()
            assert a.dtype == np.float32 and (a == b).all(), name
            assert 0.0 < float(np.abs(a).max()) <= 1.0, name


def test_village_walls_and_indoor_cells():
    village = build_village()
    house = village.building_at(356.0, 410.0)
    assert house is not None and house.cell_id & 0xFFFF >= 0x100
    # The door lets the player in; the wall beside it does not.
    assert not blocked(village, 356.0, 390.0, 356.0, 410.0)
    assert blocked(village, 345.0, 390.0, 345.0, 410.0)
    listener, walker = Listener(), Walker()
    place_listener(listener, walker, village, 356.0, 410.0)
    assert listener.outdoors is False and listener.objcell_id == house.cell_id
    place_listener(listener, walker, village, 356.0, 380.0)
    assert listener.outdoors is True and listener.objcell_id is None


def test_walking_moves_forward_turns_and_stops_at_walls(world):
    terrain, village = generate_terrain(0), build_village()
    esper.add_processor(WalkSystem(terrain, village))
    walker = Walker(forward=1.0, speed_m_s=6.0)
    pos, listener = Position(345.0, 0.0, 380.0), Listener(heading_rad=0.0)
    esper.create_entity(walker, pos, listener)
    for _ in range(60):
        esper.process(1 / 60)
    # North for 1 s at 6 m/s, then the house's south wall (z = 396) stops her.
    assert pos.z_m == pytest.approx(386.0)
    for _ in range(120):
        esper.process(1 / 60)
    assert 386.0 < pos.z_m < 396.0 and pos.x_m == pytest.approx(345.0)
    walker.forward, walker.turn = 0.0, 1.0
    esper.process(0.5)
    assert listener.heading_rad == pytest.approx(1.1)
    esper.process(math.nan)  # a bad dt from the window is ignored
    assert listener.heading_rad == pytest.approx(1.1)


def test_autopilot_walks_the_whole_route_and_refuses_bad_seconds():
    pilot = Autopilot(ROUTE, 30.0)  # too short for the dwells: they shrink
    assert pilot.segments[-1].end_s == pytest.approx(30.0)
    x, z, _ = pilot.place(30.0)
    assert (x, z) == (ROUTE[-1].x_m, ROUTE[-1].z_m)
    assert pilot.arrived(pilot.segments[1].start_s + 1e-3) == ROUTE[1]
    for bad in (0.0, -5.0, math.nan, math.inf):
        with pytest.raises(ValueError, match="seconds"):
            Autopilot(ROUTE, bad)
    with pytest.raises(ValueError, match="two waypoints"):
        Autopilot(ROUTE[:1], 10.0)


def test_game_installs_every_runtime_and_cleans_up(world):
    game = DemoGame(3, backend="none")
    try:
        assert game.population.missing == []
        assert {"waterfall", "forge"} <= set(game.population.placed)
        assert len(game.population.walls) == len(game.village.walls())
        game.step()
        assert game.ctx.clock.tick == 1
        assert game.ctx.ac.rebuilds == 1
        assert game.toggle_torch() == "torch lit" and game.toggle_torch() == "torch out"
    finally:
        game.close()
    assert esper.current_world == world


def test_game_survives_a_nan_player_position(world):
    game = DemoGame(0, backend="none")
    try:
        game.position.x_m = math.nan
        for _ in range(5):
            game.step()
        assert game.ctx.clock.tick == 5
        assert game.ctx.events.where(source="ac", event="bad_listener")
        game.teleport(384.0, 384.0)
        game.step()
        assert game.ctx.clock.tick == 6
    finally:
        game.close()


def test_plugin_alone_accepts_the_demo_region(world):
    plugin = SoundscapePlugin(Settings(backend="none", features=("ac",))).install()
    try:
        plugin.context.ac.load_region(data_path("region.toml"))
        terrain = generate_terrain(0)
        plugin.context.ac.add_landblock(2, 2, terrain.block_words(2, 2))
        esper.create_entity(Listener(), Position(2.5 * 192.0, 0.0, 2.5 * 192.0 + CELL_M))
        esper.process(1 / 60)
        assert plugin.events.where(source="ac", event="play")
    finally:
        plugin.uninstall()


def test_game_runs_with_only_some_runtimes(world):
    game = DemoGame(0, backend="offline", features=("audio", "ac"), start=(300.0, 384.0))
    try:
        assert sorted(game.population.missing) == ["oni", "redguard"]
        for _ in range(240):  # bolts fly with no occlusion feature; the village is quiet
            game.step()
        assert game.ctx.events.where(source="ac", event="play")
        assert not game.ctx.events.where(source="flyby")
        assert game.toggle_torch() == "no Redguard runtime: no torch"
        assert game.ctx.mixer.backend.audio().shape[0] == 240 * 800
    finally:
        game.close()


def test_the_bell_rings_once_however_the_frames_fall(world):
    # Short window frames: the clock stays on one tick for several frames.
    game = DemoGame(0, backend="none", start=(384.0, 370.0))
    try:
        for _ in range(445):
            game.step()
        for _ in range(40):
            game.step(0.005)
        bells = game.ctx.events.where(source="redguard", event="rg_start", effect=10)
        assert len(bells) == 1 and bells[0]["tick"] >= 450
    finally:
        game.close()


def test_demo_sounds_are_cached_on_disk_and_loaded_back(tmp_path, monkeypatch):
    """Start-up loads the synthesised sounds instead of rendering them (issue 21)."""
    from soundscape.demo_world import sound_cache, sounds

    monkeypatch.setenv(sound_cache.ENV, str(tmp_path))
    monkeypatch.setattr(sounds, "_RENDERED", {})
    first = dict(sounds.render_all())
    files = list(tmp_path.glob("demo-sounds-*.npz"))
    assert len(files) == 1 and set(first) == set(AC_SOUNDS) | set(ONI_SOUNDS)

    def no_render(name):
        raise AssertionError(f"{name} rendered, not loaded")

    monkeypatch.setattr(sounds, "_RENDERED", {})
    monkeypatch.setattr(sounds, "_render", no_render)
    loaded = sounds.render_all()
    assert all(loaded[n].tobytes() == first[n].tobytes() for n in first)
    assert not loaded["ac_bird_song"].flags.writeable
    # A corrupt file is rendered again and rewritten.
    files[0].write_bytes(b"not a zip")
    monkeypatch.undo()
    monkeypatch.setenv(sound_cache.ENV, str(tmp_path))
    monkeypatch.setattr(sounds, "_RENDERED", {})
    again = sounds.render_all()
    assert again["ac_owl"].tobytes() == first["ac_owl"].tobytes()
    assert sound_cache.load(files[0], ["ac_owl"]) is not None
    # A cache folder that cannot be made is skipped; an empty setting turns the cache off.
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv(sound_cache.ENV, str(blocker / "cache"))
    monkeypatch.setattr(sounds, "_RENDERED", {})
    assert sounds.render_all()["ac_owl"].tobytes() == first["ac_owl"].tobytes()
    monkeypatch.setenv(sound_cache.ENV, "")
    assert sound_cache.cache_dir() is None and sound_cache.cache_file([np]) is None


def test_the_sound_cache_key_follows_the_recipes(monkeypatch, tmp_path):
    from soundscape import synth
    from soundscape.demo_world import ac_sounds, sound_cache

    monkeypatch.setenv(sound_cache.ENV, str(tmp_path))
    a = sound_cache.cache_file([synth, ac_sounds])
    assert a == sound_cache.cache_file([synth, ac_sounds])
    assert a != sound_cache.cache_file([synth])
    monkeypatch.setattr(np, "__version__", "0.0.1")
    assert a != sound_cache.cache_file([synth, ac_sounds])
