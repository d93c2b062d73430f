"""The demo uses the buses (issue 16): the music ducks under the villager's lines, P
holds the world's sound while UI clicks play, and the overlay meters every bus."""

from __future__ import annotations

import esper
import pytest

from soundscape.demo_world.game import UI_CLICK, DemoGame
from soundscape.overlay.draw import BUS_HEADER, Overlay
from soundscape.overlay.probe import buses_view, probe


@pytest.fixture
def game():
    g = DemoGame(0)
    yield g
    g.close()


def test_music_ducks_under_the_villagers_lines(game):
    ctx = game.ctx
    rule = ctx.buses.ducks[0]
    assert (rule.target.name, rule.by.name, rule.depth_db) == ("music", "dialogue", -10.0)
    villager = game.village.spot("villager")
    game.teleport(villager.x_m + 3.0, villager.z_m)
    for _ in range(120):
        game.step()
        if rule.level_db == -10.0:
            break
    assert any(c.bus == "dialogue" and c.playing for c in ctx.channels["oni"].channels)
    assert any(c.bus == "music" and c.playing for c in ctx.channels["oni"].channels)
    assert ctx.buses["music"].duck_db == -10.0


def test_p_holds_the_world_and_the_click_plays_on_ui(game):
    ctx = game.ctx
    for _ in range(30):
        game.step()
    assert "paused" in game.toggle_pause()
    held = {b.name for b in ctx.buses if b.paused}
    assert held == {"music", "dialogue", "sfx", "ambience"}
    clicks = [c for c in ctx.channels["modern"].channels if c.playing and c.sound == UI_CLICK]
    assert clicks and clicks[0].bus == "ui"
    before = {(b.name, c.index): c.cursor_frames for b in ctx.channels.values()
              for c in b.channels if c.playing and c.bus != "ui"}
    for _ in range(10):
        game.step()
    after = {(b.name, c.index): c.cursor_frames for b in ctx.channels.values()
             for c in b.channels if (b.name, c.index) in before}
    assert before and after == before  # the world's voices stood still
    assert "resumed" in game.toggle_pause()
    assert not any(b.paused for b in ctx.buses)


def test_the_overlay_meters_every_bus(game):
    esper.switch_world(game.world_name)
    for _ in range(60):
        game.step()
    snap = probe(game.ctx)
    names = [b.name for b in snap.buses]
    assert names == ["master", "music", "dialogue", "sfx", "ambience", "ui"]
    meters = {b.name: b.level01 for b in buses_view(game.ctx)}
    assert meters["master"] > 0.0 and meters["master"] >= max(meters.values())
    assert meters["ui"] == 0.0  # nothing plays on ui
    lines = [text for text, _row in Overlay._panel_rows(None, snap)]  # type: ignore[arg-type]
    at = lines.index(BUS_HEADER)
    assert lines[at + 1].startswith("master") and lines[at + 2].startswith("  music")
