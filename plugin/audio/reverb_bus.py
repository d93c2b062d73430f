"""The reverb bus: one reverb per zone, heard through the listener's zone.

Each zone (``soundscape.components.rooms.ReverbZone``) owns an ``Fdn``. Voices
send to the reverb of the zone they sound in (a mono send per zone, summed by
the mixer); the listener hears the reverb of its own zone. When the listener
moves to another zone, the old zone's reverb fades out and the new one's fades
in over ``crossfade_s`` with a per-sample linear ramp, so nothing clicks. A
zone's reverb runs only while the listener hears it (weight above 0 or
fading): others cost nothing, and a zone the listener comes back to starts
from silence (its tail builds up within the crossfade, as on entering a room).

Example:
    >>> from soundscape.audio.reverb import PRESETS
    >>> bus = ReverbBus(48_000)
    >>> bus.configure(1, PRESETS["hall"])
    >>> bus.listen(1)
    >>> bus.active()
    [1]
"""

from __future__ import annotations

import numpy as np

from soundscape.audio.reverb import Fdn, ReverbParams
from soundscape.errors import InputError

__all__ = ["CROSSFADE_S", "ReverbBus"]

CROSSFADE_S = 0.5
"""How long the listener's change of zone takes to cross from one reverb to the next."""


class ReverbBus:
    """The zones' reverbs and the listener's weights on them (audio side).

    Args:
        sample_rate_hz: the mixer's rate.
        crossfade_s: the listener's crossfade between zones.
    """

    def __init__(self, sample_rate_hz: int, crossfade_s: float = CROSSFADE_S) -> None:
        if not crossfade_s > 0.0:
            raise InputError(f"ReverbBus.crossfade_s: {crossfade_s!r} must be > 0")
        self.sample_rate_hz = int(sample_rate_hz)
        self.crossfade_s = float(crossfade_s)
        self.reverbs: dict[int, Fdn] = {}
        self.weight: dict[int, float] = {}
        self.target: int | None = None
        """The zone the listener is in (None: no zone, every reverb fades out)."""
        self._scratch = np.zeros((2, 0), dtype=np.float32)
        self._silence = np.zeros(0, dtype=np.float32)
        self._ramps: dict[int, np.ndarray] = {}
        self._settled: int | None = None
        """The zone heard alone at full weight, nothing fading (None: work it out)."""

    def configure(self, zone: int, params: ReverbParams) -> None:
        """Give ``zone`` a reverb (a new one when its parameters change)."""
        old = self.reverbs.get(zone)
        if old is None or old.params != params:
            self.reverbs[zone] = Fdn(params, self.sample_rate_hz)
            self.weight.setdefault(zone, 0.0)
            self._settled = None

    def remove(self, zone: int) -> None:
        """Forget ``zone`` and its reverb."""
        self.reverbs.pop(zone, None)
        self.weight.pop(zone, None)
        if self.target == zone:
            self.target = None
        self._settled = None

    def listen(self, zone: int | None) -> None:
        """The listener is now in ``zone`` (None: outside every zone)."""
        self.target = zone if zone in self.reverbs else None
        if self.target != self._settled:
            self._settled = None

    def active(self) -> list[int]:
        """Zones whose reverb runs in the next block (heard, or fading), in id order."""
        if self._settled is not None:
            return [self._settled]
        return sorted(z for z in self.reverbs if z == self.target or self.weight[z] > 0.0)

    def _ramp(self, n: int) -> np.ndarray:
        ramp = self._ramps.get(n)
        if ramp is None:
            ramp = self._ramps[n] = np.arange(1, n + 1, dtype=np.float32) / np.float32(n)
        return ramp

    def render(self, sends: dict[int, np.ndarray], out: np.ndarray) -> None:
        """Add the heard reverbs of ``sends`` (zone -> mono (n,)) to ``out`` (2, n).

        A zone missing from ``sends`` gets silence. Weights move toward the
        listener's zone by ``n / (crossfade_s x rate)`` a block.
        """
        n = out.shape[1]
        zone = self._settled
        if zone is not None:  # the usual block: one zone, at full weight
            send = sends.get(zone)
            self.reverbs[zone].process(self._quiet(n) if send is None else send, out)
            return
        step = n / (self.crossfade_s * self.sample_rate_hz)
        fading = False
        for zone in self.active():
            fdn = self.reverbs[zone]
            w0 = self.weight[zone]
            w1 = min(w0 + step, 1.0) if zone == self.target else max(w0 - step, 0.0)
            self.weight[zone] = w1
            fading = fading or w1 != (1.0 if zone == self.target else 0.0)
            send = sends.get(zone)
            if send is None:
                send = self._quiet(n)
            if w0 == 1.0 and w1 == 1.0:
                fdn.process(send, out)
                continue
            if self._scratch.shape[1] < n:
                self._scratch = np.zeros((2, n), dtype=np.float32)
            wet = self._scratch[:, :n]
            wet[:] = 0.0
            fdn.process(send, wet)
            gain = np.float32(w0) + np.float32(w1 - w0) * self._ramp(n)
            wet *= gain
            out += wet
            if w1 == 0.0:
                fdn.reset()  # faded out: the next time it is heard it starts clean
        if not fading:
            self._settled = self.target

    def _quiet(self, n: int) -> np.ndarray:
        """n frames of silence: the send of a zone no voice sends to."""
        if self._silence.shape[0] != n:
            self._silence = np.zeros(n, dtype=np.float32)
        return self._silence
