"""Issue 21: the demo sounds like a place.

The region's data gives every terrain calls enough to hear it, the beds loop without
a seam and move, and the whole 240 s tour (``--seed 0``, what ``make demo`` plays)
holds positioned calls on both sides in every 30 s. One tour is shared by the module.
"""

from __future__ import annotations

import json
import re
import struct
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

from soundscape.ac.region_toml import load_region
from soundscape.audio.limiter import CEILING_DBFS
from soundscape.audio.loudness import integrated_lufs, momentary_lufs, true_peak_dbfs
from soundscape.demo_world import sound_png
from soundscape.demo_world.ac_sounds import (
    AC_SOUNDS,
    BED_LOOPS,
    BED_PERIOD_S,
    BED_TAIL_S,
    BEDS,
)
from soundscape.demo_world.population import data_path
from soundscape.demo_world.sounds import RATE_HZ
from soundscape.demo_world.tour import DEFAULT_SECONDS, run_tour
from soundscape.demo_world.world import TERRAIN_IDS
from soundscape.overlay.style import terrain_colour

SEED = 0
WINDOW_S = 30.0
TICK_S = 1.0 / 60.0


@pytest.fixture(scope="module")
def region():
    return load_region(data_path("region.toml"))


@pytest.fixture(scope="module")
def tour(tmp_path_factory):
    out = tmp_path_factory.mktemp("tour240")
    result = run_tour(DEFAULT_SECONDS, out, SEED, progress=False, keep_audio=True)
    events = [json.loads(line) for line in (out / "events.jsonl").read_text().splitlines()]
    return result, events


def _sound_of(region, desc, ambient):
    return region.sound_tables[desc.stb_id].entries[ambient.stype][0].sound


def _terrain_descs(region):
    """Terrain name -> its scene types' STB descs."""
    return {name: [region.stb_descs[region.scene_stb[s]]
                   for s in region.terrain_scenes[index]]
            for name, index in TERRAIN_IDS.items()}


def _calls(region, desc):
    return {_sound_of(region, desc, a) for a in desc.ambient_sounds if a.base_chance > 0.0}


# -- the region's data ---------------------------------------------------------------------


def test_every_terrain_has_a_bed_and_at_least_three_kinds_of_call(region):
    beds = set()
    for terrain, descs in _terrain_descs(region).items():
        for desc in descs:
            constants = [a for a in desc.ambient_sounds if a.base_chance == 0.0]
            assert len(constants) == 1, terrain
            beds.add(_sound_of(region, desc, constants[0]))
            calls = _calls(region, desc)
            assert len(calls) >= 3, (terrain, calls)
            assert not calls & set(BEDS), terrain
            # One entry per sound type: GetSound's (n - 1) x r pick never skips a call.
            table = region.sound_tables[desc.stb_id]
            assert all(len(entries) == 1 for entries in table.entries.values())
    assert beds == set(BEDS)


def test_beds_are_re_fired_once_a_period_and_are_a_period_plus_a_tail(region):
    """min_rate 3.99 s: AC plays at the first 60 Hz tick after the deadline, 240 ticks on."""
    for descs in _terrain_descs(region).values():
        for desc in descs:
            bed = next(a for a in desc.ambient_sounds if a.base_chance == 0.0)
            assert bed.min_rate_s == bed.max_rate_s
            ticks = int(np.floor(bed.min_rate_s / TICK_S)) + 1
            assert ticks * TICK_S == pytest.approx(BED_PERIOD_S)
    for name in BEDS:
        sound = AC_SOUNDS[name]()
        assert sound.shape == (int(round((BED_PERIOD_S + BED_TAIL_S) * RATE_HZ)), 2), name


# -- the sounds ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", BEDS)
def test_bed_played_again_one_period_later_has_no_seam(name):
    sound = AC_SOUNDS[name]().astype(np.float64)
    period, tail = int(BED_PERIOD_S * RATE_HZ), int(BED_TAIL_S * RATE_HZ)
    chained = np.zeros((2 * period + tail, 2))
    chained[: sound.shape[0]] += sound
    chained[period:] += sound
    joint = chained[period - tail: period + 2 * tail]
    steady = chained[tail: period - tail]
    # No step at the joint beyond the sound's own largest steps, no dip or bump in level.
    assert np.abs(np.diff(joint, axis=0)).max() <= np.abs(np.diff(steady, axis=0)).max()
    # From the second play's start the chain is the bed's loop, frame for frame: in the
    # overlap the old tail and the new fade-in sum to it (synth.refire_loop).
    loop = BED_LOOPS[name]().astype(np.float64)
    assert np.allclose(chained[period: 2 * period], loop, atol=1e-6)
    assert np.allclose(chained[tail: period], loop[tail:], atol=1e-6)


@pytest.mark.parametrize("name", BEDS)
def test_bed_moves_in_level_colour_and_balance(name):
    sound = AC_SOUNDS[name]().astype(np.float64)[: int(BED_PERIOD_S * RATE_HZ)]
    n = int(0.2 * RATE_HZ)
    blocks = sound[: sound.shape[0] // n * n].reshape(-1, n, 2)
    level = np.sqrt((blocks ** 2).mean(axis=(1, 2)))
    assert level.max() > 1.4 * level.min(), name
    freqs = np.fft.rfftfreq(n, 1.0 / RATE_HZ)
    power = np.abs(np.fft.rfft(blocks.mean(axis=2), axis=1)) ** 2
    centroid = (power * freqs).sum(axis=1) / power.sum(axis=1)
    assert centroid.max() > 1.25 * centroid.min(), name
    sides = np.sqrt((blocks ** 2).mean(axis=1))
    assert np.ptp(20 * np.log10(sides[:, 1] / sides[:, 0])) > 3.0, name


CALL_BANDS = {
    # name: (lowest, highest) of the frequency holding the most power, Hz
    "ac_bird_song": (2_000, 5_500),
    "ac_bird_trill": (2_800, 4_600),
    "ac_cricket": (4_300, 4_900),
    "ac_woodpecker": (900, 1_300),
    "ac_owl": (350, 450),
    "ac_howl": (350, 700),
    "ac_ice_crack": (400, 4_500),
    "ac_frog": (250, 600),
    "ac_loon": (550, 1_000),
}


@pytest.mark.parametrize("name", sorted(CALL_BANDS))
def test_calls_sit_in_their_band(name):
    x = AC_SOUNDS[name]().astype(np.float64)
    power = np.abs(np.fft.rfft(x)) ** 2
    peak = float(np.fft.rfftfreq(x.shape[0], 1.0 / RATE_HZ)[int(np.argmax(power))])
    lo, hi = CALL_BANDS[name]
    assert lo <= peak <= hi, (name, peak)


def test_calls_are_short_assets():
    for name, recipe in AC_SOUNDS.items():
        seconds = recipe().shape[0] / RATE_HZ
        limit = BED_PERIOD_S + BED_TAIL_S if name in BEDS else 3.0
        assert seconds <= limit, (name, seconds)


# -- the 240 s tour ----------------------------------------------------------------------------


def _positioned_calls(events):
    return [e for e in events if e["source"] == "ac" and e["event"] == "play"
            and e["kind"] == "intermittent" and e["pos"] is not None
            and e["channel"] is not None]


def test_every_30_s_of_the_tour_has_four_positioned_calls_on_both_sides(tour):
    result, events = tour
    assert result.seconds == 240.0
    calls = _positioned_calls(events)
    for start in np.arange(0.0, result.seconds, WINDOW_S):
        window = [e for e in calls if start <= e["t"] < start + WINDOW_S]
        pans = [e["pan"] for e in window]
        assert len(window) >= 4, (start, pans)
        assert min(pans) < 0 < max(pans), (start, pans)


def test_each_terrain_is_heard_with_three_kinds_of_call(tour, region):
    """On the tour each terrain's calls are played: three kinds or more of each."""
    _result, events = tour
    by_desc = {}
    for terrain, descs in _terrain_descs(region).items():
        for desc in descs:
            by_desc[desc.stb_id] = terrain
    heard = defaultdict(set)
    for e in _positioned_calls(events):
        heard[by_desc[int(e["ambient"].split("#")[0], 16)]].add(e["sound"])
    assert set(heard) == set(TERRAIN_IDS)
    for terrain, sounds in heard.items():
        assert len(sounds) >= 3, (terrain, sounds)


def test_beds_chain_one_period_apart(tour):
    """A bed is re-fired 240 ticks after its last play (its loop period), never sooner."""
    _result, events = tour
    plays = defaultdict(list)
    for e in events:
        if e["source"] == "ac" and e["event"] == "play" and e["kind"] == "constant":
            plays[e["ambient"]].append(e["t"])
    gaps = np.concatenate([np.diff(times) for times in plays.values() if len(times) > 1])
    assert gaps.min() >= BED_PERIOD_S - 1e-6
    assert np.mean(np.abs(gaps - BED_PERIOD_S) < 1e-6) > 0.8


def test_the_master_limiter_holds_the_tour_under_minus_1_dbtp(tour):
    """The village's music, dialogue and forge used to reach full scale (75 samples at 1.0)."""
    result, _events = tour
    audio = result.audio
    assert audio is not None and audio.shape[0] == int(240 * result.sample_rate_hz)
    assert float(np.abs(audio).max()) <= 10 ** (CEILING_DBFS / 20) * (1 + 1e-6)
    assert true_peak_dbfs(audio, result.sample_rate_hz) <= -1.0


def test_the_left_right_balance_moves_after_the_village(tour):
    """From 75 s on the balance used to stay put (centred beds, rare calls): now it leans
    3 dB or more to either side in turn (400 ms K-weighted loudness of each side)."""
    result, _events = tour
    times, lufs = momentary_lufs(result.audio, result.sample_rate_hz)
    walk = (times > 75.0) & np.isfinite(lufs).all(axis=1)
    balance = lufs[walk, 0] - lufs[walk, 1]
    assert np.percentile(balance, 5) < -3.0 < 3.0 < np.percentile(balance, 95)
    # and the beds themselves carry it: the balance also swings in the quiet between calls
    quiet = walk & (lufs.max(axis=1) < np.percentile(lufs[walk].max(axis=1), 30))
    assert np.ptp(lufs[quiet, 0] - lufs[quiet, 1]) > 3.0


def test_summary_line_reports_the_integrated_loudness(tour):
    result, _events = tour
    assert result.loudness_lufs == pytest.approx(
        integrated_lufs(result.audio, result.sample_rate_hz), abs=1e-9)
    assert -26.0 < result.loudness_lufs < -12.0  # a mix you hear, not one that shouts
    assert result.true_peak_dbtp <= -1.0
    line = result.summary()
    assert line.startswith("tour: 240 s of game time in ")
    assert f"loudness {result.loudness_lufs:.1f} LUFS integrated (BS.1770)" in line
    assert f"true peak {result.true_peak_dbtp:.1f} dBTP" in line
    assert result.limiter_reduction_db is not None and "limiter up to" in line


def _count(frame, colour, rows, cols, tolerance=40):
    patch = frame[rows, cols, :3].astype(int)
    return int((np.abs(patch - np.array(colour)) <= tolerance).all(axis=2).sum())


def test_tour_sound_png_shows_spectrogram_loudness_terrain_and_stops(tour):
    result, _events = tour
    path, frame = result.sound_png_path, result.sound_png_frame
    assert path == result.out_dir / "tour_sound.png"
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert frame.shape == (sound_png.SIZE[1], sound_png.SIZE[0], 4)  # rows bottom-up (GL)
    width = sound_png.SIZE[0]
    plot = slice(sound_png.LEFT_PX + 2, width - sound_png.RIGHT_PX - 2)
    spec = frame[slice(*sound_png.SPECTRUM_Y), plot, :3].astype(float)
    # The spectrogram: many colours, brighter low than high (wind, water, music), and
    # the calls' band (2-5 kHz) lit somewhere in every terrain's part of the walk.
    assert len(np.unique(spec.reshape(-1, 3), axis=0)) > 500
    rows = spec.shape[0]
    assert spec[: rows // 3].mean() > spec[-rows // 6:].mean()
    # The left and right loudness curves, each drawn across the whole walk.
    loud = slice(*sound_png.LOUDNESS_Y)
    for colour in (sound_png.LEFT_COLOUR, sound_png.RIGHT_COLOUR):
        cols = frame[loud, plot, :3].astype(int)
        hit = (np.abs(cols - np.array(colour)) <= 40).all(axis=2).any(axis=0)
        assert hit.mean() > 0.8, colour
    # The terrain strip walks through every terrain's colour.
    strip = frame[sum(sound_png.TERRAIN_Y) // 2, plot, :3].astype(int)
    for terrain in TERRAIN_IDS.values():
        assert (np.abs(strip - np.array(terrain_colour(terrain))) <= 8).all(axis=1).any(), terrain

    # Every stop is marked: a light line through the loudness panel at its time.
    def x_of(t_s):
        return int(round(sound_png.LEFT_PX + (width - sound_png.LEFT_PX - sound_png.RIGHT_PX)
                         * t_s / result.seconds))

    stops = [e for e in _events if e["source"] == "tour" and e["event"] == "waypoint"
             and not e["label"].startswith("to ")]
    assert len(stops) >= 10
    for stop in stops:
        x = x_of(stop["t"])
        column = frame[sound_png.LOUDNESS_Y[0] + 5: sound_png.LOUDNESS_Y[1] - 5,
                       x - 1: x + 2, :3].astype(int)
        light = (column > 110).all(axis=2).any(axis=1)  # grey-white: not a curve, not grid
        assert light.mean() > 0.8, stop["label"]


def test_readme_shows_tour_sound_png_beside_tour_png():
    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text()
    pair = re.search(r'<img src="docs/images/tour.png"[^>]*>\s*'
                     r'<img src="docs/images/tour_sound.png"[^>]*>', readme)
    assert pair is not None
    for name in ("tour.png", "tour_sound.png"):
        head = (root / "docs" / "images" / name).read_bytes()[:24]
        assert head[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", head[16:24]) == (1280, 720), name
