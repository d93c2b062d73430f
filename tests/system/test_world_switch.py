"""esper world switching (menus, levels): the world left pauses, it does not freeze on
its last mix, and it resumes in place when it is current again (docs/audio.md).

The pyglet backend plays on pyglet's worker thread whatever esper world is
current; these tests stop the player's own pulling (the silent driver, as in
``test_audio_pyglet.py``) and pull the stream themselves, as the driver would.
"""

from __future__ import annotations

import esper
import numpy as np
import pytest

from soundscape import Settings, SoundscapePlugin, synth

BYTES = 8 * 2400  # 2,400 float stereo frames: 50 ms at 48 kHz


def level_plugin(world: str, **kw) -> SoundscapePlugin:
    """A plugin installed in ``world`` playing a long tone on its ``modern`` bank."""
    previous = esper.current_world
    esper.switch_world(world)
    plugin = SoundscapePlugin(Settings(features=("audio",), backend="pyglet", **kw)).install()
    plugin.mixer.backend.player.pause()  # the test pulls instead of pyglet's thread
    ctx = plugin.context
    synth.add_to(ctx.sounds, "music", synth.tone(220.0, 4.0, rate_hz=48_000), 48_000)
    bank = ctx.channels["modern"]
    bank.play(bank.acquire(), "music", volume=0.8)
    esper.process(1 / 60)  # publish the voice
    esper.switch_world(previous)
    return plugin


def pull(plugin: SoundscapePlugin, size: int = BYTES) -> np.ndarray:
    packet = plugin.mixer.backend.source.get_audio_data(size, 0.0)
    return np.frombuffer(packet.data, dtype=np.float32).reshape(-1, 2)


def reference(frames: int) -> np.ndarray:
    """The same tone pulled without any world switch."""
    plugin = level_plugin("ws-reference")
    esper.switch_world("ws-reference")
    out = np.concatenate([pull(plugin) for _ in range(frames // 2400)])
    plugin.uninstall()
    return out


@pytest.fixture
def cleanup():
    made: list[str] = []
    yield made
    home = esper.current_world
    for name in made:
        if name != home and name in esper.list_worlds():
            esper.delete_world(name)


def test_the_world_left_pauses_and_resumes_where_it_stopped(world, cleanup):
    cleanup += ["ws-reference", "ws-level", "ws-menu"]
    want = reference(4 * 2400)
    level = level_plugin("ws-level")
    esper.switch_world("ws-level")
    first = np.concatenate([pull(level), pull(level)])
    rendered = level.mixer.frames_rendered
    esper.switch_world("ws-menu")  # the menu: the level's processors stop running
    during = np.concatenate([pull(level), pull(level), pull(level)])
    assert not during.any()  # silence, not the last mix looping on
    assert level.mixer.frames_rendered == rendered  # and nothing advanced
    assert level.mixer.backend.source.paused_blocks == 3
    esper.switch_world("ws-level")
    after = np.concatenate([pull(level), pull(level)])
    assert np.abs(first).max() > 0.1
    # resumed in place: the frames after the pause are the ones that came next
    assert np.allclose(np.concatenate([first, after]), want, atol=1e-6)
    esper.process(1 / 60)  # and its processors run again as usual
    assert level.clock.tick == 2
    level.uninstall()
    esper.switch_world(world)


def test_two_worlds_each_heard_only_while_current(world, cleanup):
    cleanup += ["ws-level", "ws-menu"]
    level = level_plugin("ws-level")
    menu = level_plugin("ws-menu")
    esper.switch_world("ws-menu")
    assert pull(menu).any() and not pull(level).any()
    esper.switch_world("ws-level")
    assert pull(level).any() and not pull(menu).any()
    for plugin, name in ((level, "ws-level"), (menu, "ws-menu")):
        esper.switch_world(name)
        plugin.uninstall()
    esper.switch_world(world)


def test_play_keeps_the_last_mix_going_when_the_game_says_so(world, cleanup):
    cleanup += ["ws-level", "ws-menu"]
    level = level_plugin("ws-level", when_world_inactive="play")
    esper.switch_world("ws-menu")
    assert pull(level).any()
    assert level.mixer.backend.source.paused_blocks == 0
    esper.switch_world("ws-level")
    level.uninstall()
    esper.switch_world(world)


def test_the_offline_backend_renders_only_while_its_world_is_processed(world, cleanup):
    cleanup += ["ws-menu"]
    plugin = SoundscapePlugin(Settings(features=("audio",), backend="offline")).install()
    esper.process(1 / 60)
    esper.switch_world("ws-menu")
    for _ in range(10):
        esper.process(1 / 60)  # the menu's frames
    esper.switch_world(world)
    esper.process(1 / 60)
    assert plugin.mixer.backend.frames == 2 * 800
    assert plugin.clock.tick == 2
    plugin.uninstall()


def test_when_world_inactive_is_validated():
    with pytest.raises(ValueError, match="when_world_inactive"):
        Settings(when_world_inactive="stop")
