"""How much audio the real-time output keeps queued ahead of the device.

Everything queued is heard late: a voice started now is rendered at the next
pull of pyglet's driver and sits behind what is already queued. So the output
starts short (``START_S``, 40 ms) and only grows when the device ran dry
(an underrun, a gap of silence): then it is ``GROW`` times longer (at most
``MAX_S``), and after ``STABLE_S`` of audio without another underrun it gives
back ``SHRINK_S``, so a machine that was busy for a moment gets its latency
back slowly. It shrinks no lower than one step above the longest length that
ran dry (a length known to be too short is not tried again at once) until
``FORGET_S`` of audio has gone by without an underrun; then down to where it
started.

``OutputBuffer`` is the policy alone. The audio thread tells it two things:
``pull(frames)`` for every request of the driver (time is counted in frames
pulled, the audio clock, so a test drives it with numbers alone) and
``started()`` each time the driver (re)starts its device source. The first start
is the stream's; any later one is a restart after the source ran dry, which is
exactly what an underrun is (pyglet's OpenAL player restarts a stopped source
after its refill; the glue in ``backend_pyglet`` counts those calls). The game
thread collects the underruns with ``take_underruns`` (a deque: the audio thread
never waits for the game thread).

>>> buf = OutputBuffer(48_000)
>>> buf.length_frames, buf.started(), buf.pull(960)        # 40 ms; the stream starts
(1920, False, None)
>>> buf.started(), buf.length_frames                        # ran dry, restarted: grow
(True, 2880)
>>> buf.take_underruns()
[2880]
"""

from __future__ import annotations

import math
from collections import deque

START_S = 0.040
"""Queued audio at start: the target latency of the real-time output."""
MAX_S = 0.250
"""The longest the buffer grows (pyglet's own default is 0.9 s)."""
GROW = 1.5
"""Length factor after an underrun."""
STABLE_S = 10.0
"""Audio without an underrun before the buffer shrinks a step."""
SHRINK_S = 0.005
"""One shrink step."""
FORGET_S = 120.0
"""Audio without an underrun after which a length that ran dry may be tried again."""
REFILL_S = 0.005
"""Refill once this much has played: every worker pass tops the queue up."""
GRANULE_FRAMES = 240
"""Lengths are whole 5 ms granules at 48 kHz (``granule`` scales with the rate)."""


class OutputBuffer:
    """The queued-audio length of one real-time output (audio thread; see the module).

    Args:
        rate_hz: the output rate.
        start_s, max_s, grow, stable_s, shrink_s, forget_s: the policy (module constants).
    """

    def __init__(self, rate_hz: int, *, start_s: float = START_S, max_s: float = MAX_S,
                 grow: float = GROW, stable_s: float = STABLE_S,
                 shrink_s: float = SHRINK_S, forget_s: float = FORGET_S) -> None:
        if not (0.0 < start_s <= max_s and grow > 1.0 and 0.0 < stable_s <= forget_s
                and shrink_s > 0.0):
            raise ValueError("OutputBuffer: need 0 < start_s <= max_s, grow > 1, "
                             "0 < stable_s <= forget_s, shrink_s > 0")
        self.rate_hz = int(rate_hz)
        self.granule = max(1, round(GRANULE_FRAMES * self.rate_hz / 48_000))
        self.floor_frames = self._frames(start_s)
        self.max_frames = max(self.floor_frames, self._frames(max_s))
        self.grow = float(grow)
        self.stable_frames = int(stable_s * self.rate_hz)
        self.forget_frames = int(forget_s * self.rate_hz)
        self.shrink_frames = self._frames(shrink_s)
        self.refill_frames = self._frames(REFILL_S)
        self.length_frames = self.floor_frames
        """The length the driver refills to (frames)."""
        self.underruns = 0
        self.pulled_frames = 0
        self.too_short_frames = 0
        """The longest length that ran dry (0 once forgotten)."""
        self._started = False
        self._calm_frames = 0
        self._since_underrun = 0
        self._events: deque[int] = deque()

    def _frames(self, seconds: float) -> int:
        return max(1, round(seconds * self.rate_hz / self.granule)) * self.granule

    @property
    def length_s(self) -> float:
        return self.length_frames / self.rate_hz

    @property
    def comfortable_frames(self) -> int:
        """Below this much queued the driver refills (one refill step under the length)."""
        return max(self.granule, self.length_frames - self.refill_frames)

    @property
    def lowest_frames(self) -> int:
        """How far the length may shrink now."""
        if self.too_short_frames:
            return max(self.floor_frames, self.too_short_frames + self.shrink_frames)
        return self.floor_frames

    def pull(self, frames: int) -> None:
        """The driver took ``frames``: after ``stable_s`` of them with no underrun,
        the length shrinks one step (not below ``lowest_frames``)."""
        frames = int(frames)
        self.pulled_frames += frames
        self._calm_frames += frames
        self._since_underrun += frames
        if self.too_short_frames and self._since_underrun >= self.forget_frames:
            self.too_short_frames = 0
        if self._calm_frames >= self.stable_frames:
            self._calm_frames = 0
            self.length_frames = max(min(self.length_frames, self.lowest_frames),
                                     self.length_frames - self.shrink_frames)

    def started(self) -> bool:
        """The driver (re)started its source; True when that was an underrun.

        An underrun grows the length (``grow`` times, at most ``max_s``) and queues
        the new length for ``take_underruns``.
        """
        if not self._started:
            self._started = True
            return False
        self.underruns += 1
        self._calm_frames = self._since_underrun = 0
        self.too_short_frames = max(self.too_short_frames, self.length_frames)
        grown = math.ceil(self.length_frames * self.grow / self.granule) * self.granule
        self.length_frames = min(self.max_frames, grown)
        self._events.append(self.length_frames)
        return True

    def restart(self) -> None:
        """A new device: its first start is not an underrun (the length is kept)."""
        self._started = False
        self._calm_frames = 0

    def take_underruns(self) -> list[int]:
        """The new lengths of the underruns since the last call (game thread)."""
        taken = []
        while self._events:
            taken.append(self._events.popleft())
        return taken
