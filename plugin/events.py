"""The event log: every decision the plugin makes, as JSON lines.

Each record has at least ``t`` (seconds), ``tick``, ``source`` (the runtime or
system), ``event`` (what happened), ``sound``, ``pos``, ``gain``, ``db``, ``pan``
and ``channel``; a field that does not apply is ``None`` (JSON ``null``). Extra
keyword fields carry the details a record needs (why a sound was dropped, an
occlusion's wall count...).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from soundscape.clock import Clock

REQUIRED_FIELDS = ("t", "tick", "source", "event", "sound", "pos", "gain", "db", "pan", "channel")

EventRecord = dict[str, Any]


_PLAIN = (int, str, bool, type(None))


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

    ``keep`` bounds memory for long runs: at least the latest ``keep`` records stay
    (older ones are dropped in batches); the JSON-lines file always gets all.

    >>> log = EventLog(Clock())
    >>> rec = log.emit("ac", "play", sound="wind", gain=0.5)
    >>> rec["event"], rec["channel"], len(log)
    ('play', None, 1)
    """

    def __init__(
        self, clock: Clock, path: str | Path | None = None, keep: int | None = None
    ) -> None:
        self.clock = clock
        self.records: list[EventRecord] = []
        self.keep = keep
        self._listeners: list[Callable[[EventRecord], None]] = []
        self._file: IO[str] | None = None
        if path is not None:
            self.open(path)

    def open(self, path: str | Path) -> None:
        """Stream every later record to ``path`` as JSON lines."""
        self.close()
        self._file = Path(path).open("w", encoding="utf-8")

    def close(self) -> None:
        """Flush and close the JSON-lines file, if one is open."""
        if self._file is not None:
            self._file.close()
            self._file = None

    def subscribe(self, listener: Callable[[EventRecord], None]) -> None:
        """Call ``listener(record)`` for every record emitted from now on."""
        self._listeners.append(listener)

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
        **extra: Any,
    ) -> EventRecord:
        """Append one record stamped with the clock's time and tick, and return it."""
        clock = self.clock
        record: EventRecord = {
            "t": round(clock.tick / clock.tick_hz, 6),
            "tick": clock.tick,
            "source": source,
            "event": event,
            "sound": sound,
            "pos": None if pos is None else [_json_safe(v) for v in pos],
            "gain": gain if gain is None else _json_safe(gain),
            "db": db if db is None else _json_safe(db),
            "pan": pan if pan is None else _json_safe(pan),
            "channel": channel,
        }
        if extra:
            record.update({key: _json_safe(value) for key, value in extra.items()})
        self.records.append(record)
        if self.keep is not None and len(self.records) > 2 * self.keep:
            # Trim in batches: deleting from the front of a list on every emit is O(n).
            del self.records[: len(self.records) - self.keep]
        if self._file is not None:
            self._file.write(json.dumps(record, separators=(",", ":")) + "\n")
        for listener in self._listeners:
            listener(record)
        return record

    def where(self, **match: Any) -> list[EventRecord]:
        """The records whose fields equal every ``match`` value."""
        return [r for r in self.records if all(r.get(k) == v for k, v in match.items())]

    def __len__(self) -> int:
        return len(self.records)

    def __iter__(self) -> Iterator[EventRecord]:
        return iter(self.records)

    def dumps(self) -> str:
        """The whole in-memory log as JSON lines."""
        return "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in self.records)
