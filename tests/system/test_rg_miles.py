"""A scripted Redguard scene rendered through the mixer's Miles integer path.

The offline mixer runs at 22,050 Hz so the effects play at their own rate (no
resampling); every rendered sample must then equal the seed's Miles integer
arithmetic (``soundscape.laws.redguard.miles_mix``) summed over the voices, / 32768.
"""

from __future__ import annotations

import esper
import numpy as np

from soundscape import Settings, SoundscapePlugin
from soundscape.components.redguard import RgObject
from soundscape.components.spatial import Listener, Position
from soundscape.laws import redguard as law


def scene():
    # The master limiter off: every sample must be the Miles integers (the scene
    # reaches -1.2 dBFS, inside the limiter's knee).
    settings = Settings(seed=1, backend="offline", features=("audio", "redguard"),
                        sample_rate_hz=22050, limiter=False)
    plugin = SoundscapePlugin(settings).install()
    ctx = plugin.context
    rt = ctx.redguard
    esper.create_entity(Listener(), Position())
    rng = np.random.default_rng(5)
    pcm16 = rng.integers(-20000, 20000, 22050).astype(np.int16)
    pcm8 = rng.integers(0, 256, 22050).astype(np.uint8)
    rt.effects.add(1, pcm16, 22050)
    rt.effects.add(2, pcm8, 22050, base_volume=60)
    # (707.1, 707.1) world units: d = 1000 (v = 72), heading 256 (pan 96)
    source = esper.create_entity(Position(707.1 / 20, 0.0, 707.1 / 20), RgObject())
    return ctx, rt, source, pcm16, pcm8


def test_scene_matches_hand_computed_miles_integers():
    ctx, rt, source, pcm16, pcm8 = scene()
    assert rt.script.Sound(source, 1, 0, 0) == 0
    assert rt.script.FlatSound(source, 2, 10, 0) == 0
    for _ in range(5):
        esper.process(1 / 60)
    rt.set_master(128)  # one-shots keep the volume they were started with
    for _ in range(5):
        esper.process(1 / 60)
    out = ctx.mixer.backend.audio()
    frames = out.shape[0]
    assert frames == 22050 // 6  # ten ticks at 22,050 Hz
    v16 = (72 * 255) >> 8  # Sound: curve volume 72 sent as (v x master) >> 8 = 71
    v8 = (70 * 255) >> 8  # FlatSound: base 60 + 10, centred = 69
    expected = law.miles_mix(pcm16[:frames], v16, 96, 16) + law.miles_mix(
        pcm8[:frames], v8, 64, 8)
    # hand check of the first frame's left side, 16-bit then 8-bit
    c_left = (law.MILES_PAN_TABLE[127 - 96] * v16) // 127
    s8 = (int(pcm8[0]) - 128) * 256
    first_left = (int(pcm16[0]) * c_left) // 128 + ((s8 * (v8 + 1)) // 128) * 128 // 128
    assert expected[0, 0] == first_left
    got = np.round(out.astype(np.float64) * 32768.0).astype(np.int64)
    assert np.array_equal(got, expected)


def test_scene_exactly_abeam_renders_centred():
    ctx, rt, source, pcm16, _ = scene()
    esper.component_for_entity(source, Position).z_m = 0.0  # due east: abeam, centred
    rt.refresh_listener()
    rt.script.Sound(source, 1, 0, 0)
    esper.process(1 / 60)
    out = np.round(ctx.mixer.backend.audio().astype(np.float64) * 32768).astype(np.int64)
    assert np.array_equal(out[:, 0], out[:, 1])  # the abeam quirk: both sides equal
