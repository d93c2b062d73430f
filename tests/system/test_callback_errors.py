"""Issue 11: a game callback that raises is caught where the plugin calls it.

``on_end`` and ``on_steal`` on a channel bank and event listeners are the game's
code running inside ``esper.process``. One that raises used to escape from
``esper.process`` and skip the rest of the tick (PUBLISH, so nothing was
rendered). Now it is reported once per callback (one ``callback_error`` record,
one logged traceback), the other callbacks still run, and the tick completes.
"""

from __future__ import annotations

import logging

import esper
import numpy as np

from soundscape import Settings, SoundscapePlugin
from soundscape.audio.channels import ensure_bank
from soundscape.components.channel import ChannelKind

RATE = 48_000


def offline() -> SoundscapePlugin:
    return SoundscapePlugin(Settings(backend="offline", features=("audio",))).install()


def errors_logged(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "soundscape" and r.exc_info]


def test_on_end_that_raises_is_reported_once_and_the_tick_completes(caplog):
    caplog.set_level(logging.INFO, logger="soundscape")
    plugin = offline()
    ctx = plugin.context
    ctx.sounds.add("blip", np.full(400, 0.5, dtype=np.float32), RATE)
    bank = ctx.channels["modern"]
    after: list[int] = []

    def broken(b, handle, channel, overshoot):
        raise ValueError("game bug in on_end")

    bank.on_end.append(broken)
    bank.on_end.append(lambda b, handle, channel, overshoot: after.append(ctx.clock.tick))
    for frame in range(6):
        if frame % 2 == 0:  # a 400-frame blip ends in the tick it starts
            assert bank.play(bank.acquire(), "blip", volume=1.0, pan=-1.0)
        esper.process(1 / 60)  # never raises
    assert after == [1, 3, 5]  # the callback after the broken one ran for every end
    errors = ctx.events.where(event="callback_error")
    assert len(errors) == 1 and ctx.events.callback_errors == 3
    record = errors[0]
    assert (record["source"], record["role"], record["tick"]) == ("modern", "on_end", 1)
    assert record["callback"].endswith("broken") and "game bug" in record["error"]
    assert len(errors_logged(caplog)) == 1
    # every tick completed: PUBLISH rendered all six, each blip whole at its frame
    audio = ctx.mixer.backend.audio()[:, 0]
    assert audio.shape[0] == 6 * 800
    expected = np.zeros(6 * 800, dtype=np.float32)
    for frame in (0, 2, 4):
        expected[frame * 800 : frame * 800 + 400] = 0.5
    assert np.array_equal(audio, expected)
    plugin.uninstall()


def test_on_steal_that_raises_does_not_stop_the_steal(caplog):
    caplog.set_level(logging.INFO, logger="soundscape")
    plugin = offline()
    ctx = plugin.context
    ctx.sounds.add("tone", np.full(RATE, 0.25, dtype=np.float32), RATE)
    oni = ensure_bank(ctx, "oni", count=1, policy="oni", profile="oni")
    oni.on_steal.append(lambda b, old, channel: 1 / 0)
    oni.play(oni.acquire(kind=ChannelKind.MONO), "tone", volume=1.0, loop=True)
    esper.process(1 / 60)
    for _ in range(2):
        taken = oni.acquire(kind=ChannelKind.MONO, priority=3)
        assert oni.play(taken, "tone", volume=1.0, loop=True)
        esper.process(1 / 60)
    assert len(ctx.events.where(event="steal")) == 2
    errors = ctx.events.where(event="callback_error")
    assert [r["role"] for r in errors] == ["on_steal"] and "ZeroDivisionError" in errors[0]["error"]
    assert ctx.mixer.backend.frames == 3 * 800
    plugin.uninstall()


def test_event_listener_that_raises_is_reported_once_and_stays_subscribed(caplog):
    caplog.set_level(logging.INFO, logger="soundscape")
    plugin = offline()
    ctx = plugin.context
    ctx.sounds.add("blip", np.full(400, 0.5, dtype=np.float32), RATE)
    seen: list[str] = []

    def listener(record):
        seen.append(record["event"])
        if record["event"] == "end":
            raise KeyError("game bug in a listener")

    ctx.events.subscribe(listener)
    bank = ctx.channels["modern"]
    for _ in range(3):
        bank.play(bank.acquire(), "blip", volume=1.0)
        esper.process(1 / 60)
    assert seen.count("end") == 3 and seen.count("callback_error") == 1
    errors = ctx.events.where(event="callback_error")
    assert len(errors) == 1 and errors[0]["role"] == "event listener"
    assert len(errors_logged(caplog)) == 1
    assert ctx.mixer.backend.frames == 3 * 800
    plugin.uninstall()
