"""The evaluation core (issue 16, item 3): every action's win chance and points, with errors."""

from __future__ import annotations

import dataclasses
import inspect
import random
import time
from typing import TypedDict, Unpack

import pytest

from engine import GameState, Rules
from engine.players import ExpertPlayer
from engine.players import evaluate as ev
from engine.players.evaluate import ActionValue, Search, evaluate
from engine.players.playout import Policy
from tests.players.helpers import position, with_scores
from tests.players.test_honesty import midgame, reshuffled
from tests.players.test_levels import EASY_TWENTY, FIFTEEN_OVER_TEN, TO_THE_TARGET

TWO = Rules(players=2)


def test_one_value_per_legal_action_best_first() -> None:
    view = position(TWO, *EASY_TWENTY).view(1)
    legal = view.legal_actions()
    values = evaluate(view, playouts=600, seed=1)
    assert sorted(map(str, (v.action for v in values))) == sorted(map(str, legal))
    assert all(isinstance(v, ActionValue) for v in values)
    assert [v.win for v in values] == sorted((v.win for v in values), reverse=True)
    for v in values:
        assert 0.0 <= v.win <= 1.0
        assert v.playouts == 200  # 600 over three actions, no racing
        assert 0.0 < v.win_se < 0.2 and 0.0 < v.points_se < 10.0
    with pytest.raises(dataclasses.FrozenInstanceError):  # writes to a frozen value on purpose
        values[0].win = 1.0  # type: ignore[misc]


def test_a_move_that_wins_the_game_is_a_certain_win_worth_its_points() -> None:
    state = with_scores(position(Rules(players=2, target=250), *TO_THE_TARGET), (240, 245))
    values = evaluate(state.view(1), playouts=200, seed=3)
    best = values[0]
    assert str(best.action) == "6-0 W"
    assert (best.win, best.win_se, best.points, best.points_se) == (1.0, 0.0, 5.0, 0.0)
    assert all(v.win < 1.0 for v in values[1:])


def test_the_easy_twenty_costs_points_and_games() -> None:
    # 6-6 E leaves seat 0 an easy 20: early on it costs points, at 230-200 the game.
    def six_six(scores: tuple[int, int]) -> tuple[ActionValue, ActionValue]:
        view = with_scores(position(TWO, *EASY_TWENTY), scores).view(1)
        values = evaluate(view, playouts=900, seed=5)
        worst = next(v for v in values if str(v.action) == "6-6 E")
        return values[0], worst

    best, worst = six_six((0, 0))
    assert best.points - worst.points > 2 * worst.points_se
    early = best.win - worst.win
    best, worst = six_six((230, 200))
    late = best.win - worst.win
    assert late > 2 * early > 0 and late > 10 * worst.win_se


def test_reproducible_with_a_seed_and_a_fixed_count() -> None:
    view = position(TWO, *FIFTEEN_OVER_TEN).view(1)
    assert evaluate(view, playouts=300, seed=4) == evaluate(view, playouts=300, seed=4)
    assert evaluate(view, playouts=300, seed=4) != evaluate(view, playouts=300, seed=5)


def test_standard_errors_shrink_as_playouts_grow() -> None:
    view = position(TWO, *FIFTEEN_OVER_TEN).view(1)
    few = {str(v.action): v for v in evaluate(view, playouts=300, seed=2)}
    many = {str(v.action): v for v in evaluate(view, playouts=4800, seed=2)}
    for action, v in many.items():
        ratio = v.points_se / few[action].points_se
        assert 0.15 < ratio < 0.4, (action, ratio)  # about 1/4 for 16 times the playouts


def test_the_flat_expert_plays_the_best_of_its_own_evaluation() -> None:
    """Without the tree search (``tree=None``) the expert's choice is the core's best;
    its analysis is the core's, tree or not."""
    view = position(TWO, *EASY_TWENTY).view(1)
    legal = view.legal_actions()
    expert = ExpertPlayer(seed=7, budget=None, playouts=900, tree=None)
    values = evaluate(view, legal, playouts=900, seed=7, race=True)
    assert expert.choose(view, legal) == values[0].action
    assert expert.analyse(view, legal) == values


def test_a_budget_is_cpu_time_of_this_thread() -> None:
    view = position(TWO, *EASY_TWENTY).view(1)
    t0 = time.thread_time()
    values = evaluate(view, budget=0.05, seed=1)
    assert time.thread_time() - t0 < 0.05 + 0.02
    assert min(v.playouts for v in values) >= 3
    with pytest.raises(ValueError, match="the time budget must be"):
        evaluate(view, budget=0.0)
    with pytest.raises(ValueError, match="the playout count must be"):
        evaluate(view, playouts=-1)
    with pytest.raises(ValueError, match="no legal action"):
        evaluate(view, [], playouts=10)


@pytest.mark.parametrize(
    "rules", [Rules(players=2), Rules(players=3), Rules(players=4, partnerships=True)]
)
def test_honest_the_figures_survive_any_consistent_reshuffle(rules: Rules) -> None:
    for seed in (21, 22, 23):
        state = midgame(rules, seed, 12)
        seat = state.current
        assert seat is not None
        rng = random.Random(seed)
        other = next(o for o in (reshuffled(state, seat, rng) for _ in range(500)) if o)
        values = evaluate(state.view(seat), playouts=160, seed=seed)
        assert values == evaluate(other.view(seat), playouts=160, seed=seed)


class _SearchOptions(TypedDict, total=False):
    """The two search options the next test varies."""

    uniform: bool
    tail: Policy | None


def test_first_fit_worlds_and_a_greedy_tail_keep_the_search_honest_and_seeded() -> None:
    from engine.players.evaluate import Search
    from engine.players.playout import greedy_policy

    state = midgame(Rules(players=3), 31, 10)
    seat = state.current
    assert seat is not None
    rng = random.Random(31)
    other = next(o for o in (reshuffled(state, seat, rng) for _ in range(500)) if o)

    def values(s: GameState, **options: Unpack[_SearchOptions]) -> tuple[ActionValue, ...]:
        view = s.view(seat)
        search = Search(view, view.legal_actions(), seed=2, **options)
        search.run(playouts=150)
        return search.values()

    cases: tuple[_SearchOptions, ...] = ({"uniform": False}, {"tail": greedy_policy})
    for options in cases:
        first = values(state, **options)
        assert first == values(state, **options) == values(other, **options)
        assert first != values(state)  # the option changes the search


def test_the_expert_keeps_its_budget_in_cpu_time_set_up_included() -> None:
    """Each move, timed on the deciding thread's CPU clock from before the choice (so its
    set-up counts), keeps within its budget but for what its clock allows: the tree search
    looks at the clock once every eight playouts, and frees its tree after the last one.
    So a move may pass the budget by ten of its own playouts' time (measured on the move
    itself, which a busy machine slows alike) and a tenth of the budget; a collection of
    the test process's garbage is kept out of the timing (:func:`timed_choice`)."""
    from tests.players.test_ismcts import timed_choice
    from tests.players.test_reproducible import positions

    budget = 0.04
    for view in positions(Rules(players=2), count=8, every=2):
        expert = ExpertPlayer(seed=1, budget=budget)
        spent = timed_choice(expert, view, view.legal_actions())
        assert expert.last_playouts > 0
        playout = spent / expert.last_playouts
        assert spent <= budget + 10 * playout + budget / 10, (spent, expert.last_playouts)


def test_the_expert_and_the_search_share_one_set_of_defaults() -> None:
    # The search options both take have their defaults in evaluate.py alone.
    search = inspect.signature(Search.__init__).parameters
    expert = inspect.signature(ExpertPlayer.__init__).parameters
    shared = {"horizon", "pip_weight", "inference", "exact_tiles", "max_nodes", "uniform"}
    assert shared <= set(search) & set(expert)
    for name in shared:
        assert search[name].default == expert[name].default, name
    assert search["horizon"].default == ev.HORIZON
    assert search["pip_weight"].default == ev.PIP_WEIGHT
    assert search["inference"].default == ev.INFERENCE
    assert search["max_nodes"].default == ev.WORLD_NODES
    player = ExpertPlayer(seed=1)
    assert (player.horizon, player.pip_weight, player.inference, player.max_nodes) == (
        ev.HORIZON, ev.PIP_WEIGHT, ev.INFERENCE, ev.WORLD_NODES
    )
