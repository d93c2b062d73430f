"""The pyglet backend: the mixer as one ``StreamingSource`` on one ``Player``.

pyglet's driver worker thread pulls float32 stereo from ``MixerSource``
(``is_precise()`` true, 48 kHz by default; 16-bit when an OpenAL lacks
``AL_EXT_float32``); the game thread only publishes snapshots, so nothing on
the audio side waits for it. The stream is endless (no duration, never None),
and pyglet's audio/clock sync is switched off for it (a live mix follows no
timeline; the sync would pad or skip frames). The driver buffer is short
(``AbstractAudioPlayer.audio_buffer_length`` 0.08 s; pyglet keeps at least
32 KiB, 85 ms of float stereo) so voice changes are heard quickly.

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

import dataclasses
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from soundscape.audio.mixer import Mixer
from soundscape.audio.pyglet_media import import_media

DRIVER_PREFERENCE = ("openal", "pulse", "xaudio2", "directsound", "silent")
BUFFER_S = 0.08
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

        def is_precise(self) -> bool:
            return True

        def seek(self, timestamp: float) -> None:
            """An endless live stream: seeking does nothing."""

        def get_audio_data(self, num_bytes: int, compensation_time: float = 0.0) -> Any:
            frames = max(int(num_bytes) // self.audio_format.bytes_per_frame, 1)
            if self._clip.shape[0] < frames:
                self._clip = np.zeros((frames, 2), dtype=np.float32)
            clip = self._clip[:frames]
            try:
                if self.active is not None and not self.active():
                    self.paused_blocks += 1  # voices hold their place: nothing renders
                    clip[:] = 0.0
                else:
                    np.clip(self.mixer.render(frames), -1.0, 1.0, out=clip)
            except Exception as error:  # never into pyglet's worker thread
                if self.error is None:
                    self.error = error
                clip[:] = 0.0
            if self.sample_format == "F32":
                data = clip.tobytes()  # the driver copies it into its own buffer
            else:
                data = (clip * 32767.0).astype("<i2").tobytes()
            duration = frames / self.mixer.sample_rate_hz
            packet = AudioData(data, len(data), self._timestamp_s, duration, [])
            self._timestamp_s += duration
            return packet

    return MixerSource


class PygletBackend:
    """Plays ``mixer`` through pyglet's preferred audio driver.

    Mute or scale the whole output with ``mixer.muted`` / ``mixer.master_gain``;
    they take effect at the next block the driver pulls (within ``buffer_s``).

    Attributes:
        driver_name: the driver pyglet chose (``"openal"``, ``"pulse"``, ``"silent"``...).
        player: the ``pyglet.media.Player``, or None when no device could play.
        source: the ``MixerSource`` (float32 stereo, or 16-bit when the driver
            has no float32).
    """

    def __init__(self, mixer: Mixer, events: Any = None, *, buffer_s: float = BUFFER_S,
                 preference: tuple[str, ...] = DRIVER_PREFERENCE,
                 active: Callable[[], bool] | None = None, fallback: bool = False) -> None:
        self.mixer = mixer
        self.events = events
        self.player: Any = None
        self.source: Any = None
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
        if driver is not None:  # the silent driver has warned already: once is enough
            self._start(media.Player, buffer_s, warn=self.driver_name != "silent")

    def _start(self, player_class: Any, buffer_s: float, warn: bool = True) -> None:
        """Queue the source on a new player and play it with a short driver buffer."""
        from pyglet.media.drivers.base import AbstractAudioPlayer

        saved = {name: getattr(AbstractAudioPlayer, name) for name in (
            "audio_buffer_length", "audio_desync_time_critical", "audio_desync_time_minor")}
        # read when the driver's audio player is made, inside play()
        AbstractAudioPlayer.audio_buffer_length = buffer_s
        AbstractAudioPlayer.audio_desync_time_critical = NO_SYNC_S
        AbstractAudioPlayer.audio_desync_time_minor = NO_SYNC_S
        try:
            player = player_class()
            player.queue(self.source)
            player.play()
            self.player = player
        except Exception as error:  # a device that vanished or refuses the stream
            if warn:
                self._warn(f"audio driver {self.driver_name} cannot play: {error}")
        finally:
            for name, value in saved.items():
                setattr(AbstractAudioPlayer, name, value)

    def _warn(self, message: str) -> None:
        if self.events is not None:
            self.events.emit("mixer", "warning", reason=message, driver=self.driver_name)

    def on_tick(self, ticks: int) -> None:
        """Game thread, phase PUBLISH: log a render failure of the audio thread once."""
        error = self.source.error if self.source is not None else None
        if error is not None and not self._error_logged:
            self._error_logged = True
            self._warn(f"the mixer failed on the audio thread: {error!r}; silence")

    def close(self) -> None:
        """Stop and delete the player."""
        if self.player is not None:
            self.player.pause()
            self.player.delete()
            self.player = None
