"""The typed seams where one feature meets another.

A feature never reaches into another with ``getattr``: it asks the ``Context``
whether the other is installed (``ctx.has("occlusion")``) and then talks to it
through one of these Protocols, so mypy checks both sides of every seam and a
feature can be replaced by anything with the same shape.

* ``Backend``: what the mixer's output (offline renderer, pyglet player) offers
  the PUBLISH phase (``soundscape.audio.backend_offline``, ``backend_pyglet``).
* ``OcclusionQuery``: what Oni's placed ambients and impulses ask the occlusion
  feature (``OSiCalc_PositionAndVolume`` uncached, and forgetting a record).
* ``OcclusionForEmitters``: what generic emitters (``Emitter(occlusion=True)``)
  ask the occlusion feature: the walls between a place and the listener, through
  the same rays and cache rule as Oni's records, under the modern law.
* ``OniForOcclusion``: what the occlusion feature asks Oni when it is installed:
  where its rays end (Oni's ears, ``OSrUpdate`` 0x514f20) and the flybys'
  impulses (``OSIm`` records, ``SSrImpulse_Play`` 0x480440).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from soundscape.occlusion.rules import OcclusionResult

Vec3 = tuple[float, float, float]


class Backend(Protocol):
    """An output the mixer renders to (``Mixer.backend``)."""

    def on_tick(self, ticks: int) -> object:
        """The PUBLISH phase stepped ``ticks`` whole ticks (offline renders their frames)."""
        ...

    def close(self) -> None:
        """Release the output (the plugin's ``uninstall``)."""
        ...


class OcclusionQuery(Protocol):
    """How loud a sound is through the walls (``ctx.occlusion``, seen from Oni)."""

    def query(self, place_xyz: Vec3, far: float, min_occlusion: float = 0.0, *,
              listener_xyz: Vec3 | None = None) -> OcclusionResult:
        """``OSiCalc_PositionAndVolume`` 0x511a00 without the cache."""
        ...

    def forget(self, entity: int) -> None:
        """Drop what is kept for a deleted record."""
        ...


class OcclusionForEmitters(Protocol):
    """The walls a generic emitter is heard through (``ctx.occlusion``, seen from audio)."""

    def hear_through(self, key: int, place: Vec3, listener: Vec3) -> tuple[int, float]:
        """(walls crossed, their summed ``transmission_db``), cached per ``key``."""
        ...

    def hear_through_many(self, keys: Sequence[int], place_of: Callable[[int], Vec3],
                          listener: Vec3) -> list[tuple[int, float]]:
        """``hear_through`` of each key, ``place_of(i)`` giving ``keys[i]``'s place."""
        ...

    def forget(self, entity: int) -> None:
        """Drop what is kept for ``key`` (an emitter gone)."""
        ...


class Ears(Protocol):
    """A listener place (world metres) and where it came from (``"none"``: no listener)."""

    @property
    def xyz(self) -> Vec3: ...

    @property
    def source(self) -> str: ...


class ImpulseRecord(Protocol):
    """The two fields of an ``OSIm`` record a flyby reads (0x30 far, 0x6c min occlusion)."""

    @property
    def far(self) -> float: ...

    @property
    def min_occlusion(self) -> float: ...


class OniForOcclusion(Protocol):
    """``ctx.oni`` as the occlusion feature sees it."""

    def update_listener(self) -> Ears:
        """``OSrUpdate`` 0x514f20: this tick's ears."""
        ...

    def impulse(self, name: str) -> ImpulseRecord | None:
        """The impulse record called ``name``, or None."""
        ...

    def play_impulse(self, name: str, pos: Vec3 | None, volume: float = 1.0) -> bool:
        """``SSrImpulse_Play`` 0x480440 at ``pos`` (world metres)."""
        ...
