"""Values the commands used to take silently or run for ever on: seeds, seats,
partnerships, the sim's budgets, playouts and targets, and how much of a bad value an
error line quotes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from allfives_tui.store.settings_file import read_settings, save_settings
from allfives_tui.table.settings import PERSON, Settings
from tests.cli.helpers import FakeApp, run

TOO_BIG = "1180591620717411303424"  # 2**70
LIMIT = 2**63


@pytest.fixture(autouse=True)
def _opens_a_fake_app(fake_app: type[FakeApp]) -> None:
    """No test here starts the Textual app."""


def _never_played(*args: object, **kwargs: object) -> None:
    raise AssertionError("the match was played: its options were not refused")


@pytest.fixture
def no_match(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sim whose options should be refused fails at once if it plays (it would not end)."""
    from allfives_tui.cli import sim

    monkeypatch.setattr(sim, "run_match", _never_played)


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The one error line of ``allfives ARGV``, which must exit 2 and open nothing."""
    code, out, err = run(argv, capsys)
    assert code == 2, (code, err)
    assert out == ""
    first, hint = err.splitlines()
    assert ": error: " in first
    assert hint.startswith("Try 'allfives") and hint.endswith("--help' for the options.")
    assert FakeApp.opened == {}
    return first


# -- seeds: 0 <= seed < 2**63 everywhere ------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["--seed", TOO_BIG],
        ["--seed", str(LIMIT)],
        ["play", "--seed", TOO_BIG],
        ["host", "--seed", TOO_BIG],
        ["sim", "greedy", "random", "--seed", TOO_BIG],
        ["sim", "greedy", "random", "--seed", str(LIMIT)],
        ["sim", "greedy", "random", "--seed", "-1"],
    ],
)
def test_a_seed_of_2_to_the_63_or_more_is_refused(
    argv: list[str], capsys: pytest.CaptureFixture[str], no_match: None
) -> None:
    first = _refused(argv, capsys)
    assert "argument --seed: a seed must be a whole number from 0 to 9223372036854775807" in first


def test_the_largest_seed_is_taken(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--seed", str(LIMIT - 1)], capsys)[0] == 0
    assert FakeApp.opened["settings"].seed == LIMIT - 1
    code, out, _ = run(
        ["sim", "greedy", "random", "-n", "2", "-w", "1", "--seed", str(LIMIT - 1), "--json",
         "--quiet"],
        capsys,
    )
    assert code == 0 and json.loads(out)["config"]["seed"] == LIMIT - 1


def test_a_remembered_seed_too_large_is_dropped_with_a_notice(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir.mkdir()
    (data_dir / "settings.json").write_text(json.dumps({"seed": 2**70, "players": 3}))
    settings, notices = read_settings()
    assert settings == Settings(players=3)
    assert len(notices) == 1
    assert notices[0].startswith("Dropped the remembered seed 1180591620717411303424")
    assert "a whole number from 0 to 9223372036854775807" in notices[0]
    with pytest.raises(ValueError, match="from 0 to 9223372036854775807"):
        Settings(seed=LIMIT)


# -- seats and partnerships ---------------------------------------------------------------


def test_the_same_seat_twice_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    first = _refused(
        ["--players", "4", "--seat", "north=Ana", "--seat", "north=expert"], capsys
    )
    assert first == "allfives: error: argument --seat: the north seat is given twice: " \
        "give each seat once"


def test_a_seat_the_table_does_not_have_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    first = _refused(["--players", "2", "--seat", "west=expert"], capsys)
    assert first.endswith("argument --seat: there is no west seat with 2 players (north)")


def test_different_seats_are_taken(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--players", "4", "--seat", "north=Ana", "--seat", "west=expert"]
    assert run(argv, capsys)[0] == 0
    settings = FakeApp.opened["settings"]
    assert settings.levels[:2] == ["expert", PERSON] and settings.names[1] == "Ana"


@pytest.mark.parametrize("players", ["2", "3"])
def test_partnerships_with_other_than_four_players_are_refused(
    players: str, capsys: pytest.CaptureFixture[str]
) -> None:
    first = _refused(["--partnerships", "--players", players], capsys)
    assert first == f"allfives: error: argument --partnerships: partnerships need 4 players, " \
        f"not {players}"


def test_remembered_partnerships_do_not_follow_a_smaller_table(
    capsys: pytest.CaptureFixture[str],
) -> None:
    save_settings(Settings(players=4, partnerships=True))
    assert run(["--players", "2"], capsys)[0] == 0
    settings = FakeApp.opened["settings"]
    assert (settings.players, settings.partnerships) == (2, False)
    assert run([], capsys)[0] == 0
    assert FakeApp.opened["settings"].partnerships


def test_remembered_partnerships_of_two_players_are_dropped_with_a_notice(
    data_dir: Path,
) -> None:
    data_dir.mkdir()
    (data_dir / "settings.json").write_text('{"players": 2, "partnerships": true}')
    settings, notices = read_settings()
    assert (settings.players, settings.partnerships) == (2, False)
    assert notices == (
        "Dropped the remembered partnerships True, no longer valid: "
        "partnerships need 4 players, not 2.",
    )


# -- the sim's bounds ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--budget", "61"], "argument --budget: the time budget is at most 60 seconds a move"),
        (["--budget", "1e300"], "argument --budget: the time budget is at most 60 seconds"),
        (
            ["--playouts", "1000001"],
            "argument --playouts: the playout count is at most 1,000,000 a move",
        ),
        (["--playouts", "1000001", "--no-budget"], "argument --playouts: the playout count"),
        (["--target", "10005"], "argument --target: the target must be at most 10,000 points"),
        (["--target", "1" + "0" * 40], "argument --target: the target must be at most 10,000"),
    ],
)
def test_sim_bounds_what_could_run_for_ever(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str], no_match: None
) -> None:
    first = _refused(["sim", "expert", "random", "-w", "1", *argv], capsys)
    assert first.startswith("allfives sim: error: ")
    assert expected in first, first


def test_sim_takes_the_bounds_themselves(capsys: pytest.CaptureFixture[str]) -> None:
    # the largest target play allows, with moves that cannot think long
    argv = ["sim", "greedy", "random", "-n", "2", "-w", "1", "--target", "10000", "--json",
            "--quiet", "--budget", "60", "--playouts", "1000000"]
    code, out, err = run(argv, capsys)
    assert code == 0, err
    config = json.loads(out)["config"]
    assert (config["target"], config["budget_s"], config["playouts"]) == (10000, 60.0, 10**6)


# -- an error line quotes at most 80 characters of a bad value ----------------------------

LONG = "x" * 300


@pytest.mark.parametrize(
    "argv",
    [
        ["--seed", LONG],
        ["--players", LONG],
        ["--speed", LONG],
        ["--level", LONG],
        ["--seat", LONG],
        ["--hand-size", LONG],
        [f"--{LONG}"],
        ["play", "--target", LONG],
        ["sim", "greedy", LONG],
        ["sim", "greedy", "random", "-n", LONG],
        ["sim", "greedy", "random", "--seed", LONG],
        ["sim", "greedy", "random", "--budget", LONG],
        ["sim", "greedy", "random", "--playouts", LONG],
        ["sim", "greedy", "random", "--target", LONG],
        ["analyse", "game.json", "--seat", LONG],
        ["host", "--grace", LONG],
    ],
)
def test_an_error_line_quotes_at_most_80_characters_of_the_value(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    first = _refused(argv, capsys)
    assert "x" * 70 in first, first  # the start of the value, to recognise it by
    assert "x" * 81 not in first, first
