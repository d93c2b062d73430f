"""The FDN reverb and the zone reverb bus: decay, level, silence, determinism, crossfades."""

from __future__ import annotations

import numpy as np
import pytest

from soundscape.audio.reverb import FLUSH_LEVEL, LINES, PRESETS, Fdn, ReverbParams, reverb_params
from soundscape.audio.reverb_bus import ReverbBus
from soundscape.errors import InputError

RATE = 48_000
BLOCK = 1024


def impulse_response(params: ReverbParams, seconds: float, block: int = BLOCK) -> np.ndarray:
    """The (2, frames) response of a fresh reverb to a unit impulse."""
    fdn = Fdn(params, RATE)
    frames = int(seconds * RATE) // block * block
    send = np.zeros(frames, np.float32)
    send[0] = 1.0
    out = np.zeros((2, frames), np.float32)
    for i in range(0, frames, block):
        fdn.process(send[i:i + block], out[:, i:i + block])
    return out


def octave_500(ir: np.ndarray) -> np.ndarray:
    """The 500 Hz octave band (354-707 Hz, raised-cosine edges) of ``ir``, zero-padded."""
    n = ir.shape[1]
    spectrum = np.fft.rfft(ir.astype(np.float64), 2 * n, axis=1)
    freq = np.fft.rfftfreq(2 * n, 1 / RATE)
    edge = np.clip(np.minimum((freq - 254.0) / 100.0, (807.0 - freq) / 100.0), 0.0, 1.0)
    return np.fft.irfft(spectrum * (0.5 - 0.5 * np.cos(np.pi * edge)), 2 * n, axis=1)[:, :n]


def t60_s(ir: np.ndarray) -> float:
    """T60 from the Schroeder integral of the 500 Hz band, fitted from -5 to -35 dB (T30)."""
    energy = (octave_500(ir) ** 2).sum(axis=0)
    edc = np.cumsum(energy[::-1])[::-1]
    db = 10.0 * np.log10(edc / edc[0])
    first, last = int(np.argmax(db < -5.0)), int(np.argmax(db < -35.0))
    slope = np.polyfit(np.arange(first, last) / RATE, db[first:last], 1)[0]
    return float(-60.0 / slope)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_impulse_response_t60_is_decay_s(preset):
    params = PRESETS[preset]
    ir = impulse_response(params, 1.5 * params.decay_s)
    assert t60_s(ir) == pytest.approx(params.decay_s, rel=0.10)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_reverberant_energy_is_wet_db(preset):
    params = PRESETS[preset]
    ir = impulse_response(params, 2.0 * params.decay_s).astype(np.float64)
    for side in ir:
        assert 10.0 * np.log10((side ** 2).sum()) == pytest.approx(params.wet_db, abs=0.5)


def test_explicit_values_change_the_decay():
    short = impulse_response(reverb_params("hall", decay_s=0.5), 0.75)
    assert t60_s(short) == pytest.approx(0.5, rel=0.10)


def test_damping_shortens_the_highs():
    ir = impulse_response(reverb_params("room", decay_s=1.0, damping=0.8), 1.0)
    spectrum = np.abs(np.fft.rfft(ir[0, RATE // 2:].astype(np.float64)))
    freq = np.fft.rfftfreq(ir.shape[1] - RATE // 2, 1 / RATE)
    low = spectrum[(freq > 200) & (freq < 1000)].mean()
    high = spectrum[(freq > 10_000) & (freq < 20_000)].mean()
    assert 20 * np.log10(high / low) < -20.0  # the tail is dull; without damping it is not
    flat = impulse_response(reverb_params("room", decay_s=1.0, damping=0.0), 1.0)
    spectrum = np.abs(np.fft.rfft(flat[0, RATE // 2:].astype(np.float64)))
    assert abs(20 * np.log10(spectrum[(freq > 10_000) & (freq < 20_000)].mean()
                             / spectrum[(freq > 200) & (freq < 1000)].mean())) < 3.0


def test_left_and_right_are_decorrelated():
    ir = impulse_response(PRESETS["hall"], 1.0).astype(np.float64)
    corr = (ir[0] * ir[1]).sum() / np.sqrt((ir[0] ** 2).sum() * (ir[1] ** 2).sum())
    assert abs(corr) < 0.2


def test_silence_rings_out_to_exact_zero_without_subnormals():
    params = PRESETS["cave"]
    fdn = Fdn(params, RATE)
    send = np.zeros(BLOCK, np.float32)
    send[0] = 1.0
    tiny = np.finfo(np.float32).tiny
    blocks = 0
    while True:
        out = np.zeros((2, BLOCK), np.float32)
        fdn.process(send, out)
        send[0] = 0.0
        assert np.isfinite(out).all()
        assert not np.any((out != 0.0) & (np.abs(out) < tiny))  # no subnormal output
        lines = fdn._lines
        assert not np.any((lines != 0.0) & (np.abs(lines) < tiny))  # nor state
        blocks += 1
        if fdn.idle:
            break
        # -200 dB below the start takes 200/60 decays; allow a tenth more
        assert blocks * BLOCK < 1.1 * (200 / 60) * params.decay_s * RATE + 2 * RATE
    assert not fdn._lines.any()
    out = np.ones((2, BLOCK), np.float32)
    fdn.process(np.zeros(BLOCK, np.float32), out)  # idle: costs nothing, adds nothing
    assert fdn.idle and (out == 1.0).all()
    assert FLUSH_LEVEL < 1e-6


def test_the_same_input_gives_the_same_bytes_whatever_the_block_size():
    noise = np.random.default_rng(3).standard_normal(RATE).astype(np.float32)
    renders = []
    for block in (BLOCK, 1024, 300):
        fdn = Fdn(PRESETS["room"], RATE)
        out = np.zeros((2, RATE), np.float32)
        for i in range(0, RATE, block):
            fdn.process(noise[i:i + block], out[:, i:i + block])
        renders.append(out)
    assert renders[0].tobytes() == renders[1].tobytes()
    np.testing.assert_allclose(renders[2], renders[0], atol=1e-6)


def test_at_least_eight_lines_of_distinct_prime_lengths():
    fdn = Fdn(PRESETS["room"], RATE)
    assert LINES >= 8 and len(set(fdn.m.tolist())) == LINES
    assert all(all(m % d for d in range(2, int(m ** 0.5) + 1)) for m in fdn.m.tolist())


@pytest.mark.parametrize("field,value", [("decay_s", 0.0), ("decay_s", float("nan")),
                                         ("wet_db", 40.0), ("damping", 1.0),
                                         ("predelay_ms", -1.0), ("damping", True)])
def test_bad_values_are_input_errors(field, value):
    with pytest.raises(InputError, match=field):
        ReverbParams(**{field: value})


def test_unknown_preset():
    with pytest.raises(InputError, match="church"):
        reverb_params("church")


def _steady(rate_s: float, zone_a: int, zone_b: int, crossfade_s: float) -> np.ndarray:
    """A 150 Hz tone sent into zones a and b; the listener in a, then in b after
    ``rate_s`` (a low tone: a cut in it is a step the first difference shows)."""
    bus = ReverbBus(RATE, crossfade_s=crossfade_s)
    bus.configure(zone_a, PRESETS["hall"])
    bus.configure(zone_b, PRESETS["cave"])
    bus.listen(zone_a)
    seconds = 2 * rate_s
    frames = int(seconds * RATE) // BLOCK * BLOCK
    out = np.zeros((2, frames), np.float32)
    for i in range(0, frames, BLOCK):
        if i >= int(rate_s * RATE) // BLOCK * BLOCK:
            bus.listen(zone_b)
        tone = np.sin(2 * np.pi * 150.0 * (i + np.arange(BLOCK)) / RATE).astype(np.float32)
        bus.render({zone_a: tone, zone_b: tone}, out[:, i:i + BLOCK])
    return out


def test_a_zone_change_crossfades_without_clicks():
    switch = int(1.0 * RATE) // BLOCK * BLOCK
    smooth = _steady(1.0, 1, 2, crossfade_s=0.5)
    hard = _steady(1.0, 1, 2, crossfade_s=1 / RATE)
    steady_jump = np.abs(np.diff(smooth[:, switch - RATE // 2:switch])).max()
    around = slice(switch - BLOCK, switch + RATE // 2)
    assert np.abs(np.diff(smooth[:, around])).max() < 1.5 * steady_jump
    # the same change without the crossfade cuts the hall's tail: a click
    assert np.abs(np.diff(hard[:, around])).max() > 3.0 * steady_jump
    # the new zone's reverb is there at the end, the old one gone
    tail = smooth[:, -RATE // 4:]
    assert np.sqrt((tail.astype(np.float64) ** 2).mean()) > 0.01


def test_the_bus_runs_only_heard_zones_and_resets_faded_ones():
    bus = ReverbBus(RATE, crossfade_s=0.1)
    bus.configure(1, PRESETS["room"])
    bus.configure(2, PRESETS["hall"])
    assert bus.active() == []
    bus.listen(1)
    out = np.zeros((2, BLOCK), np.float32)
    send = np.ones(BLOCK, np.float32)
    bus.render({1: send, 2: send}, out)
    assert bus.active() == [1] and bus.reverbs[2].idle
    bus.listen(2)
    for _ in range(6):  # 0.1 s is 4.7 blocks
        bus.render({1: send, 2: send}, out)
    assert bus.weight == {1: 0.0, 2: 1.0} and bus.active() == [2]
    assert bus.reverbs[1].idle and not bus.reverbs[1]._lines.any()
    bus.listen(None)
    bus.listen(7)  # an unknown zone is no zone
    assert bus.target is None


def test_a_settled_zone_still_hears_changes_of_zone_params_and_removal():
    bus = ReverbBus(RATE, crossfade_s=0.05)
    bus.configure(1, PRESETS["room"])
    bus.configure(2, PRESETS["hall"])
    bus.listen(1)
    alone = Fdn(PRESETS["room"], RATE)  # zone 1's reverb, fed the same sends
    rng = np.random.default_rng(5)
    for _ in range(4):  # 0.05 s is 2.3 blocks: zone 1 is at full weight after 3
        send = rng.standard_normal(BLOCK).astype(np.float32)
        bus.render({1: send}, np.zeros((2, BLOCK), np.float32))
        alone.process(send, np.zeros((2, BLOCK), np.float32))
    assert bus.weight == {1: 1.0, 2: 0.0} and bus.active() == [1]
    # at full weight the bus adds exactly what the zone's reverb gives
    send = rng.standard_normal(BLOCK).astype(np.float32)
    heard, ref = np.ones((2, BLOCK), np.float32), np.ones((2, BLOCK), np.float32)
    bus.render({1: send, 2: send}, heard)
    alone.process(send, ref)
    assert heard.tobytes() == ref.tobytes() and bus.reverbs[2].idle  # zone 2 never ran
    # a move crossfades again; new parameters give a new reverb; removal silences
    bus.listen(2)
    assert bus.active() == [1, 2]
    bus.render({1: send, 2: send}, heard)
    assert 0.0 < bus.weight[1] < 1.0 and 0.0 < bus.weight[2] < 1.0
    for _ in range(3):
        bus.render({1: send, 2: send}, heard)
    assert bus.weight == {1: 0.0, 2: 1.0} and bus.active() == [2]
    bus.configure(2, reverb_params("hall", decay_s=1.0))
    assert bus.reverbs[2].params.decay_s == 1.0 and bus.active() == [2]
    bus.remove(2)
    silent = np.zeros((2, BLOCK), np.float32)
    bus.render({2: send}, silent)
    assert bus.active() == [] and not silent.any()


def test_an_empty_block_is_nothing():
    fdn = Fdn(PRESETS["room"], RATE)
    fdn.process(np.ones(BLOCK, np.float32), np.zeros((2, BLOCK), np.float32))
    fdn.process(np.zeros(0, np.float32), np.zeros((2, 0), np.float32))
    assert not fdn.idle and fdn._read == fdn._longest + 1 + BLOCK
