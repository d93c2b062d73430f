"""Noticing a lost output device, and when to try to open one again.

A device can go away while a game runs: a USB headset pulled out, a Bluetooth
speaker out of range, a sound server that restarts, a wave writer that cannot
write. OpenAL then reports ``ALC_CONNECTED`` 0 (``ALC_EXT_disconnect``) and
plays nothing more; pyglet does not ask and goes on queueing. ``DeviceWatch``
asks (``probe``, from ``soundscape.audio.openal_device.connected``):

- the audio thread calls ``check(frames)`` before every block it would render
  and probes once per ``probe_frames`` of audio (a quarter second: each probe is
  a ctypes call, and a ctypes call hands the GIL to a busy game thread for up to
  its switch interval). False once the device is gone, and from then on it
  renders nothing (silence goes to the driver, no voice advances: each resumes
  where it was once sound is back);
- the game thread calls ``tick()`` once a tick: ``"lost"`` the first tick after
  the loss (the backend logs one ``mixer``/``device_lost`` event and stops its
  player), then ``"retry"`` every ``retry_s`` (the backend tries to open a device
  again); ``reopened(probe)`` when one opened.

A probe that answers None ("cannot tell": another driver, no extension) counts
as connected. ``clock`` is injectable so a test steps time by hand.

>>> state = {"up": True}
>>> now = [0.0]
>>> watch = DeviceWatch(lambda: state["up"], retry_s=1.0, clock=lambda: now[0])
>>> watch.check(), watch.tick()
(True, None)
>>> state["up"] = False
>>> watch.tick(), watch.check(), watch.check(), watch.tick(), watch.tick()
(None, False, False, 'lost', None)
>>> now[0] = 1.0
>>> watch.tick(), watch.tick()
('retry', None)
"""

from __future__ import annotations

import time
from collections.abc import Callable

Probe = Callable[[], "bool | None"]

RETRY_S = 1.0
"""Seconds between two attempts to open a device after a loss."""
PROBE_FRAMES = 12_000
"""Audio between two probes on the audio thread (0.25 s at 48 kHz)."""


class DeviceWatch:
    """Whether the output device is still there (see the module)."""

    def __init__(self, probe: Probe | None = None, *, retry_s: float = RETRY_S,
                 probe_frames: int = PROBE_FRAMES,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.probe = probe
        self.probe_frames = int(probe_frames)
        self._since = self.probe_frames
        self.retry_s = float(retry_s)
        self.clock = clock
        self.lost = False
        """Set by the first ``check`` that finds the device gone (either thread)."""
        self.losses = 0
        self._reported = False
        self._retry_at = 0.0

    def check(self, frames: int | None = None) -> bool:
        """True while the device is usable (audio thread, before ``frames`` of audio).

        Probes when ``probe_frames`` have gone by since the last probe, or always
        when ``frames`` is None.
        """
        if self.lost:
            return False
        if frames is not None:
            self._since += frames
            if self._since < self.probe_frames:
                return True
        self._since = 0
        if self.probe is not None and self.probe() is False:
            self.lost = True
            return False
        return True

    def tick(self) -> str | None:
        """Game thread, once a tick: ``"lost"`` once per loss, ``"retry"`` when an
        attempt to open a device is due, else None.

        It reads what the audio thread found and never probes itself: a probe is a
        ctypes call, which lets the audio thread take the GIL in the middle of the
        game's frame.
        """
        if self.lost and not self._reported:
            self._reported = True
            self.losses += 1
            self._retry_at = self.clock() + self.retry_s
            return "lost"
        if self._reported and self.clock() >= self._retry_at:
            self._retry_at = self.clock() + self.retry_s
            return "retry"
        return None

    def reopened(self, probe: Probe | None) -> None:
        """A new device is open: watch it (``probe``) from now on."""
        self.probe = probe
        self.lost = False
        self._reported = False
        self._since = self.probe_frames
