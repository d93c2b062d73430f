"""The pyglet backend: the mixer as one ``StreamingSource`` on one ``Player``.

pyglet's driver worker thread pulls float32 stereo from ``MixerSource``
(``is_precise()`` true, 48 kHz by default); the game thread only publishes
snapshots, so nothing on the audio side waits for it. The driver buffer is
short (``AbstractAudioPlayer.audio_buffer_length`` about 0.08 s; pyglet keeps
at least 32 KiB, 85 ms of float stereo) so voice changes are heard quickly.

Driver preference: OpenAL, PulseAudio, XAudio2, DirectSound, then silent. It
is written to ``pyglet.options['audio']`` only if ``pyglet.media`` has not been
imported yet (this module imports ``pyglet.media`` only when a backend is made).
With no device (the silent driver, or a driver that refuses the stream) the
plugin logs one ``warning`` event and keeps running.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from soundscape.mixer import Mixer

DRIVER_PREFERENCE = ("openal", "pulse", "xaudio2", "directsound", "silent")
BUFFER_S = 0.08


def configure_pyglet_audio(preference: tuple[str, ...] = DRIVER_PREFERENCE) -> bool:
    """Set ``pyglet.options['audio']`` unless ``pyglet.media`` is already imported.

    Returns True when the preference was applied.
    """
    import pyglet

    if "pyglet.media" in sys.modules:
        return False
    pyglet.options["audio"] = tuple(preference)
    return True


def _source_class() -> type:
    from pyglet.media.codecs.base import AudioData, AudioFormat, StreamingSource

    class MixerSource(StreamingSource):
        """An endless stream rendered by the mixer on pyglet's worker thread."""

        def __init__(self, mixer: Mixer) -> None:
            super().__init__()
            self.mixer = mixer
            self.audio_format: Any = AudioFormat(
                channels=2, sample_size=32, sample_rate=mixer.sample_rate_hz, sample_type="float")
            self.video_format = None
            self._duration = None
            self._timestamp_s = 0.0
            self._clip = np.zeros((mixer.block_frames, 2), dtype=np.float32)

        def is_precise(self) -> bool:
            return True

        def seek(self, timestamp: float) -> None:
            """An endless live stream: seeking does nothing."""

        def get_audio_data(self, num_bytes: int, compensation_time: float = 0.0) -> Any:
            frames = max(int(num_bytes) // 8, 1)
            if self._clip.shape[0] < frames:
                self._clip = np.zeros((frames, 2), dtype=np.float32)
            clip = self._clip[:frames]
            np.clip(self.mixer.render(frames), -1.0, 1.0, out=clip)
            data = clip.tobytes()  # the driver copies it into its own buffer
            duration = frames / self.mixer.sample_rate_hz
            packet = AudioData(data, len(data), self._timestamp_s, duration, [])
            self._timestamp_s += duration
            return packet

    return MixerSource


class PygletBackend:
    """Plays ``mixer`` through pyglet's preferred audio driver.

    Attributes:
        driver_name: the driver pyglet chose (``"openal"``, ``"pulse"``, ``"silent"``...).
        player: the ``pyglet.media.Player``, or None when no device could play.
    """

    def __init__(self, mixer: Mixer, events: Any = None, *, buffer_s: float = BUFFER_S,
                 preference: tuple[str, ...] = DRIVER_PREFERENCE) -> None:
        self.mixer = mixer
        self.events = events
        self.player: Any = None
        self.source: Any = None
        mixer.backend = self
        configure_pyglet_audio(preference)
        import pyglet.media
        from pyglet.media.drivers.base import AbstractAudioPlayer

        driver = pyglet.media.get_audio_driver()
        module = type(driver).__module__ if driver is not None else "silent"
        self.driver_name = module.split(".")[-2] if "." in module else module
        if self.driver_name == "silent":
            self._warn("no audio device: pyglet uses its silent driver")
        self.source = _source_class()(mixer)
        previous = AbstractAudioPlayer.audio_buffer_length
        AbstractAudioPlayer.audio_buffer_length = buffer_s  # read when the player is made
        try:
            player = pyglet.media.Player()
            player.queue(self.source)
            player.play()
            self.player = player
        except Exception as error:  # a driver without float32 or a device that vanished
            self._warn(f"audio driver {self.driver_name} cannot play: {error}")
        finally:
            AbstractAudioPlayer.audio_buffer_length = previous

    def _warn(self, message: str) -> None:
        if self.events is not None:
            self.events.emit("mixer", "warning", reason=message, driver=self.driver_name)

    def close(self) -> None:
        """Stop and delete the player."""
        if self.player is not None:
            self.player.pause()
            self.player.delete()
            self.player = None
