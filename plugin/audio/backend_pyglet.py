"""The pyglet backend: the mixer as one ``StreamingSource`` on one ``Player``.

pyglet's driver worker thread pulls float32 stereo from ``MixerSource``
(``is_precise()`` true, 48 kHz by default; 16-bit when an OpenAL lacks
``AL_EXT_float32``); the game thread only appends voice commands
(``soundscape.audio.commands``), so nothing on the audio side waits for it. The
stream is endless (no duration, never None), and pyglet's audio/clock sync is
switched off for it (a live mix follows no timeline; the sync would pad or skip
frames).

The queued audio is short so a voice is heard soon after it starts: through
OpenAL (and XAudio2) ``soundscape.audio.output_buffer.OutputBuffer`` sets the
driver player's refill sizes, starting at 40 ms (pyglet's own floor is 85 ms),
growing after an underrun (one ``mixer``/``underrun`` event with the new
``length_ms``) and shrinking back slowly. Other drivers keep 0.08 s (85 ms).

A lost OpenAL device (``ALC_CONNECTED`` 0) is noticed at the next pull
(``soundscape.audio.device_watch``): nothing more renders into it, one
``mixer``/``device_lost`` event, the player stops, and every second the backend
tries to open a device again (``reopen()``; one ``mixer``/``reopened`` event
when one opens).

Driver preference: OpenAL, PulseAudio, XAudio2, DirectSound, then silent. It
is written to ``pyglet.options['audio']`` only if the game left pyglet's default
there and ``pyglet.media`` has not been imported yet (this module imports
``pyglet.media`` only when a backend is made): a game's own choice wins.
With no device (the silent driver, no driver at all, or a driver that refuses
the stream) the plugin logs exactly one ``mixer``/``warning`` event and keeps
running; a render failure on the audio thread plays silence and is logged once
from the game thread. ``pyglet.media`` is imported through
``soundscape.audio.pyglet_media.import_media``, so no display is needed.

While another esper world is current (``Settings.when_world_inactive = "pause"``)
the source plays silence without rendering: every voice holds its place and
resumes there when the plugin's world is current again.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from soundscape.audio.device_watch import DeviceWatch
from soundscape.audio.mixer import Mixer
from soundscape.audio.openal_device import connected_probe, keep_gil_in_streaming_calls
from soundscape.audio.output_buffer import OutputBuffer
from soundscape.audio.pyglet_media import import_media

DRIVER_PREFERENCE = ("openal", "pulse", "xaudio2", "directsound", "silent")
BUFFER_S = 0.08
"""The fixed driver buffer of the drivers ``OutputBuffer`` does not size."""
SIZED_DRIVERS = ("openal",)
"""Drivers whose queued audio ``OutputBuffer`` sizes: pyglet's OpenAL player refills
to ``_buffered_data_ideal_size`` and restarts its AL source after it ran dry (the
restart is how an underrun is seen)."""
WORKER_NAP_S = 0.005
"""pyglet's worker thread wakes every 20 ms; with a 40 ms queue that leaves ~20 ms
queued at a refill, and a busy game thread can hold the worker off longer (each
ctypes or numpy call it makes gives the GIL back for up to a switch interval).
Woken every 5 ms, a refill finds ~35 ms left. The worker is the driver's, so the
game's own pyglet players are refilled as often (each pass is a few AL calls)."""
NO_SYNC_S = 1e9
"""Desync thresholds that pyglet's audio/clock sync never reaches: a live mix has
no timeline to keep up with, and the correction pads or skips frames (a click)."""


def pyglet_default_audio() -> tuple[str, ...]:
    """pyglet's own default for ``options['audio']`` (its ``Options`` dataclass field)."""
    import pyglet

    for field in dataclasses.fields(type(pyglet.options)):
        if field.name == "audio" and isinstance(field.default, tuple):
            return field.default
    return ()


def configure_pyglet_audio(preference: tuple[str, ...] = DRIVER_PREFERENCE) -> bool:
    """Set ``pyglet.options['audio']`` to ``preference`` when nobody chose one.

    The game's own choice wins: nothing changes once ``pyglet.media`` is imported
    (the driver is chosen then) or when ``options['audio']`` is no longer
    pyglet's default. Returns True when the preference was applied.
    """
    import pyglet

    if "pyglet.media" in sys.modules:
        return False
    if tuple(pyglet.options["audio"]) != pyglet_default_audio():
        return False
    pyglet.options["audio"] = tuple(preference)
    return True


def output_format(driver: Any) -> str:
    """``"F32"`` when the driver takes float32, else ``"S16"`` (an OpenAL without
    ``AL_EXT_float32``).

    >>> output_format(None)
    'F32'
    """
    formats = getattr(driver, "sample_formats", None)
    try:
        supported = tuple(formats) if formats is not None else ("F32",)
    except Exception:  # an OpenAL context that has gone away
        supported = ("S16",)
    return "F32" if "F32" in supported else "S16"


def _source_class() -> type:
    from pyglet.media.codecs.base import AudioData, AudioFormat, StreamingSource

    class MixerSource(StreamingSource):
        """An endless stream rendered by the mixer on pyglet's worker thread.

        ``get_audio_data(num_bytes, compensation_time=0.0)`` (pyglet 2.1's
        signature) always returns exactly ``num_bytes`` (``is_precise()``: pyglet
        asks for whole frames) and never None, so the player never reaches an end
        of stream. It never raises either: pyglet's worker thread has no handler,
        and an exception there would silence every player; a failed render is
        silence and ``error`` keeps the first failure for the game thread to log.
        """

        def __init__(self, mixer: Mixer, sample_format: str = "F32") -> None:
            super().__init__()
            self.mixer = mixer
            self.sample_format = sample_format
            if sample_format == "F32":
                self.audio_format: Any = AudioFormat(
                    channels=2, sample_size=32, sample_rate=mixer.sample_rate_hz,
                    sample_type="float")
            else:
                self.audio_format = AudioFormat(channels=2, sample_size=16,
                                                sample_rate=mixer.sample_rate_hz)
            self.video_format = None
            self._duration = None  # endless: the player schedules no end of stream
            self._timestamp_s = 0.0
            self._clip = np.zeros((mixer.block_frames, 2), dtype=np.float32)
            self.error: Exception | None = None
            self.active: Callable[[], bool] | None = None
            """False while the plugin's world is not current: silence, nothing renders."""
            self.paused_blocks = 0
            self.buffer: OutputBuffer | None = None
            """The queued-audio policy, when the driver's player is sized by it."""
            self.driver_player: Any = None
            """pyglet's driver audio player that pulls this source (sized after each pull)."""
            self.watch = DeviceWatch()
            self.lost_pulls = 0

        def is_precise(self) -> bool:
            return True

        def driver_started(self) -> None:
            """The driver (re)started its device source: after the first start, an
            underrun, unless the device is gone (a lost device stops every source)."""
            if self.buffer is not None and self.watch.check(None):
                self.buffer.started()

        def seek(self, timestamp: float) -> None:
            """An endless live stream: seeking does nothing."""

        def get_audio_data(self, num_bytes: int, compensation_time: float = 0.0) -> Any:
            frames = max(int(num_bytes) // self.audio_format.bytes_per_frame, 1)
            if self._clip.shape[0] < frames:
                self._clip = np.zeros((frames, 2), dtype=np.float32)
            clip = self._clip[:frames]
            try:
                if not self.watch.check(frames):
                    self.lost_pulls += 1  # a lost device: nothing renders into it
                    clip[:] = 0.0
                    return self._packet(clip, frames)
                if self.buffer is not None:
                    self.buffer.pull(frames)
                    size_driver_player(self.driver_player, self.buffer,
                                       self.audio_format.bytes_per_frame)
                if self.active is not None and not self.active():
                    self.paused_blocks += 1  # voices hold their place: nothing renders
                    clip[:] = 0.0
                else:
                    np.clip(self.mixer.render(frames), -1.0, 1.0, out=clip)
            except Exception as error:  # never into pyglet's worker thread
                if self.error is None:
                    self.error = error
                clip[:] = 0.0
            return self._packet(clip, frames)

        def _packet(self, clip: np.ndarray, frames: int) -> Any:
            if self.sample_format == "F32":
                data = clip.tobytes()  # the driver copies it into its own buffer
            else:
                data = (clip * 32767.0).astype("<i2").tobytes()
            duration = frames / self.mixer.sample_rate_hz
            packet = AudioData(data, len(data), self._timestamp_s, duration, [])
            self._timestamp_s += duration
            return packet

    return MixerSource


def size_driver_player(audio_player: Any, buffer: OutputBuffer, bytes_per_frame: int) -> None:
    """Make pyglet's driver player refill to ``buffer.length_frames`` (no 32 KiB floor)."""
    if audio_player is None:
        return
    audio_player._buffered_data_ideal_size = buffer.length_frames * bytes_per_frame
    audio_player._buffered_data_comfortable_limit = buffer.comfortable_frames * bytes_per_frame


def count_restarts(audio_player: Any, on_start: Callable[[], object]) -> bool:
    """Call ``on_start`` each time pyglet's OpenAL player (re)starts its AL source.

    pyglet plays the source once when the stream starts, and again in its worker
    whenever a refill finds it stopped: the queue ran dry, an underrun. That call
    is wrapped on this one source (no ctypes call added, nothing else changes).
    False when the player has no AL source (another driver).
    """
    alsource = getattr(audio_player, "alsource", None)
    if alsource is None:
        return False
    play = alsource.play

    def play_and_count() -> None:
        on_start()
        play()

    alsource.play = play_and_count
    return True


def open_driver(name: str) -> Any:
    """Delete pyglet's audio driver and open driver ``name`` anew (a new device).

    pyglet keeps one driver for the process (``pyglet.media.drivers._audio_driver``);
    the new one replaces it, so ``pyglet.media.get_audio_driver()`` returns it. A
    failure leaves no driver (None) and raises.
    """
    from pyglet.media import drivers

    old = getattr(drivers, "_audio_driver", None)
    drivers._audio_driver = None
    if old is not None:
        with contextlib.suppress(Exception):  # a device that went away may refuse to close
            old.delete()
    module = importlib.import_module(f"pyglet.media.drivers.{name}")
    driver = module.create_audio_driver()
    drivers._audio_driver = driver
    return driver


class PygletBackend:
    """Plays ``mixer`` through pyglet's preferred audio driver.

    Mute or scale the whole output with ``mixer.muted`` / ``mixer.master_gain``;
    they take effect at the next block the driver pulls (within the queued audio,
    ``output.length_s``).

    Attributes:
        driver_name: the driver pyglet chose (``"openal"``, ``"pulse"``, ``"silent"``...).
        player: the ``pyglet.media.Player``, or None when no device could play.
        source: the ``MixerSource`` (float32 stereo, or 16-bit when the driver
            has no float32).
        output: the ``OutputBuffer`` sizing the queued audio (OpenAL, XAudio2), or None.
        watch: the ``DeviceWatch`` (a lost OpenAL device, the reopen attempts).
    """

    def __init__(self, mixer: Mixer, events: Any = None, *, buffer_s: float = BUFFER_S,
                 preference: tuple[str, ...] = DRIVER_PREFERENCE,
                 active: Callable[[], bool] | None = None, fallback: bool = False,
                 output: OutputBuffer | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.mixer = mixer
        self.events = events
        self.player: Any = None
        self.source: Any = None
        self.output: OutputBuffer | None = None
        self.watch = DeviceWatch(clock=clock)
        self.buffer_s = buffer_s
        self._error_logged = False
        self.driver_name = "none"
        mixer.backend = self
        configure_pyglet_audio(preference)
        try:
            media = import_media()
        except Exception as error:  # no pyglet media here at all (Settings.backend "auto")
            if not fallback:
                raise
            self._warn(f"pyglet.media cannot be loaded: {error!r}; no sound")
            return
        driver = media.get_audio_driver()
        module = type(driver).__module__ if driver is not None else "none"
        self.driver_name = module.split(".")[-2] if "." in module else module
        if driver is None:
            self._warn("no audio driver could be opened: no sound")
        elif self.driver_name == "silent":
            self._warn("no audio device: pyglet uses its silent driver")
        self.source = _source_class()(mixer, output_format(driver))
        self.source.active = active
        self.source.watch = self.watch
        if self.driver_name in SIZED_DRIVERS:
            self.output = output if output is not None else OutputBuffer(mixer.sample_rate_hz)
            self.source.buffer = self.output
            keep_gil_in_streaming_calls()
        if driver is not None:  # the silent driver has warned already: once is enough
            self.watch.probe = connected_probe(driver)
            self._start(media.Player, driver, warn=self.driver_name != "silent")

    def _start(self, player_class: Any, driver: Any, warn: bool = True) -> None:
        """Queue the source on a new player and play it with a short driver buffer."""
        from pyglet.media.drivers.base import AbstractAudioPlayer

        saved = {name: getattr(AbstractAudioPlayer, name) for name in (
            "audio_buffer_length", "audio_desync_time_critical", "audio_desync_time_minor")}
        # read when the driver's audio player is made, inside play()
        AbstractAudioPlayer.audio_buffer_length = self.buffer_s
        AbstractAudioPlayer.audio_desync_time_critical = NO_SYNC_S
        AbstractAudioPlayer.audio_desync_time_minor = NO_SYNC_S
        try:
            player = player_class()
            player.queue(self.source)
            if self.output is not None:  # sized before its prefill, below pyglet's floor
                worker = getattr(driver, "worker", None)
                if worker is not None and worker._nap_time > WORKER_NAP_S:
                    worker._nap_time = WORKER_NAP_S
                player._create_audio_player()
                self.source.driver_player = player._audio_player
                size_driver_player(player._audio_player, self.output,
                                   self.source.audio_format.bytes_per_frame)
                count_restarts(player._audio_player, self.source.driver_started)
            player.play()
            self.player = player
        except Exception as error:  # a device that vanished or refuses the stream
            if warn:
                self._warn(f"audio driver {self.driver_name} cannot play: {error}")
        finally:
            for name, value in saved.items():
                setattr(AbstractAudioPlayer, name, value)

    def _warn(self, message: str) -> None:
        self._emit("warning", reason=message)

    def _emit(self, event: str, **fields: Any) -> None:
        if self.events is not None:
            self.events.emit("mixer", event, driver=self.driver_name, **fields)

    def on_tick(self, ticks: int) -> None:
        """Game thread, phase PUBLISH: report what the audio thread saw.

        A render failure (once), each underrun (its new length), a lost device
        (once, then a reopen attempt every ``watch.retry_s``).
        """
        source = self.source
        if source is None:
            return
        error = source.error
        if error is not None and not self._error_logged:
            self._error_logged = True
            self._warn(f"the mixer failed on the audio thread: {error!r}; silence")
        if self.output is not None:
            for length in self.output.take_underruns():
                self._emit("underrun", length_ms=round(length * 1000 / self.output.rate_hz, 1),
                           underruns=self.output.underruns)
        action = self.watch.tick()
        if action == "lost":
            self._emit("device_lost", reason="the output device is gone: sound stops "
                       f"until one opens again (tried every {self.watch.retry_s:g} s)")
            self._stop_player()
        elif action == "retry":
            self.reopen(quiet=True)

    def reopen(self, quiet: bool = False) -> bool:
        """Close the output, open pyglet's driver anew and play on; True when it plays.

        For a game that wants to move to a new default device itself. After a
        loss the backend calls it every ``watch.retry_s`` until a device opens
        (``quiet``: a failed attempt logs nothing). Voices hold their place while
        there is no device and go on where they were. pyglet has one driver per
        process: a game's own ``pyglet.media.Player`` objects made on the old
        driver must be made again.
        """
        if self.source is None or self.driver_name == "none":
            return False
        self._stop_player()
        try:
            driver = open_driver(self.driver_name)
        except Exception as error:
            if not quiet:
                self._warn(f"audio driver {self.driver_name} cannot open a device: {error}")
            return False
        from pyglet.media import Player

        self.source.driver_player = None
        if self.output is not None:
            self.output.restart()
        self.watch.reopened(connected_probe(driver))
        self._start(Player, driver, warn=not quiet)
        if self.player is None:
            return False
        self._emit("reopened", length_ms=None if self.output is None
                   else round(self.output.length_s * 1000, 1))
        return True

    def _stop_player(self) -> None:
        if self.player is not None:
            player, self.player = self.player, None
            try:
                player.pause()
                player.delete()
            except Exception:  # a lost device may refuse; the player is gone either way
                pass
        if self.source is not None:
            self.source.driver_player = None

    def close(self) -> None:
        """Stop and delete the player."""
        self._stop_player()
