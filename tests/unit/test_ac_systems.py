"""The AC feature's install, its two systems' phases, and the runtime's small API."""

from __future__ import annotations

import esper
import pytest

from soundscape import Phase, Settings, SoundscapePlugin
from soundscape.ac.runtime import AcRuntime
from soundscape.ac.sample import sample_region, striped_words
from soundscape.components import Listener, Position
from soundscape.errors import InputError
from soundscape.systems.ambient_playback import AmbientPlaybackSystem
from soundscape.systems.cell_rebuild import CellRebuildSystem


def _plugin(**extra: object) -> SoundscapePlugin:
    return SoundscapePlugin(Settings(backend="none", features=("ac",), extra=dict(extra))).install()


def test_install_sets_ctx_ac_and_the_two_phases() -> None:
    plugin = _plugin()
    assert isinstance(plugin.context.ac, AcRuntime)
    systems = {type(i.processor): i for i in plugin.installed}
    assert systems[CellRebuildSystem].phase == Phase.CELL_REBUILD
    assert systems[AmbientPlaybackSystem].phase == Phase.AMBIENT_PLAYBACK
    assert systems[CellRebuildSystem].priority > systems[AmbientPlaybackSystem].priority


def test_no_region_no_listener_nothing_happens() -> None:
    plugin = _plugin()
    for _ in range(5):
        esper.process(1 / 60)
    assert not plugin.events.where(source="ac")
    esper.create_entity(Listener(), Position(10.0, 0.0, 10.0))
    esper.process(1 / 60)  # no landblock loaded: objcell 0, a reset
    assert [r["event"] for r in plugin.events.where(source="ac")] == ["reset"]


def test_landblock_api_heap_and_slider() -> None:
    plugin = _plugin(ac_origin_block=(5, 5))
    ac = plugin.context.ac
    ac.load_region(sample_region(4))
    entity = ac.add_landblock(5, 5, striped_words(5, 5, 4))
    ac.add_landblock(5, 5, striped_words(5, 5, 2))  # replaces the first
    esper.process(1 / 60)
    assert not esper.entity_exists(entity)
    assert ac.objcell_at(Position(30.0, 0.0, 50.0)) == 0x0505000B
    esper.create_entity(Listener(), Position(30.0, 0.0, 50.0))
    esper.process(1 / 60)
    assert ac.load_cell == 0x0505000B
    assert [label for _, label in ac.heap()] and ac.heap() == sorted(ac.heap())
    assert sum(ac.cell_weights().values()) == pytest.approx(ac.ambient.total_sound_count)
    assert set(ac.intermittent_slots()) == {s.label for s in ac.sounds() if s.kind != "constant"}
    assert ac.remove_landblock(5, 5) and not ac.remove_landblock(5, 5)
    ac.ambient_volume = 0.25
    assert ac.manager.ambient_volume == 0.25
    with pytest.raises(InputError):
        ac.ambient_volume = float("nan")
    with pytest.raises(InputError):
        ac.add_landblock(5, 5, [0] * 10)


def test_disabled_ambient_adds_and_plays_nothing() -> None:
    plugin = _plugin(ac_ambient_enabled=False)
    ac = plugin.context.ac
    ac.load_region(sample_region(2))
    ac.add_landblock(0, 0, striped_words(0, 0, 2))
    esper.create_entity(Listener(), Position(30.0, 0.0, 50.0))
    for _ in range(120):
        esper.process(1 / 60)
    assert not plugin.events.where(source="ac", event="play")
    assert ac.ambient.total_sound_count == 0.0 and len(ac.ambient) == 0
    ac.enabled = True
    ac.force_rebuild()
    esper.process(1 / 60)
    assert plugin.events.where(source="ac", event="play")


def test_bad_origin_block_setting() -> None:
    with pytest.raises(InputError, match="ac_origin_block"):
        _plugin(ac_origin_block=7)
    # a NaN raised "cannot convert float NaN to integer", naming nothing
    for bad in ((float("nan"), 0), (1.5, 2), (True, 0)):
        with pytest.raises(InputError, match=r"ac_origin_block.*integers"):
            _plugin(ac_origin_block=bad)


def test_a_huge_finite_heading_pans_as_an_angle_not_a_crash() -> None:
    # Fuzzing found heading 1e308: math.degrees(1e308) is inf and the pan's
    # sin(inf) raised "math domain error" out of the rebuild inside esper.process.
    plugin = _plugin()
    ac = plugin.context.ac
    ac.load_region(sample_region(2))
    ac.add_landblock(0, 0, striped_words(0, 0, 2))
    esper.create_entity(Listener(heading_rad=1e308), Position(30.0, 0.0, 50.0))
    for _ in range(600):
        esper.process(1 / 60)
    assert not plugin.events.where(source="ac", event="error")
    positioned = [r for r in plugin.events.where(source="ac", event="play") if r["pos"]]
    assert positioned and all(-15 <= r["pan"] <= 15 for r in positioned)
    assert abs(ac.manager.heading_rad) <= 2 * 3.141592653589794


def test_landblocks_are_indexed_and_only_a_new_one_is_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from soundscape.components.ac import Landblock

    plugin = _plugin()
    ac = plugin.context.ac
    ac.load_region(sample_region(4))
    for bx in range(6):
        ac.add_landblock(bx, 0, striped_words(bx, 0, 4))
    checked: list[int] = []
    real = AcRuntime._checked

    def counting(self: AcRuntime, entity: int, block: Landblock) -> Landblock | None:
        checked.append(entity)
        return real(self, entity, block)

    monkeypatch.setattr(AcRuntime, "_checked", counting)
    esper.process(1 / 60)
    assert checked == [] and len(ac.landscape.blocks) == 6  # add_landblock built them
    # A landblock the game creates itself is checked alone on the next tick.
    own = esper.create_entity(Landblock(9, 9, (4,) * 81, ()))
    esper.process(1 / 60)
    assert checked == [own] and (9, 9) in ac.landscape.blocks
    # A second one at (9, 9) waits behind the first and takes over when it goes.
    second = esper.create_entity(Landblock(9, 9, (2,) * 81, ()))
    esper.process(1 / 60)
    assert checked == [own, second]
    assert ac.landscape.blocks[(9, 9)].terrain_words[0] == 4
    assert ac.remove_landblock(9, 9) and not esper.entity_exists(own)
    assert ac.landscape.blocks[(9, 9)].terrain_words[0] == 2
    assert ac.remove_landblock(9, 9) and (9, 9) not in ac.landscape.blocks
    # Deleting an entity directly unloads its landblock at the next tick.
    entity = ac.add_landblock(3, 3, striped_words(3, 3, 4))
    esper.process(1 / 60)
    esper.delete_entity(entity, immediate=True)
    esper.process(1 / 60)
    assert (3, 3) not in ac.landscape.blocks and len(checked) == 2


def test_a_replaced_landblock_forgets_only_the_rings_that_held_it() -> None:
    plugin = _plugin()
    ac = plugin.context.ac
    ac.load_region(sample_region(4))
    for bx in range(8):
        ac.add_landblock(bx, 0, striped_words(bx, 0, 4))
    near, far = ac.landscape.ring((1, 0)), ac.landscape.ring((6, 0))
    ac.add_landblock(1, 0, striped_words(1, 0, 2))
    assert ac.landscape.ring((6, 0)) is far
    fresh = ac.landscape.ring((1, 0))
    assert fresh is not near and fresh.blocks[1] is ac.landscape.blocks[(1, 0)]
