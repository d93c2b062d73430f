"""Questions to pyglet's OpenAL device that pyglet itself does not ask.

Through pyglet's own ctypes bindings (``pyglet.media.drivers.openal.lib_alc``):

- ``connected(driver)``: ``ALC_CONNECTED`` (the ``ALC_EXT_disconnect``
  extension, OpenAL Soft has it since 1.14): 0 once the device is gone (a USB
  headset pulled out, a sound server that died, a wave writer that cannot
  write). pyglet never asks; its worker goes on queueing buffers that are never
  played.
- ``device_clock_ns(driver)``: ``ALC_DEVICE_CLOCK_SOFT`` (``ALC_SOFT_device_clock``),
  the frames the device has mixed, in nanoseconds. The capture tests and the
  real-time bench use it to place a ``play_at`` call on the output's timeline.

Each returns None when the driver is not OpenAL or the extension is missing, so a
caller treats "cannot tell" as "still connected".
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from typing import Any

ALC_CONNECTED = 0x313
"""``ALC_EXT_disconnect``'s query (alext.h)."""
ALC_DEVICE_CLOCK_SOFT = 0x1600
"""``ALC_SOFT_device_clock``'s query (alext.h)."""

_INT64V = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
                           ctypes.POINTER(ctypes.c_int64))


def al_device(driver: Any) -> Any:
    """The ``ALCdevice*`` of a pyglet ``OpenALDriver``, or None (another driver, closed).

    >>> al_device(None) is None
    True
    """
    device = getattr(driver, "device", None)
    handle = getattr(device, "_al_device", None)
    return handle if handle else None


def _has_extension(alc: Any, device: Any, name: bytes) -> bool:
    return bool(alc.alcIsExtensionPresent(device, name))


def connected(driver: Any) -> bool | None:
    """False once pyglet's OpenAL device is disconnected; None when it cannot tell.

    >>> connected(object()) is None
    True
    """
    device = al_device(driver)
    if device is None:
        return None
    from pyglet.media.drivers.openal import lib_alc as alc

    if not _has_extension(alc, device, b"ALC_EXT_disconnect"):
        return None
    value = alc.ALCint(1)
    alc.alcGetIntegerv(device, ALC_CONNECTED, 1, value)
    alc.alcGetError(device)  # leave no error behind for pyglet's own checks
    return bool(value.value)


def connected_probe(driver: Any) -> Callable[[], bool | None] | None:
    """A cheap ``ALC_CONNECTED`` probe for ``driver`` (one ``alcGetIntegerv`` a call),
    or None when it cannot tell (not OpenAL, no ``ALC_EXT_disconnect``).

    >>> connected_probe(None) is None
    True
    """
    device = al_device(driver)
    if device is None:
        return None
    from pyglet.media.drivers.openal import lib_alc as alc

    if not _has_extension(alc, device, b"ALC_EXT_disconnect"):
        return None
    value = alc.ALCint(1)

    def probe() -> bool:
        value.value = 1
        alc.alcGetIntegerv(device, ALC_CONNECTED, 1, value)
        return bool(value.value)

    return probe


def device_clock_ns(driver: Any) -> int | None:
    """The device clock (frames mixed so far, in ns), or None without ``ALC_SOFT_device_clock``."""
    device = al_device(driver)
    if device is None:
        return None
    from pyglet.media.drivers.openal import lib_alc as alc

    if not _has_extension(alc, device, b"ALC_SOFT_device_clock"):
        return None
    address = ctypes.cast(alc.alcGetProcAddress(device, b"alcGetInteger64vSOFT"),
                          ctypes.c_void_p).value
    if not address:
        return None
    value = ctypes.c_int64(0)
    _INT64V(address)(ctypes.cast(device, ctypes.c_void_p), ALC_DEVICE_CLOCK_SOFT, 1,
                     ctypes.byref(value))
    return int(value.value)
