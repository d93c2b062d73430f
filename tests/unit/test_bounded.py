"""Long sessions stay bounded by default (issue 13): the event log keeps its latest
``Settings.event_log_keep`` records and can stream all of them; per-id tables are
trimmed; the offline backend keeps its audio for ``audio()`` or streams it to a WAV
file as it renders; walls that come and go leave nothing in the pymunk space."""

from __future__ import annotations

import io
import json
import wave

import numpy as np
import pytest

from soundscape import Settings, SoundscapePlugin, synth
from soundscape.audio.backend_offline import OfflineBackend
from soundscape.audio.mixer import Mixer
from soundscape.audio.wav import read_wav
from soundscape.audio.wav_stream import WavStream
from soundscape.clock import Clock
from soundscape.components.occlusion import Wall
from soundscape.errors import InputError
from soundscape.events import EventLog
from soundscape.occlusion.space import WallSpace
from soundscape.oni.scripts import DIALOG_ENDS_KEPT
from soundscape.settings import EVENT_LOG_KEEP


def test_the_plugin_log_keeps_the_latest_10000_by_default():
    assert Settings().event_log_keep == EVENT_LOG_KEEP == 10_000
    plugin = SoundscapePlugin(Settings(backend="none", features=("audio",))).install()
    try:
        log = plugin.events
        assert log.keep == 10_000
        for i in range(12_345):
            log.emit("test", "tick", n=i)
        assert len(log) == 10_000 and log.dropped == 2_345
        assert [r["n"] for r in log][:2] == [2_345, 2_346] and log.records[-1]["n"] == 12_344
        assert len(log.where(source="test")) == 10_000
    finally:
        plugin.uninstall()


def test_keep_none_keeps_every_record_and_streaming_gets_all(tmp_path):
    path = tmp_path / "events.jsonl"
    plugin = SoundscapePlugin(Settings(backend="none", features=("audio",), event_log_keep=None,
                                       event_log_path=path)).install()
    log = plugin.events
    for i in range(25_000):
        log.emit("test", "tick", n=i)
    assert len(log) == 25_000 and log.dropped == 0
    log.keep = 100  # bounded at run time: the oldest go
    assert len(log) == 100 and log.dropped == 24_900 and log.records[0]["n"] == 24_900
    log.emit("test", "tick", n=25_000)
    assert len(log) == 100 and log.records[-1]["n"] == 25_000
    plugin.uninstall()  # closes the stream
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 25_001 and json.loads(lines[-1])["n"] == 25_000


@pytest.mark.parametrize("keep", [0, -1, True, 1.5])
def test_keep_must_be_positive(keep):
    with pytest.raises(ValueError, match="event_log_keep"):
        Settings(event_log_keep=keep)
    with pytest.raises(ValueError, match="keep"):
        EventLog(Clock(), keep=keep)


def test_dialog_ends_are_trimmed():
    plugin = SoundscapePlugin(Settings(backend="none", features=("audio", "oni"))).install()
    try:
        scripts = plugin.context.oni.scripts
        for i in range(DIALOG_ENDS_KEPT + 50):
            scripts._ended(f"line{i}")
        assert len(scripts.dialog_ends) == DIALOG_ENDS_KEPT
        assert scripts.dialog_ends[0][0] == "line50" and scripts.dialog_ends[-1][0] == "line305"
    finally:
        plugin.uninstall()


def test_bad_value_reports_are_one_per_channel(world):
    plugin = SoundscapePlugin(Settings(backend="none", features=("audio",))).install()
    try:
        ctx = plugin.context
        synth.add_to(ctx.sounds, "hum", synth.tone(200.0, 0.5))
        bank = ctx.channels["modern"]
        handle = bank.acquire(sound="hum")
        for _ in range(200):
            bank.play(handle, "hum", volume=float("nan"))
            bank.step(1, ctx.sounds)
        assert len(bank._reported) <= 1
        assert len(ctx.events.where(event="bad_value")) == 200  # one per start, as before
    finally:
        plugin.uninstall()


def test_walls_that_come_and_go_leave_nothing_in_the_space():
    space = WallSpace()
    for entity in range(2_000):
        space.set_wall(entity, Wall(float(entity), 0.0, float(entity), 1.0))
        space.set_wall(entity, Wall(float(entity), 1.0, float(entity), 2.0))  # moved
        if entity % 3 == 0:
            with pytest.raises(InputError):  # refused: its old segment is removed
                space.set_wall(entity, Wall(float("nan"), 0.0, 1.0, 1.0))
        space.remove_wall(entity)
    assert len(space) == 0 and not space.space.shapes
    assert not space.space._removed_shapes  # pymunk's own list of removed shapes
    assert not space.space.static_body.shapes
    assert not space.rays._info


# -- the offline backend: keep, or stream to a WAV file ------------------------------------


def _tone_mixer() -> Mixer:
    mixer = Mixer(22050, 256)
    return mixer


def test_offline_keeps_audio_by_default_and_documents_the_cost():
    backend = OfflineBackend(_tone_mixer(), tick_hz=60)
    for _ in range(120):
        backend.on_tick(1)
    assert backend.audio().shape == (44100, 2) and backend.stream is None
    assert "1.4 GB a" in OfflineBackend.__doc__


def test_offline_streams_to_a_wav_file_as_it_renders_instead(tmp_path):
    path = tmp_path / "out" / "mix.wav"
    plugin = SoundscapePlugin(Settings(backend="offline", features=("audio",),
                                       sample_rate_hz=22050, offline_wav_path=path)).install()
    from soundscape.audio.emitters import play_at
    from soundscape.components import Listener, Position

    ctx = plugin.context
    synth.add_to(ctx.sounds, "hum", synth.tone(440.0, 1.0), 22050)
    import esper

    esper.create_entity(Listener(), Position(0.0, 0.0, 0.0))
    play_at(ctx, "hum", (1.0, 0.0, 0.0))
    for _ in range(90):
        esper.process(1 / 60)
    backend = plugin.mixer.backend
    assert backend.audio().shape == (0, 2)  # nothing kept in memory
    assert backend.stream is not None and backend.stream.frames == 90 * 22050 // 60
    plugin.uninstall()  # patches the header
    with wave.open(str(path), "rb") as wav:
        assert wav.getnframes() == 33075 and wav.getnchannels() == 2
        assert wav.getframerate() == 22050 and wav.getsampwidth() == 2
    decoded = read_wav(path).samples
    assert np.abs(decoded).max() > 0.05  # the tone is in the file


def test_the_stream_matches_the_kept_render(tmp_path):
    """Streaming writes the same 16-bit samples ``write_wav`` writes from ``audio()``."""
    def render(backend: OfflineBackend) -> None:
        backend.mixer.master_gain = 1.0
        backend.render_seconds(0.0)
        for _ in range(30):
            backend.on_tick(1)

    kept = OfflineBackend(_tone_mixer())
    render(kept)
    kept.write_wav(tmp_path / "kept.wav")
    streamed = OfflineBackend(_tone_mixer())
    streamed.stream_wav(tmp_path / "streamed.wav")
    render(streamed)
    streamed.close()
    assert (tmp_path / "kept.wav").read_bytes() == (tmp_path / "streamed.wav").read_bytes()


def test_a_stream_to_an_unseekable_sink_keeps_the_header_as_written():
    class Sink(io.RawIOBase):
        def __init__(self) -> None:
            self.data = bytearray()

        def writable(self) -> bool:
            return True

        def write(self, b) -> int:
            self.data += bytes(b)
            return len(b)

    sink = Sink()
    stream = WavStream(sink, 8000, 2)
    stream.write(np.full((3, 2), 0.5, dtype=np.float32))
    stream.close()
    assert bytes(sink.data[:4]) == b"RIFF" and len(sink.data) == 44 + 12
    assert np.frombuffer(bytes(sink.data[44:]), "<i2").tolist() == [16384] * 6
    with pytest.raises(ValueError, match="bits"):
        WavStream(Sink(), 8000, bits=8)
