"""Fills a fresh ``DemoGame`` world: sounds, landblocks, walls and the sound objects.

Each runtime is set up through its public service on the plugin context
(``ctx.ac``, ``ctx.oni``, ``ctx.occlusion``, ``ctx.redguard``); one that is not
installed is skipped and named in ``Population.missing``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import esper

from soundscape.components.occlusion import Wall
from soundscape.demo_world import runtimes
from soundscape.demo_world.rooms import setup_rooms
from soundscape.demo_world.runtimes import data_path
from soundscape.demo_world.sounds import synthesize
from soundscape.demo_world.spatial import SpatialShow

if TYPE_CHECKING:
    from soundscape.demo_world.game import DemoGame
    from soundscape.demo_world.rg_village import RedguardVillage

__all__ = ["Population", "data_path", "populate"]


@dataclass(slots=True)
class Population:
    """What ``populate`` made: entity ids by role, and the runtimes it had to skip."""

    walls: list[int] = field(default_factory=list)
    entities: dict[str, int] = field(default_factory=dict)
    placed: dict[str, int] = field(default_factory=dict)
    """Oni placed-ambient record index by name (waterfall, forge)."""
    sounds: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    redguard: RedguardVillage | None = None
    """The ``RedguardVillage`` (torch, rope, village effects), None without Redguard."""
    spatial: SpatialShow | None = None
    """The lute behind the house walls and the passing cart, None without audio."""


def populate(game: DemoGame) -> Population:
    """Synthesise the sounds and create every static thing of the demo world."""
    ctx = game.ctx
    population = Population()
    if ctx.has("sounds"):
        population.sounds = synthesize(ctx.sounds)
    if ctx.has("sounds") and ctx.sounds.root is not None:
        runtimes.setup_well(game, population)
    for ax, az, bx, bz in game.village.walls():
        population.walls.append(esper.create_entity(Wall(ax_m=ax, az_m=az, bx_m=bx, bz_m=bz)))
    for name, setup in (
        ("ac", runtimes.setup_ac),
        ("oni", runtimes.setup_oni),
        ("redguard", runtimes.setup_redguard),
    ):
        if not ctx.has(name):
            population.missing.append(name)
            continue
        setup(game, population)
    if ctx.has("emitters"):
        population.spatial = SpatialShow(game)
    if ctx.has("rooms"):
        setup_rooms(game, population)
    return population
