"""Feature ``ac``: the Asheron's Call terrain-ambient runtime (seed 000).

``install(ctx)`` puts an ``AcRuntime`` on ``ctx.ac`` and returns the two systems:
``CellRebuildSystem`` (``CellManager::ChangePosition``: rebuild the weighting when
the listener's objcell changes) and ``AmbientPlaybackSystem`` (``Ambient::UseTime``:
play every deadline earlier than now). A game loads a region, adds landblocks
and moves an entity with ``Listener`` and ``Position``; everything else follows.

Example:
    >>> import esper
    >>> from soundscape import Settings, SoundscapePlugin
    >>> esper.switch_world("doctest-ac")
    >>> plugin = SoundscapePlugin(Settings(backend="none", features=("ac",))).install()
    >>> ac = plugin.context.ac
    >>> _ = ac.load_region({"terrain": [{"scenes": [0]}], "scene": [{"stb": 0}],
    ...     "stb": [{"id": 1, "sounds": [{"stype": "Ambient1", "volume": 0.5,
    ...         "base_chance": 0.0, "min_rate": 2.0, "max_rate": 2.0}]}],
    ...     "sound_table": [{"id": 1, "entry": [{"stype": "Ambient1", "sound": "wind",
    ...         "priority": 1, "probability": 1.0, "volume": 1.0}]}]})
    >>> _ = ac.add_landblock(0, 0, [0] * 81)
    >>> from soundscape.components import Listener, Position
    >>> _ = esper.create_entity(Listener(), Position(100.0, 0.0, 100.0))
    >>> esper.process(1 / 60)
    >>> [(r["sound"], r["db"]) for r in plugin.events.where(source="ac", event="play")]
    [('wind', -6)]
    >>> plugin.uninstall(); esper.switch_world("default"); esper.delete_world("doctest-ac")
"""

from __future__ import annotations

import bisect
import math
import operator
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import esper
import numpy as np

from soundscape.ac.accumulate import RebuildSnapshot, accumulate_ring
from soundscape.ac.ambient import Ambient
from soundscape.ac.config import AcConfig
from soundscape.ac.landscape import Landscape, build_landblock
from soundscape.ac.region import Region
from soundscape.ac.region_toml import load_region
from soundscape.ac.sound_manager import SOURCE, AcSoundManager
from soundscape.ac.sounds import AmbientSound, IntermitSound
from soundscape.components.ac import Landblock
from soundscape.components.spatial import Listener, Position
from soundscape.context import Context
from soundscape.errors import InputError
from soundscape.laws.ac import block_of
from soundscape.laws.angles import within_one_turn
from soundscape.listener import first_active, is_finite

if TYPE_CHECKING:
    from soundscape.ac.dat_load import AcDats

_FIRST = operator.itemgetter(0)
_SECOND = operator.itemgetter(1)


class AcRuntime:
    """The AC ambient runtime on ``ctx.ac``: region, landscape, ``Ambient``, ``CellManager``.

    Attributes:
        config: the runtime's settings (``AcConfig`` from ``Settings.extra``).
        region: the loaded region (None until ``load_region``).
        landscape: the loaded landblocks (synced from ``Landblock`` components).
        ambient: the ``Ambient`` state (sounds, total weight, heap).
        manager: the listener as ``SoundManager`` sees it, and the output.
        load_cell: the objcell of the last ``change_position`` (``load_pos``).
        last_rebuild: per-cell weights and directions of the latest rebuild.
        rebuilds: how many rebuilds ran.
    """

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.config = AcConfig.from_settings(ctx.settings.extra)
        self.manager = AcSoundManager(ctx, ctx.rng.msvc("ac"), self.config.origin_block,
                                      dice=ctx.rng.lecuyer("ac.random"))
        self.landscape = Landscape(self.manager.origin_block)
        self.ambient = Ambient(self.manager)
        self.region: Region | None = None
        self.load_cell: int | None = None
        self.curr_cell = False
        self.last_rebuild: RebuildSnapshot | None = None
        self.rebuilds = 0
        self._landblock_list: object = None
        # Landblock entities by id (their component), the usable ones' checked blocks,
        # and per (x, y) the usable entities there, oldest first (the first is loaded).
        self._block_entities: dict[int, Landblock] = {}
        self._usable: dict[int, Landblock] = {}
        self._block_keys: dict[tuple[int, int], list[int]] = {}
        self._listener_bad = False
        self._enabled = self.config.ambient_enabled
        self.ambient.enabled = self._enabled
        self.dats: AcDats | None = None

    # -- public API for games ----------------------------------------------------------

    def load_region(self, source: str | Path | Mapping[str, Any] | Region) -> Region:
        """Load the region (TOML path, parsed mapping, or a ``Region``); a new world.

        The previous ambient state is dropped (``Ambient::Destroy``) and the next
        tick rebuilds.
        """
        region = source if isinstance(source, Region) else load_region(
            source, self.ctx.settings.max_file_bytes)
        self.region = region
        self.landscape.set_region(region)
        self.ambient = Ambient(self.manager)
        self.ambient.enabled = self._enabled
        self.force_rebuild()
        return region

    def load_dat(self, portal: str | Path, cell: str | Path) -> AcDats:
        """Run on the retail client's ``client_portal.dat`` and ``client_cell_1.dat``.

        Reads the Region (0x13000000) now, sound tables and landblocks as they are
        needed (``soundscape.ac.dat_load``); a new world like ``load_region``.

        Raises:
            DataError: a missing or malformed file (names file, offset and field).
        """
        from soundscape.ac.dat_load import open_dats

        dats = open_dats(self.ctx, portal, cell)
        if self.dats is not None:
            self.dats.close()
        self.dats = dats
        self.load_region(dats.region.region)
        return dats

    def load_starter(self, block_x: int | None = None, block_y: int | None = None) -> int:
        """The starter meadow: a tiny packaged region, its synthesised sounds, one landblock.

        See ``soundscape.ac.starter.load_starter``; returns the landblock's entity.
        """
        from soundscape.ac.starter import load_starter

        return load_starter(self, block_x, block_y)

    def add_landblock(
        self,
        block_x: int,
        block_y: int,
        terrain_words: Sequence[int] | Sequence[Sequence[int]] | np.ndarray,
        heights_m: Sequence[float] | Sequence[Sequence[float]] | np.ndarray | None = None,
    ) -> int:
        """Create a ``Landblock`` entity (x-major 9x9 or 8x8 words and heights); its entity id.

        A landblock already loaded at (x, y) is replaced. Only this landblock is
        validated; the loaded ones are found by (x, y), not scanned, so loading
        landblocks costs time linear in their number.
        """
        block = build_landblock(block_x, block_y, terrain_words, heights_m)
        self._drop_landblocks((block_x, block_y))
        entity = esper.create_entity(block)
        self._note_landblock(entity, block, block)
        return entity

    def remove_landblock(self, block_x: int, block_y: int) -> bool:
        """Delete the ``Landblock`` entity at (x, y); False when none is loaded.

        Looks the landblock up by (x, y); one the game created as a component
        itself is picked up first (``sync_landblocks``) when none is known there.
        """
        key = (block_x, block_y)
        if key not in self._block_keys:
            self.sync_landblocks()
        return self._drop_landblocks(key, every=False)

    def _drop_landblocks(self, key: tuple[int, int], every: bool = True) -> bool:
        """Delete the landblock entities at ``key`` (the first, or ``every`` one)."""
        entities = self._block_keys.get(key)
        if not entities:
            return False
        for entity in list(entities) if every else entities[:1]:
            if esper.entity_exists(entity):
                esper.delete_entity(entity, immediate=True)
            self._forget_landblock(entity)
        return True

    def force_rebuild(self) -> None:
        """Rebuild on the next tick even if the objcell did not change."""
        self.load_cell = None

    @property
    def ambient_volume(self) -> float:
        """The ambient slider (``SoundManager::ambient_sound_volume``); applied twice."""
        return self.manager.ambient_volume

    @ambient_volume.setter
    def ambient_volume(self, value: float) -> None:
        if not (math.isfinite(value) and value >= 0.0):
            raise InputError(f"ac ambient_volume must be finite and >= 0, got {value!r}")
        self.manager.ambient_volume = float(value)

    @property
    def enabled(self) -> bool:
        """``SoundManager::ambient_sounds_enabled``: False stops adding, arming and playing."""
        return self._enabled

    @enabled.setter
    def enabled(self, value: bool) -> None:
        self._enabled = self.ambient.enabled = bool(value)

    def heap(self) -> list[tuple[float, str]]:
        """The armed deadlines, earliest first: (absolute seconds, ambient label)."""
        return [(t, sound.label) for t, sound in self.ambient.heap()]

    def sounds(self) -> list[AmbientSound]:
        """Every ambient sound object (``ConstantSound`` / ``IntermitSound``), creation order."""
        return list(self.ambient.sounds)

    def intermittent_slots(self) -> dict[str, list[tuple[int, float, float]]]:
        """Per intermittent sound label, its accumulated (direction, min m, max m) slots."""
        return {s.label: [(int(d), lo, hi) for d, lo, hi in s.slots()]
                for s in self.ambient.sounds if isinstance(s, IntermitSound)}

    def cell_weights(self) -> dict[int, float]:
        """Objcell id -> weight of every cell the latest rebuild added."""
        return self.last_rebuild.cell_weights() if self.last_rebuild else {}

    def objcell_at(self, position: Position, outdoors: bool = True) -> int:
        """The objcell id the runtime derives for a world position (0 off the landblocks)."""
        return self.landscape.derive_objcell(position.x_m, position.y_m, position.z_m, outdoors)

    # -- the frame ---------------------------------------------------------------

    def sync_landblocks(self) -> None:
        """Pick up added or removed ``Landblock`` components (esper's cache list identity).

        Only the entities the runtime does not know yet are validated (``_checked``);
        ``add_landblock`` registers its own at once, so a rebuild after adding one
        landblock validates nothing again.
        """
        found = esper.get_component(Landblock)
        if found is self._landblock_list:
            return
        self._landblock_list = found
        known = self._block_entities
        # The usual case (add_landblock / remove_landblock registered the change
        # already) is one pass in C: every entity known with the same component.
        if len(found) == len(known) and all(map(
                operator.is_, map(_SECOND, found), map(known.get, map(_FIRST, found)))):
            return
        current = dict(found)
        for entity in sorted(known.keys() - current.keys()):
            self._forget_landblock(entity)
        for entity, component in sorted(found, key=_FIRST):
            if known.get(entity) is not component:
                self._forget_landblock(entity)
                self._note_landblock(entity, component, self._checked(entity, component))

    def _note_landblock(self, entity: int, component: Landblock,
                        block: Landblock | None) -> None:
        """Register a landblock entity; load it if it is the first usable one at its (x, y)."""
        self._block_entities[entity] = component
        if block is None:
            return
        self._usable[entity] = block
        key = (block.block_x, block.block_y)
        entities = self._block_keys.setdefault(key, [])
        bisect.insort(entities, entity)
        if len(entities) > 1:
            self.ctx.events.emit(SOURCE, "error", error=f"two landblocks at {key}; first kept")
        self.landscape.put_block(key, self._usable[entities[0]])

    def _forget_landblock(self, entity: int) -> None:
        """Unregister a landblock entity; the next usable one at its (x, y) takes its place."""
        self._block_entities.pop(entity, None)
        block = self._usable.pop(entity, None)
        if block is None:
            return
        key = (block.block_x, block.block_y)
        entities = self._block_keys[key]
        entities.remove(entity)
        if entities:
            self.landscape.put_block(key, self._usable[entities[0]])
        else:
            del self._block_keys[key]
            self.landscape.drop_block(key)

    def _checked(self, entity: int, block: Landblock) -> Landblock | None:
        """``block`` if it is well formed; one built from its words and heights if it has
        no cells yet; None (logged) if it cannot be used."""
        try:
            if not block.cells:
                return build_landblock(block.block_x, block.block_y, block.terrain_words,
                                       block.heights_m or None)
            if len(block.cells) != 64 or not all(
                isinstance(c.terrain_word, int) and 0 <= c.terrain_word <= 0xFFFF
                and len(c.sw_vertex_m) == 3 and all(map(math.isfinite, c.sw_vertex_m))
                for c in block.cells
            ) or not (0 <= block.block_x <= 0xFF and 0 <= block.block_y <= 0xFF):
                raise InputError("needs 64 cells with 16-bit words and finite vertices")
        except (InputError, TypeError, ValueError) as error:
            self.ctx.events.emit(SOURCE, "error", entity=entity,
                                 error=f"landblock skipped: {error}")
            return None
        return block

    def listener_cell(self, listener: Listener, pos: Position) -> int | None:
        """The listener's objcell (set by the game, else derived); None for a bad listener."""
        if not is_finite(listener, pos):
            if not self._listener_bad:
                self.ctx.events.emit(SOURCE, "bad_listener", pos=pos.as_tuple(),
                                     reason="non-finite position or heading")
            self._listener_bad = True
            return None
        cell = listener.objcell_id
        if cell is None:
            cell = self.landscape.derive_objcell(pos.x_m, pos.y_m, pos.z_m, listener.outdoors)
        elif isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell <= 0xFFFFFFFF:
            if not self._listener_bad:
                self.ctx.events.emit(SOURCE, "bad_listener", reason=f"objcell_id {cell!r}")
            self._listener_bad = True
            return None
        self._listener_bad = False
        return cell

    def follow_listener(self) -> None:
        """Phase CELL_REBUILD: ``update_listener`` with the first active listener, if any
        (``soundscape.listener``)."""
        found = first_active()
        if found is not None:
            self.update_listener(found.listener, found.position)

    def update_listener(self, listener: Listener, pos: Position) -> None:
        """``SoundManager::SetPlayerPosition`` then ``CellManager::ChangePosition``."""
        if self.dats is not None:  # landblocks from the cell dat, around the listener
            self.dats.landblocks.prepare(self, listener, pos)
        cell = self.listener_cell(listener, pos)
        if cell is None:
            return
        origin = self.landscape.local_origin(cell, pos.x_m, pos.y_m, pos.z_m)
        manager = self.manager
        manager.player_cell, manager.player_origin = cell, origin
        # Whole turns drop out: degrees(1e308) is inf and sin(inf) a ValueError.
        manager.heading_rad = within_one_turn(listener.heading_rad)
        self.change_position(cell, origin, listener.outdoors)

    def change_position(self, cell: int, origin: tuple[float, float, float],
                        outdoors: bool) -> bool:
        """``CellManager::ChangePosition`` 0x4559b0; True when a rebuild ran.

        Objcell 0 resets (``FlushSoundTables``) once; otherwise work happens only
        when the objcell differs from ``load_pos`` or the current cell was missing.
        """
        if cell == 0:
            if self.load_cell != 0:
                self.ambient.flush_sound_tables()
                self.ctx.events.emit(SOURCE, "reset", previous=self.load_cell)
            self.load_cell, self.curr_cell = 0, False
            return False
        rebuilt = False
        if self.load_cell != cell or not self.curr_cell:
            self.curr_cell = self.landscape.has_cell(cell)
            if self.curr_cell:
                self.rebuild(cell, origin, outdoors)
                rebuilt = True
        self.load_cell = cell
        return rebuilt

    def rebuild(self, cell: int, origin: tuple[float, float, float], outdoors: bool) -> None:
        """InitSounds, add_ambient_sounds (outdoors only), UpdatePlayQueue, ReleaseSoundTables."""
        ambient, now = self.ambient, self.ctx.clock.now_s
        ambient.init_sounds(cell, origin)
        snap = None
        if outdoors and self.region is not None:
            ring = self.landscape.ring(block_of(cell))
            snap = accumulate_ring(ambient, self.region, ring, origin, self.ctx.events)
        self.last_rebuild = snap
        self.rebuilds += 1
        self.ctx.events.emit(
            SOURCE, "rebuild", objcell=cell, outdoors=outdoors,
            total=ambient.total_sound_count, sounds=len(ambient.sounds),
        )
        ambient.update_play_queue(now)
        ambient.release_sound_tables()


__all__ = ["AcRuntime"]
