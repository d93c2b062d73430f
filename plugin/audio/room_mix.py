"""The mixer's rooms stage: reverb sends and returns, and the ears (audio side).

``Mixer.rooms`` holds one ``RoomMix`` when the ``rooms`` feature is installed.
After the mixer has summed its float and Miles rows, ``mix`` reads the same rows
(the samples of this block, before any gain) and adds:

* the **ears**: every voice whose params carry ``ear`` (azimuth, gain: positional
  ``modern`` voices in headphone output, whose side gains are then 0) through
  ``binaural.Binaural``;
* the **reverb**: each voice whose params carry ``send`` (zone, level) adds its
  samples times the level (Redguard rows, in 16-bit units, also / 32768) to its
  zone's mono send, and ``reverb_bus.ReverbBus`` adds the reverb the listener hears.

Zone settings and the listener's zone reach the audio side the way voices do:
the game thread appends ``(op, ...)`` tuples to ``commands`` and the audio thread
pops them at the start of the next block, so a tick's change is heard in the
offline render of that tick and never races the audio thread.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np

from soundscape.audio.binaural import Binaural, Rows
from soundscape.audio.mixer_sum import MILES_FULL_SCALE
from soundscape.audio.reverb import ReverbParams
from soundscape.audio.reverb_bus import CROSSFADE_S, ReverbBus

ZONE = "zone"
REMOVE = "remove"
LISTEN = "listen"

RUNS = 4
"""Up to this many runs of consecutive ear rows are copied as slices, not gathered."""


class RoomMix:
    """Reverb zones and headphone ears for one mixer.

    Args:
        sample_rate_hz: the mixer's rate.
        block_frames: the mixer's block.
        crossfade_s: the listener's crossfade between zones' reverbs.
    """

    def __init__(self, sample_rate_hz: int, block_frames: int,
                 crossfade_s: float = CROSSFADE_S) -> None:
        self.bus = ReverbBus(sample_rate_hz, crossfade_s)
        self.head = Binaural(sample_rate_hz, block_frames)
        self.commands: deque[tuple[Any, ...]] = deque()
        """(``"zone"``, id, ReverbParams) / (``"remove"``, id) / (``"listen"``, id or None)."""
        self._laid_out: list[Any] | None = None
        self._ear_index: Rows = None
        self._ear_keys: list[object] = []
        self._ear_az = np.zeros(0)
        self._ear_gain = np.zeros(0)
        self._send_zones: list[int] = []
        self._send_weights: dict[int, tuple[np.ndarray, np.ndarray | None]] = {}
        self._sends: dict[int, np.ndarray] = {}
        self._mono = np.zeros((1, block_frames), dtype=np.float32)

    # -- game thread -------------------------------------------------------------

    def configure(self, zone: int, params: ReverbParams) -> None:
        """Zone ``zone`` reverberates with ``params`` (from the next block)."""
        self.commands.append((ZONE, zone, params))

    def remove(self, zone: int) -> None:
        self.commands.append((REMOVE, zone))

    def listen(self, zone: int | None) -> None:
        """The listener stands in ``zone`` (None: no zone)."""
        self.commands.append((LISTEN, zone))

    # -- audio thread ------------------------------------------------------------

    def busy(self) -> bool:
        """Something still sounds with no voice playing (a reverb tail, a change queued)."""
        return bool(self.commands) or any(not self.bus.reverbs[z].idle for z in self.bus.active())

    def _drain(self) -> None:
        while self.commands:
            op, *args = self.commands.popleft()
            if op == ZONE:
                self.bus.configure(args[0], args[1])
            elif op == REMOVE:
                self.bus.remove(args[0])
            elif op == LISTEN:
                self.bus.listen(args[0])

    def _layout(self, voices: list[Any], float_rows: int) -> None:
        """Which rows go to the ears and which send where (when the rows change)."""
        ear_rows, keys, az, gain = [], [], [], []
        sends: dict[int, list[tuple[int, float]]] = {}
        for row, voice in enumerate(voices):
            spec = voice.spec
            ear = spec.ear
            if ear is not None and row < float_rows and not voice.seg.stereo:
                ear_rows.append(row)
                keys.append(voice.key)
                az.append(ear[0])
                gain.append(0.0 if voice.fate == "dying" else ear[1])
            send = spec.send
            if send is not None and send[1] > 0.0:
                level = send[1] / MILES_FULL_SCALE if row >= float_rows else send[1]
                sends.setdefault(int(send[0]), []).append((row, level))
        # The ears copy their rows: the first rows in order are one slice, a few runs
        # of consecutive rows a slice each, else an index gathers them.
        runs: list[tuple[int, int]] = []
        for row in ear_rows:
            if runs and runs[-1][1] == row:
                runs[-1] = (runs[-1][0], row + 1)
            else:
                runs.append((row, row + 1))
        if runs == [(0, len(ear_rows))] or not runs:
            self._ear_index = None
        elif len(runs) <= RUNS:
            self._ear_index = tuple(runs)
        else:
            self._ear_index = np.array(ear_rows, dtype=np.intp)
        self._ear_keys, self._ear_az, self._ear_gain = keys, np.array(az), np.array(gain)
        count = len(voices)
        self._send_weights = {}
        for zone, entries in sends.items():
            left = np.zeros((1, count), dtype=np.float32)
            right = np.zeros((1, count), dtype=np.float32)
            stereo = False
            for row, level in entries:
                if voices[row].seg.stereo:  # the send hears the mean of the two sides
                    left[0, row] = right[0, row] = level / 2.0
                    stereo = True
                else:
                    left[0, row] = level
            self._send_weights[zone] = (left, right if stereo else None)
        self._laid_out = voices

    def mix(self, voices: list[Any], rows: Any, n: int, acc: np.ndarray) -> None:
        """Add the ears and the heard reverbs of this block's rows to ``acc`` (2, n)."""
        if self.commands:
            self._drain()
        if voices is not self._laid_out:
            self._layout(voices, rows.n_float)
        count = len(voices)
        if self._ear_keys or self.head.voices:
            self.head.mix(rows.sl, self._ear_keys, self._ear_az, self._ear_gain, n, acc,
                          self._ear_index)
        active = self.bus.active()
        if not active:
            return
        sends = self._sends
        sends.clear()
        for zone in active:
            weights = self._send_weights.get(zone)
            if weights is None or not count:
                continue
            left, right = weights
            mono = np.einsum("ki,ij->kj", left, rows.sl[:count, :n])
            if right is not None:
                mono += np.einsum("ki,ij->kj", right, rows.sr[:count, :n])
            sends[zone] = mono[0]
        self.bus.render(sends, acc)
