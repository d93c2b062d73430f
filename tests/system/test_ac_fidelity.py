"""AC fidelity corrections (issue 12) against the public decompile of acclient.exe 11.4186.

* ``Random::RollDice`` draws ``Random::rand`` (``UniformUnit``, L'Ecuyer with a shuffle
  table; acclient.c:105430-105531), not MSVC ``rand()``.
* ``SoundManager::PlaySoundInternal`` (acclient.c:383151): a source due east of a
  north-facing listener plays in the right ear.
"""

from __future__ import annotations

import esper
import numpy as np

from soundscape import Settings, SoundscapePlugin, synth
from soundscape.ac.region_toml import region_from_dict
from soundscape.ac.sample import sample_region
from soundscape.ac.sounds import IntermitSound
from soundscape.components import Listener, Position
from soundscape.laws.ac import Direction
from soundscape.rng import LecuyerRand


def test_random_rand_is_lecuyer_with_a_shuffle_table_in_0_0_99999988():
    # Random::Seed(1) then Random::rand: Numerical Recipes' ran2 (IM1 2147483563,
    # IM2 2147483399, NTAB 32), AM = 4.656613057391769e-10, held to 0.99999988
    r = LecuyerRand(1)
    first = [r.unit() for _ in range(3)]
    assert first == [0.2853808990946861, 0.2533581892659171, 0.09346853100919404]
    values = [r.unit() for _ in range(20_000)]
    assert min(values) > 0.0 and max(values) <= 0.99999988
    assert LecuyerRand(0).unit() == LecuyerRand(1).unit()  # a 0 seed seeds as 1
    assert r.draws == 20_003


def test_the_ac_runtime_rolls_dice_on_its_own_lecuyer_stream():
    plugin = SoundscapePlugin(Settings(seed=5, backend="none", features=("ac",))).install()
    ctx = plugin.context
    manager = ctx.ac.manager
    assert manager.dice is ctx.rng.lecuyer("ac.random") and manager.dice.draws == 0
    assert manager.rng is ctx.rng.msvc("ac")  # rand(): the probability_ roll only
    plugin.uninstall()


def test_a_source_due_east_of_a_north_facing_listener_plays_in_the_right_ear():
    # Position::heading(sound -> listener) = 270, Frame::get_heading = 0 (compass, as
    # Frame::set_heading's (sin h, cos h) makes it): d = 270 -> -90, pan = (int)(sin(-90 x
    # 0.017453292) x -15) = 14, x100 to DirectSound: the left side is cut by 14 dB.
    plugin = SoundscapePlugin(Settings(seed=1, backend="offline",
                                       features=("audio", "ac"))).install()
    ctx = plugin.context
    esper.create_entity(Listener(heading_rad=0.0), Position(0.0, 0.0, 0.0))
    region = region_from_dict(sample_region(1))
    region.init_sound_table(region.stb_descs[0])
    runtime = ctx.ac
    manager = runtime.manager
    entry = region.stb_descs[0].sound_table.entries  # type: ignore[union-attr]
    for entries in entry.values():
        for e in entries:
            e.probability = 1.0
            synth.add_to(ctx.sounds, e.sound, synth.tone(300.0, 1.0))
    manager.player_cell, manager.player_origin, manager.heading_rad = 0x0A0A0001, \
        (50.0, 60.0, 0.0), 0.0
    sound = runtime.ambient.get_sound(region.stb_descs[0], 1)
    assert isinstance(sound, IntermitSound)
    sound.add_to(1.0, (30.0, 0.0, 0.0), Direction.EAST_OF_VIEWER)
    manager.play_positioned(sound, (80.0, 60.0, 0.0), 1.0)  # 30 m due east
    play = ctx.events.where(source="ac", event="play")[-1]
    assert play["bearing_deg"] == 90.0 and play["pan"] == 14
    esper.process(1 / 60)
    esper.process(1 / 60)
    audio = ctx.mixer.backend.audio()
    left, right = np.abs(audio[:, 0]).max(), np.abs(audio[:, 1]).max()
    assert right > 0.005 and abs(left / right - 10 ** (-1400 / 2000)) < 1e-3  # right ear
    plugin.uninstall()
