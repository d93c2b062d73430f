"""The console scripts behave like Python tools: ``--help`` and ``--version`` exit 0, a bad
argument prints the usage and a clear message and exits 2 (never a traceback)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import soundscape
from soundscape.demo_world import __main__ as demo_cli
from soundscape.oni import sound_test

BIN = Path(sys.executable).parent


def run_script(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    """The installed console script, as a user types it."""
    script = BIN / name
    assert script.exists(), f"{name} is not installed in {BIN}"
    return subprocess.run([str(script), *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("name", ["soundscape-demo", "soundscape-sound-test"])
def test_help_and_version_exit_0(name):
    helped = run_script(name, "--help")
    assert helped.returncode == 0 and helped.stdout.startswith(f"usage: {name}")
    assert "--version" in helped.stdout
    version = run_script(name, "--version")
    assert version.returncode == 0
    assert version.stdout.strip() == f"{name} {soundscape.__version__}"
    assert not version.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["abc"], "the seed must be a whole number, got 'abc'"),
    (["-1"], "the seed must be 0 or more, got '-1'"),
    (["1", "2"], "unrecognized arguments: 2"),
    (["--seeds", "3"], "unrecognized arguments: --seeds"),
])
def test_sound_test_usage_errors_exit_2_with_a_message(args, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        sound_test.main(args)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: soundscape-sound-test") and message in err


def test_sound_test_usage_error_from_the_installed_script_has_no_traceback():
    done = run_script("soundscape-sound-test", "abc")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "the seed must be a whole number" in done.stderr


def test_sound_test_runs_with_a_seed_and_exits_0(capsys):
    assert sound_test.main(["2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("groups 6 ambients 3 impulses 2")
    assert lines[-1].startswith("mix ") and "(720000 frames)" in lines[-1]


def test_sound_test_parses_its_default_seed():
    assert sound_test.parse_args([]).seed == 1
    assert sound_test.parse_args(["0"]).seed == 0


def test_demo_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as exit_info:
        demo_cli.parse_args(["--seed", "x"])
    assert exit_info.value.code == 2
    assert "--seed must be a whole number" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        demo_cli.parse_args(["--version"])
    assert exit_info.value.code == 0
