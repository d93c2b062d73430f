"""``DemoGame``: the demo's esper world with soundscape installed and the village in it.

The window and the headless tour drive the same game: they set the player's
``Walker`` input (or move her along the route) and call ``step(dt)``, which
runs esper once: the game's own processors (walking, the archer's bolts, the
village director) first, then soundscape's phases.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import esper

from soundscape import Settings, SoundscapePlugin, synth
from soundscape.audio.play2d import play_2d
from soundscape.components.spatial import Listener, Position
from soundscape.context import Context
from soundscape.demo_world.assets import ensure_assets
from soundscape.demo_world.director import Director
from soundscape.demo_world.population import populate
from soundscape.demo_world.village import Village, build_village
from soundscape.demo_world.walker import EAR_HEIGHT_M, Walker, WalkSystem, place_listener
from soundscape.demo_world.world import Terrain, generate_terrain
from soundscape.settings import FEATURES

TICK_S = 1.0 / 60.0
UI_CLICK = "ui_click"
"""The pause key's click: a ``play_2d`` on the ``ui`` bus, heard while the world is held."""
_game_ids = itertools.count()


class DemoGame:
    """The walk-around world.

    Args:
        seed: seeds the terrain and every soundscape random stream.
        backend: soundscape's backend: ``"pyglet"`` in the window, ``"offline"`` on tour.
        event_log_path: stream the event log here (JSON lines).
        start: where the player starts (x, z metres), default the village's west road.
        world_name: the esper world to build in (default a fresh one).
        settings_extra: ``Settings.extra`` for the runtimes.
        features: the soundscape features to install (default all of them).
    """

    def __init__(
        self,
        seed: int = 0,
        *,
        backend: str = "offline",
        event_log_path: Path | None = None,
        start: tuple[float, float] | None = None,
        heading_rad: float = 1.5707963,
        world_name: str | None = None,
        settings_extra: dict[str, object] | None = None,
        features: tuple[str, ...] | None = None,
    ) -> None:
        self.seed = seed
        self.previous_world = esper.current_world
        self.world_name = world_name or f"soundscape-demo-{next(_game_ids)}"
        esper.switch_world(self.world_name)
        self.terrain: Terrain = generate_terrain(seed)
        self.village: Village = build_village()
        settings = Settings(
            seed=seed,
            backend=backend,
            sound_root=ensure_assets(),  # the well's OGG (None: no well)
            event_log_path=event_log_path,
            extra=dict(settings_extra or {}),
            features=FEATURES if features is None else features,
        )
        self.plugin = SoundscapePlugin(settings).install()
        self.ctx: Context = self.plugin.context
        x, z = start if start is not None else self.village.spot("start").as_xz()
        self.walker = Walker()
        self.listener = Listener(heading_rad=heading_rad)
        self.position = Position(x, self.terrain.height_m(x, z) + EAR_HEIGHT_M, z)
        place_listener(self.listener, self.walker, self.village, x, z)
        self.player = esper.create_entity(self.position, self.listener, self.walker)
        esper.add_processor(WalkSystem(self.terrain, self.village), priority=20)
        self.population = populate(self)
        self.director = Director(self)
        esper.add_processor(self.director, priority=10)
        self.paused = False
        """P: the world's sound is held (every bus but ``ui``)."""
        if self.ctx.has("buses"):
            # the music ducks 10 dB under the villager's lines (Oni dialogue -> dialogue)
            self.ctx.buses.duck(target="music", by="dialogue", depth_db=-10.0, attack_s=0.1,
                                release_s=0.6)

    # -- running ----------------------------------------------------------------------

    def activate(self) -> None:
        """Make this game's esper world the current one (before ``step`` or drawing)."""
        esper.switch_world(self.world_name)

    def step(self, dt: float = TICK_S) -> None:
        """One frame: the game's processors, then soundscape's."""
        esper.process(dt)

    @property
    def now_s(self) -> float:
        return self.ctx.clock.now_s

    def teleport(self, x_m: float, z_m: float, heading_rad: float | None = None) -> None:
        """Put the player at a place (the tour's autopilot)."""
        self.position.x_m, self.position.z_m = x_m, z_m
        self.position.y_m = self.terrain.height_m(x_m, z_m) + EAR_HEIGHT_M
        if heading_rad is not None:
            self.listener.heading_rad = heading_rad
        place_listener(self.listener, self.walker, self.village, x_m, z_m)

    def toggle_torch(self) -> str:
        """Light or snuff the player's torch (Redguard effect 25); a status message."""
        village = self.director.redguard
        if village is None:
            return "no Redguard runtime: no torch"
        return "torch lit" if village.toggle_torch() else "torch out"

    def toggle_pause(self) -> str:
        """P: hold the world's sound (``pause_all``: every bus but ``ui``) or let it go
        on from where it was; a UI click (``play_2d`` on ``ui``) plays either way."""
        ctx = self.ctx
        if not ctx.has("buses"):
            return "no audio feature: nothing to pause"
        if UI_CLICK not in ctx.sounds.names():
            synth.add_to(ctx.sounds, UI_CLICK, synth.click(401, duration_s=0.03))
        self.paused = not self.paused
        (self.plugin.pause_all if self.paused else self.plugin.resume_all)()
        play_2d(ctx, UI_CLICK, volume=0.6)
        return "world sound paused (P resumes; UI sounds still play)" if self.paused \
            else "world sound resumed"

    def close(self) -> None:
        """Uninstall the plugin, delete the world, go back to the previous one."""
        esper.switch_world(self.world_name)
        self.plugin.uninstall()
        esper.switch_world(
            self.previous_world if self.previous_world != self.world_name else "default"
        )
        esper.delete_world(self.world_name)
