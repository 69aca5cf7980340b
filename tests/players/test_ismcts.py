"""The information-set tree search: it counts its iterations and keeps within its
budget (its honesty: tests/players/test_honesty.py)."""

from __future__ import annotations

import time

from engine import Rules
from engine.players.evaluate import Search
from engine.players.expert import ExpertPlayer
from engine.players.ismcts import EXPLORE, tree_search

from .test_honesty import midgame


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
