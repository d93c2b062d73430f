"""A small Oni world for the Oni unit tests: the ``oni`` feature on a fresh context,
silent synthetic sounds, a listener, and the phases stepped in the plugin's order."""

from __future__ import annotations

import esper
import numpy as np

from soundscape.audio.sounds import SoundBank
from soundscape.components.spatial import Listener, Position
from soundscape.context import Context
from soundscape.oni import feature as oni
from soundscape.settings import Settings
from soundscape.systems.channels import ChannelSystem

RATE = 22050


class OniHarness:
    """The Oni runtime with its channel bank, driven tick by tick.

    Args:
        toml: the sound database.
        sounds: sound name -> length in seconds (22,050 Hz, so a 1 s sound plays 60 ticks).
        occlusion: also install the occlusion feature (walls, ``Occluded``).
    """

    def __init__(self, toml: str, sounds: dict[str, float], *, seed: int = 0,
                 listener: tuple[float, float, float] = (0.0, 0.0, 0.0), heading: float = 0.0,
                 occlusion: bool = False, extra: dict[str, object] | None = None) -> None:
        features = ("occlusion", "oni") if occlusion else ("oni",)
        settings = Settings(seed=seed, backend="none", features=features, extra=extra or {})
        self.ctx = ctx = Context.create(settings, world=esper.current_world)
        ctx.sounds = SoundBank()
        for name, seconds in sounds.items():
            ctx.sounds.add(name, np.zeros(int(round(seconds * RATE)), np.float32), RATE)
        systems = []
        if occlusion:
            from soundscape.occlusion import feature as occlusion_feature

            systems += occlusion_feature.install(ctx)
        systems += oni.install(ctx)
        systems.append(ChannelSystem(ctx))
        self.systems = sorted(systems, key=lambda s: (s.phase, s.step))
        self.oni = ctx.oni
        self.bank = ctx.channels["oni"]
        self.scripts = ctx.oni.scripts
        self.placed = ctx.oni.placed
        ctx.oni.loads_toml(toml)
        self.listener = esper.create_entity(Listener(heading_rad=heading), Position(*listener))

    @property
    def tick(self) -> int:
        return self.ctx.clock.tick

    def step(self, n: int = 1) -> None:
        for _ in range(n):
            self.ctx.clock.step(1)
            esper.process()  # deferred entity deletions
            for system in self.systems:
                system.process()

    def events(self, event: str, source: str = "oni") -> list[dict]:
        return self.ctx.events.where(source=source, event=event)

    def states(self, ambient: str) -> list[tuple[int, str, str]]:
        return [(r["tick"], r["old"], r["new"]) for r in self.events("ambient_state")
                if r["sound"] == ambient]

    def channel(self, handle):
        return self.bank.get(handle)

    def move_listener(self, x: float, y: float, z: float) -> None:
        pos = esper.component_for_entity(self.listener, Position)
        pos.x_m, pos.y_m, pos.z_m = x, y, z


def test_harness_steps_in_phase_order():
    h = OniHarness("", {})
    phases = [s.phase for s in h.systems]
    assert phases == sorted(phases)
    h.step(3)
    assert h.tick == 3
