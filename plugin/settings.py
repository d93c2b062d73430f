"""Plugin settings: one frozen record, validated when it is made."""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass, field
from pathlib import Path

from soundscape.datafile import MAX_FILE_BYTES
from soundscape.errors import DataError

PROFILES = ("ac", "oni", "redguard", "modern")
"""The gain/pan/rate laws an emitter or channel bank can ask for (DESIGN.md)."""

FEATURES = ("audio", "ac", "redguard", "occlusion", "oni", "rooms")
"""Every runtime the plugin can install; ``Settings.features`` picks a subset."""

REDGUARD_TICK_S = 21 / 256
"""Redguard's nominal tick: lifetimes count 1/256 s and each update takes 21 per whole
nominal tick (seed 002), about 12.2 a second (SYSTEM.INI ``normal_frame_rate = 12``)."""

BACKENDS = ("auto", "pyglet", "offline", "none")
"""Where the mix goes (``Settings.backend``)."""

EVENT_LOG_KEEP = 10_000
"""The default ``Settings.event_log_keep``: the in-memory event log's latest records."""

WHEN_INACTIVE = ("pause", "play")

OUTPUTS = ("speakers", "headphones")
"""How positional ``modern`` voices reach the ears (``Settings.output``)."""

ONI_BUFFER_RATES = ("retail", "source")
"""How an Oni channel's buffer rate is chosen (``Settings.oni_buffer_rate``)."""
"""What a plugin's audio does while another esper world is current."""

EXTRA_KEYS = {
    "ac_origin_block": "ac (soundscape.ac.config.AcConfig)",
    "ac_ambient_enabled": "ac (soundscape.ac.config.AcConfig)",
    "oni_units_per_m": "oni and occlusion (soundscape.oni.config.OniConfig)",
    "redguard": "redguard (soundscape.redguard.config.RgConfig)",
}
"""Every key ``Settings.extra`` may hold, and the features' typed settings that read it."""


@dataclass(frozen=True, slots=True)
class Settings:
    """What a game chooses when it adds soundscape to its world.

    Attributes:
        seed: seeds every random stream; the same seed and inputs give the same mix.
        base_priority: every plugin processor runs below this esper priority, so
            the game's own processors (priority 0) move things first.
        tick_hz: the fixed clock rate (Oni and Redguard count 60 Hz ticks).
        profile: the default law for emitters that name none.
        features: which runtimes to install.
        backend: ``"auto"`` (the default: a real player on pyglet's audio driver
            when one opens, else pyglet's silent driver with one warning; the game
            runs on either way), ``"pyglet"`` (the same, but a pyglet that cannot
            load its media module is an error, not a fallback), ``"offline"``
            (render each tick into memory, for captures and tests; keeps every
            rendered sample, about 1.4 GB a game hour at 48 kHz, unless
            ``offline_wav_path`` streams it to a file instead) or ``"none"``
            (no audio at all: events only).
        when_world_inactive: what the audio does while another esper world is
            current (``esper.switch_world`` to a menu or another level): ``"pause"``
            (the default: the output is silent and every voice holds its place; it
            resumes where it stopped when the plugin's world is current again) or
            ``"play"`` (the last mix goes on playing: for a game that processes
            several worlds every frame, or keeps a world's music over a menu).
        output: ``"speakers"`` (the default: positional voices are panned between two
            speakers) or ``"headphones"`` (the ``modern`` bank's positional mono voices
            go through a head model: interaural delay, head shadow, a front/back cue;
            feature ``rooms``, switchable at run time with ``plugin.rooms.output``).
        sample_rate_hz: the mixer's output rate.
        block_frames: the mixer's block size.
        event_log_path: stream the event log to this JSON-lines file (every record,
            whatever ``event_log_keep`` keeps in memory).
        offline_wav_path: with the ``"offline"`` backend, write the mix to this
            16-bit WAV file as it renders and keep none of it in memory
            (``OfflineBackend.stream_wav``; the sizes are patched at ``uninstall``).
        event_log_keep: how many of the latest event records the in-memory log
            keeps (default 10,000; None keeps every record: a render or a test,
            not an hours-long game): docs/events.md.
        max_file_bytes: the largest file soundscape reads whole (a WAV, a TOML
            data file, a packed desc; default 64 MiB, ``datafile.MAX_FILE_BYTES``;
            None: no cap). Every file must be a regular file; a path written in
            a data file resolves inside that file's folder, a sound name inside
            ``sound_root``.
        ambient_volume: AC ``SoundManager::ambient_sound_volume`` (the slider).
        effect_volume: AC ``SoundManager::effect_sound_volume``.
        sound_root: folder the sound bank resolves names in (None: synthesised only).
        stream_threshold_s: a sound file longer than this many seconds is streamed (a
            voice decodes it a piece at a time into a ring of ``stream_ring_s``
            seconds instead of the bank holding it whole); None streams only what
            ``SoundBank.stream`` asks for. Default 30 s (a 30 s 48 kHz stereo sound
            decoded whole is 11 MB).
        stream_ring_s: seconds of decoded audio each streamed voice keeps ahead
            (at least 1; default 2).
        oni_buffer_rate: ``"retail"`` (the default, seed 001 l.86, 0x485460): every Oni
            voice plays at 22,050 x pitch Hz whatever its file's rate, so a 44.1 kHz
            file sounds an octave low (one ``rate_mismatch`` event per such sound);
            ``"source"``: at the file's own rate x pitch.
        redguard_tick_s: the Redguard runtime's nominal tick in seconds (default
            21/256 s, seed 002): its maintenance, tasks, dialogue and RTX cache run
            once a plugin frame in which at least one whole nominal tick elapsed, and
            count lifetimes, the periodic reset and cache ages in those ticks.
        speed_of_sound_mps: ``c`` of the doppler shift of generic emitters
            (343 m/s, air at 20 C; OpenAL's ``AL_SPEED_OF_SOUND``).
        doppler_factor: scales the velocities in the doppler shift (OpenAL's
            ``AL_DOPPLER_FACTOR``): 1 real, 0 none, more to exaggerate.
        limiter: the master limiter on the mixer's output (default True: a soft-knee
            peak limiter after the master gain, no latency, untouched below -4 dBFS;
            ``soundscape.audio.limiter``). False: the output is exactly what the
            laws make, peaks over full scale included (the retail runtimes had no
            limiter: the golden hash and the Miles bit-exact tests run with it off).
        extra: the runtimes' own settings, one key each (``EXTRA_KEYS``); each
            feature reads its keys into a typed, validated config when it installs
            (``AcConfig``, ``OniConfig``, ``RgConfig``). An unknown key is refused.
    """

    seed: int = 0
    base_priority: int = -100
    tick_hz: int = 60
    profile: str = "modern"
    features: tuple[str, ...] = FEATURES
    backend: str = "auto"
    sample_rate_hz: int = 48_000
    block_frames: int = 1024
    event_log_path: Path | None = None
    event_log_keep: int | None = EVENT_LOG_KEEP
    offline_wav_path: Path | None = None
    max_file_bytes: int | None = MAX_FILE_BYTES
    ambient_volume: float = 1.0
    effect_volume: float = 1.0
    sound_root: Path | None = None
    redguard_tick_s: float = REDGUARD_TICK_S
    when_world_inactive: str = "pause"
    output: str = "speakers"
    stream_threshold_s: float | None = 30.0
    stream_ring_s: float = 2.0
    oni_buffer_rate: str = "retail"
    speed_of_sound_mps: float = 343.0
    doppler_factor: float = 1.0
    limiter: bool = True
    extra: dict[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.profile not in PROFILES:
            raise ValueError(
                f"Settings.profile: unknown profile {self.profile!r}; one of {PROFILES}"
            )
        unknown = [f for f in self.features if f not in FEATURES]
        if unknown:
            raise ValueError(f"Settings.features: unknown feature(s) {unknown}; known: {FEATURES}")
        if self.backend not in BACKENDS:
            raise ValueError(f"Settings.backend: {self.backend!r} is not one of {BACKENDS}")
        if self.output not in OUTPUTS:
            raise ValueError(f"Settings.output: {self.output!r} is not one of {OUTPUTS}")
        if self.when_world_inactive not in WHEN_INACTIVE:
            raise ValueError(f"Settings.when_world_inactive: {self.when_world_inactive!r} "
                             f"is not one of {WHEN_INACTIVE}")
        if self.oni_buffer_rate not in ONI_BUFFER_RATES:
            raise ValueError(f"Settings.oni_buffer_rate: {self.oni_buffer_rate!r} is not one "
                             f"of {ONI_BUFFER_RATES}")
        if not isinstance(self.limiter, bool):
            raise ValueError(f"Settings.limiter must be True or False, got {self.limiter!r}")
        if self.tick_hz <= 0:
            raise ValueError(f"Settings.tick_hz must be positive, got {self.tick_hz}")
        for name, low in (("speed_of_sound_mps", 1e-9), ("doppler_factor", 0.0)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
                    math.isfinite(value) and value >= low):
                raise ValueError(f"Settings.{name} must be a finite number"
                                 f"{' above 0' if low else ' of 0 or more'}, got {value!r}")
        if self.sample_rate_hz <= 0 or self.block_frames <= 0:
            raise ValueError("Settings.sample_rate_hz and Settings.block_frames must be positive")
        tick_s = self.redguard_tick_s
        if isinstance(tick_s, bool) or not isinstance(tick_s, (int, float)) or not (
                math.isfinite(tick_s) and tick_s > 0.0):
            raise ValueError(f"Settings.redguard_tick_s must be a positive finite number of "
                             f"seconds, got {tick_s!r}")
        if not isinstance(self.extra, dict):
            raise ValueError(f"Settings.extra must be a dict, got {type(self.extra).__name__}")
        for key in self.extra:
            if key not in EXTRA_KEYS:
                close = difflib.get_close_matches(str(key), EXTRA_KEYS, n=1)
                hint = f"did you mean {close[0]!r}? " if close else ""
                raise DataError("Settings", "extra", str(key),
                                f"unknown setting; {hint}known: {sorted(EXTRA_KEYS)}")
        for name in ("event_log_keep", "max_file_bytes"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or value < 1):
                raise ValueError(f"Settings.{name} must be a positive integer or None, "
                                 f"got {value!r}")
        threshold = self.stream_threshold_s
        if threshold is not None and (isinstance(threshold, bool) or not isinstance(
                threshold, (int, float)) or not (math.isfinite(threshold) and threshold >= 0)):
            raise ValueError(f"Settings.stream_threshold_s must be seconds >= 0 or None, "
                             f"got {threshold!r}")
        ring = self.stream_ring_s
        if isinstance(ring, bool) or not isinstance(ring, (int, float)) or not (
                math.isfinite(ring) and 1.0 <= ring <= 60.0):
            raise ValueError(f"Settings.stream_ring_s must be 1..60 seconds, got {ring!r}")
        for name in ("ambient_volume", "effect_volume"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value >= 0.0):
                raise ValueError(f"Settings.{name} must be finite and >= 0, got {value!r}")
