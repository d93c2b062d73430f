"""The headless tour: walk the fixed route, render the mix, log every event, save a frame.

``run_tour`` steps the game with a fixed 1/60 s ``dt`` in a loop (no sleeping),
so it runs as fast as the CPU allows. It writes into ``out_dir``:

* ``tour.wav``: the offline backend's mix of the whole tour;
* ``events.jsonl``: the plugin's event log, one JSON record a line, plus the
  tour's own ``tour`` records (where the player is, which terrain, indoors);
* ``tour.png``: one frame with the overlay on, drawn headless through EGL at
  ``png_at_s`` (default: at the waterfall behind the palisade, where rays,
  walls and bearings all show);
* ``tour_sound.png``: the walk's soundscape: a spectrogram of the mix, the left
  and right loudness over time and the route's stops marked
  (``soundscape.demo_world.sound_png``);

and a progress bar on stderr. The result carries the mix's integrated loudness
(BS.1770-style, K-weighted and gated) and true peak, and the master limiter's deepest
gain reduction.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from soundscape.ac.sounds import ConstantSound
from soundscape.audio.loudness import integrated_lufs, true_peak_dbfs
from soundscape.demo_world.audio_out import AudioRecorder
from soundscape.demo_world.game import TICK_S, DemoGame
from soundscape.demo_world.progress import ProgressBar
from soundscape.demo_world.route import ROUTE, Autopilot, route_for
from soundscape.demo_world.sound_png import Place
from soundscape.overlay.style import terrain_colour

DEFAULT_SECONDS = 240.0
PNG_LABEL = "behind the palisade"
"""The tour captures its PNG halfway through this dwell."""


@dataclass(slots=True)
class TourResult:
    """What a tour made and measured."""

    out_dir: Path
    seconds: float
    ticks: int
    wall_s: float
    plugin_s: float
    wav_path: Path | None = None
    events_path: Path | None = None
    png_path: Path | None = None
    png_view: object = None
    png_frame: np.ndarray | None = None
    sample_rate_hz: int = 0
    audio: np.ndarray | None = None
    missing: list[str] = field(default_factory=list)
    loudness_lufs: float = -math.inf
    """The whole mix's integrated loudness (``soundscape.audio.loudness``)."""
    true_peak_dbtp: float = -math.inf
    limiter_reduction_db: float | None = None
    """The master limiter's deepest gain reduction (None: no limiter)."""
    sound_png_path: Path | None = None
    sound_png_frame: np.ndarray | None = None

    @property
    def speed_x(self) -> float:
        """Tour seconds per wall-clock second."""
        return self.seconds / self.wall_s if self.wall_s > 0 else math.inf

    @property
    def tick_ms(self) -> float:
        """The plugin's mean cost per tick (game step, no drawing), milliseconds."""
        return 1000.0 * self.plugin_s / max(self.ticks, 1)

    def summary(self) -> str:
        """The tour's summary line: time, speed, loudness, true peak, limiting."""
        line = (f"tour: {self.seconds:g} s of game time in {self.wall_s:.2f} s "
                f"({self.speed_x:.1f}x real time, {self.tick_ms:.3f} ms a tick)")
        if self.audio_measured:
            line += (f"; loudness {self.loudness_lufs:.1f} LUFS integrated (BS.1770), "
                     f"true peak {self.true_peak_dbtp:.1f} dBTP")
            if self.limiter_reduction_db is not None:
                line += f", limiter up to {self.limiter_reduction_db:.1f} dB"
        return line

    @property
    def audio_measured(self) -> bool:
        return self.wav_path is not None


def voices(game: DemoGame) -> dict[str, float]:
    """Every playing channel's sound and volume (bank units), loudest kept per sound."""
    out: dict[str, float] = {}
    for bank in game.ctx.channels.values():
        for channel in bank.channels:
            if channel.playing and channel.sound is not None:
                out[channel.sound] = max(out.get(channel.sound, -math.inf), channel.volume)
    return out


def beds(game: DemoGame) -> dict[str, float]:
    """The AC constants' crossfaded volumes now (``ConstantSound::current_volume``) by sound.

    What the next re-fire of each terrain bed will play at; the louder desc is kept
    per sound. Empty without the AC runtime or its region.
    """
    ctx = game.ctx
    region = ctx.ac.region if ctx.has("ac") else None
    if region is None:
        return {}
    out: dict[str, float] = {}
    for sound in ctx.ac.sounds():
        if not isinstance(sound, ConstantSound) or sound.current_volume <= 0.0:
            continue
        table = region.sound_tables.get(sound.desc.stb_id)
        entries = table.entries.get(sound.sound_desc.stype) if table is not None else None
        if entries:
            name = entries[0].sound
            out[name] = max(out.get(name, 0.0), sound.current_volume)
    return out


def _arrive(game: DemoGame, pilot: Autopilot, t_s: float) -> None:
    """What the player does on arriving at a waypoint (light or snuff the torch)."""
    seg = pilot.segment(t_s)
    waypoint = seg.a
    village = game.director.redguard
    if waypoint.torch is not None and village is not None:
        village.set_torch(waypoint.torch)


def _listen(game: DemoGame, label: str) -> None:
    """A ``tour``/``listen`` record: what plays, how loud, in the middle of a dwell."""
    pos = game.position
    game.ctx.events.emit("tour", "listen", pos=pos.as_tuple(), label=label,
                         terrain=game.terrain.terrain_name(pos.x_m, pos.z_m),
                         outdoors=game.listener.outdoors, voices=voices(game), beds=beds(game))


PLACE_TICKS = 30
"""How often (ticks) the tour notes the terrain under the listener for ``tour_sound.png``."""


def _place(game: DemoGame, t_s: float) -> Place:
    pos = game.position
    terrain = game.terrain.cell_terrain(pos.x_m, pos.z_m)
    rgb = terrain_colour(terrain) if terrain is not None else terrain_colour(-1)
    return Place(t_s, rgb, bool(game.listener.outdoors))


def _measure(game: DemoGame, result: TourResult, audio: np.ndarray) -> None:
    """Integrated loudness, true peak and the limiter's deepest reduction of the mix."""
    rate = result.sample_rate_hz
    result.loudness_lufs = integrated_lufs(audio, rate)
    result.true_peak_dbtp = true_peak_dbfs(audio, rate)
    limiter = game.ctx.mixer.limiter if game.ctx.has("mixer") else None
    result.limiter_reduction_db = limiter.max_reduction_db if limiter is not None else None


def _sound_png(result: TourResult, audio: np.ndarray, pilot: Autopilot, places: list[Place],
               out_dir: Path) -> None:
    from soundscape.demo_world.sound_png import Mark, write_sound_png

    marks = [Mark(seg.start_s, seg.a.label) for seg in pilot.segments if seg.b is None]
    title = (f"the tour's soundscape: {result.seconds:g} s, integrated "
             f"{result.loudness_lufs:.1f} LUFS, true peak {result.true_peak_dbtp:.1f} dBTP; "
             f"left and right loudness (400 ms) under the spectrogram, the terrain between")
    result.sound_png_path = out_dir / "tour_sound.png"
    result.sound_png_frame = write_sound_png(result.sound_png_path, audio,
                                             result.sample_rate_hz, result.seconds, marks,
                                             places, title)


def png_time(pilot: Autopilot, label: str = PNG_LABEL) -> float:
    """The middle of the named dwell (the last tick if the route has none)."""
    for seg in pilot.segments:
        if seg.b is None and seg.a.label == label:
            return (seg.start_s + seg.end_s) / 2
    return pilot.seconds


def run_tour(
    seconds: float = DEFAULT_SECONDS,
    out_dir: Path = Path("out"),
    seed: int = 0,
    *,
    progress: bool = True,
    png: bool = True,
    png_at_s: float | None = None,
    keep_audio: bool = False,
) -> TourResult:
    """Walk the route for ``seconds`` of game time and write the tour's files.

    Raises:
        ValueError: ``seconds`` not positive and finite.
    """
    Autopilot(ROUTE, seconds)  # refuse bad seconds before opening any file
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    events_path = out_dir / "events.jsonl"
    game = DemoGame(seed, backend="offline", event_log_path=events_path)
    pilot = Autopilot(route_for(game.terrain), seconds)
    try:
        return _walk(game, pilot, out_dir, events_path, progress, png,
                     png_time(pilot) if png_at_s is None else png_at_s, keep_audio)
    finally:
        game.close()


def _walk(game: DemoGame, pilot: Autopilot, out_dir: Path, events_path: Path, progress: bool,
          png: bool, png_at_s: float, keep_audio: bool) -> TourResult:
    ticks = int(round(pilot.seconds / TICK_S))
    bar = ProgressBar(pilot.seconds) if progress else None
    recorder = AudioRecorder(game.ctx)
    result = TourResult(out_dir, pilot.seconds, ticks, 0.0, 0.0, events_path=events_path,
                        missing=list(game.population.missing))
    png_tick = min(int(png_at_s / TICK_S), ticks - 1)
    listen_ticks = {int((seg.start_s + seg.end_s) / 2 / TICK_S): seg.a.label
                    for seg in pilot.segments if seg.b is None}
    last_note = ""
    places: list[Place] = []
    started = time.perf_counter()
    for tick in range(ticks):
        x, z, heading = pilot.place(tick * TICK_S)
        game.teleport(x, z, heading)
        t0 = time.perf_counter()
        game.step(TICK_S)
        result.plugin_s += time.perf_counter() - t0
        note = pilot.label(tick * TICK_S)
        if note != last_note:
            last_note = note
            _arrive(game, pilot, tick * TICK_S)
            game.ctx.events.emit("tour", "waypoint", pos=(x, game.position.y_m, z), label=note,
                                 terrain=game.terrain.terrain_name(x, z),
                                 outdoors=game.listener.outdoors)
        if tick in listen_ticks:
            _listen(game, listen_ticks[tick])
        if tick % PLACE_TICKS == 0:
            places.append(_place(game, tick * TICK_S))
        if png and tick == png_tick:
            from soundscape.demo_world.capture import capture_png

            result.png_path = out_dir / "tour.png"
            result.png_view, result.png_frame = capture_png(game, result.png_path,
                                                            status=f"{note}  t={game.now_s:.1f}s")
        if bar is not None and tick % 30 == 0:
            bar.update(tick * TICK_S, note)
    audio = recorder.finish()
    result.sample_rate_hz = recorder.sample_rate_hz
    if audio is not None:
        result.wav_path = out_dir / "tour.wav"
        recorder.write(result.wav_path, audio)
        _measure(game, result, audio)
        if png:
            _sound_png(result, audio, pilot, places, out_dir)
        if keep_audio:
            result.audio = audio
    result.wall_s = time.perf_counter() - started
    if bar is not None:
        bar.finish(f"done: {result.speed_x:.1f}x real time")
    return result
