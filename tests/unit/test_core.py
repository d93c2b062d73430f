"""The plugin core: clock, random streams, event log, phases and install order."""

from __future__ import annotations

import importlib.util
import json
import math
import os
import shutil
import subprocess
from pathlib import Path

import esper
import pytest

from soundscape import (
    Clock,
    EventLog,
    FeatureOffError,
    Phase,
    Rng,
    Settings,
    SoundscapeError,
    SoundscapePlugin,
    phase_priority,
)
from soundscape.events import REQUIRED_FIELDS
from soundscape.rng import MsvcRand


def test_clock_steps_whole_ticks_and_carries_the_remainder():
    clock = Clock()
    assert clock.advance(1 / 120) == 0
    assert clock.advance(1 / 120) == 1
    assert clock.tick == 1
    for _ in range(59):
        clock.advance(1 / 60)
    assert clock.tick == 60
    assert clock.now_s == pytest.approx(1.0)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -0.1])
def test_clock_refuses_bad_dt(bad):
    with pytest.raises(ValueError, match="dt"):
        Clock().advance(bad)


def test_msvc_rand_matches_the_crt_sequence():
    # The first draws of MSVC rand() after srand(1).
    r = MsvcRand(1)
    assert [r.rand() for _ in range(5)] == [41, 18467, 6334, 26500, 19169]


def test_rng_streams_are_seeded_and_independent():
    a, b = Rng(3), Rng(3)
    a.msvc("other").rand()  # drawing from one stream leaves another alone
    assert a.msvc("ac").rand() == b.msvc("ac").rand()
    assert Rng(3).oni("x").draw() != Rng(4).oni("x").draw()


def test_event_log_records_have_every_field_and_stream_as_json(tmp_path):
    clock = Clock()
    clock.step(3)
    path = tmp_path / "events.jsonl"
    log = EventLog(clock, path)
    log.emit("ac", "play", sound="wind", pos=(1.0, 2.0, math.nan), gain=0.25, db=-12)
    log.close()
    record = json.loads(path.read_text().splitlines()[0])
    assert set(REQUIRED_FIELDS) <= set(record)
    assert record["tick"] == 3 and record["t"] == pytest.approx(0.05)
    assert record["pos"] == [1.0, 2.0, None]
    assert record["channel"] is None


def test_phases_follow_the_design_order():
    order = [p.name for p in sorted(Phase)]
    assert order == [
        "CLOCK", "CELL_REBUILD", "OBJECT_UPDATE", "AMBIENT_PLAYBACK", "OCCLUSION",
        "PLACED_AMBIENTS", "FLYBYS", "SOUND_OBJECTS", "CHANNELS", "PUBLISH",
    ]
    priorities = [phase_priority(p, -100) for p in sorted(Phase)]
    assert priorities == sorted(priorities, reverse=True)
    assert max(priorities) < 0  # below a game's default processors


def test_install_adds_processors_in_phase_order_below_the_game():
    class GameMover(esper.Processor):
        def process(self, *args):
            pass

    esper.add_processor(GameMover())
    plugin = SoundscapePlugin(Settings(seed=5, backend="none")).install()
    processors = esper._processors  # esper keeps them sorted by priority, highest first
    assert isinstance(processors[0], GameMover)
    phases = [item.phase for item in sorted(plugin.installed, key=lambda i: -i.priority)]
    assert phases == sorted(phases)
    ours = [p for p in processors if not isinstance(p, GameMover)]
    assert ours == [i.processor for i in sorted(plugin.installed, key=lambda i: -i.priority)]
    plugin.uninstall()
    assert esper._processors == [processors[0]]


def test_a_bad_dt_is_logged_and_the_loop_goes_on():
    plugin = SoundscapePlugin(Settings(backend="none")).install()
    esper.process(math.nan)
    esper.process(1 / 60)
    assert plugin.clock.tick == 1
    assert plugin.events.where(source="clock", event="error")
    plugin.uninstall()


def test_a_huge_dt_steps_at_most_one_second_and_renders_that_much():
    # Fuzzing found esper.process(1e30): ~6e31 ticks, and the offline backend
    # tried to allocate 1.55 TiB of audio (MemoryError out of esper.process).
    plugin = SoundscapePlugin(Settings(backend="offline", features=("audio",))).install()
    esper.process(1e30)
    assert plugin.clock.tick == 60 and plugin.mixer.backend.audio().shape == (48_000, 2)
    esper.process(1 / 60)
    assert plugin.clock.tick == 61
    plugin.uninstall()


def test_settings_refuse_unknown_profiles_and_features():
    with pytest.raises(ValueError, match="profile"):
        Settings(profile="doom")
    with pytest.raises(ValueError, match="features"):
        Settings(features=("ac", "quake"))


def test_the_plugin_hands_out_each_installed_runtime_and_names_a_missing_one():
    plugin = SoundscapePlugin(Settings(backend="none", features=("audio", "ac"))).install()
    assert plugin.ac is plugin.context.ac
    assert plugin.sounds is plugin.context.sounds
    assert "ac" in plugin.channels
    with pytest.raises(RuntimeError, match="'oni' is not installed"):
        _ = plugin.oni
    plugin.uninstall()


def test_a_feature_that_is_off_says_so_the_same_way_through_the_context_and_the_plugin():
    plugin = SoundscapePlugin(Settings(backend="none", features=("audio", "ac"))).install()
    ctx = plugin.context
    assert ctx.has("ac") and ctx.has("sounds") and not ctx.has("oni")
    assert not ctx.has("mixer")  # the audio feature is on, its backend is "none"
    for slot in ("oni", "occlusion", "redguard", "mixer"):
        with pytest.raises(FeatureOffError) as via_ctx:
            getattr(ctx, slot)
        with pytest.raises(FeatureOffError) as via_plugin:
            getattr(plugin, slot)
        assert str(via_ctx.value) == str(via_plugin.value)
    with pytest.raises(FeatureOffError) as off:
        _ = ctx.oni
    message = str(off.value)
    assert "feature 'oni' is not installed" in message and "('audio', 'ac')" in message
    assert isinstance(off.value, SoundscapeError)
    with pytest.raises(KeyError, match="unknown service 'onni'"):
        ctx.has("onni")
    plugin.uninstall()


def test_event_log_records_carry_the_ten_issue_fields_null_where_unused():
    log = EventLog(Clock())
    log.emit("ac", "skip")
    record = log.records[0]
    ten = ("t", "tick", "source", "event", "sound", "pos", "gain", "db", "pan", "channel")
    assert set(ten) <= set(REQUIRED_FIELDS)
    assert [record[k] for k in ten[4:]] == [None] * 6
    head = (record["t"], record["tick"], record["source"], record["event"])
    assert head == (0.0, 0, "ac", "skip")


# -- make bench, Makefile, .ci/run ------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]


def _bench_runner(here: Path):
    spec = importlib.util.spec_from_file_location("bench_run", ROOT / "tests" / "bench" / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.HERE = here
    return module


def test_bench_prints_name_value_and_writes_one_flat_bench_json(tmp_path, monkeypatch, capsys):
    here = tmp_path / "tests" / "bench"
    here.mkdir(parents=True)
    (here / "bench_a.py").write_text("def run():\n    return {'a_ms': 0.25, 'a_x': 3}\n")
    (here / "bench_b.py").write_text("def run():\n    return {'b_us': 12.5}\n")
    runner = _bench_runner(here)
    monkeypatch.setattr("sys.argv", ["run.py"])
    assert runner.main() == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:3] == ["a_ms: 0.25", "a_x: 3", "b_us: 12.5"]
    assert json.loads((tmp_path / "bench.json").read_text()) == {"a_ms": 0.25, "a_x": 3.0,
                                                                 "b_us": 12.5}
    # a later issue only adds figures: a partial run keeps the others
    (here / "bench_c.py").write_text("def run():\n    return {'c_n': 7}\n")
    monkeypatch.setattr("sys.argv", ["run.py", "bench_c*"])
    runner.main()
    assert json.loads((tmp_path / "bench.json").read_text()) == {"a_ms": 0.25, "a_x": 3.0,
                                                                 "b_us": 12.5, "c_n": 7.0}


def _fake_bin(tmp_path: Path, uid: int, installed: tuple[str, ...]) -> Path:
    """``dpkg``, ``id`` and ``apt-get`` stand-ins so ``make deps`` runs without root."""
    fake = tmp_path / "bin"
    fake.mkdir()
    log = tmp_path / "apt.log"
    names = " ".join(installed)
    scripts = {
        "dpkg": f'case " {names} " in *" $2 "*) exit 0;; esac; exit 1\n',
        "id": f"echo {uid}\n",
        "apt-get": f"echo \"$@\" >> {log}\n",
    }
    for name, body in scripts.items():
        (fake / name).write_text("#!/bin/sh\n" + body)
        (fake / name).chmod(0o755)
    return fake


def _outside_make() -> dict[str, str]:
    """The environment without a calling make's variables: under `make test` a nested
    make would otherwise run as a sub-make and print its directory changes."""
    return {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}


@pytest.mark.skipif(shutil.which("make") is None, reason="make missing")
@pytest.mark.parametrize("uid", [0, 1000])
def test_make_deps_installs_the_missing_debian_packages_only_as_root(tmp_path, uid):
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    needed = ("libopenal1", "libegl1", "libegl-mesa0", "libgl1-mesa-dri")
    fake = _fake_bin(tmp_path, uid, installed=needed[1:])
    env = dict(_outside_make(), PATH=f"{fake}:{os.environ['PATH']}")
    run = subprocess.run(["make", "-s", "deps"], cwd=tmp_path, env=env, capture_output=True,
                         text=True, check=True)
    log = tmp_path / "apt.log"
    if uid == 0:
        calls = log.read_text().splitlines()
        install = next(c for c in calls if "install" in c).split()
        assert "libopenal1" in install and not set(needed[1:]) & set(install)
    else:
        assert not log.exists() and "libopenal1" in run.stdout and "root" in run.stdout


@pytest.mark.skipif(shutil.which("make") is None, reason="make missing")
@pytest.mark.parametrize(("target", "last"), [("test", "-m pytest"), ("demo", "demo_world")])
def test_make_test_and_demo_create_the_venv_and_install_editable_with_dev(tmp_path, target, last):
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(ROOT / name, tmp_path / name)
    run = subprocess.run(["make", "-n", target, "PYTHON=python3"], cwd=tmp_path,
                         env=_outside_make(), capture_output=True, text=True, check=True)
    lines = run.stdout.splitlines()
    venv = next(i for i, s in enumerate(lines) if "-m venv .venv" in s)
    editable = next(i for i, s in enumerate(lines) if "pip install" in s and "-e '.[dev]'" in s)
    run_line = next(i for i, s in enumerate(lines) if ".venv/bin/python" in s and last in s)
    assert venv < editable < run_line
    if target == "test":  # then the arcade example in its own environment
        arcade = next(i for i, s in enumerate(lines) if ".venv-arcade/bin/python -m pytest" in s)
        assert run_line < arcade and "tests/examples/test_arcade_game.py" in lines[arcade]


def test_ci_runs_make_lint_and_make_test_and_fails_with_them():
    text = (ROOT / ".ci" / "run").read_text()
    assert os.access(ROOT / ".ci" / "run", os.X_OK)
    assert "set -euo pipefail" in text
    commands = [line.strip() for line in text.splitlines() if line.strip().startswith("make ")]
    # lint first; then the tests; then the API reference, built without warnings
    assert commands == ["make lint", "make test", "make docs"]


@pytest.mark.skipif(shutil.which("make") is None, reason="make missing")
def test_make_lint_runs_ruff_and_mypy_over_the_installed_layout(tmp_path):
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(ROOT / name, tmp_path / name)
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / ".installed").touch()
    run = subprocess.run(["make", "-n", "lint"], cwd=tmp_path, env=_outside_make(),
                         capture_output=True, text=True, check=True)
    lines = run.stdout.splitlines()
    assert lines == [".venv/bin/ruff check .", ".venv/bin/python tools/typecheck.py"]


def test_pyproject_maps_the_layout_into_one_package_with_the_issue_dependencies():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    names = {d.split(">")[0].split("=")[0].strip() for d in project["project"]["dependencies"]}
    assert {"esper", "pyglet", "numpy", "pymunk"} <= names
    dev = {d.split(">")[0].strip() for d in project["project"]["optional-dependencies"]["dev"]}
    assert {"pytest", "hypothesis", "ruff", "mypy"} <= dev
    import ast

    setup = ast.parse((ROOT / "setup.py").read_text())
    roots = next(node.value for node in setup.body
                 if isinstance(node, ast.Assign) and node.targets[0].id == "ROOTS")
    dirs = ast.literal_eval(roots)
    assert dirs["soundscape"] == "plugin" and dirs["soundscape.components"] == "components"
    assert dirs["soundscape.systems"] == "systems"
    assert dirs["soundscape.demo_world"] == "demo_world"
