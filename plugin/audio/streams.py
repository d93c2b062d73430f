"""Streamed sounds: long files decoded a piece at a time into a per-voice ring.

A sound longer than ``Settings.stream_threshold_s`` (or asked for with
``SoundBank.stream``) is a ``StreamedSound``: only its header is read when it
is loaded. Each voice that plays it gets a ``StreamRing``: a block of
``Settings.stream_ring_s`` seconds (at least one) in the sample store, which a
decoder keeps filled ahead of the mixer, and which the mixer reads like any
other block (wrapping at the ring's end). So a five-minute piece of music
holds a couple of seconds of samples, whatever its length.

* Loops are seamless: at the file's end the decoder seeks to its start and
  goes on writing (a converted stream goes on through the same resampler).
* A restart is a new voice: its ring's decoder seeks to where it starts.
* Off the game thread: a real-time output fills the rings on a feeder thread
  (``Streams.start_feeder``), woken after every block; the game thread only
  opens a ring and decodes its first two blocks. The offline backend fills
  each ring in step, before each block is rendered (``Streams.sync``), so a
  streamed voice renders bit for bit like the same sound fully decoded.
* A starved ring (the feeder fell behind) plays silence for the frames it does
  not have and logs one ``stream_underrun`` event for that voice; the feeder
  then goes on from where the voice is.

The mixer calls ``Streams`` at a few points (``soundscape.audio.mixer``):
``open`` when a start is sent, ``ring_for`` when it starts the voice,
``before_fill`` / ``after_fill`` / ``advanced`` around each block, and
``sweep`` when voices end. ``collect`` (phase PUBLISH, game thread) releases
the blocks of finished rings and logs the underruns.
"""

from __future__ import annotations

import math
import threading
from collections import deque
from typing import TYPE_CHECKING, Any

import numpy as np

from soundscape.audio import resample
from soundscape.audio.decoders import CHUNK_FRAMES, open_decoder
from soundscape.audio.mixer_store import SampleStore
from soundscape.audio.sounds import STREAM_THRESHOLD_S, StreamedSound
from soundscape.errors import SoundscapeError

__all__ = ["STREAM_RING_S", "STREAM_THRESHOLD_S", "StreamRing", "StreamedSound", "Streams",
           "is_streamed"]

if TYPE_CHECKING:
    from soundscape.audio.commands import Command

STREAM_RING_S = 2.0
"""Default ``Settings.stream_ring_s``: each streamed voice's ring, in seconds (>= 1)."""
PREFILL_BLOCKS = 2
"""Blocks decoded on the game thread when a ring opens (the feeder does the rest)."""


def is_streamed(sound: object) -> bool:
    return getattr(sound, "streamed", False) is True


class StreamRing:
    """One streamed voice's ring in the sample store and the decoder that fills it.

    Absolute frame ``p`` (counted from the voice's first frame, ``base``) lives at
    ring position ``(p - base) mod frames``. ``written`` is the first absolute
    frame not yet in the ring; ``read_pos`` the first the mixer may still read;
    the decoder writes only below ``read_pos + frames - reserve``.
    """

    def __init__(self, voice: int, sound: StreamedSound, store: SampleStore, base: int,
                 loop: bool, ring_frames: int) -> None:
        self.voice, self.sound, self.loop = voice, sound, loop
        self.base = int(base)
        self.frames = int(ring_frames)
        self.seg = store.allocate(self.frames, sound.channels)
        self.store = store
        self.written = self.read_pos = self.base
        self.visible = self.base
        """``written`` as the mixer saw it before it took the store's array for a block:
        the frames it may trust in that block (a later write may be in a newer array)."""
        self.reserve = 0
        self.end = None if loop else sound.frames
        """Absolute frame where a one-shot ends (frames from there on are silence)."""
        self.underrun = False
        self.done = False
        self.error: str | None = None
        self.failed = False
        """The file could not be decoded on (``error``); logged once by ``collect``."""
        self._lock = threading.Lock()
        self._decoder: Any = open_decoder(sound.path)
        self._convert = sound.sample_rate_hz != self._decoder.sample_rate_hz
        self._stream: Any = None
        self._carry = np.zeros((0, sound.channels), dtype=np.float32)
        self._source_ended = False
        self._buffer = np.empty((CHUNK_FRAMES // 4, sound.channels), dtype=np.float32)
        if self._convert:
            self._decoder.seek(round(self.base * self._decoder.sample_rate_hz
                                     / sound.sample_rate_hz))
            self._new_stream()
        else:
            self._decoder.seek(self.base % sound.frames if loop else min(self.base,
                                                                           sound.frames))

    def _new_stream(self) -> None:
        import soxr

        self._stream = soxr.ResampleStream(self._decoder.sample_rate_hz,
                                           self.sound.sample_rate_hz, self.sound.channels,
                                           dtype="float32", quality=resample.QUALITY)

    # -- filling (feeder thread, or the audio thread in step) ------------------------

    def fill(self, until: int) -> None:
        """Decode up to absolute frame ``until`` (held below ``read_pos + frames -
        reserve``, so the frames the mixer reads this block are never overwritten)."""
        with self._lock:
            if self.done:
                return
            limit = min(int(until), self.read_pos + self.frames - self.reserve)
            if self.written < self.read_pos:  # starved: go on from where the voice is
                self._skip_to(self.read_pos)
            try:
                while self.written < limit:
                    piece = self._next(limit - self.written)
                    self._put(piece)
            except Exception as error:  # noqa: BLE001 - a broken file: silence from here
                self.error = str(error) if isinstance(error, SoundscapeError) else \
                    f"{type(error).__name__}: {error}"
                self.done = True
                self.underrun = True  # its silence is the error's, not the feeder's
                self.failed = True

    def _next(self, want: int) -> np.ndarray:
        """The next frames of the voice (at most ``want``, at least one)."""
        if self.end is not None and self.written >= self.end:
            return np.zeros((min(want, self._buffer.shape[0]), self.sound.channels),
                            dtype=np.float32)
        if self.end is not None:
            want = min(want, self.end - self.written)
        if not self._convert:
            return self._read_source(min(want, self._buffer.shape[0]))
        while self._carry.shape[0] == 0:
            if self._source_ended:
                return np.zeros((min(want, self._buffer.shape[0]), self.sound.channels),
                                dtype=np.float32)
            source = self._read_source(self._buffer.shape[0])
            last = self._decoder.position >= self._decoder.frames and not self.loop
            self._source_ended = last
            self._carry = self._stream.resample_chunk(source, last=last)
        piece, self._carry = self._carry[:want], self._carry[want:]
        return piece

    def _read_source(self, want: int) -> np.ndarray:
        decoder = self._decoder
        if decoder.position >= decoder.frames:
            if not self.loop:
                return np.zeros((want, self.sound.channels), dtype=np.float32)
            decoder.seek(0)  # seamless: the file's start follows its end
        n = decoder.read(min(want, decoder.frames - decoder.position), self._buffer)
        if n == 0:  # a file shorter than its header said: silence for the rest
            decoder.seek(decoder.frames)
            return np.zeros((1, self.sound.channels), dtype=np.float32)
        return self._buffer[:n]

    def _put(self, piece: np.ndarray) -> None:
        """Write ``piece`` at ``written`` (wrapping at the ring's end), then move on."""
        n = int(piece.shape[0])
        at = (self.written - self.base) % self.frames
        first = min(n, self.frames - at)
        self.store.write(self.seg, at, piece[:first])
        if first < n:
            self.store.write(self.seg, 0, piece[first:])
        self.written += n  # after the samples: the mixer trusts frames below it

    def _skip_to(self, frame: int) -> None:
        """The voice ran past the decoder (an underrun): continue at ``frame``."""
        if self._convert:
            source = round(frame * self._decoder.sample_rate_hz / self.sound.sample_rate_hz)
            self._decoder.seek(source % self._decoder.frames if self.loop else source)
            self._carry = self._carry[:0]
            self._source_ended = False
            self._new_stream()
        elif self.end is None or frame < self.end:
            self._decoder.seek(frame % self.sound.frames if self.loop else frame)
        self.written = frame

    def close(self) -> None:
        with self._lock:
            self.done = True
            self._decoder.close()


class Streams:
    """The mixer's streamed voices: their rings, the feeder and the events.

    Args:
        store: the sample store rings are allocated in (the mixer's).
        block_frames: the mixer's largest block.
        ring_s: seconds of ring per voice (at least 1).
    """

    def __init__(self, store: SampleStore, block_frames: int, ring_s: float = STREAM_RING_S):
        self.store = store
        self.block_frames = int(block_frames)
        self.ring_s = max(float(ring_s), 1.0)
        self.sync = True
        """Fill each ring in step before every block (the offline backend, a mixer
        rendered directly); a real-time output turns it off and starts the feeder."""
        self._opened: dict[int, StreamRing] = {}  # by voice id, game thread -> audio thread
        self._active: dict[int, StreamRing] = {}
        self._finished: deque[StreamRing] = deque()
        self.underruns: deque[StreamRing] = deque()
        self._wake = threading.Event()
        self.fed = threading.Event()
        """Set after each pass of the feeder thread over the rings."""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- game thread -------------------------------------------------------------------

    def open(self, command: Command) -> None:
        """A start of a streamed sound was sent: open its ring and decode its first
        blocks (game thread; the store is only written here and in ``collect``)."""
        sound = command.sound
        params = command.params
        if not isinstance(sound, StreamedSound) or params is None:
            return
        ring_frames = max(int(math.ceil(self.ring_s * sound.sample_rate_hz)),
                          4 * self.block_frames)
        ring = StreamRing(command.voice, sound, self.store, int(math.floor(command.offset)),
                          params.loop, ring_frames)
        ring.reserve = self._reserve(params.step)
        ring.fill(ring.base + PREFILL_BLOCKS * self._reserve(params.step))
        self._opened[command.voice] = ring
        self._wake.set()

    def collect(self, events: Any = None) -> None:
        """Phase PUBLISH: release finished rings' blocks; log each underrun once, and a
        file that broke mid-stream once as ``bad_sound``."""
        for ring in list(self._active.values()) + list(self._finished):
            if ring.failed and events is not None:
                ring.failed = False
                events.emit("mixer", "bad_sound", sound=ring.sound.name, voice=ring.voice,
                            reason=f"streamed file stopped decoding: {ring.error}")
        while self._finished:
            ring = self._finished.popleft()
            ring.close()
            self.store.release(ring.seg)
        while self.underruns:
            ring = self.underruns.popleft()
            if events is not None:
                events.emit("mixer", "stream_underrun", sound=ring.sound.name, voice=ring.voice,
                            reason="the stream's decoder fell behind: silence for the "
                                   "missing frames")

    # -- audio side ----------------------------------------------------------------------

    def _reserve(self, step: float) -> int:
        return int(math.ceil(max(step, 0.0) * self.block_frames)) + 4

    def ring_for(self, command: Command) -> StreamRing | None:
        """The ring ``open`` made for this start (the mixer starts the voice on it)."""
        ring = self._opened.pop(command.voice, None)
        if ring is not None:
            self._active[command.voice] = ring
        return ring

    def before_fill(self, rows: Any, streamed: list[tuple[int, Any]], n: int) -> None:
        """Before a block: each ring learns where its voice (``rows`` row, voice) reads;
        in step (offline), it is filled to cover the block."""
        for row, voice in streamed:
            ring = voice.stream
            step = float(rows.step[row])
            ring.read_pos = ring.base + max(voice.stream_frames, 0)
            ring.reserve = self._reserve(step)
            if self.sync:
                last = voice.stream_frames + float(rows.cur_f[row]) + step * n
                ring.fill(ring.base + int(math.floor(last)) + 3)
            ring.visible = ring.written  # before the mixer reads the store's array

    def after_fill(self, rows: Any, streamed: list[tuple[int, Any]], n: int,
                   data: np.ndarray) -> None:
        """After the rows are filled: a resampled row is filled again exactly as the
        decoded sound's row would be (``refill_like_decoded``); then silence where a
        ring has no frames yet (once a voice: a ``stream_underrun``)."""
        for row, voice in streamed:
            ring = voice.stream
            if rows.step[row] != 1.0 or rows.cur_f[row] != 0.0:
                refill_like_decoded(rows, row, voice, data, n)
            have = ring.visible - ring.base - voice.stream_frames  # frames from the cursor
            step, frac = float(rows.step[row]), float(rows.cur_f[row])
            # output frame k interpolates source frames floor(frac + step k) and the next
            if step <= 0.0 or frac + step * (n - 1) + 1.0 < have:
                continue
            first = max(int(math.ceil((have - 1.0 - frac) / step)), 0)
            if first < n:
                rows.sl[row, first:n] = 0.0
                rows.sr[row, first:n] = 0.0
                if not ring.underrun:
                    ring.underrun = True
                    self.underruns.append(ring)

    def advanced(self, rows: Any, streamed: list[tuple[int, Any]], n: int) -> bool:
        """After a block: each voice moved on ``floor(cur_f + step n)`` frames (the
        rows' own arithmetic; its cursor wraps in the ring, this count does not).
        True when a one-shot stream has played its last frame."""
        over = False
        for row, voice in streamed:
            whole = math.floor(float(rows.cur_f[row]) + float(rows.step[row]) * n)
            voice.stream_frames += int(whole)
            over = over or self.ended(voice)
        return over

    def start_cursor(self, ring: StreamRing, begin: float) -> tuple[int, float]:
        """The voice's (whole, fraction) cursor in its ring for absolute ``begin``."""
        relative = begin - ring.base
        whole = math.floor(relative)
        return int(whole), float(relative - whole)

    def drop(self, ring: StreamRing) -> None:
        """A start the mixer did not play: its ring goes at the next ``collect``."""
        self._active.pop(ring.voice, None)
        ring.done = True
        self._finished.append(ring)

    def ended(self, voice: Any) -> bool:
        """A one-shot stream is over once its voice has read its last frame."""
        ring = voice.stream
        return ring.end is not None and ring.base + voice.stream_frames >= ring.end

    def sweep(self, live: dict[int, Any], rows: list[Any]) -> None:
        """Rings whose voice is gone (ended or stopped, and not fading out in this
        block's ``rows``) go to ``collect``."""
        fading = {voice.key for voice in rows}
        for voice in [v for v in self._active if v not in live and v not in fading]:
            ring = self._active.pop(voice)
            ring.done = True
            self._finished.append(ring)
        if not self.sync:
            self._wake.set()

    def rings(self) -> list[StreamRing]:
        """The rings of the voices playing now."""
        return list(self._active.values())

    # -- the feeder thread ---------------------------------------------------------------

    def start_feeder(self) -> None:
        """Fill the rings on a daemon thread (real-time outputs; ``sync`` off)."""
        self.sync = False
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._feed, name="soundscape-streams",
                                        daemon=True)
        self._thread.start()

    def _feed(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(0.05)
            self._wake.clear()
            for ring in list(self._active.values()) + list(self._opened.values()):
                if not ring.done:
                    ring.fill(ring.read_pos + ring.frames)
            self.fed.set()

    def close(self) -> None:
        """Stop the feeder and close every ring's decoder."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=1.0)
            self._thread = None
        for ring in list(self._active.values()) + list(self._opened.values()):
            ring.close()


def refill_like_decoded(rows: Any, row: int, voice: Any, data: np.ndarray, n: int) -> None:
    """Fill a resampled streamed row with the very float32 operations the mixer's rows
    (``mixer_rows``) apply to the same sound decoded whole: their vectorised path
    (float32 offsets) where that row would take it, their frame-by-frame path (float64
    positions) near the sound's end or loop point, gathering from the ring instead of
    the whole sound. So a streamed voice renders bit for bit like the decoded one."""
    ring = voice.stream
    length, base, size = ring.sound.frames, ring.base, ring.frames
    step, cur_f = float(rows.step[row]), float(rows.cur_f[row])
    absolute = base + voice.stream_frames  # the decoded voice's unwrapped cursor
    cur_i = absolute % length if ring.loop and absolute >= 0 else absolute
    sides = [(rows.sl, int(ring.seg.left))]
    if ring.seg.stereo:
        sides.append((rows.sr, int(ring.seg.right)))
    if cur_i < 0 or cur_i + (cur_f + step * n) + 2.0 >= length:  # ``Rows.slow_row``
        pos = float(cur_i) + (cur_f + step * rows.ar64[:n])
        i0 = np.floor(pos)
        frac = (pos - i0).astype(np.float32)
        i0 = i0.astype(np.int64)
        i1 = i0 + 1
        ok0, ok1 = i0 >= 0, i1 >= 0
        if not ring.loop:
            ok0 &= i0 < length
            ok1 &= i1 < length
        p0 = (absolute - cur_i + i0 - base) % size
        p1 = (absolute - cur_i + i1 - base) % size
        for dst, left in sides:
            x0 = np.where(ok0, data[left + p0], np.float32(0.0))
            x1 = np.where(ok1, data[left + p1], np.float32(0.0))
            dst[row, :n] = x0 + frac * (x1 - x0)
        return
    # ``Rows.resample_rows`` and ``_lerp``
    frac = rows.stepar[row, :n] + np.float32(cur_f)
    whole = np.floor(frac)
    frac = frac - whole
    p0 = (absolute + whole.astype(np.int64) - base) % size
    p1 = (p0 + 1) % size
    for dst, left in sides:
        x0 = data[left + p0]
        x1 = data[left + p1]
        x1 -= x0
        x1 *= frac
        x0 += x1
        dst[row, :n] = x0
