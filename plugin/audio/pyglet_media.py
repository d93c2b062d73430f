"""Importing ``pyglet.media`` without a display.

``pyglet.media.player`` imports ``pyglet.gl`` for one texture constant, and
``pyglet.gl`` imports ``pyglet.window`` when ``pyglet.options['shadow_window']``
is on (pyglet's default), which opens the shadow window: on Linux with no
``DISPLAY`` (a server, CI, an audio-only tool) that raises
``NoSuchDisplayException`` though no window is wanted. ``import_media`` leaves
the shadow window to ``pyglet.window``'s own import in that case only: pyglet
still creates it when the game imports ``pyglet.window`` (which needs the
display anyway), and where a display exists nothing changes.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from types import ModuleType
from typing import Any

X11_PLATFORMS = ("linux", "freebsd", "openbsd", "netbsd")
"""Platforms where pyglet opens windows through Xlib and needs ``DISPLAY``."""


def needs_display_deferral(options: Any, platform: str, environ: Mapping[str, str]) -> bool:
    """True when importing ``pyglet.gl`` now would try to open a window on no display.

    >>> needs_display_deferral({"headless": False, "shadow_window": True}, "linux", {})
    True
    >>> needs_display_deferral({"headless": False, "shadow_window": True}, "linux",
    ...                        {"DISPLAY": ":0"})
    False
    >>> needs_display_deferral({"headless": True, "shadow_window": True}, "linux", {})
    False
    >>> needs_display_deferral({"headless": False, "shadow_window": True}, "win32", {})
    False
    """
    if options["headless"] or not options["shadow_window"]:
        return False
    return platform.startswith(X11_PLATFORMS) and not environ.get("DISPLAY")


def import_media() -> ModuleType:
    """``pyglet.media``, imported without opening pyglet's shadow window on no display."""
    import pyglet

    if "pyglet.media" in sys.modules or "pyglet.gl" in sys.modules:
        import pyglet.media

        return pyglet.media
    if not needs_display_deferral(pyglet.options, pyglet.compat_platform, os.environ):
        import pyglet.media

        return pyglet.media
    pyglet.options["shadow_window"] = False
    try:
        import pyglet.media
    finally:
        pyglet.options["shadow_window"] = True
    return pyglet.media
