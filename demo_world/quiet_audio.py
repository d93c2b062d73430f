"""Keep the audio libraries quiet on a machine without a sound card.

With no card, OpenAL Soft's ALSA back end makes libasound print a dozen
``ALSA lib ...`` lines and OpenAL Soft its own ``AL lib: (EE)`` line on stderr
before pyglet falls back to another driver; a user reads them as a crash. The
plugin already logs one ``mixer``/``warning`` event in that case and the
window's status line says which driver plays, so the noise says nothing new.

Call ``quiet_audio_libraries()`` before ``pyglet.media`` is imported (OpenAL Soft
reads ``ALSOFT_LOGLEVEL`` when it loads). A user who sets ``ALSOFT_LOGLEVEL``
keeps their own level.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os

# libasound's error handler: (file, line, function, err, fmt, ...). Calls with
# variadic arguments still reach a fixed-signature callback on every ABI
# libasound ships for; the callback ignores them.
_HANDLER_TYPE = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                                 ctypes.c_int, ctypes.c_char_p)
_handler_ref: object = None  # libasound keeps only the pointer: keep the callback alive


def _ignore(file: bytes | None, line: int, function: bytes | None, err: int,
            fmt: bytes | None) -> None:
    return None


def quiet_audio_libraries() -> bool:
    """Silence OpenAL Soft's log and libasound's error printer; True if ALSA was found."""
    global _handler_ref
    os.environ.setdefault("ALSOFT_LOGLEVEL", "0")
    name = ctypes.util.find_library("asound")
    if name is None:
        return False
    try:
        lib = ctypes.CDLL(name)
        handler = _HANDLER_TYPE(_ignore)
        lib.snd_lib_error_set_handler(handler)
    except (OSError, AttributeError):
        return False
    _handler_ref = handler
    return True
