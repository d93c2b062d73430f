"""Buses: the mix a game controls (``ctx.buses``).

A tree of named buses, by default ``master`` over ``music``, ``dialogue``,
``sfx``, ``ambience`` and ``ui``; a game adds its own
(``ctx.buses.add("footsteps", parent="sfx")``). Every voice belongs to one bus
(``Channel.bus``). A bus has:

* ``volume``: a linear gain 0..4 (anything else is an ``InputError``);
  ``fade_to(volume, seconds)`` moves it there in a straight line;
* ``muted``: its voices play on in silence;
* ``paused``: time stops for its voices (the channel banks hold their
  cursors, the mixer renders them silent and holds its own); unpausing goes on
  from the same frame.

A bus hears its parents: a voice's bus gain is the product of its bus's and
every ancestor's volume (0 where one is muted) and duck gain; a voice is paused
when its bus or an ancestor is.

Ducking (``duck(target, by, depth_db, attack_s, release_s)``): while any voice
of ``by`` (or a bus under it) is playing, ``target``'s gain falls to
``depth_db`` within ``attack_s`` and comes back within ``release_s`` after the
last one ends, moving in dB in straight lines. The sidechain is voice activity
(the game side's model, deterministic), not the signal level.

The tree lives on the game side. Phase PUBLISH steps fades and ducks by the
tick's time (``tick``) and, when a bus gain changed, sends the gains to the
mixer in the command stream (``commands.BUSES``); the mixer ramps each voice
from its old bus gain to the new one across the next block
(``soundscape.audio.mixer_buses``).

Example:
    >>> buses = Buses()
    >>> _ = buses.add("footsteps", parent="sfx")
    >>> buses["sfx"].volume = 0.5
    >>> buses["footsteps"].volume = 0.5
    >>> buses.gains()[buses.index("footsteps")]
    0.25
    >>> buses["music"].fade_to(0.0, 1.0)
    >>> buses.tick(0.5, set()); round(buses["music"].volume, 3)
    0.5
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from soundscape.errors import InputError

MAX_VOLUME = 4.0
"""A bus's volume is linear, 0..4 (+12 dB)."""
MASTER = "master"
DEFAULT_BUSES = ("music", "dialogue", "sfx", "ambience", "ui")
"""The buses under ``master`` in every tree."""
UNPAUSED_BY_PAUSE_ALL = "ui"
"""``pause_all`` pauses every bus but this one (menus click while the world is held)."""


def _volume(value: object, where: str) -> float:
    try:
        volume = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise InputError(f"{where}: volume {value!r} is not a number") from None
    if not (math.isfinite(volume) and 0.0 <= volume <= MAX_VOLUME):
        raise InputError(f"{where}: volume {value!r} must be a linear gain in 0..{MAX_VOLUME:g}")
    return volume


def _seconds(value: object, where: str, name: str = "seconds") -> float:
    try:
        seconds = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise InputError(f"{where}: {name} {value!r} is not a number") from None
    if not (math.isfinite(seconds) and seconds >= 0.0):
        raise InputError(f"{where}: {name} {value!r} must be finite and >= 0")
    return seconds


class Bus:
    """One named bus of the tree (made by ``Buses``, never directly)."""

    def __init__(self, tree: Buses, name: str, parent: Bus | None, index: int) -> None:
        self._tree, self.name, self.parent, self.index = tree, name, parent, index
        self._volume = 1.0
        self._muted = False
        self._paused = False
        self._fade: tuple[float, float, float, float] | None = None
        """(from, to, seconds done, seconds) of a ``fade_to`` under way."""
        self.duck_db = 0.0
        """The ducking on this bus now (dB, <= 0): the deepest of its duck rules."""

    def __repr__(self) -> str:
        return (f"Bus({self.name!r}, volume={self._volume:g}, muted={self._muted}, "
                f"paused={self._paused})")

    @property
    def volume(self) -> float:
        """Linear gain 0..4 (a fade under way moves it; setting it ends the fade)."""
        return self._volume

    @volume.setter
    def volume(self, value: float) -> None:
        self._volume = _volume(value, f"bus {self.name!r}")
        self._fade = None
        self._tree.changed = True

    @property
    def muted(self) -> bool:
        """True: its voices (and its children's) play on silently."""
        return self._muted

    @muted.setter
    def muted(self, value: bool) -> None:
        self._muted = bool(value)
        self._tree.changed = True

    @property
    def paused(self) -> bool:
        """True: time stops for its voices (and its children's); False resumes them."""
        return self._paused

    @paused.setter
    def paused(self, value: bool) -> None:
        self._paused = bool(value)
        self._tree.repause()

    @property
    def fading(self) -> bool:
        return self._fade is not None

    def fade_to(self, volume: float, seconds: float) -> None:
        """Move ``volume`` to ``volume`` in a straight line over ``seconds`` (0: at once)."""
        target = _volume(volume, f"bus {self.name!r} fade_to")
        duration = _seconds(seconds, f"bus {self.name!r} fade_to")
        if duration == 0.0:
            self.volume = target
            return
        self._fade = (self._volume, target, 0.0, duration)

    def step(self, dt_s: float) -> None:
        """Advance a fade by ``dt_s`` seconds."""
        if self._fade is None:
            return
        start, target, done, duration = self._fade
        done += dt_s
        if done >= duration:
            self._volume, self._fade = target, None
        else:
            self._volume = start + (target - start) * (done / duration)
            self._fade = (start, target, done, duration)
        self._tree.changed = True

    def own_gain(self) -> float:
        """This bus's own factor: 0 when muted, else volume x its duck."""
        if self._muted:
            return 0.0
        if self.duck_db == 0.0:
            return self._volume
        return self._volume * 10.0 ** (self.duck_db / 20.0)

    def lineage(self) -> Iterator[Bus]:
        """This bus, then its parent, up to ``master``."""
        bus: Bus | None = self
        while bus is not None:
            yield bus
            bus = bus.parent


@dataclass(slots=True)
class Duck:
    """One ducking rule: ``target`` falls by ``depth_db`` while ``by`` has a voice."""

    target: Bus
    by: Bus
    depth_db: float
    attack_s: float
    release_s: float
    level_db: float = 0.0
    """Where the duck is now (0 .. depth_db)."""

    def step(self, active: bool, dt_s: float) -> None:
        """Move ``level_db`` toward ``depth_db`` (active) or 0 in straight dB lines."""
        goal, span = (self.depth_db, self.attack_s) if active else (0.0, self.release_s)
        if span <= 0.0:
            self.level_db = goal
            return
        move = abs(self.depth_db) * dt_s / span
        delta = goal - self.level_db
        self.level_db = goal if abs(delta) <= move else self.level_db + math.copysign(move, delta)


class Buses:
    """The bus tree (``ctx.buses``): ``master`` over the ``DEFAULT_BUSES``."""

    def __init__(self) -> None:
        self._buses: dict[str, Bus] = {}
        self._list: list[Bus] = []
        self.ducks: list[Duck] = []
        self.changed = False
        """A gain changed since the mixer last had them (PUBLISH clears it); at
        first every gain is 1, as the mixer assumes."""
        self.paused_names: frozenset[str] = frozenset()
        """Buses paused now (themselves or by an ancestor): the banks hold their voices."""
        self._held: set[str] = set()
        """Buses ``pause_all`` paused (``resume_all`` unpauses these only)."""
        self._voice_buses: dict[str, tuple[int, bool]] = {}
        """``voice_bus`` by name, for ``_voice_key``: emptied when the tree or a pause changes."""
        self._voice_key: frozenset[str] = self.paused_names
        self._new(MASTER, None)
        for name in DEFAULT_BUSES:
            self.add(name)

    def _new(self, name: str, parent: Bus | None) -> Bus:
        bus = Bus(self, name, parent, len(self._list))
        self._buses[name] = bus
        self._list.append(bus)
        self._voice_buses = {}
        return bus  # gain 1: what the mixer assumes for a bus it was never sent

    # -- the tree ------------------------------------------------------------------

    def add(self, name: str, parent: str = MASTER) -> Bus:
        """A new bus ``name`` under ``parent``; an ``InputError`` for a name already
        used, an empty or non-string name, or an unknown parent."""
        if not isinstance(name, str) or not name:
            raise InputError(f"buses.add: bus name {name!r} must be a non-empty string")
        if name in self._buses:
            raise InputError(f"buses.add: there is already a bus {name!r}")
        up = self[parent]
        bus = self._new(name, up)
        self.repause()
        return bus

    def __getitem__(self, name: str) -> Bus:
        bus = self._buses.get(name) if isinstance(name, str) else None
        if bus is None:
            raise InputError(f"buses: no bus {name!r}; buses are {tuple(self._buses)}")
        return bus

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self._buses

    def __iter__(self) -> Iterator[Bus]:
        return iter(self._list)

    def __len__(self) -> int:
        return len(self._list)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._buses)

    def index(self, name: str) -> int:
        """The bus's index in the command stream (``VoiceParams.bus``)."""
        return self[name].index

    def voice_bus(self, name: str) -> tuple[int, bool]:
        """``(index, paused)`` of a voice on bus ``name`` (``VoiceParams.bus``; the bus or
        an ancestor paused): ``(0, False)`` for a name that is no bus. Every voice's params
        ask this every tick, so it is kept by name until the tree or a pause changes
        (``paused_names`` is replaced then)."""
        if self.paused_names is not self._voice_key:
            self._voice_buses, self._voice_key = {}, self.paused_names
        found = self._voice_buses.get(name)
        if found is None:
            found = (self.index(name) if name in self else 0, name in self.paused_names)
            self._voice_buses[name] = found
        return found

    def under(self, name: str) -> set[str]:
        """``name`` and every bus below it."""
        top = self[name]
        return {bus.name for bus in self._list if top in bus.lineage()}

    # -- pausing -------------------------------------------------------------------

    def repause(self) -> None:
        """Recompute ``paused_names`` (after a pause flag or the tree changed)."""
        self.paused_names = frozenset(
            bus.name for bus in self._list if any(b.paused for b in bus.lineage()))
        self._voice_buses = {}

    def pause_all(self) -> None:
        """Pause every bus but ``ui`` (and the buses under it); ``master`` stays
        unpaused so ``ui`` plays on. ``resume_all`` undoes exactly this."""
        keep = self.under(UNPAUSED_BY_PAUSE_ALL) if UNPAUSED_BY_PAUSE_ALL in self else set()
        for bus in self._list:
            if bus.name in keep or bus.name == MASTER or bus.paused:
                continue
            if any(b.name in keep for b in self._list if bus in b.lineage()):
                continue  # pausing it would pause ui
            bus._paused = True
            self._held.add(bus.name)
        self.repause()

    def resume_all(self) -> None:
        """Unpause the buses ``pause_all`` paused (a bus the game paused itself stays)."""
        for name in self._held:
            self._buses[name]._paused = False
        self._held.clear()
        self.repause()

    # -- ducking -------------------------------------------------------------------

    def duck(self, target: str, by: str, depth_db: float = -10.0, attack_s: float = 0.1,
             release_s: float = 0.6) -> Duck:
        """Lower ``target`` by ``depth_db`` while a voice of ``by`` (or under it) plays.

        A second call for the same pair replaces the rule. ``depth_db`` must be
        finite and <= 0, the times finite and >= 0 (else ``InputError``).
        """
        where = f"buses.duck({target!r}, by={by!r})"
        low, high = self[target], self[by]
        try:
            depth = float(depth_db)
        except (TypeError, ValueError):
            raise InputError(f"{where}: depth_db {depth_db!r} is not a number") from None
        if not (math.isfinite(depth) and depth <= 0.0):
            raise InputError(f"{where}: depth_db {depth_db!r} must be finite and <= 0")
        rule = Duck(low, high, depth, _seconds(attack_s, where, "attack_s"),
                    _seconds(release_s, where, "release_s"))
        self.ducks = [d for d in self.ducks if not (d.target is low and d.by is high)]
        self.ducks.append(rule)
        return rule

    def unduck(self, target: str, by: str) -> None:
        """Remove the rule for this pair (its duck ends at once)."""
        low, high = self[target], self[by]
        self.ducks = [d for d in self.ducks if not (d.target is low and d.by is high)]
        self._apply_ducks()

    def _apply_ducks(self) -> None:
        for bus in self._list:
            depth = min((d.level_db for d in self.ducks if d.target is bus), default=0.0)
            if depth != bus.duck_db:
                bus.duck_db = depth
                self.changed = True

    # -- every tick (phase PUBLISH) ------------------------------------------------

    def tick(self, dt_s: float, sounding: Iterable[str]) -> None:
        """Step fades and ducks by ``dt_s`` seconds; ``sounding``: the buses that have
        a playing, unpaused voice this tick."""
        for bus in self._list:
            if bus.fading:
                bus.step(dt_s)
        if not self.ducks:
            return
        active = set(sounding)
        for rule in self.ducks:
            by = rule.by
            hit = any(by in self._buses[name].lineage() for name in active if name in self)
            rule.step(hit, dt_s)
        self._apply_ducks()

    def gains(self) -> tuple[float, ...]:
        """Every bus's gain by index: the product of its own and its ancestors'."""
        out = []
        for bus in self._list:
            gain = 1.0
            for b in bus.lineage():
                gain *= b.own_gain()
            out.append(gain)
        return tuple(out)
