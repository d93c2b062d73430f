"""A one-line progress bar on stderr (redrawn in place with a carriage return).

>>> import io
>>> stream = io.StringIO()
>>> bar = ProgressBar(10.0, stream=stream, width=10)
>>> bar.update(5.0, "half")
>>> "[#####.....]  50%    5.0/10.0 s  half" in stream.getvalue()
True
"""

from __future__ import annotations

import sys
from typing import TextIO


class ProgressBar:
    """Shows how much of ``total`` (seconds of tour) is done."""

    def __init__(self, total: float, *, stream: TextIO | None = None, width: int = 30) -> None:
        self.total = max(float(total), 1e-9)
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self._last = -1

    def update(self, done: float, note: str = "") -> None:
        """Redraw when the shown percentage moved (cheap to call every tick)."""
        fraction = min(max(done / self.total, 0.0), 1.0)
        percent = int(fraction * 100)
        if percent == self._last:
            return
        self._last = percent
        filled = int(fraction * self.width)
        bar = "#" * filled + "." * (self.width - filled)
        line = f"\r[{bar}] {percent:3d}% {done:6.1f}/{self.total:.1f} s  {note[:40]:<40}"
        self.stream.write(line)
        self.stream.flush()

    def finish(self, note: str = "") -> None:
        self._last = -1
        self.update(self.total, note)
        self.stream.write("\n")
        self.stream.flush()
