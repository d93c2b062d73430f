"""``SoundscapePlugin``: adds soundscape's processors to an esper world."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import esper

from soundscape.clock import Clock
from soundscape.context import Context
from soundscape.events import EventLog
from soundscape.phase import Phase, phase_priority
from soundscape.settings import Settings
from soundscape.system import SoundSystem

if TYPE_CHECKING:
    from soundscape.ac.runtime import AcRuntime
    from soundscape.audio.buses import Buses
    from soundscape.audio.channels import ChannelBank
    from soundscape.audio.mixer import Mixer
    from soundscape.audio.sounds import SoundBank
    from soundscape.occlusion.service import OcclusionService
    from soundscape.oni.sound import OniSound
    from soundscape.redguard.runtime import RedguardRuntime
    from soundscape.rooms.service import RoomsService


@dataclass(frozen=True, slots=True)
class InstalledProcessor:
    """One processor the plugin added, with where it sits in the tick."""

    phase: Phase
    step: int
    priority: int
    processor: esper.Processor


class ClockSystem(esper.Processor):
    """Phase ``CLOCK``: takes the frame's ``dt`` and steps the fixed clock."""

    def __init__(self, ctx: Context) -> None:
        super().__init__()
        self.ctx = ctx

    def process(self, dt: float = 0.0, *args: object, **kwargs: object) -> None:
        try:
            self.ctx.clock.advance(float(dt))
        except ValueError as error:
            # A bad dt from the game must not crash its loop: no tick this frame.
            self.ctx.clock.elapsed_ticks = 0
            self.ctx.events.emit("clock", "error", error=str(error))


FeatureInstaller = Callable[[Context], list[SoundSystem]]


def _feature_installer(name: str) -> FeatureInstaller:
    module = importlib.import_module(f"soundscape.{name}.feature")
    installer: FeatureInstaller = module.install
    return installer


class SoundscapePlugin:
    """The plugin a game adds to its esper world.

    Example:
        >>> import esper
        >>> esper.switch_world("doctest-plugin")
        >>> plugin = SoundscapePlugin(Settings(seed=1, backend="none")).install()
        >>> esper.process(1 / 60)
        >>> plugin.clock.tick
        1
        >>> plugin.uninstall()
        >>> esper.switch_world("default"); esper.delete_world("doctest-plugin")
    """

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        self.ctx: Context | None = None
        self.installed: list[InstalledProcessor] = []

    @property
    def context(self) -> Context:
        if self.ctx is None:
            raise RuntimeError("SoundscapePlugin: call install() first")
        return self.ctx

    @property
    def clock(self) -> Clock:
        """The plugin's fixed-step clock."""
        return self.context.clock

    @property
    def events(self) -> EventLog:
        """The plugin's event log."""
        return self.context.events

    @property
    def sounds(self) -> SoundBank:
        """The sound bank (``soundscape.audio.sounds.SoundBank``): add or load sounds by name."""
        return self.context.sounds

    @property
    def channels(self) -> dict[str, ChannelBank]:
        """The channel banks by name (``"ac"``, ``"oni"``, ``"redguard"``, ``"modern"``)."""
        return self.context.channels

    @property
    def buses(self) -> Buses:
        """The bus tree (``soundscape.audio.buses``): volumes, pauses, fades, ducking."""
        return self.context.buses

    def pause_all(self) -> None:
        """Pause every bus but ``ui`` (a game's pause menu: the world's sound holds
        its place while the menu's clicks play); ``resume_all`` undoes it."""
        self.context.buses.pause_all()

    def resume_all(self) -> None:
        """Resume what ``pause_all`` paused; every voice goes on from the same frame."""
        self.context.buses.resume_all()

    @property
    def mixer(self) -> Mixer:
        """The mixer and its output (backend ``offline`` or ``pyglet`` only)."""
        return self.context.mixer

    @property
    def ac(self) -> AcRuntime:
        """The Asheron's Call terrain-ambient runtime (docs/ac.md)."""
        return self.context.ac

    @property
    def oni(self) -> OniSound:
        """The Oni sound system: groups, ambients, impulses, scripts (docs/oni.md)."""
        return self.context.oni

    @property
    def occlusion(self) -> OcclusionService:
        """Walls, occlusion queries and flybys (docs/oni.md)."""
        return self.context.occlusion

    @property
    def redguard(self) -> RedguardRuntime:
        """The Redguard runtime: effects, script calls, tasks, dialogue (docs/redguard.md)."""
        return self.context.redguard

    @property
    def rooms(self) -> RoomsService:
        """Reverb zones and the headphone switch (docs/audio.md, "Rooms and ears")."""
        return self.context.rooms

    def install(self) -> SoundscapePlugin:
        """Create the runtime services and add every processor to the current world.

        Priorities come from ``Phase`` and ``Settings.base_priority``; the order is
        DESIGN.md's tick order. Installing twice is refused.
        """
        if self.ctx is not None:
            raise RuntimeError("SoundscapePlugin.install: already installed")
        ctx = Context.create(self.settings, world=esper.current_world)
        self.ctx = ctx
        self._add(Phase.CLOCK, 0, ClockSystem(ctx))
        for feature in self.settings.features:
            for system in _feature_installer(feature)(ctx):
                self._add(system.phase, system.step, system)
        return self

    def _add(self, phase: Phase, step: int, processor: esper.Processor) -> None:
        priority = phase_priority(phase, self.settings.base_priority, step)
        esper.add_processor(processor, priority=priority)
        self.installed.append(InstalledProcessor(phase, step, priority, processor))

    def uninstall(self) -> None:
        """Remove the plugin's processors from the world and close its outputs."""
        for item in self.installed:
            esper.remove_processor(type(item.processor))
        self.installed.clear()
        if self.ctx is not None:
            if self.ctx.has("mixer"):
                self.ctx.mixer.close()
            self.ctx.events.close()
        self.ctx = None
