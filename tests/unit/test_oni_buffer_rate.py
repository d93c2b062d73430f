"""Settings.oni_buffer_rate: "retail" plays 22,050 x pitch (seed 001 l.86) and names a
sound made at another rate once; "source" plays the file's own rate x pitch."""

from __future__ import annotations

import esper
import numpy as np
import pytest

from soundscape import Settings, SoundscapePlugin
from soundscape.audio.channels import ensure_bank


def oni_steps(mode: str | None, rate_hz: int, plays: int = 2, pitch: float = 1.0):
    extra = {} if mode is None else {"oni_buffer_rate": mode}
    plugin = SoundscapePlugin(Settings(features=("audio",), backend="offline", **extra)).install()
    ctx = plugin.context
    try:
        ctx.sounds.add("song", np.zeros(rate_hz, dtype=np.float32), rate_hz)
        bank = ensure_bank(ctx, "oni", count=4, policy="oni", profile="oni")
        for _ in range(plays):
            assert bank.play(bank.acquire(), "song", volume=1.0, pitch=pitch)
        esper.process(1 / 60)
        steps = [c.step for c in bank.channels if c.playing]
        events = [r for r in ctx.events.records if r["event"] == "rate_mismatch"]
        return steps, events
    finally:
        plugin.uninstall()


def test_retail_is_the_default_and_names_the_rates_once():
    assert Settings().oni_buffer_rate == "retail"
    steps, events = oni_steps(None, 44_100, plays=3, pitch=1.0)
    assert steps == [pytest.approx(22_050 / 48_000)] * 3  # an octave low, as retail did
    assert len(events) == 1
    assert events[0]["sound"] == "song" and events[0]["rate_hz"] == 44_100
    assert events[0]["buffer_rate_hz"] == 22_050 and events[0]["source"] == "oni"


def test_a_22050_hz_sound_logs_nothing():
    steps, events = oni_steps("retail", 22_050, pitch=2.0)
    assert steps == [pytest.approx(2 * 22_050 / 48_000)] * 2 and events == []


def test_source_plays_the_files_own_rate_times_pitch():
    steps, events = oni_steps("source", 44_100, pitch=0.5)
    assert steps == [pytest.approx(0.5 * 44_100 / 48_000)] * 2 and events == []


def test_an_unknown_setting_is_refused():
    with pytest.raises(ValueError, match="oni_buffer_rate"):
        Settings(oni_buffer_rate="native")
