"""A progress bar on stderr: one line redrawn in place on a terminal, and a new
line every 10 % when stderr is a file or a pipe (a CI log, ``make demo | tee``),
where carriage returns would pile a hundred bars into one line.

>>> import io
>>> stream = io.StringIO()
>>> bar = ProgressBar(10.0, stream=stream, width=10)
>>> bar.update(5.0, "half")
>>> bar.update(5.5, "half")
>>> stream.getvalue().splitlines()
['[#####.....]  50%    5.0/10.0 s  half']
"""

from __future__ import annotations

import sys
from typing import TextIO

LOG_STEP_PERCENT = 10


class ProgressBar:
    """Shows how much of ``total`` (seconds of tour) is done."""

    def __init__(self, total: float, *, stream: TextIO | None = None, width: int = 30) -> None:
        self.total = max(float(total), 1e-9)
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self._last = -1
        isatty = getattr(self.stream, "isatty", None)
        self.in_place = bool(isatty is not None and isatty())
        self.step_percent = 1 if self.in_place else LOG_STEP_PERCENT

    def update(self, done: float, note: str = "") -> None:
        """Redraw when the shown percentage moved (cheap to call every tick)."""
        fraction = min(max(done / self.total, 0.0), 1.0)
        percent = int(fraction * 100)
        shown = percent - percent % self.step_percent
        if shown == self._last:
            return
        self._last = shown
        filled = int(fraction * self.width)
        bar = "#" * filled + "." * (self.width - filled)
        line = f"[{bar}] {percent:3d}% {done:6.1f}/{self.total:.1f} s  {note[:40]}"
        self.stream.write(f"\r{line:<80}" if self.in_place else line.rstrip() + "\n")
        self.stream.flush()

    def finish(self, note: str = "") -> None:
        self._last = -1
        self.update(self.total, note)
        if self.in_place:
            self.stream.write("\n")
        self.stream.flush()
