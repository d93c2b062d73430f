"""The Redguard sample layer: 16 channels, the shared start index, master volume.

Every effect start goes through ``RedguardRuntime.start``: rate
``clamp(wrap32(sample_rate + offset), 512, 44000)``, the header loop flag, the
first idle channel at or above the start index (none idle drops the sound; a
playing sound is never stolen), the owner and the requested effect index kept
on the channel, and the volume sent to Miles as ``(v x master) >> 8``.

Handles name a reusable **slot**, not a start (retail): the runtime keeps slot
indices and every per-slot operation acts on whatever sample the slot holds now,
without comparing owner or effect.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import esper
import numpy as np

from soundscape.audio.channels import ChannelBank
from soundscape.components.redguard import RgObject
from soundscape.components.spatial import Position
from soundscape.context import Context
from soundscape.errors import InputError
from soundscape.laws import redguard as law
from soundscape.listener import first_active
from soundscape.redguard.args import int_arg
from soundscape.redguard.config import RgConfig
from soundscape.redguard.dialogue import DialogueTable
from soundscape.redguard.effects import EffectBank
from soundscape.redguard.emitter import EnginePoint, emitter_position, engine_point
from soundscape.redguard.engine_sounds import EngineSounds
from soundscape.redguard.maintenance import restore_saved_state, world_loop_entry, world_teardown
from soundscape.redguard.rtx import RtxCache, RtxStore
from soundscape.redguard.script import ScriptCalls
from soundscape.redguard.surface import SurfaceRemap
from soundscape.redguard.surface_value import GroundSupport, SurfaceTypes, apply_support
from soundscape.redguard.system import NominalTicks
from soundscape.redguard.tasks import TaskList

if TYPE_CHECKING:
    from soundscape.redguard.game_folder import RgGameFolder

SOURCE = "redguard"
START_INDEX_PLAYER = law.START_INDEX_PLAYER
START_INDEX_COMBAT = law.START_INDEX_COMBAT
START_INDEX_SHARED = law.START_INDEX_SHARED
NO_OWNER = -1


class RedguardRuntime:
    """Channels, effects, listener and the shared sample state of the Redguard runtime.

    Attributes:
        bank: the 16-channel ``ChannelBank`` (policy and profile ``redguard``).
        effects: MAIN.SFX (``EffectBank``); ``surface``: the SURFACE.INI remap;
        ``surface_types``: its ``[surfaces]`` section (``ground_support``).
        start_index: the shared start index (0 at boot until a start resets it).
        master: SYSTEM.INI volume / the Sound slider (``set_master``).
        reset_flag: the shared sample-reset flag (set by the periodic reset and
            save restores; cleared by the next maintenance).
        listener: the camera's engine point; ``yaw``: its 2048-unit yaw.
        player: the selected player's entity (None: the listener stands in).
        rtx_store / rtx: the RTX clips and the 20-entry cache; dialogue: the records;
        tasks: running native tasks (AmbientSound, AmbientRTX, RTX, RTXp).
        script: the SOUP sound functions (``ScriptCalls``); engine: animation
        PlaySound, combat hits, ropes and the torch (``EngineSounds``).
        accumulator / inhibit: the periodic-reset tick count and its inhibition.
        nominal: the whole nominal ticks each plugin frame steps (``NominalTicks``).
        player_lockout / menu_state: what the player controller samples.
        dialog_state: DialogBegin / DialogEnd's word; topic_menu_pending /
        topic_menu_delay: the topic-menu words rtxAnim clears.
    """

    def __init__(self, ctx: Context, bank: ChannelBank, config: RgConfig | None = None) -> None:
        self.ctx, self.bank = ctx, bank
        self.config = config or RgConfig()
        self.effects = EffectBank(ctx.sounds, 0, ctx.events, ctx.settings.max_file_bytes)
        self.surface = SurfaceRemap()
        self.surface_types = SurfaceTypes()
        self.start_index = START_INDEX_PLAYER
        self.master = self.config.master_volume
        self.reset_flag = False
        self.listener: EnginePoint = (0, 0, 0)
        self.yaw = 0
        self._camera_reported = False
        self.player: int | None = None
        self.radius = self.config.radius
        self.units_per_m = self.config.units_per_m
        self.events = ctx.events
        self.rtx_store = RtxStore(ctx.sounds, ctx.events, ctx.settings.max_file_bytes)
        self.rtx = RtxCache(self, self.rtx_store)
        self.dialogue = DialogueTable(self, self.config.dialogue_records)
        self.tasks = TaskList(self)
        self.accumulator = 0
        self.inhibit = False
        self.player_lockout = 0
        self.menu_state = 0
        self.dialog_state = 0
        self.topic_menu_pending = 0
        self.topic_menu_delay = 0
        self.engine = EngineSounds(self)
        self.script = ScriptCalls(self)
        self.nominal = NominalTicks(ctx.clock, ctx.settings.redguard_tick_s)
        """Whole nominal ticks (``Settings.redguard_tick_s``) the Redguard frame steps."""
        self.game_folder: RgGameFolder | None = None
        """The retail game folder ``load_game_folder`` opened, if any."""

    # -- configuration and retail data -------------------------------------------

    def apply_config(self, config: RgConfig) -> None:
        """Run on ``config`` from now: radius, master and effect count at once; the
        dialogue records are re-made (empty) when their number changes."""
        self.config = config
        self.radius = config.radius
        self.master = config.master_volume
        self.units_per_m = config.units_per_m
        self.effects.count = config.effect_count
        if len(self.dialogue.records) != config.dialogue_records:
            self.dialogue = DialogueTable(self, config.dialogue_records)

    def load_game_folder(self, path: str | Path) -> RgGameFolder:
        """Run on the retail game's own files: SYSTEM.INI, SURFACE.INI, the RTX file
        and SOUND/MAIN.SFX in the folder ``path`` (``soundscape.redguard.game_folder``).

        Opening reads the INI files, MAIN.SFX's effect headers and the RTX index;
        an effect's PCM is read when it first plays, an RTX line when first looked
        up. A folder opened before is closed.

        Raises:
            DataError: a missing or malformed file (names the file, the offset or
                section, and the field).
        """
        from soundscape.redguard.game_folder import open_game_folder

        previous = self.game_folder
        self.game_folder = open_game_folder(self, path)
        if previous is not None:
            previous.close()
        self.events.emit(SOURCE, "game_folder", sound=str(path),
                         effects=self.game_folder.sfx.count, lines=len(self.game_folder.rtx))
        return self.game_folder

    # -- listener and curve ---------------------------------------------------

    def refresh_listener(self) -> None:
        """Sample the render camera: the first active ``Listener`` (``soundscape.listener``).

        A camera that is not finite (position or heading), or too far out to be
        engine units, keeps the last good sample (logged once until the camera
        is good again).
        """
        found = first_active()
        if found is None:
            return
        point = None
        if found.finite:
            position = found.position
            point = engine_point(position.x_m, position.y_m, position.z_m, self.units_per_m)
        if point is not None:
            self.listener = point
            self.yaw = law.yaw_from_heading_rad(found.heading_rad)
        bad = point is None
        if bad and not self._camera_reported:
            self.events.emit(SOURCE, "skip", reason="camera not finite", caller="camera")
        self._camera_reported = bad

    def emitter(self, entity: int) -> EnginePoint | None:
        """``entity``'s emitter point by the seed's rules."""
        return emitter_position(entity, self.units_per_m)

    def script_curve(self, caller: int, off: int = 0) -> tuple[int, int, int] | None:
        """(d, volume, pan) of a script sound on ``caller`` with offset ``off``.

        From the caller's emitter point by the seed's rules. A code object (no
        world object: no ``Position``, or a plain id that is no entity) is heard
        at the listener, centred: (0, clamp(127 + off), 64). None for a world
        object whose position is not finite.
        """
        point = self.emitter(caller)
        if point is not None:
            return self.measure(point, off)
        if esper.entity_exists(caller) and esper.has_component(caller, Position):
            return None
        return 0, law.volume(0, off, self.config.sound_distance), law.PAN_CENTRE

    def distance_to_listener(self, point: EnginePoint) -> int:
        """Whole world units from the camera to ``point`` (``laws.redguard.distance``)."""
        lx, ly, lz = self.listener
        return law.distance(point[0] - lx, point[1] - ly, point[2] - lz)

    def measure(self, point: EnginePoint, off: int = 0) -> tuple[int, int, int]:
        """(d world units, volume 0..127, pan 1..127) of a sound at ``point``."""
        lx, ly, lz = self.listener
        dx, dz = point[0] - lx, point[2] - lz
        d = law.distance(dx, point[1] - ly, dz)
        return d, law.volume(d, off, self.config.sound_distance), law.pan(dx, dz, self.yaw)

    def curve(self, point: EnginePoint, off: int = 0) -> tuple[int, int]:
        """(volume 0..127, pan 1..127) of a sound at ``point`` with offset ``off``."""
        _d, volume, pan = self.measure(point, off)
        return volume, pan

    # -- starting -------------------------------------------------------------

    def start(
        self,
        effect: int,
        rate_offset: int,
        volume: int,
        pan: int,
        owner: int = NO_OWNER,
        *,
        requested: int | None = None,
        start_index: int | None = None,
        caller: str = "Sound",
        log_drop: bool = True,
    ) -> int | None:
        """Start ``effect``; the channel slot, or None (out of range, missing, dropped).

        ``requested`` is the effect index before a SURFACE remap (default
        ``effect``). ``start_index`` set runs the special-caller path: the shared
        index is set to it for the start and restored to 6 afterwards.
        """
        requested = effect if requested is None else requested
        record = self.effects.get(effect)
        if record is None:
            self.events.emit(SOURCE, "skip", sound=effect, reason="effect out of range",
                             caller=caller, owner=owner, requested=requested)
            if start_index is not None:
                self.start_index = START_INDEX_SHARED
            return None
        rate = law.playback_rate(record.sample_rate_hz, rate_offset)
        return self.start_named(record.sound_name, rate, volume, pan, owner, loop=record.loops,
                                effect=requested, start_index=start_index, caller=caller,
                                log_drop=log_drop)

    def start_named(
        self,
        sound: str,
        rate_hz: int,
        volume: int,
        pan: int,
        owner: int = NO_OWNER,
        *,
        loop: bool = False,
        effect: int = -1,
        start_index: int | None = None,
        caller: str = "Sound",
        log_drop: bool = True,
        bus: str = "sfx",
    ) -> int | None:
        """Start a registered sound at ``rate_hz`` on the first idle channel (on ``bus``:
        effects on ``sfx``, RTX speech on ``dialogue``)."""
        if start_index is not None:
            self.start_index = start_index
        index = self.start_index
        if start_index is not None:
            self.start_index = START_INDEX_SHARED
        volume = law.clamp(int(volume), 0, law.VOLUME_MAX)
        pan = law.clamp(int(pan), 0, law.VOLUME_MAX)
        for channel in self.bank.channels[max(index, 0):]:
            if not channel.playing:
                break
        else:
            # None idle: dropped, never stolen. Checked here first so a retrying
            # ambient task can log its drop once (the bank would log every retry).
            if log_drop:
                self.events.emit(self.bank.name, "drop", sound=sound, reason="no channel",
                                 priority=1, owner=owner, caller=caller)
            return None
        handle = self.bank.acquire(owner=owner, start_index=index, sound=sound)
        if handle is None:
            return None
        sent = law.miles_volume(volume, self.master)
        if not self.bank.play(handle, sound, volume=sent, pan=pan, rate_hz=rate_hz, loop=loop,
                              effect=effect, can_pan=True, bus=bus):
            return None
        self.events.emit(SOURCE, "rg_start", sound=sound, channel=handle.slot, gain=sent, pan=pan,
                         owner=owner, effect=effect, rate_hz=rate_hz, volume=volume,
                         start_index=index, caller=caller, loop=loop)
        return handle.slot

    # -- slots (a handle names a slot, not a start) ---------------------------

    def slot_playing(self, slot: int | None) -> bool:
        """Miles status 4 (playing) of whatever sample ``slot`` holds now."""
        channels = self.bank.channels
        return slot is not None and 0 <= slot < len(channels) and channels[slot].playing

    def stop_slot(self, slot: int | None, reason: str = "stop") -> bool:
        """Stop the slot's current sample, whoever started it."""
        if slot is None or not 0 <= slot < len(self.bank.channels):
            return False
        return self.bank.stop(self.bank.handle(self.bank.channels[slot]), reason)

    def set_slot_volume(self, slot: int, volume: int) -> None:
        """A volume set: sends ``(v x master) >> 8`` with the master of this moment."""
        if 0 <= slot < len(self.bank.channels):
            sent = law.miles_volume(law.clamp(int(volume), 0, law.VOLUME_MAX), self.master)
            self.bank.channels[slot].volume = float(sent)

    def set_slot_pan(self, slot: int, pan: int) -> None:
        if 0 <= slot < len(self.bank.channels):
            self.bank.channels[slot].pan = float(law.clamp(int(pan), 0, law.VOLUME_MAX))

    def set_master(self, master: int) -> None:
        """The menu Sound slider: reaches a playing sound only at its next volume set.

        ``master`` is the SYSTEM.INI ``volume`` scale (255 shipped, 256 the engine
        default before the file is read); a volume set sends ``(v x master) >> 8``.

        Raises:
            InputError: ``master`` is not a non-negative integer.
        """
        value = int_arg("set_master", "master", master)
        if value < 0:
            raise InputError(f"redguard set_master: master must be >= 0, not {value}")
        self.master = value
        self.events.emit(SOURCE, "master", gain=self.master)

    def ground_support(self, entity: int, support: GroundSupport, collision_mask: int) -> bool:
        """The actor's ground-support query found ``support``: its ``RgObject.surface``
        becomes that ground's surface value when ``collision_mask`` has 0x04
        (``soundscape.redguard.surface_value``); True when it was written.

        Raises:
            InputError: ``entity`` is not a Redguard object, or ``support`` is bad.
        """
        obj = esper.try_component(entity, RgObject) if esper.entity_exists(entity) else None
        if obj is None:
            raise InputError(f"redguard ground_support: entity {entity!r} is not a Redguard object")
        mask = int_arg("ground_support", "collision_mask", collision_mask)
        return apply_support(obj, self.surface_types, support, mask)

    def stop_all(self, reason: str = "stop all") -> int:
        """Stop every sample channel; the number stopped."""
        stopped = 0
        for slot in range(len(self.bank.channels)):
            stopped += self.stop_slot(slot, reason)
        return stopped

    def stop_matching(self, owner: int | None = None, effect: int | None = None,
                      reason: str = "stop") -> int:
        """Stop the channels whose owner and requested effect match (None: any)."""
        stopped = 0
        for channel in self.bank.channels:
            if not channel.playing:
                continue
            if owner is not None and channel.owner != owner:
                continue
            if effect is not None and channel.effect != effect:
                continue
            stopped += self.stop_slot(channel.index, reason)
        return stopped

    # -- world lifecycle (``soundscape.redguard.maintenance``) ------------------------

    def enter_world_loop(self) -> None:
        """World-loop entry: resets only the periodic-reset accumulator."""
        world_loop_entry(self)

    def world_teardown(self) -> None:
        """Leaving a world: every dialogue record cleared, the sound tasks dropped,
        all channels stopped. No dialogue line survives into the next world."""
        world_teardown(self)

    def restore_saved_state(self, restore: Callable[[], None] | None = None) -> None:
        """Loading SAVEGAME.SAV or a .TSG snapshot: RTX cache and dialogue cleared,
        channels stopped, then ``restore()`` (the game's records), then the shared
        sample-reset flag set (the next maintenance clears it)."""
        restore_saved_state(self, restore)

    def pcm_for(self, sound_name: str) -> tuple[np.ndarray, int] | None:
        """``(pcm, sample_bits)`` of an effect or RTX clip this runtime registered.

        The Miles integer path reads these: int16 for 16-bit PCM, uint8 for 8-bit.
        """
        return self.effects.pcm_for(sound_name) or self.rtx_store.pcm_for(sound_name)
