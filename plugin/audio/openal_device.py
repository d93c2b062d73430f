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

``keep_gil_in_streaming_calls()`` rebinds the AL calls of pyglet's streaming path
to the same library loaded as a ``ctypes.PyDLL``: a call keeps the GIL. Through a
plain ``CDLL`` every call gives the GIL away, and while the game thread runs Python
the audio thread gets it back only at the interpreter's switch interval (5 ms); a
pass of pyglet's worker makes about a dozen AL calls (each followed by
``alGetError``), so with 14 ms of game work a frame a refill came 15-30 ms late.
The calls are microseconds long and never call back into Python.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from typing import Any

ALC_CONNECTED = 0x313
"""``ALC_EXT_disconnect``'s query (alext.h)."""
ALC_DEVICE_CLOCK_SOFT = 0x1600
"""``ALC_SOFT_device_clock``'s query (alext.h)."""

STREAMING_CALLS = (
    "alGetError", "alGetSourcei", "alGetSourcef", "alSourceUnqueueBuffers",
    "alSourceQueueBuffers", "alBufferData", "alSourcePlay", "alGenBuffers", "alIsBuffer",
)
"""What pyglet's ``OpenALAudioPlayer.work`` calls on every pass of its worker."""

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


def _with_disconnect(driver: Any) -> tuple[Any, Any] | None:
    """(pyglet's ALC library, the device) when ``driver``'s device has
    ``ALC_EXT_disconnect``, else None (``connected`` and ``connected_probe`` ask it)."""
    device = al_device(driver)
    if device is None:
        return None
    from pyglet.media.drivers.openal import lib_alc as alc

    if not _has_extension(alc, device, b"ALC_EXT_disconnect"):
        return None
    return alc, device


def connected(driver: Any) -> bool | None:
    """False once pyglet's OpenAL device is disconnected; None when it cannot tell.

    >>> connected(object()) is None
    True
    """
    found = _with_disconnect(driver)
    if found is None:
        return None
    alc, device = found
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
    found = _with_disconnect(driver)
    if found is None:
        return None
    alc, device = found
    value = alc.ALCint(1)
    get_integer = _held(alc, "alcGetIntegerv")  # the audio thread keeps the GIL

    def probe() -> bool:
        value.value = 1
        get_integer(device, ALC_CONNECTED, 1, value)
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


def _held(module: Any, call: str) -> Any:
    """``module``'s ctypes function ``call`` bound again through a ``PyDLL`` (keeps the GIL)."""
    current = getattr(module, call)
    name = getattr(getattr(module, "_lib", None), "_name", None)
    if not name:
        return current
    replacement = getattr(ctypes.PyDLL(name), call)
    replacement.argtypes = current.argtypes
    replacement.restype = current.restype
    return replacement


def keep_gil_in_streaming_calls() -> int:
    """Rebind pyglet's ``lib_openal`` streaming calls to GIL-holding ones; how many changed.

    Idempotent; pyglet's ``interface`` module looks each call up on ``lib_openal``
    when it makes it, so the new bindings take effect at once (for the game's own
    pyglet players too).
    """
    from pyglet.media.drivers.openal import lib_openal as al

    changed = 0
    for call in STREAMING_CALLS:
        if call in _HELD or getattr(al, call, None) is None:
            continue
        setattr(al, call, _held(al, call))
        _HELD.add(call)
        changed += 1
    return changed


_HELD: set[str] = set()
