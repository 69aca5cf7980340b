"""A fixed-playout expert chooses the same moves on every machine and Python version.

The expected moves below were computed once from the code (Python 3.11, x86-64)
and are stored on purpose: the point of this test is to make any drift
visible. The expert's worlds are drawn with ``random.Random.random()`` alone,
the one method whose sequence Python promises to keep for a seed (``shuffle``,
``sample`` and ``choice`` are not promised, see :mod:`engine.rng`), and the
positions come from seeded deals (:class:`engine.rng.Rng`) and the greedy
level. So these moves must not change with the Python version or the machine.

If a deliberate change to the expert, its sampling or the playout policy
changes them, recompute them (print the choices of :func:`choices`) and say
why in the commit; a change nobody meant is a reproducibility bug.
"""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from engine import Rules, SeatView, apply, new_game, seeded_deal
from engine.players import evaluate as evaluate_module
from engine.players import make_player
from engine.players.expert import TREE, ExpertPlayer
from engine.players.knowledge import Knowledge
from engine.rng import shuffle


def positions(rules: Rules, seed: int = 2026, count: int = 8, every: int = 5) -> list[SeatView]:
    """Every ``every``-th position with a real choice in a game of greedy players."""
    state = new_game(rules)
    players = [make_player("greedy", seed * 10 + s) for s in range(rules.players)]
    out: list[SeatView] = []
    choices = 0
    while len(out) < count and not state.is_terminal:
        if state.is_chance:
            state = apply(state, seeded_deal(state, seed)).state
            continue
        seat = state.current
        assert seat is not None
        view = state.view(seat)
        legal = view.legal_actions()
        if len(legal) > 1:
            if choices % every == 0:
                out.append(view)
            choices += 1
        state = apply(state, players[seat].choose(view, legal)).state
    return out


def choices(rules: Rules, tree: float | None = TREE, tree_partners: bool = False) -> list[str]:
    """A fixed-playout expert's moves at :func:`positions` (no time budget); with
    ``tree=None``, the flat search's (it also plays every endgame)."""
    player = ExpertPlayer(
        seed=99, budget=None, playouts=240, tree=tree, tree_partners=tree_partners
    )
    return [str(player.choose(v, v.legal_actions())) for v in positions(rules)]


EXPECTED = [
    (
        Rules(players=2),
        ["4-4", "5-4 E", "3-0 N", "6-3 E", "4-3 W", "4-0 W", "3-2 E", "6-4"],
    ),
    (
        Rules(players=3),
        ["2-0", "4-4 W", "6-4 W", "2-2 W", "6-2 W", "1-1 W", "5-4 W", "5-3 S"],
    ),
]
"""The expert as shipped (the tree search until the endgame; partners, below)."""

TREE_PARTNERS = ["4-4", "1-0 N", "3-2 W", "1-0 E", "2-0 W", "3-0 E", "6-0 W", "4-1"]
"""Partners' moves with the tree search (``tree_partners``; not the default)."""

EXPECTED_FLAT = [
    (
        Rules(players=2),
        ["4-4", "5-4 E", "3-0 N", "6-3 E", "4-3 W", "5-4 E", "6-3 S", "5-0"],
    ),
    (
        Rules(players=3),
        ["2-0", "4-1 W", "6-4 W", "2-2 W", "6-2 W", "1-1 W", "5-4 W", "0-0 W"],
    ),
    (
        Rules(players=4, partnerships=True),
        ["1-1", "4-1 E", "3-2 W", "1-0 E", "2-2 W", "3-0 E", "6-0 W", "4-4"],
    ),
]


@pytest.mark.parametrize(("rules", "expected"), EXPECTED, ids=["2p", "3p"])
def test_fixed_playout_expert_moves_are_pinned(rules: Rules, expected: list[str]) -> None:
    assert choices(rules) == expected


@pytest.mark.parametrize(("rules", "expected"), EXPECTED_FLAT, ids=["2p", "3p", "4p-partners"])
def test_fixed_playout_flat_expert_moves_are_pinned(rules: Rules, expected: list[str]) -> None:
    assert choices(rules, tree=None) == expected


def test_partners_play_the_flat_search_unless_the_tree_is_asked_for() -> None:
    """In partnership games the shipped expert is the flat search (the tree did not
    gain there); ``tree_partners`` brings the tree back."""
    rules = Rules(players=4, partnerships=True)
    assert choices(rules) == EXPECTED_FLAT[2][1]
    assert choices(rules, tree_partners=True) == TREE_PARTNERS
    assert EXPECTED_FLAT[2][1] != TREE_PARTNERS


def test_the_shuffle_and_a_sampled_world_are_pinned() -> None:
    """The primitives under the expert: Fisher-Yates on random(), and one world."""
    order = list(range(12))
    shuffle(order, random.Random(1))
    assert order == [8, 11, 4, 0, 5, 6, 10, 3, 2, 7, 9, 1]
    view = positions(Rules(players=3), count=6, every=1)[-1]
    hands = Knowledge(view, passed_up_weight=0.9).sample_hands(random.Random(5))
    assert hands == [[6, 19, 3, 10, 4], [21, 18, 17, 8, 15, 20, 24], [25, 9, 13, 7, 2]]


class OnlyRandom:
    """A generator offering nothing but ``random()``: any other method would fail."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed).random

    def random(self) -> float:
        return self._random()


def test_the_expert_draws_nothing_but_random(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a generator that has only ``random()``, the expert still plays, and plays
    the same moves: so no version-dependent method of random.Random is used."""
    monkeypatch.setattr(evaluate_module, "random", SimpleNamespace(Random=OnlyRandom))
    assert choices(Rules(players=3)) == EXPECTED[1][1]
    assert choices(Rules(players=3), tree=None) == EXPECTED_FLAT[1][1]
