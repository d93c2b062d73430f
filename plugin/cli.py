"""What soundscape's command-line tools share: ``--version`` and argument types.

Both tools (``soundscape-demo``, ``soundscape-sound-test``) use ``argparse``: ``--help``
and ``--version`` print and exit 0; a bad argument prints the usage and a message
naming the argument and exits 2; a run that fails for another reason exits 1.
"""

from __future__ import annotations

import argparse


def add_version(parser: argparse.ArgumentParser) -> None:
    """Add ``--version``: prints ``prog version`` (``soundscape.__version__``) and exits 0."""
    from soundscape._version import __version__

    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")


def seed(text: str) -> int:
    """An ``argparse`` type: a seed is a whole number, 0 or more.

    >>> seed("7")
    7
    >>> seed("-1")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: the seed must be 0 or more, got '-1'
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"the seed must be a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"the seed must be 0 or more, got {text!r}")
    return value
