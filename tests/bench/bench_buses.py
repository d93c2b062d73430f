"""The buses' cost per tick (issue 16).

``buses_tick_us``: one tick of bus work with the default tree (6 buses), 64 voices
spread over them and a duck rule (music under dialogue) that is moving, so every
tick changes a bus gain: the game side's ``step_buses`` (fades, the duck's
voice-activity scan over the 64 channels, its dB step) and ``Buses.gains``, plus
the mixer's ``BusStage.apply`` on a 1024-frame block of 64 rows ramping to the new
gains (the worst case; at rest, with every gain steady, the stage does nothing).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import esper  # noqa: E402
import numpy as np  # noqa: E402
from timing import median_seconds  # noqa: E402

from soundscape import Settings, SoundscapePlugin  # noqa: E402
from soundscape.audio import commands as cmd  # noqa: E402
from soundscape.audio.commands import VoiceParams  # noqa: E402
from soundscape.audio.mixer import Mixer  # noqa: E402
from soundscape.audio.publish import step_buses  # noqa: E402

VOICES = 64
BLOCK = 1024
RATE = 48_000


def _game_side() -> tuple[SoundscapePlugin, object]:
    esper.switch_world("bench-buses")
    plugin = SoundscapePlugin(Settings(backend="none", features=("audio",))).install()
    ctx = plugin.context
    rng = np.random.default_rng(5)
    ctx.sounds.add("s", rng.uniform(-0.5, 0.5, RATE).astype(np.float32), RATE)
    bank = ctx.channels["modern"]
    names = ctx.buses.names[1:]  # music, dialogue, sfx, ambience, ui
    for i in range(VOICES):
        handle = bank.acquire()
        bank.play(handle, "s", volume=0.5, loop=True, bus=names[i % len(names)])
    # a long attack keeps the duck moving: every tick changes the music's gain
    ctx.buses.duck(target="music", by="dialogue", depth_db=-10.0, attack_s=1000.0)
    return plugin, ctx


def _mixer_side(buses: int) -> tuple[Mixer, list[tuple[float, ...]]]:
    mixer = Mixer(RATE, BLOCK, max_voices=VOICES)
    rng = np.random.default_rng(6)
    from soundscape.audio.sounds import SoundBank

    sound = SoundBank().add("s", rng.uniform(-0.5, 0.5, RATE).astype(np.float32), RATE)
    mixer.send([cmd.start(i + 1, sound, VoiceParams(0.5, 0.5, 1.0, loop=True, ramp=True,
                                                    bus=i % buses)) for i in range(VOICES)])
    mixer.render(BLOCK)
    down = tuple([1.0] + [0.9] * (buses - 1))
    up = tuple([1.0] + [1 / 0.9] * (buses - 1))
    return mixer, [down, up]


def run() -> dict[str, float]:
    plugin, ctx = _game_side()
    buses = ctx.buses  # type: ignore[attr-defined]

    def game_tick() -> None:
        step_buses(ctx, 1)  # type: ignore[arg-type]
        buses.gains()

    game_s = median_seconds(game_tick, repeats=300, warmup=20)
    mixer, gains = _mixer_side(len(buses))
    stage, rows, voices = mixer.buses, mixer._rows, mixer._voices
    ramp = mixer._ramp(BLOCK)
    state = [0]

    def block() -> None:
        state[0] ^= 1
        stage.set(gains[state[0]])
        stage.apply(rows, voices, BLOCK, ramp)

    audio_s = median_seconds(block, repeats=300, warmup=20)
    plugin.uninstall()
    esper.switch_world("default")
    esper.delete_world("bench-buses")
    return {"buses_tick_us": (game_s + audio_s) * 1e6, "buses_game_tick_us": game_s * 1e6,
            "buses_mixer_block_us": audio_s * 1e6}


if __name__ == "__main__":
    for name, value in run().items():
        print(f"{name}: {value:.4g}")
