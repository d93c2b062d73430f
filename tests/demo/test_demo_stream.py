"""The demo's well plays an OGG Vorbis file made at start-up, streamed: the decoder
layer, a streamed voice and the modern profile's conversion in the demo itself."""

from __future__ import annotations

import numpy as np
import pytest

from soundscape.audio.sounds import StreamedSound
from soundscape.demo_world.assets import WELL, WELL_RATE_HZ, ensure_assets
from soundscape.demo_world.game import DemoGame

pytest.importorskip("soundfile")


def test_the_well_plays_its_ogg_streamed(tmp_path, monkeypatch):
    monkeypatch.setenv("SOUNDSCAPE_DEMO_ASSETS", str(tmp_path / "assets"))
    game = DemoGame(0, backend="offline", features=("audio",))
    try:
        assert (tmp_path / "assets" / WELL).read_bytes()[:4] == b"OggS"
        x, z = game.village.spot("well").as_xz()
        game.teleport(x - 3.0, z)
        for _ in range(120):
            game.step()
        sound = game.ctx.sounds.get(WELL)
        assert isinstance(sound, StreamedSound)
        assert sound.source_rate_hz == WELL_RATE_HZ and sound.sample_rate_hz == 48_000
        starts = game.ctx.events.where(event="start", sound=WELL)
        assert len(starts) == 1 and starts[0]["source"] == "modern"
        assert not game.ctx.events.where(event="stream_underrun")
        audio = game.ctx.mixer.backend.audio()[-48_000:]
        assert float(np.sqrt(np.mean(audio ** 2))) > 0.01
        # the bank holds no samples of it: one voice's ring of 2 s, not the 40 s file
        assert sound.nbytes == 0
        rings = game.ctx.mixer.streams.rings()
        assert [(r.sound.name, r.frames, r.seg.stereo) for r in rings] == [(WELL, 96_000, True)]
    finally:
        game.close()


def test_the_asset_is_made_once(tmp_path):
    folder = ensure_assets(tmp_path)
    stamp = (folder / WELL).stat().st_mtime_ns
    assert ensure_assets(tmp_path) == folder and (folder / WELL).stat().st_mtime_ns == stamp
