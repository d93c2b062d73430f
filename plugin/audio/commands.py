"""The voice command stream: what crosses from the game side to the audio side.

The game side (the channel banks) is the deterministic model: channels, cursors
and ends advance on ticks, and the retail runtimes read them. What the audio
side hears is an ordered stream of ``Command`` values, stamped with their tick:

* ``start(voice, sound, params, tick, frame, offset)``: a new voice. At output
  frame ``frame`` of tick ``tick`` it is at source frame ``offset`` (0 for a
  sound started from its beginning; an ``on_end`` chain passes its overshoot).
* ``set(voice, params)``: new gains, step, pause or audibility, applied at the
  next block the audio side renders (``modern`` ramps across it).
* ``stop(voice)``: cut at the next block (``modern`` fades out across it).

A virtual voice (``ChannelBank.cull_voices``) culled at its start sends no
``start``; when it is culled its voice gets a ``stop``; when it comes back, a
``start`` under a new voice id at the source frame where the game side's cursor
is (``fade_in``: ``modern`` rises across a block). One that ends while culled
sends nothing: the audio side never hears of it.
* ``buses(gains)``: every bus's gain by index (``soundscape.audio.buses``), sent
  when one changed; each voice ramps to its bus's new gain across the next block.

A voice id is never reused. The audio side owns its render cursors: it plays a
started voice from its first frame to its end or its stop exactly once, and a
``set`` for a voice it has finished does nothing, so a game side that is behind
can never make it play a sound again. Unchanged parameters and voices that stay
culled (virtual voices outside their bank's loudest) send nothing, so the audio
side's work does not grow with the culled count.

The game thread appends a tick's commands with one ``deque.extend`` and never
waits; the audio thread pops them at the start of each block
(``soundscape.audio.mixer.Mixer``). ``collect_commands`` (phase PUBLISH) builds a
tick's commands from every bank.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from soundscape.audio.sounds import Sound

if TYPE_CHECKING:
    from soundscape.context import Context

__all__ = ["BUSES", "SET", "START", "STOP", "Command", "VoiceParams", "collect_commands"]

START = "start"
SET = "set"
STOP = "stop"
BUSES = "buses"


class VoiceParams(NamedTuple):
    """How the mixer plays one voice (the outputs of the bank's profile law).

    ``miles`` is None for float profiles, else ``(a_left, a_right, t_left,
    t_right)``: the Redguard contribution of a sample ``s`` (16-bit units) is
    ``floor(floor(s a / 128) t / 128)`` (16-bit PCM: ``a`` the coefficient, ``t`` 128).
    ``ramp``: gain changes ramp across one block (``modern``) instead of jumping.
    ``send`` (zone id, linear level times the voice's gain) sends the voice to a reverb
    zone's reverb; ``ear`` (azimuth from the listener's heading, clockwise, radians;
    linear gain) renders it through the head in headphone output (its side gains are
    then 0). Both are set by the ``rooms`` feature (``soundscape.audio.room_mix``).
    ``lowpass_hz``: the voice's low-pass cutoff (0: none), run by the mixer's
    per-voice stage (``mixer_dsp.VoiceDsp``; a change glides across one block).
    ``bus``: the index of the voice's bus (``Buses.index``); ``paused`` is also set
    while the bus (or an ancestor) is paused.
    """

    gain_left: float
    gain_right: float
    step: float
    loop: bool = False
    paused: bool = False
    audible: bool = True
    ramp: bool = False
    miles: tuple[int, int, int, int] | None = None
    send: tuple[int, float] | None = None
    ear: tuple[float, float] | None = None
    lowpass_hz: float = 0.0
    bus: int = 0


new_tuple = tuple.__new__
"""A NamedTuple made from all its fields in order without its Python-level ``__new__``
(the hot paths' commands and params)."""


class Command(NamedTuple):
    """One entry of the stream; ``op`` is ``START``, ``SET`` or ``STOP``.

    ``sound`` and ``offset`` are used by ``START`` only, ``params`` by
    ``START`` and ``SET``. ``tick``/``frame`` place a start: output frame
    ``frame`` of game tick ``tick`` (the offline backend renders it exactly
    there; a real-time output starts it at its next block, ``frame`` later).
    """

    op: str
    voice: int
    tick: int = 0
    frame: float = 0.0
    sound: Sound | None = None
    params: VoiceParams | None = None
    offset: float = 0.0
    gains: tuple[float, ...] = ()
    """``BUSES`` only: every bus's gain by index."""
    fade_in: bool = False
    """``START`` only: a voice restored from virtual (it was playing on the game side
    all along); a ramped (``modern``) one rises from silence across its first block,
    as a culled one fades out across its last."""


def start(voice: int, sound: Sound, params: VoiceParams, *, tick: int = 0, frame: float = 0.0,
          offset: float = 0.0, fade_in: bool = False) -> Command:
    """A ``START`` command (see ``Command``)."""
    return Command(START, voice, tick, frame, sound, params, offset, fade_in=fade_in)


def set_params(voice: int, params: VoiceParams) -> Command:
    """A ``SET`` command (every changed voice's, every tick: every field given to
    ``tuple.__new__`` in ``Command``'s order, a third of the cost of ``Command(...)``)."""
    return new_tuple(Command, (SET, voice, 0, 0.0, None, params, 0.0, (), False))


def stop(voice: int) -> Command:
    """A ``STOP`` command."""
    return Command(STOP, voice)


def bus_gains(gains: tuple[float, ...]) -> Command:
    """A ``BUSES`` command."""
    return Command(BUSES, 0, gains=tuple(gains))


def collect_commands(ctx: Context, ticks: int) -> list[Command]:
    """This tick's commands from every bank, in order (game thread, phase PUBLISH).

    ``ticks`` is how many ticks this frame stepped: starts made before the
    channel phase sit at the first of them, starts chained after it (``on_end``)
    at the tick after the last.
    """
    first_tick = ctx.clock.tick - ticks + 1
    out: list[Command] = []
    if ctx.has("buses") and ctx.buses.changed:
        ctx.buses.changed = False
        out.append(bus_gains(ctx.buses.gains()))
    for bank in ctx.channels.values():
        bank.commands(first_tick, out)
    return out
