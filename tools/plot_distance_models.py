"""Draw the emitter distance models as an SVG: ``docs/img/distance_models.svg``.

    python tools/plot_distance_models.py            # writes the picture docs/audio.md shows
    python tools/plot_distance_models.py out.svg

Each curve is ``soundscape.laws.spatial.distance_gain`` itself, sampled every
0.25 m, with min_distance_m 2, max_distance_m 30 and rolloff_factor 1 (and 2 for
a second inverse curve), plus a custom curve of four points. Plain SVG text: no
plotting library; ``tests/unit/test_distance_plot.py`` checks the committed
picture is what this script draws.
"""

from __future__ import annotations

import sys
from pathlib import Path

from soundscape.laws.spatial import DistanceModel, distance_gain

OUT = Path(__file__).resolve().parents[1] / "docs" / "img" / "distance_models.svg"
MIN_M, MAX_M, SPAN_M = 2.0, 30.0, 40.0
CUSTOM = ((0.0, 1.0), (6.0, 0.9), (12.0, 0.3), (24.0, 0.0))
CURVES = (
    ("inverse (OpenAL default)", DistanceModel("inverse", MIN_M, MAX_M, 1.0), "#1f77b4", ""),
    ("inverse, rolloff_factor 2", DistanceModel("inverse", MIN_M, MAX_M, 2.0), "#1f77b4", "6,4"),
    ("linear", DistanceModel("linear", MIN_M, MAX_M, 1.0), "#d62728", ""),
    ("exponential", DistanceModel("exponential", MIN_M, MAX_M, 1.0), "#2ca02c", ""),
    ("none", DistanceModel("none", MIN_M, MAX_M), "#7f7f7f", "2,3"),
    ("custom (4 points)", DistanceModel("custom", curve=CUSTOM), "#9467bd", ""),
)
W, H, LEFT, RIGHT, TOP, BOTTOM = 640, 360, 56, 190, 20, 44


def _x(d_m: float) -> float:
    return LEFT + (W - LEFT - RIGHT) * d_m / SPAN_M


def _y(gain: float) -> float:
    return TOP + (H - TOP - BOTTOM) * (1.0 - gain)


def svg() -> str:
    """The picture, as SVG text (the same bytes every run)."""
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
           f'viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>']
    for d in range(0, int(SPAN_M) + 1, 5):
        out.append(f'<line x1="{_x(d):.1f}" y1="{_y(0):.1f}" x2="{_x(d):.1f}" y2="{_y(1):.1f}" '
                   'stroke="#e5e5e5"/>')
        out.append(f'<text x="{_x(d):.1f}" y="{_y(0) + 16:.1f}" text-anchor="middle">{d}</text>')
    for i in range(5):
        g = i / 4
        out.append(f'<line x1="{_x(0):.1f}" y1="{_y(g):.1f}" x2="{_x(SPAN_M):.1f}" '
                   f'y2="{_y(g):.1f}" stroke="#e5e5e5"/>')
        out.append(f'<text x="{_x(0) - 8:.1f}" y="{_y(g) + 4:.1f}" text-anchor="end">{g:g}</text>')
    for d, label in ((MIN_M, "min_distance_m"), (MAX_M, "max_distance_m")):
        out.append(f'<line x1="{_x(d):.1f}" y1="{_y(0):.1f}" x2="{_x(d):.1f}" y2="{_y(1):.1f}" '
                   'stroke="#999" stroke-dasharray="3,3"/>')
        out.append(f'<text x="{_x(d) + 3:.1f}" y="{_y(1) + 12:.1f}" fill="#666">{label}</text>')
    out.append(f'<text x="{_x(SPAN_M / 2):.1f}" y="{H - 6}" text-anchor="middle">'
               'distance (m)</text>')
    out.append(f'<text x="14" y="{_y(0.5):.1f}" text-anchor="middle" '
               f'transform="rotate(-90 14 {_y(0.5):.1f})">gain</text>')
    steps = int(SPAN_M * 4)
    for row, (label, model, colour, dash) in enumerate(CURVES):
        points = " ".join(f"{_x(k / 4):.1f},{_y(distance_gain(k / 4, model)):.1f}"
                          for k in range(steps + 1))
        style = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" '
                   f'stroke-width="2"{style}/>')
        ly = TOP + 14 + 20 * row
        out.append(f'<line x1="{W - RIGHT + 14}" y1="{ly - 4}" x2="{W - RIGHT + 40}" '
                   f'y2="{ly - 4}" stroke="{colour}" stroke-width="2"{style}/>')
        out.append(f'<text x="{W - RIGHT + 46}" y="{ly}">{label}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    path = Path(argv[1]) if len(argv) > 1 else OUT
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(svg())
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
