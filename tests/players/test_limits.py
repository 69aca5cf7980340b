"""Bad arguments to the players and matches: one clear AllFivesError, never a hang.

Issue 14, items 6 and 19: an infinite or NaN time budget was accepted and
the expert never returned; ``sim --workers 1000`` forked a thousand
processes; ``expert.choose(view, [])`` raised ZeroDivisionError.
"""

from __future__ import annotations

import math
import os

import pytest

from allfives_tui.cli import main
from engine import AllFivesError, Rules, apply, new_game, seeded_deal
from engine.match import MatchConfig, check_workers, max_workers, run_match
from engine.players import LEVELS, ExpertPlayer, make_player
from engine.rng import Rng, derive_seed
from tests.cli.helpers import sim_refusal

BAD_BUDGETS: list[object] = [math.inf, -math.inf, math.nan, 0, 0.0, -1, -0.5, "1", True, [1]]


@pytest.mark.parametrize("budget", BAD_BUDGETS, ids=repr)
def test_a_budget_must_be_finite_and_positive(budget: object) -> None:
    # each call is handed a hostile budget, some of the wrong type, on purpose
    with pytest.raises(AllFivesError, match="the time budget must be") as info:
        make_player("expert", budget=budget)  # type: ignore[arg-type]
    assert "\n" not in str(info.value)
    with pytest.raises(AllFivesError, match="the time budget must be"):
        ExpertPlayer(budget=budget, playouts=10)  # type: ignore[arg-type]
    with pytest.raises(AllFivesError, match="the time budget must be"):
        MatchConfig(entrants=("expert", "greedy"), budget=budget)  # type: ignore[arg-type]


@pytest.mark.parametrize("playouts", [0, -3, 1.5, math.inf, "10", True], ids=repr)
def test_a_playout_count_must_be_a_whole_number_above_zero(playouts: object) -> None:
    # a hostile playout count, some of the wrong type, on purpose
    with pytest.raises(AllFivesError, match="the playout count must be a whole number above 0"):
        make_player("expert", budget=None, playouts=playouts)  # type: ignore[arg-type]


def test_good_limits_still_make_an_expert() -> None:
    for budget, playouts in ((0.01, None), (1, None), (None, 5), (2.5, 7)):
        player = make_player("expert", budget=budget, playouts=playouts)
        assert isinstance(player, ExpertPlayer)
        assert (player.budget, player.playouts) == (budget, playouts)


@pytest.mark.parametrize("seed", [None, "7", 1.5, [1]], ids=repr)
def test_a_seed_must_be_a_whole_number(seed: object) -> None:
    # each call is handed a seed of the wrong type on purpose
    for level in LEVELS:
        with pytest.raises(AllFivesError, match="a seed must be a whole number, not") as info:
            make_player(level, seed=seed)  # type: ignore[arg-type]
        assert "_seed" not in str(info.value)
    with pytest.raises(AllFivesError, match="a seed must be a whole number"):
        Rng(seed)  # type: ignore[arg-type]
    with pytest.raises(AllFivesError, match="a seed must be a whole number"):
        derive_seed(seed, 1)  # type: ignore[arg-type]


def test_an_unknown_level_is_named_briefly() -> None:
    with pytest.raises(AllFivesError, match=r"unknown computer level 'x{40}…'; choose") as info:
        make_player("x" * 100_000)
    assert len(str(info.value)) < 200
    with pytest.raises(AllFivesError, match="unknown computer level None"):
        make_player(None)  # type: ignore[arg-type]  # not a level name, on purpose


@pytest.mark.parametrize("level", LEVELS)
def test_choosing_among_no_legal_actions_is_a_clear_error(level: str) -> None:
    state = new_game(Rules(players=2))
    state = apply(state, seeded_deal(state, 3)).state
    seat = state.current
    assert seat is not None
    view = state.view(seat)
    player = make_player(level, seed=1, budget=None, playouts=20)
    with pytest.raises(AllFivesError, match="no legal action to choose from"):
        player.choose(view, [])
    with pytest.raises(AllFivesError, match="no legal action to choose from"):
        player.choose(view, ())


def test_the_expert_with_a_small_budget_returns() -> None:
    state = new_game(Rules(players=2))
    state = apply(state, seeded_deal(state, 3)).state
    seat = state.current
    assert seat is not None
    view = state.view(seat)
    assert make_player("expert", budget=0.01).choose(view, view.legal_actions())


# -- worker processes ---------------------------------------------------------


def test_workers_are_limited_to_the_cores() -> None:
    limit = os.cpu_count() or 1
    assert max_workers() == limit
    assert check_workers(1) == 1 and check_workers(limit) == limit
    for bad in (limit + 1, 1000):
        with pytest.raises(AllFivesError, match=f"at most {limit} worker") as info:
            check_workers(bad)
        assert str(bad) in str(info.value)
    for bad in (0, -1):
        with pytest.raises(AllFivesError, match="at least 1 worker"):
            check_workers(bad)
    for wrong in (1.5, "2", True, None):
        with pytest.raises(AllFivesError, match="the worker count must be a whole number"):
            check_workers(wrong)
    with pytest.raises(AllFivesError, match=f"at most {limit} worker"):
        run_match(MatchConfig(entrants=("greedy", "random"), games=2), workers=limit + 1)


# -- the sim command -------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--budget", "inf"], "argument --budget: the time budget must be a finite number"),
        (["--budget", "nan"], "argument --budget: the time budget must be a finite number"),
        (["--budget=-inf"], "argument --budget: the time budget must be a finite number"),
        (["--budget", "0"], "argument --budget: the time budget must be a finite number"),
        (["-w", "1000"], "argument -w/--workers: at most {limit} worker"),
        (["--workers", "{over}"], "argument -w/--workers: at most {limit} worker"),
    ],
)
def test_sim_refuses_an_endless_budget_and_too_many_workers(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    limit = os.cpu_count() or 1
    argv = [a.format(over=limit + 1) for a in argv]
    first = sim_refusal(["expert", "greedy", "-n", "2", *argv], capsys)
    assert expected.format(limit=limit) in first, first


def test_sim_accepts_one_worker_per_core(capsys: pytest.CaptureFixture[str]) -> None:
    limit = os.cpu_count() or 1
    assert main(["sim", "greedy", "random", "-n", "2", "-w", str(limit), "--quiet"]) == 0
    assert "win rate" in capsys.readouterr().out
