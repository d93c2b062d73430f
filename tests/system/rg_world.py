"""Shared set-up for the Redguard system tests: a plugin world with synthesised effects."""

from __future__ import annotations

import esper
import numpy as np

from soundscape import Settings, SoundscapePlugin
from soundscape.components.redguard import RgObject
from soundscape.components.spatial import Listener, Position

UPM = 20.0
"""The default Redguard units_per_m: world units a metre."""


def tone(frames: int, amplitude: int = 8000, period: int = 50) -> np.ndarray:
    """A deterministic int16 square-ish wave."""
    index = np.arange(frames)
    return np.where((index // (period // 2)) % 2 == 0, amplitude, -amplitude).astype(np.int16)


class RgWorld:
    """A soundscape plugin with audio + redguard, a listener and helpers.

    ``tick_s`` is the Redguard nominal tick; these tests count in nominal ticks, so by
    default one ``step`` (a 60 Hz tick) is one nominal tick. The shipped 21/256 s
    nominal tick has its own tests (``test_rg_nominal_tick.py``).
    """

    def __init__(self, extra: dict | None = None, seed: int = 7,
                 tick_s: float = 1 / 60) -> None:
        settings = Settings(seed=seed, backend="none", features=("audio", "redguard"),
                            extra={"redguard": extra or {}}, redguard_tick_s=tick_s)
        self.plugin = SoundscapePlugin(settings).install()
        self.ctx = self.plugin.context
        self.rt = self.ctx.redguard
        self.bank = self.rt.bank
        self.listener = esper.create_entity(Listener(heading_rad=0.0), Position(0.0, 0.0, 0.0))

    def add_effect(self, index: int, seconds: float = 1.0, rate: int = 22050, *,
                   base_volume: int = 64, loop_flag: int = 0):
        return self.rt.effects.add(index, tone(int(seconds * rate)), rate,
                                   base_volume=base_volume, loop_flag=loop_flag)

    def obj(self, x_wu: float = 0.0, z_wu: float = 0.0, y_wu: float = 0.0, **kw) -> int:
        """An RgObject at world-unit coordinates."""
        return esper.create_entity(Position(x_wu / UPM, y_wu / UPM, z_wu / UPM), RgObject(**kw))

    def move(self, entity: int, x_wu: float, z_wu: float, y_wu: float = 0.0) -> None:
        position = esper.component_for_entity(entity, Position)
        position.x_m, position.y_m, position.z_m = x_wu / UPM, y_wu / UPM, z_wu / UPM

    def step(self, ticks: int = 1) -> None:
        for _ in range(ticks):
            esper.process(1 / 60)

    def events(self, event: str, **match) -> list[dict]:
        return self.ctx.events.where(source="redguard", event=event, **match)

    def playing(self) -> list[int]:
        return [c.index for c in self.bank.channels if c.playing]
