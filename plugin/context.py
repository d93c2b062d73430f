"""The shared context every system receives by injection.

It holds the plugin's settings, clock, random source and event log, and one slot
per installed runtime service. A feature's ``install`` fills its slot; a system
reads the slots it needs (``ctx.channels`` for voices, ``ctx.occlusion`` for
wall counts...). Nothing here is global: two plugins in two esper worlds share
nothing.

Reading the slot of a feature that is not installed raises ``FeatureOffError``
naming the feature and ``Settings.features`` (the plugin's properties,
``plugin.oni``..., read the same slots, so both say the same);
``ctx.has("oni")`` asks without raising.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from soundscape.clock import Clock
from soundscape.errors import FeatureOffError
from soundscape.events import EventLog
from soundscape.rng import Rng
from soundscape.settings import Settings
from soundscape.walls import WallEdits

if TYPE_CHECKING:
    from soundscape.ac.runtime import AcRuntime
    from soundscape.audio.buses import Buses
    from soundscape.audio.channels import ChannelBank
    from soundscape.audio.emitters import EmitterService
    from soundscape.audio.mixer import Mixer
    from soundscape.audio.sounds import SoundBank
    from soundscape.occlusion.service import OcclusionService
    from soundscape.oni.sound import OniSound
    from soundscape.redguard.runtime import RedguardRuntime
    from soundscape.rooms.service import RoomsService

SLOTS: dict[str, str] = {
    "sounds": "audio",
    "mixer": "audio",
    "emitters": "audio",
    "buses": "audio",
    "ac": "ac",
    "oni": "oni",
    "occlusion": "occlusion",
    "redguard": "redguard",
    "rooms": "rooms",
}
"""Each service slot and the feature (``Settings.features``) that fills it."""


@dataclass(slots=True)
class Context:
    """Everything a soundscape system may use, passed to its constructor."""

    settings: Settings
    clock: Clock
    rng: Rng
    events: EventLog
    world: str = "default"
    channels: dict[str, ChannelBank] = field(default_factory=dict)
    """Channel banks by name (features ``audio``, ``oni``, ``redguard``)."""
    voice_ids: Iterator[int] = field(default_factory=lambda: itertools.count(1), repr=False)
    """Ids of the voice command stream, one per start, shared by every bank: never reused."""
    walls: WallEdits = field(default_factory=WallEdits, repr=False)
    """Walls edited in place (``walls.moved(entity)``), told to every feature that mirrors walls."""
    _sounds: SoundBank | None = field(default=None, repr=False)
    _mixer: Mixer | None = field(default=None, repr=False)
    _emitters: EmitterService | None = field(default=None, repr=False)
    _buses: Buses | None = field(default=None, repr=False)
    _ac: AcRuntime | None = field(default=None, repr=False)
    _oni: OniSound | None = field(default=None, repr=False)
    _occlusion: OcclusionService | None = field(default=None, repr=False)
    _redguard: RedguardRuntime | None = field(default=None, repr=False)
    _rooms: RoomsService | None = field(default=None, repr=False)

    @classmethod
    def create(cls, settings: Settings, world: str = "default") -> Context:
        """A fresh context with its own clock, seeded random source and event log."""
        clock = Clock(settings.tick_hz)
        return cls(
            settings=settings,
            clock=clock,
            rng=Rng(settings.seed),
            events=EventLog(clock, settings.event_log_path, settings.event_log_keep),
            world=world,
        )

    def has(self, slot: str) -> bool:
        """True when the service ``slot`` (``"oni"``, ``"mixer"``...) is installed.

        Raises:
            KeyError: ``slot`` is not one of ``SLOTS``.
        """
        if slot not in SLOTS:
            raise KeyError(f"Context.has: unknown service {slot!r}; one of {tuple(SLOTS)}")
        return getattr(self, "_" + slot) is not None

    def _off(self, slot: str) -> FeatureOffError:
        """The error for reading the slot of a feature that is not installed."""
        feature = SLOTS[slot]
        features = self.settings.features
        if feature in features:  # installed, but the slot is empty (the mixer)
            reason = f"Settings.backend = {self.settings.backend!r}" if slot == "mixer" \
                else "its install did not fill it"
            return FeatureOffError(
                f"soundscape: {slot} is not installed: feature {feature!r} is on but {reason}")
        return FeatureOffError(
            f"soundscape: feature {feature!r} is not installed (Settings.features = "
            f"{features}); add {feature!r} to Settings.features to use {slot}")

    @property
    def sounds(self) -> SoundBank:
        """The sound bank (feature ``audio``): decoded float32 sounds by name."""
        if self._sounds is None:
            raise self._off("sounds")
        return self._sounds

    @sounds.setter
    def sounds(self, service: SoundBank | None) -> None:
        self._sounds = service

    @property
    def mixer(self) -> Mixer:
        """The mixer and its backend (feature ``audio``, backend not ``"none"``)."""
        if self._mixer is None:
            raise self._off("mixer")
        return self._mixer

    @mixer.setter
    def mixer(self, service: Mixer | None) -> None:
        self._mixer = service

    @property
    def emitters(self) -> EmitterService:
        """Generic positional emitters and ``play_at`` one-shots (feature ``audio``)."""
        if self._emitters is None:
            raise self._off("emitters")
        return self._emitters

    @emitters.setter
    def emitters(self, service: EmitterService | None) -> None:
        self._emitters = service

    @property
    def buses(self) -> Buses:
        """The bus tree: volumes, mutes, pauses, fades and ducking (feature ``audio``)."""
        if self._buses is None:
            raise self._off("buses")
        return self._buses

    @buses.setter
    def buses(self, service: Buses | None) -> None:
        self._buses = service

    @property
    def ac(self) -> AcRuntime:
        """The Asheron's Call ambient runtime state (feature ``ac``)."""
        if self._ac is None:
            raise self._off("ac")
        return self._ac

    @ac.setter
    def ac(self, service: AcRuntime | None) -> None:
        self._ac = service

    @property
    def oni(self) -> OniSound:
        """The Oni sound system: groups, ambients, impulses, scripts (feature ``oni``)."""
        if self._oni is None:
            raise self._off("oni")
        return self._oni

    @oni.setter
    def oni(self, service: OniSound | None) -> None:
        self._oni = service

    @property
    def occlusion(self) -> OcclusionService:
        """Walls, the pymunk space and the occlusion cache (feature ``occlusion``)."""
        if self._occlusion is None:
            raise self._off("occlusion")
        return self._occlusion

    @occlusion.setter
    def occlusion(self, service: OcclusionService | None) -> None:
        self._occlusion = service

    @property
    def redguard(self) -> RedguardRuntime:
        """The Redguard runtime: effect bank, tasks, dialogue (feature ``redguard``)."""
        if self._redguard is None:
            raise self._off("redguard")
        return self._redguard

    @redguard.setter
    def redguard(self, service: RedguardRuntime | None) -> None:
        self._redguard = service

    @property
    def rooms(self) -> RoomsService:
        """Reverb zones and the headphone switch (feature ``rooms``)."""
        if self._rooms is None:
            raise self._off("rooms")
        return self._rooms

    @rooms.setter
    def rooms(self, service: RoomsService | None) -> None:
        self._rooms = service
