"""Setting each runtime up for the demo through its public service on the context."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from soundscape.demo_world.world import CELLS_PER_BLOCK

if TYPE_CHECKING:
    from soundscape.demo_world.game import DemoGame
    from soundscape.demo_world.population import Population


def data_path(name: str) -> Path:
    """A file shipped in the package's ``data`` folder (works from an installed wheel)."""
    return Path(str(resources.files("soundscape.demo_world") / "data" / name))


def setup_ac(game: DemoGame, population: Population) -> None:
    """Load the region TOML and hand every landblock's terrain to the AC runtime."""
    ac = game.ctx.ac
    ac.load_region(data_path("region.toml"))
    terrain = game.terrain
    for bx in range(terrain.cells_x // CELLS_PER_BLOCK):
        for bz in range(terrain.cells_z // CELLS_PER_BLOCK):
            entity = ac.add_landblock(bx, bz, terrain.block_words(bx, bz),
                                      terrain.block_heights(bx, bz))
            population.entities[f"landblock_{bx}_{bz}"] = entity


WELL_VOLUME = 0.35


def setup_well(game: DemoGame, population: Population) -> None:
    """The well by the plaza: a ``modern`` emitter playing ``well.ogg`` streamed (its
    voice decodes the file a piece at a time; see ``soundscape.demo_world.assets``)."""
    import esper

    from soundscape.components import Emitter, Position
    from soundscape.demo_world.assets import WELL

    if game.ctx.sounds.stream(WELL) is None:
        population.missing.append("well")
        return
    x, z = game.village.spot("well").as_xz()
    population.entities["well"] = esper.create_entity(
        Position(x, game.terrain.height_m(x, z) + 0.5, z),
        Emitter(WELL, volume=WELL_VOLUME, min_distance_m=2.0, max_distance_m=30.0))


WATERFALL_HEIGHT_M = 4.0
FORGE_HEIGHT_M = 1.0


def setup_oni(game: DemoGame, population: Population) -> None:
    """Load the Oni sound objects and place the waterfall and forge ambients.

    Both go through the placed-ambient table (``OSrAmbient_Start``), so the
    occlusion phase hears them through the village's walls.
    """
    oni = game.ctx.oni
    oni.load_toml(data_path("oni.toml"))
    village = game.village
    for name, height in (("waterfall", WATERFALL_HEIGHT_M), ("forge", FORGE_HEIGHT_M)):
        x, z = village.spot(name).as_xz()
        index = oni.placed.start(name, (x, game.terrain.height_m(x, z) + height, z))
        if index is not None:
            population.entities[f"placed_{name}"] = oni.placed.entities[index]
            population.placed[name] = index


def setup_redguard(game: DemoGame, population: Population) -> None:
    """The Redguard effects (synthesised 16-bit PCM), the rope, the bell, the hens, the mill."""
    from soundscape.demo_world.rg_village import RedguardVillage

    population.redguard = RedguardVillage(game)
    population.entities["rope"] = population.redguard.rope
