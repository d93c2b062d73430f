"""The headless tour end to end: one short tour shared by every test in this module.

It walks the whole route (every terrain, the house, the waterfall behind the
palisade and in the open, the archer's bolts, the villager) in 90 s of game
time, then the tests read its event log, its WAV and its PNG.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from soundscape.audio.wav import read_wav
from soundscape.demo_world.tour import run_tour
from soundscape.overlay.style import (
    BEARING_COLOUR,
    FLYBY_COLOUR,
    LISTENER_COLOUR,
    RAY_BLOCKED,
    TRIGGER_COLOUR,
    VOLUME_COLOUR,
    WALL_COLOUR,
    terrain_colour,
)

TOUR_SECONDS = 90.0
SEED = 0
TERRAIN_SOUND = {
    "forest": "ac_forest_rustle",
    "snow": "ac_blizzard",
    "shore": "ac_lapping",
    "water": "ac_deep_water",
    "desert": "ac_desert_wind",
}


@pytest.fixture(scope="module")
def tour(tmp_path_factory):
    out = tmp_path_factory.mktemp("tour")
    result = run_tour(TOUR_SECONDS, out, SEED, progress=False, keep_audio=True)
    events = [json.loads(line) for line in (out / "events.jsonl").read_text().splitlines()]
    return result, events


def _listen(events, label):
    found = [e for e in events if e["source"] == "tour" and e["event"] == "listen"
             and e["label"] == label]
    assert found, f"no listen record at {label!r}"
    return found[0]


def _window(events, label):
    """(start, end) seconds of the dwell called ``label``."""
    marks = [e for e in events if e["source"] == "tour" and e["event"] == "waypoint"]
    for i, mark in enumerate(marks):
        if mark["label"] == label:
            end = marks[i + 1]["t"] if i + 1 < len(marks) else math.inf
            return mark["t"], end
    raise AssertionError(f"no waypoint {label!r}")


def test_tour_writes_its_three_files(tour):
    result, events = tour
    assert result.wav_path.exists() and result.wav_path.stat().st_size > 1000
    assert result.events_path.exists() and result.png_path.exists()
    assert result.png_path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert result.missing == []
    assert result.ticks == int(TOUR_SECONDS * 60)
    assert events[-1]["t"] <= TOUR_SECONDS + 1e-6


def test_every_terrain_is_visited_and_heard(tour):
    _result, events = tour
    for terrain, sound in TERRAIN_SOUND.items():
        label = {"shore": "lake shore", "water": "lake water"}.get(terrain, terrain)
        record = _listen(events, label)
        assert record["terrain"] == terrain
        ac_voices = {k: v for k, v in record["voices"].items() if k.startswith("ac_")}
        assert sound in ac_voices, (label, record["voices"])
    # The loudest terrain bed changes with the terrain: AC's crossfaded constant volumes
    # at the stop (what the next re-fire plays; the channels' volumes can be one 4 s
    # re-fire old on this fast tour's 1 s stops, and the terrain's calls play often).
    loudest = {label: max((v, k) for k, v in _listen(events, label)["beds"].items())[1]
               for label in ("forest", "snow", "lake water", "desert")}
    assert loudest == {"forest": "ac_forest_rustle", "snow": "ac_blizzard",
                       "lake water": "ac_deep_water", "desert": "ac_desert_wind"}


def test_terrain_ambience_is_silent_indoors(tour):
    _result, events = tour
    start, end = _window(events, "inside the house")
    rebuilds = [e for e in events if e["source"] == "ac" and e["event"] == "rebuild"
                and start - 1.0 <= e["t"] <= end]
    indoor = [e for e in rebuilds if e["outdoors"] is False]
    assert indoor and indoor[0]["total"] == 0.0
    plays = [e for e in events if e["source"] == "ac" and e["event"] == "play"
             and indoor[0]["t"] < e["t"] < end]
    assert plays == []
    assert _listen(events, "inside the house")["outdoors"] is False
    # Outdoors before and after, the terrain plays.
    assert any(e["source"] == "ac" and e["event"] == "play" and e["t"] > end for e in events)


def test_waterfall_is_quieter_behind_the_palisade(tour):
    _result, events = tour
    behind = _listen(events, "behind the palisade")["voices"]["oni_waterfall"]
    open_air = _listen(events, "waterfall in the open")["voices"]["oni_waterfall"]
    assert behind < open_air * 0.85
    start, end = _window(events, "behind the palisade")
    walls = {e["walls"] for e in events if e["source"] == "occlusion" and
             e["event"] == "occlusion" and start < e["t"] < end and e["pos"][2] == 462.0}
    assert walls == {1}
    start, end = _window(events, "waterfall in the open")
    walls = {e["walls"] for e in events if e["source"] == "occlusion" and
             e["event"] == "occlusion" and start < e["t"] < end and e["pos"][2] == 462.0}
    assert walls == {0}


def test_forge_and_waterfall_play_in_then_base_with_details_heard_through_walls(tour):
    """Issue 7: the waterfall and forge are placed ambients with in / base / out tracks
    and details, heard through the walls."""
    _result, events = tour
    for name, detail in (("forge", "oni_anvil"), ("waterfall", "oni_droplet")):
        starts = [e["sound"] for e in events if e["source"] == "oni" and e["event"] == "start"
                  and e["sound"] in (f"oni_{name}_in", f"oni_{name}", detail)]
        assert starts[0] == f"oni_{name}_in", name
        assert f"oni_{name}" in starts[1:] and detail in starts, name
        assert any(e["source"] == "oni" and e["event"] == "detail" and e["sound"] == detail
                   for e in events), name
    # Inside the house the forge (412, 410) is behind walls and still heard.
    start, end = _window(events, "inside the house")
    walls = {e["walls"] for e in events if e["source"] == "occlusion"
             and e["event"] == "occlusion" and start < e["t"] < end
             and (e["pos"][0], e["pos"][2]) == (412.0, 410.0)}
    assert walls and min(walls) >= 1
    assert _listen(events, "inside the house")["voices"]["oni_forge"] > 0.0


def test_a_bolt_flies_past(tour):
    _result, events = tour
    flybys = [e for e in events if e["source"] == "flyby" and e["event"] == "flyby"
              and e["played"]]
    assert flybys
    assert any(abs(e["pos"][0] - 300.0) < 6.0 and abs(e["pos"][2] - 384.0) < 4.0
               for e in flybys)
    assert any(e["source"] == "oni" and e["event"] == "start" and e["sound"] == "oni_bolt_flyby"
               for e in events)


def test_the_villager_speaks_when_near(tour):
    _result, events = tour
    lines = [e for e in events if e["source"] == "oni" and e["event"] == "dialog_start"]
    assert [e["sound"] for e in lines][:2] == ["villager_01", "villager_02"]
    start, end = _window(events, "villager")
    assert all(start - 2.0 <= e["t"] <= end for e in lines)


def test_music_plays_in_loop_and_out(tour):
    _result, events = tour
    music = [e["sound"] for e in events if e["source"] == "oni" and e["event"] == "start"
             and (e["sound"] or "").startswith("oni_mus_village")]
    assert music[0] == "oni_mus_village_in"
    assert music[-1] == "oni_mus_village_out"
    body = music[1:-1]
    assert len(body) >= 3 and set(body) <= {"oni_mus_village_a", "oni_mus_village_b"}
    stops = [e for e in events if e["source"] == "oni" and e["event"] == "script_stop"]
    assert len(stops) == 1


def test_redguard_torch_rope_and_effects(tour):
    _result, events = tour
    starts = [e for e in events if e["source"] == "redguard" and e["event"] == "rg_start"]
    callers = {e["caller"] for e in starts}
    assert {"torch", "rope", "Sound", "AmbientSound"} <= callers
    torch = [e for e in starts if e["caller"] == "torch"]
    assert all(e["effect"] == 25 for e in torch)
    assert all(e["channel"] is not None for e in starts)


def test_wav_is_loud_and_differs_between_terrains(tour):
    result, events = tour
    decoded = read_wav(result.wav_path)
    audio = np.asarray(decoded.samples, dtype=np.float64)
    rate = decoded.sample_rate_hz
    assert audio.shape[0] == int(TOUR_SECONDS * rate)
    assert np.sqrt((audio ** 2).mean()) > 0.01

    def spectrum(label):
        t = _listen(events, label)["t"]
        seg = audio[int((t - 0.4) * rate): int((t + 0.4) * rate)].mean(axis=1)
        assert np.sqrt((seg ** 2).mean()) > 0.002, label
        power = np.abs(np.fft.rfft(seg * np.hanning(seg.shape[0]))) ** 2
        freqs = np.fft.rfftfreq(seg.shape[0], 1.0 / rate)
        edges = [0, 100, 200, 400, 800, 1600, 3200, 6400, rate]
        bands = np.array([power[(freqs >= lo) & (freqs < hi)].sum()
                          for lo, hi in zip(edges, edges[1:], strict=False)])
        return bands / bands.sum()

    shapes = {label: spectrum(label) for label in ("forest", "snow", "desert", "lake water")}
    names = list(shapes)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert np.abs(shapes[a] - shapes[b]).sum() > 0.1, (a, b)


def test_png_shows_the_overlay(tour):
    result, _events = tour
    frame = result.png_frame  # rows bottom-up, as GL reads them
    view = result.png_view
    assert frame is not None and frame.shape == (720, 1280, 4)

    def rgb(x_m, z_m):
        x, y = view.to_screen(x_m, z_m)
        return tuple(int(v) for v in frame[int(y), int(x), :3])

    def near(x_px, y_px, colour, radius=3, tolerance=12):
        """Some pixel within ``radius`` has ``colour`` (GL blends thin lines a little)."""
        patch = frame[int(y_px) - radius: int(y_px) + radius + 1,
                      int(x_px) - radius: int(x_px) + radius + 1, :3].astype(int)
        return bool((np.abs(patch - np.array(colour)) <= tolerance).all(axis=2).any())

    # The listener's dot at her screen position (the view is centred on her).
    assert rgb(view.centre_x_m, view.centre_z_m) == LISTENER_COLOUR
    # Terrain colours: hues of water, desert and forest differ (the overlay shades by weight).
    water, desert, forest = rgb(650.0, 384.0), rgb(560.0, 160.0), rgb(200.0, 600.0)
    assert water[2] > water[0] and desert[0] > desert[2] and forest[1] > forest[0]
    assert len({water, desert, forest}) == 3
    assert rgb(650.0, 384.0)[2] > 0 and terrain_colour(17)[2] > terrain_colour(17)[0]
    # The waterfall's ray is red (one wall), between the palisade and the waterfall.
    x, y = view.to_screen(384.0, 451.0)
    assert near(x, y, RAY_BLOCKED)


def test_png_shows_walls_shells_wall_count_and_panel(tour):
    result, _events = tour
    frame = result.png_frame[:, :, :3].astype(int)
    view = result.png_view

    def count(colour, region=(slice(None), slice(None)), tolerance=12):
        patch = frame[region]
        return int((np.abs(patch - np.array(colour)) <= tolerance).all(axis=2).sum())

    def at(x_m, z_m, colour, radius=3):
        x, y = (int(v) for v in view.to_screen(x_m, z_m))
        return count(colour, (slice(y - radius, y + radius + 1),
                              slice(x - radius, x + radius + 1))) > 0

    # The palisade and the house's north wall, in the wall colour.
    assert at(420.0, 440.0, WALL_COLOUR) and at(350.0, 420.0, WALL_COLOUR)
    # The intermittent ambients' bearing lines and shells: plenty of cyan.
    assert count(BEARING_COLOUR) > 300
    # The waterfall's blocked ray carries its wall count on a dark tag, mid-ray.
    mx, my = (int(v) for v in view.to_screen(384.0, (451.0 + 462.0) / 2))
    assert count(RAY_BLOCKED, (slice(my - 30, my + 30), slice(mx - 10, mx + 70))) > 20
    # A bolt in flight: its path (orange) down the tower's line x = 300 m and its trigger.
    tx, _ = view.to_screen(300.0, 0.0)
    assert count(FLYBY_COLOUR, (slice(None), slice(int(tx) - 8, int(tx) + 8))) > 10
    assert count(TRIGGER_COLOUR) > 5
    # The channel panel, top right: the volume bars of the playing channels.
    h, w = frame.shape[:2]
    assert count(VOLUME_COLOUR, (slice(h - 200, h), slice(w - 300, w))) > 100
    assert count(VOLUME_COLOUR, (slice(0, h - 200), slice(0, w - 300))) == 0
