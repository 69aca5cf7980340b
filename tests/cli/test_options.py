"""The command line: help, version, the default play command, and bad options."""

from __future__ import annotations

import importlib.metadata
import tomllib
from pathlib import Path

import pytest

import allfives_tui
from allfives_tui.cli.parser import parse
from allfives_tui.store.settings_file import save_settings
from allfives_tui.table.settings import SPEEDS, Settings
from tests.cli.helpers import FakeApp, run, sim_refusal

ROOT = Path(__file__).resolve().parents[2]


def test_version_is_the_installed_one(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["--version"], capsys)
    assert code == 0 and err == ""
    assert out == f"allfives {importlib.metadata.version('allfives')}\n"


def test_version_without_the_package_installed_comes_from_pyproject(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def missing(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    with (ROOT / "pyproject.toml").open("rb") as fh:
        expected = tomllib.load(fh)["project"]["version"]
    assert allfives_tui.__version__ == expected


def test_help_shows_the_play_options_and_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["--help"], capsys)
    assert code == 0 and err == ""
    for option in (
        "--seed", "--players", "--partnerships", "--hand-size", "--target", "--level",
        "--name", "--speed", "--auto-draw", "--start", "--continue", "--version",
    ):
        assert option in out, option
    commands = out[out.index("commands:") :]
    for command in ("play", "replay", "sim"):
        assert f"\n    {command} " in commands, command


@pytest.mark.parametrize("command", ["play", "replay", "sim"])
def test_each_command_has_its_own_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run([command, "--help"], capsys)
    assert code == 0
    assert out.startswith(f"usage: allfives {command} ")


def test_play_is_the_default_command() -> None:
    assert parse([]).command == "play"
    args = parse(["--seed", "7", "--start"])
    assert (args.command, args.seed, args.start) == ("play", 7, True)
    args = parse(["play", "--seed", "7"])
    assert (args.command, args.seed, args.start) == ("play", 7, False)
    args = parse(["--seed", "7", "play", "--start"])  # options before `play` are kept
    assert (args.command, args.seed, args.start) == ("play", 7, True)


def test_options_are_converted_by_the_settings() -> None:
    args = parse(["--speed", "fast", "--players", "4", "--target", "150", "--name", " Ana "])
    assert args.speed == SPEEDS["fast"]
    assert (args.players, args.target, args.name) == (4, 150, "Ana")
    assert parse(["--speed", "0.25"]).speed == 0.25


def test_play_opens_the_game_with_the_options(
    fake_app: type[FakeApp], capsys: pytest.CaptureFixture[str]
) -> None:
    save_settings(Settings(players=4, partnerships=True, name="Ana"))
    code, _, err = run(["--seed", "7", "--start", "--speed", "slow", "--level", "expert"], capsys)
    assert code == 0 and err == ""
    opened = fake_app.opened
    settings = opened["settings"]
    assert (opened["start"], opened["speed"], opened["resume"]) == (True, 1.4, None)
    # the remembered settings, overridden by the options
    assert (settings.players, settings.partnerships, settings.name) == (4, True, "Ana")
    assert (settings.seed, settings.speed, settings.levels) == (7, 1.4, ["expert"] * 3)
    assert settings.rules().target == 200


def test_play_command_and_no_options(
    fake_app: type[FakeApp], capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["play", "--seed", "3"], capsys)[0] == 0
    assert fake_app.opened["settings"].seed == 3
    assert run([], capsys)[0] == 0
    assert fake_app.opened["settings"] == Settings()
    assert (fake_app.opened["start"], fake_app.opened["speed"]) == (False, None)


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--players", "5"], "argument --players: All Fives is for 2, 3 or 4 players, not 5"),
        (["--players", "x"], "argument --players: 'x' is not a whole number"),
        (["--speed", "turbo"], "argument --speed: 'turbo' is not a pace: give seconds"),
        (["--speed", "9"], "argument --speed: the pace must be between 0 and 5 seconds"),
        (["--speed", "nan"], "argument --speed: the pace must be between 0 and 5 seconds"),
        (["--target", "7"], "argument --target: the target must be a multiple of 5"),
        (["--target", "-5"], "argument --target: "),
        (["--seed", "x"], "argument --seed: 'x' is not a whole number"),
        (["--seed", "-1"], "argument --seed: a seed must be a whole number from 0 to "),
        (["--name", " "], "argument --name: the name is empty"),
        (["--level", "wizard"], "argument --level: invalid choice: 'wizard'"),
        (["--hand-size", "big"], "argument --hand-size: invalid choice: 'big'"),
        (["--bogus"], "unrecognized arguments: --bogus"),
        (["--seed"], "argument --seed: expected one argument"),
        (["frob"], "argument COMMAND: invalid choice: 'frob'"),
        (["play", "--players", "1"], "argument --players: All Fives is for 2, 3 or 4 players"),
        (["play", "--bogus"], "unrecognized arguments: --bogus"),
        (["replay"], "the following arguments are required: FILE"),
        (["replay", "x.json", "--bogus"], "unrecognized arguments: --bogus"),
    ],
)
def test_a_bad_option_gets_one_clear_line_and_status_2(
    argv: list[str], expected: str, fake_app: type[FakeApp], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2
    assert out == ""
    first, hint = err.splitlines()
    assert first.startswith("allfives") and ": error: " in first
    assert expected in first, first
    assert hint.startswith("Try 'allfives") and "--help" in hint
    assert fake_app.opened == {}  # the game never opened


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["greedy"], "argument LEVEL: a match needs 2 to 4 players"),
        (["greedy", "wizard"], "argument LEVEL: invalid choice: 'wizard'"),
        (["greedy", "random", "greedy", "--partnerships"], "argument LEVEL: a partnership match"),
        (["greedy", "random", "--games", "0"], "argument --games: play at least one game"),
        (["greedy", "random", "-n", "x"], "argument -n/--games: 'x' is not a whole number"),
        (["greedy", "random", "--target", "12"], "argument --target: the target must be"),
        (["greedy", "random", "--budget", "-1"], "argument --budget: the time budget must"),
        (["greedy", "random", "--playouts", "0"], "argument --playouts: the playout count must be"),
        (["expert", "random", "--no-budget"], "argument --no-budget: the expert level needs"),
        (["greedy", "random", "-w", "0"], "argument -w/--workers: at least 1 worker, not 0"),
        (["greedy", "random", "--hand-size", "big"], "argument --hand-size: invalid choice"),
    ],
)
def test_a_bad_sim_option_gets_one_clear_line_and_status_2(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    first = sim_refusal(argv, capsys)
    assert expected in first, first
