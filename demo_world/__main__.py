"""``soundscape-demo``: the walk-around world in a window, or its headless tour.

Usage::

    soundscape-demo                      # the window (needs a display)
    soundscape-demo --headless --tour --seconds 240 --out out --seed 0
    soundscape-demo --auto               # the window where a display exists, else the tour

The pyglet options are set here, before anything imports pyglet's window, GL or
media modules: headless runs draw through EGL and play no audio device.
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
from pathlib import Path

from soundscape import cli

DEFAULT_OUT = Path("out")


def _positive_seconds(text: str) -> float:
    value = float(text)
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"--seconds must be a positive number, got {text!r}")
    return value


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--seed must be a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"--seed must be 0 or more, got {text!r}")
    return value


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="soundscape-demo",
        description="Walk around a world that sounds like Asheron's Call, Oni and Redguard.",
    )
    parser.add_argument("--headless", action="store_true",
                        help="no window: draw through EGL, audio to files")
    parser.add_argument("--tour", action="store_true", help="walk the fixed route (headless)")
    parser.add_argument("--auto", action="store_true",
                        help="the window if a display exists, else the headless tour into out/")
    parser.add_argument("--seconds", type=_positive_seconds, default=None,
                        help="tour length in game seconds (default 240)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="tour output folder")
    parser.add_argument("--seed", type=_seed, default=0, help="world and sound seed (0 or more)")
    parser.add_argument("--no-png", action="store_true", help="skip the tour's PNG frame")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    cli.add_version(parser)
    return parser.parse_args(argv)


WINDOW_PROBE = (
    "import pyglet\n"
    "pyglet.options['headless'] = False\n"
    "pyglet.options['shadow_window'] = False\n"
    "pyglet.window.Window(width=64, height=64, visible=False).close()\n"
)


def display_available(timeout_s: float = 20.0) -> bool:
    """True when a window can be opened: a display variable is set and a test window opens.

    The test runs in a child process, so a failed attempt leaves this process's
    pyglet free to switch to headless (EGL) drawing.
    """
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return False
    # A real window, never EGL's: the child must not inherit a headless setting.
    env = {k: v for k, v in os.environ.items() if k != "PYGLET_HEADLESS"}
    try:
        probe = subprocess.run([sys.executable, "-c", WINDOW_PROBE], capture_output=True,
                               timeout=timeout_s, check=False, env=env)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0


def set_headless() -> None:
    """pyglet options for EGL drawing and no audio device (before pyglet.window/gl)."""
    import pyglet

    pyglet.options["headless"] = True
    pyglet.options["shadow_window"] = False
    pyglet.options["audio"] = ("silent",)


def run_headless_tour(args: argparse.Namespace) -> int:
    set_headless()
    from soundscape.demo_world.tour import DEFAULT_SECONDS, run_tour

    seconds = args.seconds if args.seconds is not None else DEFAULT_SECONDS
    try:
        Path(args.out).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        print(f"soundscape-demo: cannot write the tour into {args.out}: {error.strerror}",
              file=sys.stderr)
        return 2
    result = run_tour(seconds, args.out, args.seed, progress=not args.quiet, png=not args.no_png)
    print(result.summary())
    for path in (result.wav_path, result.events_path, result.png_path, result.sound_png_path):
        if path is not None:
            print(f"  wrote {path}")
    if result.missing:
        print(f"  runtimes not installed: {', '.join(result.missing)}")
    return 0


def run_window(args: argparse.Namespace) -> int:
    from soundscape.demo_world.quiet_audio import quiet_audio_libraries

    quiet_audio_libraries()  # before pyglet.media loads OpenAL
    from soundscape.demo_world.window import run_window as open_window

    open_window(seed=args.seed)
    return 0


def main(argv: list[str] | None = None) -> int:
    """The console script's entry point; returns the exit status."""
    args = parse_args(argv)
    if args.auto:
        if display_available():
            return run_window(args)
        print(f"soundscape-demo: no display found; running the headless tour into {args.out}/",
              flush=True)
        return run_headless_tour(args)
    if args.headless or args.tour:
        return run_headless_tour(args)
    if not display_available():
        print("soundscape-demo: no display (set DISPLAY, or use --headless --tour / --auto)",
              file=sys.stderr)
        return 2
    return run_window(args)


if __name__ == "__main__":
    raise SystemExit(main())
