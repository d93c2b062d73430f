"""The demo's rooms: reverb zones for the buildings and a forest, two modern emitters.

Each building is a ``room`` zone: its footprint, bounded by its walls (a zone
drawn beyond them would leak out of the wide door into the strip around the
house); the north forest patch is a ``forest`` zone. A hearth crackles inside the house and
birds sing in that forest: both are ``modern`` emitters, so they send to the zone
they are in, and the player hears the reverb of the zone she stands in (the
house's short bright room, the forest's sparse dull one). In the window, H
switches those emitters between the speakers' pan and the headphones' head model.
The retail runtimes' voices stay dry (the game does not ``send_bank`` them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import esper
import numpy as np

from soundscape import synth
from soundscape.components import Emitter, Position, ReverbZone

if TYPE_CHECKING:
    from soundscape.demo_world.game import DemoGame
    from soundscape.demo_world.population import Population

FOREST_ZONE = ((360.0, 700.0), 70.0)
"""The forest patch the tour walks through: centre (x, z) and radius, metres."""
HEARTH_M = (366.0, 416.0)
BIRDS_M = (350.0, 705.0)
RATE_HZ = 22_050


def birdsong(seed: int, seconds: float = 6.0) -> np.ndarray:
    """A loop of a few chirps at seeded times and pitches."""
    rng = np.random.default_rng(seed)
    out = np.zeros(int(seconds * RATE_HZ), np.float32)
    for _ in range(9):
        f0 = float(rng.uniform(2_500.0, 4_000.0))
        call = synth.chirp(f0, f0 * float(rng.uniform(1.2, 1.6)), 0.12, rate_hz=RATE_HZ,
                           peak=0.4)
        at = int(rng.uniform(0.0, seconds - 0.2) * RATE_HZ)
        out[at:at + call.shape[0]] += call
    return out


def setup_rooms(game: DemoGame, population: Population) -> None:
    """Create the zones and the two emitters (feature ``rooms``)."""
    ctx = game.ctx
    for building in game.village.buildings:
        x0, z0, x1, z1 = building.x0_m, building.z0_m, building.x1_m, building.z1_m
        population.entities[f"zone_{building.name}"] = esper.create_entity(ReverbZone(
            "room", polygon=((x0, z0), (x1, z0), (x1, z1), (x0, z1)),
            walls=True, anchor_m=((x0 + x1) / 2.0, (z0 + z1) / 2.0)))
    (fx, fz), radius = FOREST_ZONE
    population.entities["zone_forest"] = esper.create_entity(
        ReverbZone("forest", center_m=(fx, fz), radius_m=radius))
    if not ctx.has("sounds"):
        return
    synth.add_to(ctx.sounds, "rooms_hearth",
                 synth.noise_bed(4.0, 71, rate_hz=RATE_HZ, low_hz=120.0, high_hz=5_000.0,
                                 tilt=0.8, peak=0.4), RATE_HZ)
    synth.add_to(ctx.sounds, "rooms_birds", birdsong(72), RATE_HZ)
    population.sounds += ["rooms_hearth", "rooms_birds"]
    for name, (x, z) in (("hearth", HEARTH_M), ("birds", BIRDS_M)):
        y = game.terrain.height_m(x, z) + 1.0
        population.entities[name] = esper.create_entity(
            Emitter(f"rooms_{name}", volume=0.6, min_distance_m=2.0, max_distance_m=40.0),
            Position(x, y, z))
