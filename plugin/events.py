"""The event log: every decision the plugin makes, as JSON lines.

Each record has at least ``t`` (seconds), ``tick``, ``source`` (the runtime or
system), ``event`` (what happened), ``sound``, ``pos``, ``gain``, ``db``, ``pan``
and ``channel``; a field that does not apply is ``None`` (JSON ``null``). Extra
keyword fields carry the details a record needs (why a sound was dropped, an
occlusion's wall count...).

Warnings and errors also go to ``logging.getLogger("soundscape")``, once per
cause (``log_level`` says which events are warnings: docs/events.md).

A game's callbacks (``on_end``/``on_steal`` on a channel bank, event listeners,
Oni's ``then`` continuations) are called through ``EventLog.call``: one that
raises is reported once (a ``callback_error`` record and a logged traceback) and
the tick goes on.
"""

from __future__ import annotations

import json
import logging
import math
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from soundscape.clock import Clock

REQUIRED_FIELDS = ("t", "tick", "source", "event", "sound", "pos", "gain", "db", "pan", "channel")

EventRecord = dict[str, Any]

LOGGER_NAME = "soundscape"
logger = logging.getLogger(LOGGER_NAME)

LOG_LEVELS: dict[str, int] = {
    "error": logging.ERROR,
    "callback_error": logging.ERROR,
    "warning": logging.WARNING,
    "device_lost": logging.WARNING,
    "underrun": logging.WARNING,
    "stream_underrun": logging.WARNING,
    "rate_mismatch": logging.WARNING,
    "missing": logging.WARNING,
    "bad_sound": logging.WARNING,
    "bad_value": logging.WARNING,
    "bad_listener": logging.WARNING,
    "bad_place": logging.WARNING,
    "wall_rejected": logging.WARNING,
    "stb_not_found": logging.WARNING,
    "rtx_missing": logging.WARNING,
    "missing_impulse": logging.WARNING,
    "missing_ambient": logging.WARNING,
    "impulse_bad_place": logging.WARNING,
    "impulse_no_group": logging.WARNING,
}
"""Event names that are warnings or errors, and their ``logging`` level.

A runtime adding a new kind of failure either adds its name here, names it by
the rules of ``log_level`` (``*_error``, ``bad_*``, ``missing_*``, ``*_lost``),
or passes ``log_level=`` to ``EventLog.emit``."""

CAUSE_FIELDS = ("reason", "error", "field", "file")
"""Record fields that tell two causes of the same event apart (besides the sound)."""

MAX_LOGGED_CAUSES = 1024
"""Distinct causes logged by one event log; past it one line says the rest are not."""


def log_level(event: str) -> int | None:
    """The ``logging`` level of an event name, or None when it is not a warning.

    >>> log_level("error") == logging.ERROR, log_level("device_lost") == logging.WARNING
    (True, True)
    >>> log_level("mixer_error") == logging.ERROR, log_level("bad_rate") == logging.WARNING
    (True, True)
    >>> log_level("play") is None
    True
    """
    level = LOG_LEVELS.get(event)
    if level is not None:
        return level
    if event.endswith("_error"):
        return logging.ERROR
    if event.startswith(("bad_", "missing_")) or event.endswith("_lost"):
        return logging.WARNING
    return None


def describe(record: EventRecord) -> str:
    """One line for ``logging``: ``source/event``, the sound, then the other set fields.

    >>> describe({"t": 0.5, "tick": 30, "source": "sounds", "event": "missing",
    ...           "sound": "door", "pos": None, "reason": "no file"})
    "sounds/missing sound='door' reason='no file' (t=0.5 s, tick 30)"
    """
    skip = {"t", "tick", "source", "event", "sound"}
    parts = [f"{record.get('source')}/{record.get('event')}"]
    if record.get("sound") is not None:
        parts.append(f"sound={record['sound']!r}")
    parts += [f"{k}={v!r}" for k, v in record.items() if k not in skip and v is not None]
    return " ".join(parts) + f" (t={record.get('t')} s, tick {record.get('tick')})"


_PLAIN = (int, str, bool, type(None))
_PLAIN_TYPES = frozenset(_PLAIN)
"""The types ``_json_safe`` returns as they are (``EventLog.emit`` skips the call)."""


def callback_name(callback: Any) -> str:
    """How a callback is named in a ``callback_error`` record.

    >>> callback_name(len), callback_name(json.dumps), callback_name(EventLog.call)
    ('len', 'json.dumps', 'soundscape.events.EventLog.call')
    """
    name = getattr(callback, "__qualname__", None)
    module = getattr(callback, "__module__", None)
    if isinstance(name, str):
        return name if module in (None, "builtins") else f"{module}.{name}"
    return repr(callback)


def _json_safe(value: Any) -> Any:
    """Positions and gains as plain JSON values; NaN and infinities become null."""
    kind = type(value)
    if kind is float:
        return value if math.isfinite(value) else None
    if kind in _PLAIN:
        return value
    if kind is tuple or kind is list:
        return [_json_safe(v) for v in value]
    if hasattr(value, "item") and callable(value.item):  # numpy scalars
        return _json_safe(value.item())
    return value


class EventLog:
    """An append-only log of event records, kept in memory and optionally streamed.

    ``keep`` bounds memory for long runs: the latest ``keep`` records stay in
    ``records`` (a ``deque``; older ones are dropped and counted in ``dropped``);
    None keeps every record (a list). The JSON-lines file always gets all of them.
    The plugin's log keeps ``Settings.event_log_keep`` (10,000 by default).
    ``subscribe`` calls a function with every new record. Records whose event is a
    warning or an error (``log_level``) are also logged to
    ``logging.getLogger("soundscape")``, the first time each cause is seen.

    >>> log = EventLog(Clock())
    >>> rec = log.emit("ac", "play", sound="wind", gain=0.5)
    >>> rec["event"], rec["channel"], len(log)
    ('play', None, 1)
    """

    def __init__(
        self, clock: Clock, path: str | Path | None = None, keep: int | None = None
    ) -> None:
        self.clock = clock
        self.records: list[EventRecord] | deque[EventRecord] = []
        self.dropped = 0
        """Records no longer in memory because ``keep`` bounds it."""
        self._keep: int | None = None
        self.keep = keep
        self._listeners: list[Callable[[EventRecord], None]] = []
        self._file: IO[str] | None = None
        self._logged: set[tuple[Any, ...]] = set()
        self._levels: dict[str, int | None] = {}
        """Each event name's level, worked out once (``LOG_LEVELS`` as it was then)."""
        self._failed_callbacks: list[Any] = []
        """Game callbacks that have raised (each reported once)."""
        self.callback_errors = 0
        self._notifying = False
        self._deferred: list[EventRecord] = []
        """How many times a game callback raised (each callback's first is reported)."""
        self._stamp: tuple[int, int, float] = (-1, 0, 0.0)
        """(tick, tick_hz, the records' ``t``) of the latest record: ``t`` rounded once a tick."""
        if path is not None:
            self.open(path)

    @property
    def keep(self) -> int | None:
        """How many of the latest records stay in memory (None: all)."""
        return self._keep

    @keep.setter
    def keep(self, keep: int | None) -> None:
        if keep is not None and (isinstance(keep, bool) or not isinstance(keep, int) or keep < 1):
            raise ValueError(f"EventLog.keep must be a positive integer or None, got {keep!r}")
        old = self.records
        self.dropped += max(0, len(old) - keep) if keep is not None else 0
        self.records = list(old) if keep is None else deque(old, maxlen=keep)
        self._keep = keep

    def open(self, path: str | Path) -> None:
        """Stream every later record to ``path`` as JSON lines (a new file)."""
        self.close()
        self._file = Path(path).open("w", encoding="utf-8")

    def close(self) -> None:
        """Flush and close the JSON-lines file, if one is open."""
        if self._file is not None:
            self._file.close()
            self._file = None

    def subscribe(self, listener: Callable[[EventRecord], None]) -> Callable[[], None]:
        """Call ``listener(record)`` for every record emitted from now on.

        The record is the log's own dict: read it, do not change it. A listener
        that raises is reported once (``call``) and skipped for that record; the
        game's frame goes on and it stays subscribed. Returns a function that
        unsubscribes the listener.
        """
        self._listeners.append(listener)
        return lambda: self.unsubscribe(listener)

    def unsubscribe(self, listener: Callable[[EventRecord], None]) -> None:
        """Stop calling ``listener``; nothing happens if it is not subscribed."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    def emit(
        self,
        source: str,
        event: str,
        *,
        sound: str | int | None = None,
        pos: Sequence[float] | None = None,
        gain: float | None = None,
        db: float | None = None,
        pan: float | None = None,
        channel: int | None = None,
        log_level: int | None = None,
        exc_info: BaseException | None = None,
        **extra: Any,
    ) -> EventRecord:
        """Append one record stamped with the clock's time and tick, and return it.

        ``log_level`` (not stored) logs this record at that level when its cause is
        new, whatever its event name; by default the name decides (``log_level``).
        ``exc_info`` (not stored): an exception whose traceback goes with the log line.
        """
        clock = self.clock
        tick, tick_hz = clock.tick, clock.tick_hz
        stamp = self._stamp
        if stamp[0] != tick or stamp[1] != tick_hz:  # a tick's records share one rounding
            stamp = self._stamp = (tick, tick_hz, round(tick / tick_hz, 6))
        record: EventRecord = {
            "t": stamp[2],
            "tick": tick,
            "source": source,
            "event": event,
            "sound": sound,
            "pos": None if pos is None else [_json_safe(v) for v in pos],
            "gain": gain if gain is None else _json_safe(gain),
            "db": db if db is None else _json_safe(db),
            "pan": pan if pan is None else _json_safe(pan),
            "channel": channel,
        }
        for key, value in extra.items():  # ints and names as they are, without a call
            record[key] = value if type(value) in _PLAIN_TYPES else _json_safe(value)
        records = self.records
        if self._keep is not None and len(records) == self._keep:
            self.dropped += 1
        records.append(record)
        if self._file is not None:
            self._file.write(json.dumps(record, separators=(",", ":")) + "\n")
        if log_level is not None:
            level: int | None = log_level
        else:
            levels = self._levels
            level = levels[event] if event in levels else levels.setdefault(
                event, _level_of(event))
        if level is not None:
            self._log(level, record, exc_info)
        if self._listeners:
            self._notify(record)
        return record

    def _log(self, level: int, record: EventRecord,
             exc_info: BaseException | None = None) -> None:
        """Log ``record`` the first time its cause is seen (source, event, sound, reason)."""
        cause = (record["source"], record["event"], _cause_part(record["sound"]),
                 *(_cause_part(record.get(name)) for name in CAUSE_FIELDS))
        logged = self._logged
        if cause in logged or not logger.isEnabledFor(level):
            return
        if len(logged) >= MAX_LOGGED_CAUSES:
            if len(logged) == MAX_LOGGED_CAUSES:
                logged.add(("__full__",))
                logger.warning("soundscape: %d distinct warnings logged; further ones are "
                               "only in the event log", MAX_LOGGED_CAUSES)
            return
        logged.add(cause)
        logger.log(level, "%s", describe(record), extra={"soundscape_event": record},
                   exc_info=exc_info)

    def _notify(self, record: EventRecord) -> None:
        """Every listener gets ``record``; records emitted meanwhile (a listener's own
        ``callback_error``) go to the listeners after it, in order."""
        if self._notifying:
            self._deferred.append(record)
            return
        self._notifying = True
        try:
            pending = deque([record])
            while pending:
                current = pending.popleft()
                for listener in tuple(self._listeners):
                    self.call("events", listener, current, role="event listener")
                pending.extend(self._deferred)
                self._deferred.clear()
        finally:
            self._notifying = False

    def call(self, source: str, callback: Callable[..., object], *args: object,
             role: str = "callback") -> bool:
        """Call a game's ``callback(*args)`` where the plugin calls it; True if it returned.

        An exception is caught here: the first time each callback raises, one
        ``callback_error`` record (``source``, ``callback`` its name, ``role``,
        ``error``) is emitted and logged with its traceback; later raises of the
        same callback only count in ``callback_errors``. The caller goes on (the
        other callbacks run, the tick completes).

        >>> from soundscape.clock import Clock
        >>> log = EventLog(Clock())
        >>> def bad(x): raise ValueError(x)
        >>> log.call("game", bad, 1, role="on_end"), log.call("game", bad, 2, role="on_end")
        (False, False)
        >>> [(r["event"], r["role"], r["error"]) for r in log], log.callback_errors
        ([('callback_error', 'on_end', 'ValueError(1)')], 2)
        """
        try:
            callback(*args)
        except Exception as error:  # a game's callback must not break the plugin's tick
            self.callback_errors += 1
            if not any(failed is callback for failed in self._failed_callbacks):
                self._failed_callbacks.append(callback)
                self.emit(source, "callback_error", callback=callback_name(callback), role=role,
                          error=repr(error), exc_info=error)
            return False
        return True

    def where(self, **match: Any) -> list[EventRecord]:
        """The records whose fields equal every ``match`` value."""
        return [r for r in self.records if all(r.get(k) == v for k, v in match.items())]

    def __len__(self) -> int:
        return len(self.records)

    def __iter__(self) -> Iterator[EventRecord]:
        return iter(self.records)

    def dumps(self) -> str:
        """The in-memory log (the latest ``keep`` records) as JSON lines."""
        return "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in self.records)


_level_of = log_level  # emit's keyword of the same name hides the function there


def _cause_part(value: Any) -> Any:
    """A hashable stand-in for one field of a cause (lists become tuples)."""
    if isinstance(value, list):
        return tuple(_cause_part(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _cause_part(v)) for k, v in value.items()))
    return value
