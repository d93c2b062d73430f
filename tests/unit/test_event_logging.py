"""Warnings and errors in the event log also go to ``logging.getLogger("soundscape")``,
once per cause; subscribers are called, can unsubscribe, and cannot break a frame."""

from __future__ import annotations

import logging

import esper
import pytest

from soundscape import Settings, SoundscapePlugin
from soundscape.audio.emitters import play_at
from soundscape.clock import Clock
from soundscape.components.emitter import Emitter
from soundscape.components.spatial import Listener, Position
from soundscape.events import LOG_LEVELS, MAX_LOGGED_CAUSES, EventLog, log_level


def soundscape_records(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "soundscape"]


def test_a_warning_event_is_logged_once_per_cause(caplog):
    caplog.set_level(logging.INFO, logger="soundscape")
    log = EventLog(Clock())
    for _ in range(3):
        log.emit("sounds", "missing", sound="door")
    log.emit("sounds", "missing", sound="gate")  # another sound: another cause
    log.emit("mixer", "warning", reason="no audio device")
    log.emit("mixer", "warning", reason="no audio device")
    log.emit("ac", "play", sound="wind")  # not a warning: never logged
    records = soundscape_records(caplog)
    assert [(r.levelno, r.getMessage().split()[0]) for r in records] == [
        (logging.WARNING, "sounds/missing"), (logging.WARNING, "sounds/missing"),
        (logging.WARNING, "mixer/warning")]
    assert "sound='door'" in records[0].getMessage()
    assert "sound='gate'" in records[1].getMessage()
    assert "reason='no audio device'" in records[2].getMessage()
    assert records[0].soundscape_event["sound"] == "door"  # the record rides along
    assert len(log.where(event="missing")) == 4  # the event log itself keeps every one


def test_errors_log_at_error_and_different_messages_are_different_causes(caplog):
    caplog.set_level(logging.INFO, logger="soundscape")
    log = EventLog(Clock())
    log.emit("clock", "error", error="dt must be finite")
    log.emit("clock", "error", error="dt must be finite")
    log.emit("clock", "error", error="dt must not be negative")
    assert [r.levelno for r in soundscape_records(caplog)] == [logging.ERROR, logging.ERROR]


@pytest.mark.parametrize(("event", "level"), [
    ("underrun", logging.WARNING), ("device_lost", logging.WARNING),
    ("callback_error", logging.ERROR), ("bad_sound", logging.WARNING),
    ("render_error", logging.ERROR), ("bad_rate", logging.WARNING),
    ("missing_group", logging.WARNING), ("stream_lost", logging.WARNING),
])
def test_failure_kinds_added_by_other_runtimes_are_logged_by_name(caplog, event, level):
    caplog.set_level(logging.INFO, logger="soundscape")
    EventLog(Clock()).emit("mixer", event, reason="x")
    assert [r.levelno for r in soundscape_records(caplog)] == [level]
    assert log_level(event) == level


def test_an_explicit_log_level_logs_any_event_and_is_not_stored(caplog):
    caplog.set_level(logging.INFO, logger="soundscape")
    log = EventLog(Clock())
    record = log.emit("redguard", "skip", sound=9, reason="effect out of range",
                      log_level=logging.WARNING)
    assert "log_level" not in record
    assert [r.levelno for r in soundscape_records(caplog)] == [logging.WARNING]
    assert "play" not in LOG_LEVELS and log_level("play") is None


def test_logged_causes_are_bounded(caplog):
    caplog.set_level(logging.INFO, logger="soundscape")
    log = EventLog(Clock())
    for i in range(MAX_LOGGED_CAUSES + 50):
        log.emit("sounds", "missing", sound=f"s{i}")
    messages = [r.getMessage() for r in soundscape_records(caplog)]
    assert len(messages) == MAX_LOGGED_CAUSES + 1
    assert "further ones are only in the event log" in messages[-1]


def test_subscribers_get_every_record_and_can_unsubscribe():
    log = EventLog(Clock())
    seen: list[str] = []
    stop = log.subscribe(lambda record: seen.append(record["event"]))
    log.emit("ac", "play")
    log.emit("ac", "skip")
    stop()
    log.emit("ac", "unarm")
    assert seen == ["play", "skip"]


def test_a_raising_subscriber_is_logged_once_and_the_frame_goes_on(caplog):
    caplog.set_level(logging.INFO, logger="soundscape")
    log = EventLog(Clock())
    calls: list[str] = []

    def broken(record):
        calls.append(record["event"])
        raise KeyError("game bug")

    log.subscribe(broken)
    log.subscribe(lambda record: calls.append("second"))
    log.emit("ac", "play")
    log.emit("ac", "play")
    # its one callback_error record reaches the listeners after "play" has reached all
    assert calls == ["play", "second", "callback_error", "second", "play", "second"]
    errors = log.where(event="callback_error")
    assert len(errors) == 1 and errors[0]["role"] == "event listener"
    assert errors[0]["error"] == "KeyError('game bug')" and "broken" in errors[0]["callback"]
    assert log.callback_errors == 3
    failures = [r for r in soundscape_records(caplog) if r.exc_info]
    assert len(failures) == 1 and "event listener" in failures[0].getMessage()


def test_a_plugin_logs_no_device_a_missing_sound_and_bad_data_once(caplog):
    caplog.set_level(logging.INFO, logger="soundscape")
    # conftest forces pyglet's silent driver: the "no device" case
    plugin = SoundscapePlugin(Settings(features=("audio",), backend="auto")).install()
    esper.create_entity(Listener(heading_rad=0.0), Position(0.0, 0.0, 0.0))
    esper.create_entity(Position(1.0, 0.0, 0.0), Emitter("no_such_sound", loop=False))
    for _ in range(5):
        play_at(plugin.context, "no_such_sound", (2.0, 0.0, 0.0))
        play_at(plugin.context, "door", (float("nan"), 0.0, 0.0))  # bad data from physics
        esper.process(1 / 60)
    plugin.uninstall()
    messages = [r.getMessage() for r in soundscape_records(caplog)]
    assert sum(m.startswith("mixer/warning") and "no audio device" in m for m in messages) == 1
    assert sum(m.startswith("sounds/missing sound='no_such_sound'") for m in messages) == 1
    assert sum(m.startswith("emitters/bad_value") for m in messages) == 1
    assert all(r.levelno >= logging.WARNING for r in soundscape_records(caplog))


def reference_record(clock: Clock, source, event, *, sound=None, pos=None, gain=None, db=None,
                     pan=None, channel=None, **extra) -> dict:
    """A record as ``EventLog.emit`` has always built it: ``t`` rounded for each record,
    every extra field through ``_json_safe``."""
    from soundscape.events import _json_safe

    record = {"t": round(clock.tick / clock.tick_hz, 6), "tick": clock.tick, "source": source,
              "event": event, "sound": sound,
              "pos": None if pos is None else [_json_safe(v) for v in pos],
              "gain": None if gain is None else _json_safe(gain),
              "db": None if db is None else _json_safe(db),
              "pan": None if pan is None else _json_safe(pan), "channel": channel}
    record.update({key: _json_safe(value) for key, value in extra.items()})
    return record


def test_records_keep_their_fields_values_and_order_across_ticks_and_rates():
    """``emit`` rounds ``t`` once a tick (and again when the tick rate changes) and skips
    ``_json_safe`` for plain extra values: the same records, keys in the same order."""
    import numpy as np

    clock = Clock()
    log = EventLog(clock)
    extras = [{"rank": 3, "real_voices": 32}, {"reason": "x", "flag": True, "none": None},
              {"ratio": float("nan"), "big": np.int64(7), "f": np.float64(0.25),
               "pair": (1.0, float("inf")), "items": [np.float32(0.5)]}, {}]
    want = []
    for tick, tick_hz in [(0, 60), (0, 60), (1, 60), (1, 60), (7, 60), (7, 30), (7, 30),
                          (3, 30), (10**9 + 7, 60)]:
        clock.tick, clock.tick_hz = tick, tick_hz
        for extra in extras:
            fields = {"sound": "hum", "channel": 4, "gain": 0.5, "pos": (1, 2.0, np.float64(3))}
            log.emit("modern", "cull", **fields, **extra)
            want.append(reference_record(clock, "modern", "cull", **fields, **extra))
    got = list(log)
    assert [list(r) for r in got] == [list(r) for r in want]  # the keys, in order
    assert [repr(r) for r in got] == [repr(r) for r in want]  # the values and their types
