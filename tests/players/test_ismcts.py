"""The information-set tree search: legal, seeded, honest, and within its budget."""

from __future__ import annotations

import random
import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Rules
from engine.players.evaluate import Search
from engine.players.expert import ExpertPlayer
from engine.players.ismcts import EXPLORE, tree_search

from .test_honesty import RULES, midgame, reshuffled


def test_tree_search_visits_every_root_action_and_counts_its_iterations() -> None:
    state = midgame(Rules(players=2), seed=11, moves=3)
    seat = state.current
    assert seat is not None
    view = state.view(seat)
    legal = view.legal_actions()
    assert len(legal) > 1
    search = Search(view, legal, seed=4)
    visits, means = tree_search(search, playouts=400, deadline=float("inf"))
    assert sum(visits) == 400 == search.playouts
    assert all(v > 0 for v in visits)
    assert all(-200.0 < m < 200.0 for m in means)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(RULES),
    seed=st.integers(0, 10_000),
    moves=st.integers(1, 12),
    shuffle_seed=st.integers(0, 2**32),
)
def test_choice_is_seeded_and_unchanged_by_any_consistent_reshuffle(
    rules: Rules, seed: int, moves: int, shuffle_seed: int
) -> None:
    state = midgame(rules, seed, moves)
    seat = state.current
    assert seat is not None
    rng = random.Random(shuffle_seed)
    other = None
    for _ in range(200):
        other = reshuffled(state, seat, rng)
        if other is not None:
            break
    if other is None:
        return
    a = ExpertPlayer(seed, budget=None, playouts=150, tree=EXPLORE)
    b = ExpertPlayer(seed, budget=None, playouts=150, tree=EXPLORE)
    view = state.view(seat)
    choice = a.choose(view, view.legal_actions())
    assert choice in view.legal_actions()
    other_view = other.view(seat)
    assert choice == b.choose(other_view, other_view.legal_actions())


def test_a_budgeted_choice_keeps_within_its_budget() -> None:
    state = midgame(Rules(players=2), seed=5, moves=2)
    seat = state.current
    assert seat is not None
    view = state.view(seat)
    player = ExpertPlayer(1, budget=0.05, tree=EXPLORE)
    start = time.thread_time()
    player.choose(view, view.legal_actions())
    assert time.thread_time() - start < 0.05 + 0.02
    assert player.last_playouts > 0
