"""Per-side budgets in a match: ``LEVEL@SECONDS`` (``engine.match``; the command line's
side is in ``tests/cli/test_sim_budgets.py``)."""

from __future__ import annotations

import pytest

from engine.match import MAX_BUDGET, MatchConfig, play_game, seat_players, split_entrant
from engine.players import ExpertPlayer, MasterPlayer, MonteCarloPlayer


@pytest.mark.parametrize(
    ("entrant", "expected"),
    [
        ("expert", ("expert", None)),
        ("greedy", ("greedy", None)),
        ("expert@0.0625", ("expert", 0.0625)),
        ("montecarlo@1", ("montecarlo", 1.0)),
        ("master@.5", ("master", 0.5)),
        ("expert@1e-3", ("expert", 0.001)),
        (f"expert@{MAX_BUDGET:g}", ("expert", MAX_BUDGET)),
    ],
)
def test_an_entrant_is_a_level_and_its_own_budget(
    entrant: str, expected: tuple[str, float | None]
) -> None:
    assert split_entrant(entrant) == expected


@pytest.mark.parametrize(
    ("entrant", "message"),
    [
        ("wizard@1", "unknown computer level 'wizard'"),
        ("greedy@0.5", "'greedy@0.5': greedy does not search, so it takes no time budget"),
        ("heuristic@1", "heuristic does not search"),
        ("expert@", "'expert@': the time budget after @ must be a finite number of seconds "
         "above 0, not ''"),
        ("expert@fast", "must be a finite number of seconds above 0, not 'fast'"),
        ("expert@0", "above 0, not '0'"),
        ("expert@-0.25", "above 0, not '-0.25'"),
        ("expert@nan", "above 0, not 'nan'"),
        ("expert@inf", "above 0, not 'inf'"),
        ("expert@61", "'expert@61': the time budget is at most 60 seconds a move, not '61'"),
        ("expert@0.25@1", "not '0.25@1'"),
    ],
)
def test_a_bad_entrant_is_refused_by_name(entrant: str, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        split_entrant(entrant)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)
    with pytest.raises(ValueError):
        MatchConfig(entrants=(entrant, "random"))


def test_each_side_plays_with_its_own_budget_or_the_matchs() -> None:
    config = MatchConfig(entrants=("expert@0.0625", "montecarlo"), games=2, budget=0.5)
    assert [config.level_of(i) for i in (0, 1)] == ["expert", "montecarlo"]
    assert [config.budget_of(i) for i in (0, 1)] == [0.0625, 0.5]
    for rotation in (0, 1):
        players = seat_players(config, deal=0, rotation=rotation)
        side_of = [config.entrant_of(seat, rotation) for seat in range(2)]
        expert, other = players[side_of.index(0)], players[side_of.index(1)]
        assert isinstance(expert, ExpertPlayer) and expert.budget == 0.0625
        assert isinstance(other, MonteCarloPlayer) and other.budget == 0.5


def test_the_master_takes_four_times_its_own_budget_and_partners_share_theirs() -> None:
    config = MatchConfig(entrants=("master@0.125", "expert@0.03"), partnerships=True, games=2)
    players = seat_players(config, deal=3, rotation=1)
    # rotation 1: seats 1 and 3 are the first side's
    assert [type(p) for p in players] == [ExpertPlayer, MasterPlayer] * 2
    assert [p.budget for p in players if isinstance(p, ExpertPlayer)] == [0.03, 0.5, 0.03, 0.5]


def test_the_same_level_at_two_budgets_is_two_sides() -> None:
    config = MatchConfig(entrants=("expert@0.01", "expert@0.04"), games=2, target=50, seed=7)
    assert config.names() == ["expert@0.01", "expert@0.04"]
    game = play_game(config, deal=0, rotation=0)
    # each side's searched moves spend about its own budget (CPU time of the thread)
    quick = sorted(game.choice_times[0])
    slow = sorted(game.choice_times[1])
    assert quick and slow
    assert quick[len(quick) // 2] <= 0.0105
    assert slow[len(slow) // 2] > 0.03


def test_a_searching_side_needs_a_budget_or_playouts() -> None:
    with pytest.raises(ValueError, match="the montecarlo level needs a time budget"):
        MatchConfig(entrants=("greedy", "montecarlo"), budget=None)
    with pytest.raises(ValueError, match="the expert level needs a time budget"):
        MatchConfig(entrants=("expert@0.1", "expert"), budget=None)
    own = MatchConfig(entrants=("expert@0.1", "greedy"), budget=None)
    assert [own.budget_of(i) for i in (0, 1)] == [0.1, None]
    counted = MatchConfig(entrants=("expert@0.1", "expert"), budget=None, playouts=40)
    assert counted.budget_of(1) is None and counted.playouts == 40
    assert MatchConfig(entrants=("greedy", "random"), budget=None).budget is None
