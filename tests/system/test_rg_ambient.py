"""AmbientSound / AmbientRTX tasks and the periodic sound reset (seed 002)."""

from __future__ import annotations

import pytest
from rg_world import RgWorld, tone

from soundscape.laws import redguard as law


@pytest.fixture
def w():
    world = RgWorld()
    world.rt.start_index = 6
    world.add_effect(1, seconds=0.1)  # 2205 frames: ends after 6 ticks
    world.add_effect(2, seconds=2.0, loop_flag=0xE1)
    return world


def starts(w, sound):
    return w.events("rg_start", sound=sound)


def test_ambient_follows_the_listener(w):
    src = w.obj(0, 1000)
    task = w.rt.script.AmbientSound(src, 2, 0, 0)
    w.step(1)
    channel = w.bank.channels[task.slot]
    assert channel.playing and channel.loop  # loop flag 0xE1 loops whole
    assert channel.volume == law.miles_volume(72) and channel.pan == 64
    w.move(w.listener, 0, 500)  # 500 units away now, straight ahead
    w.step(1)
    assert channel.volume == law.miles_volume(law.volume(500)) and channel.pan == 64
    w.move(w.listener, -100, 900)
    w.step(1)
    assert channel.pan == law.pan(100 * 256, 100 * 256) == 96
    assert len(starts(w, "rg.sfx.2")) == 1


def test_ambient_restarts_a_non_looping_effect_when_it_ends(w):
    src = w.obj(0, 100)
    task = w.rt.script.AmbientSound(src, 1, 5, -1000)
    w.step(1)
    first = task.slot
    assert len(starts(w, "rg.sfx.1")) == 1
    ev = starts(w, "rg.sfx.1")[0]
    assert ev["rate_hz"] == 21050 and ev["volume"] == law.volume(100, 5)
    w.step(10)  # 2205 frames at 21050 Hz end after 7 ticks; restarted the tick after
    assert len(starts(w, "rg.sfx.1")) == 2
    assert task.slot == first  # the first idle channel at or above 6 again
    assert w.bank.channels[task.slot].playing


def test_shipped_ambientsound_rate_offset_2000(w):
    task = w.rt.script.AmbientSound(w.obj(0, 100), 2, 0, 2000)
    w.step(1)
    assert w.bank.channels[task.slot].rate_hz == 22050 + 2000
    assert starts(w, "rg.sfx.2")[0]["rate_hz"] == 24050


def test_ambient_stops_for_good_when_the_listener_leaves(w):
    src = w.obj(0, 2000)
    task = w.rt.script.AmbientSound(src, 2, 0, 0)
    w.step(1)
    slot = task.slot
    w.move(w.listener, 0, -305)  # 2305 > R = 2304
    w.step(1)
    assert task.done and not w.bank.channels[slot].playing
    assert w.events("task_end", reason="out of range")
    assert w.rt.tasks.tasks == []
    w.move(w.listener, 0, 0)
    w.step(5)
    assert w.playing() == []  # the script must call it again


def test_ambient_at_volume_0_inside_the_radius_stops_and_ends(w):
    # The public SOUP table: "If v = 0 ... stop this task's sound and end the multitask."
    # d = 2300 <= R: a = 127, v = 0 -> nothing holds a channel silently
    src = w.obj(0, 2300)
    task = w.rt.script.AmbientSound(src, 2, 0, 0)
    w.step(1)
    assert task.done and task.slot is None and w.playing() == []
    assert w.events("task_end", reason="silent")


def test_ambient_whose_offset_silences_it_frees_its_channel(w):
    # issue 12: d = 1700 with offset -40: a = (1700 x 3640) >> 16 = 94, v = 127 - 94 - 40
    # = -7 -> 0. Playing at d = 1000 (v = 32) first, the listener backs off to 1700: the
    # task stops its sample and ends, so the channel is free for the next start.
    src = w.obj(0, 1000)
    assert law.volume(1000, -40) == 32 and law.volume(1700, -40) == 0
    task = w.rt.script.AmbientSound(src, 2, -40, 0)
    w.step(1)
    slot = task.slot
    assert w.bank.channels[slot].playing
    w.move(w.listener, 0, -700)
    w.step(1)
    assert task.done and not w.bank.channels[slot].playing
    assert w.events("task_end", reason="silent")


def test_shipped_ambientrtx_offsets_127_and_128_are_full_volume_inside_r(w):
    w.rt.rtx_store.add("AMB1", "", tone(22050))
    near, edge = w.obj(0, 0), w.obj(2304, 0)
    t1 = w.rt.script.AmbientRTX(near, "amb1", 127, 0)
    t2 = w.rt.script.AmbientRTX(edge, "AMB1", 128, 0)
    w.step(1)
    assert w.bank.channels[t1.slot].volume == w.bank.channels[t2.slot].volume == 126
    ev = starts(w, "rg.rtx.amb1")
    assert [e["volume"] for e in ev] == [127, 127] and t1.arg3 == 0
    w.move(edge, 2305, 0)
    w.step(1)
    assert t2.done and not t1.done  # beyond R no offset helps


def test_taskstop_removes_the_task_without_stopping_its_sound(w):
    src = w.obj(0, 100)
    task = w.rt.script.AmbientSound(src, 2, 0, 0)
    w.step(1)
    w.rt.script.TaskStop(task)
    w.step(1)
    assert w.bank.channels[task.slot].playing and w.rt.tasks.tasks == []


def test_a_slot_taken_by_another_sound_is_driven_by_the_task(w):
    """Retail handle quirk: the task's slot names a slot, not its own start."""
    src = w.obj(0, 100)
    task = w.rt.script.AmbientSound(src, 1, 0, 0)
    w.step(1)
    slot = task.slot
    for _ in range(20):  # until our sound ends (channel phase); the task has not run since
        w.step(1)
        if not w.bank.channels[slot].playing:
            break
    assert not w.bank.channels[slot].playing
    other = w.obj(0, 2000)
    w.rt.script.FlatSound(other, 2, 10, 0)  # takes the slot the task remembers
    assert w.bank.channels[slot].sound == "rg.sfx.2"
    w.step(1)
    # the task saw "playing" on its slot and set the FlatSound's volume and pan
    assert w.bank.channels[slot].volume == law.miles_volume(law.volume(100))
    assert len(starts(w, "rg.sfx.1")) == 1


def test_periodic_reset_is_strictly_above_1400_and_tasks_reacquire(w):
    src = w.obj(0, 100)
    task = w.rt.script.AmbientSound(src, 2, 0, 0)
    w.rt.start_index = 6
    blocker = w.obj()
    w.step(1)
    assert task.slot == 6
    w.rt.script.Sound(blocker, 2, 0, 0)  # holds channel 7
    w.step(1399)
    assert w.rt.accumulator == 1400 and w.events("reset") == []  # exactly 1400: nothing
    w.step(1)
    resets = w.events("reset", reason="periodic")
    assert len(resets) == 1 and resets[0]["ticks"] == 1401
    assert w.rt.accumulator == 0 and w.rt.reset_flag  # set until the next maintenance
    # all channels were stopped, then the task (after maintenance) started again
    stops = w.ctx.events.where(source="redguard", event="stop", reason="reset")
    assert sorted(e["channel"] for e in stops) == [6, 7]
    assert w.playing() == [6] and task.slot == 6
    assert len(starts(w, "rg.sfx.2")) == 3  # task, blocker, task again
    w.step(1)
    assert not w.rt.reset_flag
    assert len(starts(w, "rg.sfx.2")) == 3


def test_world_loop_entry_resets_only_the_accumulator(w):
    w.rt.accumulator, w.rt.reset_flag, w.rt.inhibit = 900, True, True
    w.rt.enter_world_loop()
    assert (w.rt.accumulator, w.rt.reset_flag, w.rt.inhibit) == (0, True, True)


def test_reset_accumulator_pauses_while_inhibited(w):
    w.rt.menu_state = 1
    from soundscape.redguard.maintenance import player_controller_sample

    player_controller_sample(w.rt)
    w.step(2000)
    assert w.rt.accumulator == 0 and w.events("reset") == []
    w.rt.menu_state, w.rt.player_lockout = 0, 1
    player_controller_sample(w.rt)  # lockout 1 keeps the prior inhibition
    assert w.rt.inhibit
    w.rt.player_lockout = 0
    player_controller_sample(w.rt)
    w.step(3)
    assert w.rt.accumulator == 3


def test_an_ambient_without_a_channel_logs_its_drop_once_and_retries(w):
    holders = [w.obj(0, 10) for _ in range(10)]
    for holder in holders:
        w.rt.script.Sound(holder, 2, 0, 0)  # channels 6..15 busy
    src = w.obj(0, 100)
    task = w.rt.script.AmbientSound(src, 2, 0, 0)
    w.step(5)
    assert task.slot is None and len(w.events("drop")) == 1
    w.rt.stop_slot(9)
    w.step(1)
    assert task.slot == 9 and w.bank.channels[9].owner == src


def test_an_ambient_whose_caller_is_deleted_ends(w):
    import esper

    src = w.obj(0, 100)
    task = w.rt.script.AmbientSound(src, 2, 0, 0)
    w.step(1)
    esper.delete_entity(src, immediate=True)
    w.step(1)
    assert task.done and w.events("task_end", reason="object deleted")


def test_a_nan_position_skips_updates_and_keeps_the_task(w):
    import esper

    from soundscape.components.spatial import Position

    src = w.obj(0, 100)
    task = w.rt.script.AmbientSound(src, 2, 0, 0)
    w.step(1)
    slot = task.slot
    position = esper.component_for_entity(src, Position)
    position.z_m = float("nan")
    w.step(3)
    assert not task.done and task.slot == slot and w.bank.channels[slot].playing
    assert len(w.events("skip", reason="emitter position not finite")) == 1  # logged once
    position.z_m = 500 / 20
    w.step(1)
    assert w.bank.channels[slot].volume == law.miles_volume(law.volume(500))


def test_a_code_object_ambient_sounds_at_the_listener(w):
    import esper

    code_object = esper.create_entity()  # a script without a world object
    task = w.rt.script.AmbientSound(code_object, 2, -27, 0)
    w.step(1)
    assert w.bank.channels[task.slot].volume == law.miles_volume(100)
    assert w.bank.channels[task.slot].pan == 64 and not task.done


@pytest.mark.parametrize("bad", [1.5, None, "2", True])
def test_script_arguments_are_checked_at_the_call(w, bad):
    from soundscape.errors import InputError

    src = w.obj(0, 100)
    with pytest.raises(InputError, match="AmbientSound: effect"):
        w.rt.script.AmbientSound(src, bad, 0, 0)
    with pytest.raises(InputError, match="Sound: volume_offset"):
        w.rt.script.Sound(src, 2, bad, 0)
    with pytest.raises(InputError, match="FlatSound: rate_offset"):
        w.rt.script.FlatSound(src, 2, 0, bad)
    with pytest.raises(InputError, match="AmbientRTX: volume_offset"):
        w.rt.script.AmbientRTX(src, "amb1", bad, 0)
    for label in (7, "", None):
        with pytest.raises(InputError, match="AmbientRTX: label"):
            w.rt.script.AmbientRTX(src, label, 0, 0)
    assert w.rt.tasks.tasks == [] and w.playing() == []
    w.step(2)  # nothing half-made runs inside esper.process
    assert not w.ctx.events.where(event="error")


def test_the_reset_flag_discards_the_remembered_slot_without_stopping_it(w):
    src = w.obj(0, 100)
    task = w.rt.script.AmbientSound(src, 2, 0, 0)
    w.step(1)
    assert task.slot == 6 and w.bank.channels[6].playing
    w.rt.reset_flag = True  # as a periodic reset or a save restore leaves it
    w.rt.tasks.run(1)  # non-zero elapsed, but the flag is set
    assert task.slot == 7  # the old slot was forgotten, not queried ...
    assert w.bank.channels[6].playing  # ... and not stopped
    w.rt.reset_flag = False
    w.rt.tasks.run(1)
    assert task.slot == 7 and len(starts(w, "rg.sfx.2")) == 2  # now it follows slot 7
