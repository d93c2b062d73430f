"""Sounds, decoders, channel banks and their rules, profiles, emitters, the mixer and its backends.

Names are imported on first use (``soundscape._lazy``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from soundscape import _lazy

if TYPE_CHECKING:
    from soundscape.audio.channels import ensure_bank
    from soundscape.audio.emitters import play_at
    from soundscape.audio.feature import install
    from soundscape.audio.mixer import Mixer
    from soundscape.audio.play2d import play_2d
    from soundscape.audio.sounds import SoundBank

_EXPORTS = {
    "install": "soundscape.audio.feature",
    "SoundBank": "soundscape.audio.sounds",
    "Mixer": "soundscape.audio.mixer",
    "ensure_bank": "soundscape.audio.channels",
    "play_at": "soundscape.audio.emitters",
    "play_2d": "soundscape.audio.play2d",
}

__all__ = [
    "Mixer",
    "SoundBank",
    "ensure_bank",
    "install",
    "play_2d",
    "play_at",
]


def __getattr__(name: str) -> object:
    return _lazy.load(__name__, _EXPORTS, name)
