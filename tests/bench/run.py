"""`make bench`: run every ``tests/bench/bench_*.py`` and print ``name: value``.

Each bench module has ``run() -> dict[str, float]``. All figures are written to
``bench.json`` as one flat object, name to number.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    figures: dict[str, float] = {}
    pattern = sys.argv[1] if len(sys.argv) > 1 else "bench_*.py"
    for path in sorted(HERE.glob(pattern)):
        spec = importlib.util.spec_from_file_location(path.stem, path)
        if spec is None or spec.loader is None:
            raise RuntimeError(f"cannot load benchmark {path}")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for name, value in module.run().items():
            figures[name] = float(value)
            print(f"{name}: {value:.4g}", flush=True)
    out = HERE.parent.parent / "bench.json"
    if len(sys.argv) > 1 and out.exists():
        # A partial run (one pattern) updates its figures and keeps the others.
        figures = {**json.loads(out.read_text()), **figures}
    out.write_text(json.dumps(figures, indent=2, sort_keys=True) + "\n")
    print(f"wrote {out.name} ({len(figures)} figures)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
