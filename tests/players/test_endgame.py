"""The exact endgame solver (issue 16, item 2): alpha-beta equals brute force; fallbacks."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest

from engine import GameState, Rules, apply, core, new_game, seeded_deal
from engine.players import ExpertPlayer, make_player
from engine.players.endgame import Solver, Unsolved, Value, solvable
from engine.players.evaluate import ActionValue, Search
from engine.state import core_from_snapshot
from engine.tiles import parse_tile


def brute_force(c: core.Core, team: int, value: Callable[[core.Core], Value]) -> Value:
    """Plain minimax over every line, no pruning and no table."""
    if c.phase != core.PHASE_PLAY:
        return value(c)
    results = []
    for code in c.legal():
        child = c.copy()
        child.step(code)
        results.append(brute_force(child, team, value))
    return max(results) if c.team_of[c.current] == team else min(results)


def margin_value(team: int) -> Callable[[core.Core], Value]:
    def value(c: core.Core) -> Value:
        others = [t for t in range(len(c.scores)) if t != team]
        won = 1.0 if c.winner == team else 0.0 if c.winner >= 0 else 0.5
        return won, c.scores[team] - sum(c.scores[t] for t in others) / len(others)

    return value


def tile(text: str) -> int:
    return parse_tile(text).id


def hand_made() -> core.Core:
    """6-6 led (the spinner), 6-3 west, 6-1 east, north and south not yet open;
    seat 0 to play with 3-3 1-0 5-2 5-0, seat 1 holds 3-2 1-1 4-4 2-0, no boneyard."""
    c = core.Core(2, [0, 1], 250, 9)
    c.phase = core.PHASE_PLAY
    for t, end in (("6-6", core.LEAD), ("6-3", core.W), ("6-1", core.E)):
        c.layout.place(tile(t), end)
    c.held = [
        core.hand_mask(tile(t) for t in ("3-3", "1-0", "5-2", "5-0")),
        core.hand_mask(tile(t) for t in ("3-2", "1-1", "4-4", "2-0")),
    ]
    c.boneyard = []
    c.current = 0
    c.scores = [100, 120]
    return c


def test_the_solver_equals_brute_force_on_a_hand_made_endgame() -> None:
    c = hand_made()
    assert solvable(c, 8) and not solvable(c, 7)
    for team in (0, 1):
        value = margin_value(team)
        solver = Solver(team, value)
        assert solver.solve(c.copy()) == brute_force(c, team, value)
        assert solver.nodes > 0
    # and move by move: every first move's solved value is its brute-force value
    solver = Solver(0, margin_value(0))
    for code in c.legal():
        child = c.copy()
        child.step(code)
        assert solver.solve(child) == brute_force(child, 0, margin_value(0))


def endgames(rules: Rules, count: int, tiles: int, least: int = 0) -> list[GameState]:
    """Positions of greedy play with an empty boneyard and few tiles in the hands
    (``least`` to ``tiles``), the seat to move with a choice."""
    out: list[GameState] = []
    seed = 0
    while len(out) < count:
        seed += 1
        state = new_game(rules)
        state = apply(state, seeded_deal(state, seed)).state
        players = [make_player("greedy", seed + s) for s in range(rules.players)]
        while not state.is_chance and not state.is_terminal:
            seat = state.current
            assert seat is not None
            left = sum(map(len, state.hands))
            if not state.boneyard and left <= tiles:
                if left >= least and len(state.legal_actions()) > 1:
                    out.append(state)
                break
            view = state.view(seat)
            state = apply(state, players[seat].choose(view, view.legal_actions())).state
    return out


@pytest.mark.parametrize(
    "rules", [Rules(players=2), Rules(players=3), Rules(players=4, partnerships=True)]
)
def test_the_solver_equals_brute_force_on_seeded_endgames(rules: Rules) -> None:
    # three players: paranoid, the other two seats both against the searcher
    for state in endgames(rules, 6, 9):
        seat = state.current
        assert seat is not None
        c = core_from_snapshot(state, [[t.id for t in h] for h in state.hands], [])
        view = state.view(seat)
        search = Search(view, view.legal_actions())  # its outcome: the game-winning measure
        solver = Solver(search.team, search.outcome)
        assert solver.solve(c.copy()) == brute_force(c, search.team, search.outcome)


def test_a_position_or_time_limit_raises_unsolved() -> None:
    c = hand_made()
    with pytest.raises(Unsolved):
        Solver(0, margin_value(0), max_nodes=2).solve(c)
    with pytest.raises(Unsolved):
        Solver(0, margin_value(0), max_nodes=10**6, deadline=-math.inf).solve(_big_endgame())


def _big_endgame() -> core.Core:
    state = endgames(Rules(players=4, partnerships=True), 1, 12)[0]
    return core_from_snapshot(state, [[t.id for t in h] for h in state.hands], [])


def test_the_search_solves_worlds_once_the_hand_is_small() -> None:
    state = endgames(Rules(players=2), 1, 10, least=7)[0]
    seat = state.current
    assert seat is not None
    view = state.view(seat)
    legal = view.legal_actions()
    search = Search(view, legal, seed=3, exact_tiles=10)
    search.run(playouts=40 * len(legal))
    assert search.solved == search.worlds == 40 and search.unsolved == 0
    assert search.nodes > 0
    off = Search(view, legal, seed=3, exact_tiles=0)
    off.run(playouts=40 * len(legal))
    assert off.solved == 0 and off.nodes == 0


def test_too_few_positions_or_too_short_a_budget_falls_back_to_playouts() -> None:
    state = endgames(Rules(players=4, partnerships=True), 1, 12, least=8)[0]
    seat = state.current
    assert seat is not None
    view = state.view(seat)
    legal = view.legal_actions()
    search = Search(view, legal, seed=3, exact_tiles=20, max_nodes=1)
    search.run(playouts=30 * len(legal))
    assert search.solved == 0 and search.unsolved == search.worlds == 30
    assert all(v.playouts == 30 for v in search.values())
    for budget in (1e-6, 0.002):
        player = ExpertPlayer(seed=1, budget=budget, exact_tiles=20, max_nodes=10**7)
        assert player.choose(view, legal) in legal
        assert player.last_playouts >= len(legal)


def test_an_expert_with_the_solver_is_seeded_and_honest() -> None:
    from tests.players.test_honesty import reshuffled

    rng = random.Random(5)
    for state in endgames(Rules(players=3), 8, 10, least=7):
        seat = state.current
        assert seat is not None
        shuffles = (reshuffled(state, seat, rng) for _ in range(300))
        other = next((o for o in shuffles if o and o.hands != state.hands), None)
        if other is not None:
            break
    assert other is not None and seat is not None
    view = state.view(seat)

    def analysis(s: GameState) -> tuple[tuple[ActionValue, ...], int]:
        v = s.view(seat)
        player = ExpertPlayer(seed=4, budget=None, playouts=60, exact_tiles=10)
        return player.analyse(v, v.legal_actions()), player.last_nodes

    first = analysis(state)
    assert first == analysis(state) == analysis(other)
    assert first[1] > 0
    assert view == other.view(seat)


def test_a_search_stops_solving_past_its_node_limit() -> None:
    state = endgames(Rules(players=4, partnerships=True), 1, 12, least=8)[0]
    seat = state.current
    assert seat is not None
    view = state.view(seat)
    legal = view.legal_actions()
    full = Search(view, legal, seed=3, exact_tiles=20)
    full.run(playouts=30 * len(legal))
    assert full.solved == 30
    per_world = full.nodes / 30
    capped = Search(view, legal, seed=3, exact_tiles=20, node_limit=int(5 * per_world))
    capped.run(playouts=30 * len(legal))
    assert 0 < capped.solved < 30 and capped.worlds == 30  # the rest played out
    assert capped.nodes < 10 * per_world
