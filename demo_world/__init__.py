"""The walk-around demo world: a pyglet game built only on soundscape's public API."""
