"""``allfives sim LEVEL@SECONDS``: a side's own budget, parsed, refused when bad (one
line, status 2) and applied."""

from __future__ import annotations

import json

import pytest

from allfives_tui.cli import main
from tests.cli.helpers import sim_refusal


def test_sim_takes_a_sides_budget_and_reports_it(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["sim", "expert@0.01", "montecarlo@0.02", "-n", "2", "-w", "1", "--target", "50",
            "--json", "--quiet"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["config"]["entrants"] == ["expert@0.01", "montecarlo@0.02"]
    assert data["config"]["budgets_s"] == [0.01, 0.02]
    assert [s["side"] for s in data["sides"]] == ["expert@0.01", "montecarlo@0.02"]
    assert [s["level"] for s in data["sides"]] == ["expert", "montecarlo"]
    expert, montecarlo = data["sides"]
    # the mean over choices (two or more legal actions): a draw or a forced move is
    # answered at once, and may be half of a side's moves in so short a match
    assert expert["mean_choice_s"] <= 0.0105 < montecarlo["mean_choice_s"] <= 0.021
    assert expert["choices"] > 0 and montecarlo["choices"] > 0


@pytest.mark.parametrize(
    ("levels", "expected"),
    [
        (["expert@0", "random"], "argument LEVEL: 'expert@0': the time budget after @ must be"),
        (["greedy@1", "random"], "argument LEVEL: 'greedy@1': greedy does not search"),
        (["expert@x", "random"], "not 'x'"),
        (["expert@99", "random"], "at most 60 seconds a move, not '99'"),
        (["wizard@1", "random"], "argument LEVEL: invalid choice: 'wizard@1'"),
    ],
)
def test_sim_refuses_a_bad_budget_in_one_line_with_status_2(
    levels: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    first = sim_refusal([*levels, "-n", "2", "-w", "1"], capsys)
    assert expected in first, first


def test_the_headline_says_where_the_matchs_budget_applies(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["sim", "expert@0.01", "greedy", "-n", "2", "-w", "1", "--target", "50",
            "--budget", "0.02", "--quiet"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    headline, header = out.splitlines()[:2]
    assert headline.startswith("expert@0.01 vs greedy: 2 games")
    assert "search budget 0.02 s of CPU a move where LEVEL@SECONDS names none" in headline
    assert header.split()[0] == "side"
    assert any(line.startswith("expert@0.01 ") for line in out.splitlines())
    assert main(["sim", "expert", "greedy", "-n", "2", "-w", "1", "--target", "50",
                 "--budget", "0.02", "--quiet"]) == 0
    plain = capsys.readouterr().out.splitlines()[0]
    assert "search budget 0.02 s of CPU a move (master: 4x)" in plain
    assert "LEVEL@SECONDS" not in plain


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (["expert@0.01", "greedy", "--no-budget"], "search budgets as LEVEL@SECONDS names them"),
        (["expert@0.01", "expert", "--no-budget", "--playouts", "20"],
         "no time cap where LEVEL@SECONDS names none, 20 playouts a move"),
        (["expert", "greedy", "--no-budget", "--playouts", "20"],
         "no time cap, 20 playouts a move"),
    ],
)
def test_no_budget_plays_the_sides_own_budgets(
    options: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["sim", *options, "-n", "2", "-w", "1", "--target", "50", "--quiet"]) == 0
    headline = capsys.readouterr().out.splitlines()[0]
    assert expected in headline, headline


def test_no_budget_is_refused_where_a_searching_side_would_have_none(
    capsys: pytest.CaptureFixture[str],
) -> None:
    first = sim_refusal(["expert@0.01", "montecarlo", "--no-budget", "-n", "2", "-w", "1"], capsys)
    assert first == (
        "allfives sim: error: argument --no-budget: the montecarlo level needs a time budget, "
        "a playout count, or both"
    )
