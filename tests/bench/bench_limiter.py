"""The master limiter's cost per 1024-frame block (issue 21).

``limiter_block_us``: a block being limited (every frame over the knee: the gain
computer, the running minimum and the gain multiply all run).
``limiter_quiet_block_us``: a block under the knee at rest (one peak read, no change).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
from timing import median_seconds  # noqa: E402

from soundscape.audio.limiter import Limiter  # noqa: E402

BLOCK = 1024
RATE = 48_000


def run() -> dict[str, float]:
    rng = np.random.default_rng(3)
    loud = (rng.uniform(-1.0, 1.0, (BLOCK, 2)) * 1.5).astype(np.float32)
    quiet = loud * np.float32(0.2)
    limiter = Limiter(RATE)
    work = np.empty_like(loud)

    def limit(source: np.ndarray, rest: bool) -> None:
        work[:] = source
        if rest:
            limiter.gain_db = 0.0
        limiter.process(work)

    loud_s = median_seconds(lambda: limit(loud, False), repeats=300, warmup=20)
    quiet_s = median_seconds(lambda: limit(quiet, True), repeats=300, warmup=20)
    return {"limiter_block_us": loud_s * 1e6, "limiter_quiet_block_us": quiet_s * 1e6}


if __name__ == "__main__":
    for name, value in run().items():
        print(f"{name}: {value:.4g}")
