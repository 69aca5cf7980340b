"""No level can read a hidden tile.

A player is handed only ``state.view(seat)``; these tests show that nothing
hidden leaks through it: reshuffling the other hands and the boneyard in any
way consistent with the seat's view leaves its view, and the expert's seeded
evaluation of every action and its choice (with the flat search and with the
tree search, with uniform worlds and with worlds weighed by the plays seen),
exactly unchanged.

Each view is made just before the evaluation or choice that uses it, as in
real play (a view, then the player's move, then the next view): a player that
read the true state through some module-level global, set when the last view
was made, would then see two different games and be caught. (Making both
views first would leave that global on the second game for both.)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import GameState, Rules, apply, new_game, seeded_deal
from engine.actions import Action
from engine.players import LEVELS, ExpertPlayer, Player, make_player
from engine.players.ismcts import EXPLORE
from engine.players.knowledge import Knowledge
from engine.tiles import ALL_TILES, PIP_MASK

RULES = (Rules(players=2), Rules(players=3), Rules(players=4, partnerships=True))


def midgame(rules: Rules, seed: int, moves: int) -> GameState:
    """A position reached by greedy play, where the seat to move has a real choice."""
    state = new_game(rules)
    state = apply(state, seeded_deal(state, seed)).state
    players = [make_player("greedy", seed + s) for s in range(rules.players)]
    chosen = state
    for _ in range(moves):
        if state.is_chance or state.is_terminal:
            break
        seat = state.current
        assert seat is not None
        view = state.view(seat)
        legal = view.legal_actions()
        if len(legal) > 1:
            chosen = state
        state = apply(state, players[seat].choose(view, legal)).state
    return chosen


def reshuffled(state: GameState, seat: int, rng: random.Random) -> GameState | None:
    """The same game with other seats' hands and the boneyard dealt anew from the same tiles.

    Tile counts are kept and each seat's hand avoids the values it is publicly
    known to lack; None when the shuffle broke that (the caller draws again).
    """
    hidden = [t for s, h in enumerate(state.hands) if s != seat for t in h]
    hidden += list(state.boneyard)
    rng.shuffle(hidden)
    hands = []
    i = 0
    for s, hand in enumerate(state.hands):
        if s == seat:
            hands.append(hand)
            continue
        new = tuple(hidden[i : i + len(hand)])
        i += len(hand)
        if any(PIP_MASK[t.id] & state.voids[s] for t in new):
            return None
        hands.append(new)
    boneyard = tuple(hidden[i:])
    must = state.must_play
    if must is not None and state.current != seat:
        return None
    return GameState.model_validate(
        {**dict(state), "hands": tuple(hands), "boneyard": boneyard}
    )


def reshuffle(state: GameState, seat: int, shuffle_seed: int) -> GameState | None:
    """A consistent reshuffle of what ``seat`` cannot see (:func:`reshuffled`), from up
    to 200 shuffles seeded with ``shuffle_seed``; None when none was consistent."""
    rng = random.Random(shuffle_seed)
    for _ in range(200):
        other = reshuffled(state, seat, rng)
        if other is not None:
            return other
    return None


def reshuffled_midgame(
    rules: Rules, seed: int, moves: int, shuffle_seed: int
) -> tuple[GameState, GameState, int] | None:
    """A :func:`midgame`, a consistent :func:`reshuffle` of it and the seat to move
    there; None when no reshuffle was consistent."""
    state = midgame(rules, seed, moves)
    seat = state.current
    assert seat is not None
    other = reshuffle(state, seat, shuffle_seed)
    return None if other is None else (state, other, seat)


def assert_blind_to_the_reshuffle(
    make: Callable[[], Player], state: GameState, other: GameState, seat: int,
    *, evaluate: bool = False,
) -> Action:
    """Two players from ``make``, one in each game, choose alike (and, with ``evaluate``,
    value every action alike, as experts do); returns the choice. Each view is made just
    before its own use, as real play does."""
    a, b = make(), make()
    if evaluate:
        assert isinstance(a, ExpertPlayer) and isinstance(b, ExpertPlayer)
        view = state.view(seat)
        values = a.evaluate(view, view.legal_actions())
        other_view = other.view(seat)
        assert values == b.evaluate(other_view, other_view.legal_actions())
    view = state.view(seat)
    choice = a.choose(view, view.legal_actions())
    other_view = other.view(seat)
    assert choice == b.choose(other_view, other_view.legal_actions())
    return choice


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(RULES),
    seed=st.integers(0, 10_000),
    moves=st.integers(1, 30),
    shuffle_seed=st.integers(0, 2**32),
)
def test_expert_choice_unchanged_by_any_consistent_reshuffle(
    rules: Rules, seed: int, moves: int, shuffle_seed: int
) -> None:
    pair = reshuffled_midgame(rules, seed, moves, shuffle_seed)
    if pair is None:
        return
    state, other, seat = pair
    assert state.view(seat) == other.view(seat)
    n = 8 * len(state.view(seat).legal_actions())
    assert_blind_to_the_reshuffle(
        lambda: ExpertPlayer(seed=seed, budget=None, playouts=n), state, other, seat,
        evaluate=True,
    )
    # the tree search too (engine.players.ismcts), which plays before the endgame
    choice = assert_blind_to_the_reshuffle(
        lambda: ExpertPlayer(seed=seed, budget=None, playouts=150, tree=EXPLORE),
        state, other, seat,
    )
    assert choice in state.view(seat).legal_actions()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(RULES),
    seed=st.integers(0, 10_000),
    moves=st.integers(1, 30),
    shuffle_seed=st.integers(0, 2**32),
)
def test_worlds_weighed_by_the_plays_seen_leak_nothing(
    rules: Rules, seed: int, moves: int, shuffle_seed: int
) -> None:
    # engine.players.likelihood: opponents' and partners' plays weigh the worlds, in the
    # flat search and in the tree search; a tree capped at a depth, one that settles, and
    # one whose other sides play the policy
    pair = reshuffled_midgame(rules, seed, moves, shuffle_seed)
    if pair is None:
        return
    state, other, seat = pair
    n = 8 * len(state.view(seat).legal_actions())
    makers: list[Callable[[], ExpertPlayer]] = [
        lambda: ExpertPlayer(seed, None, n, tree=None, odds=2.0, partner_odds=3.0),
        lambda: ExpertPlayer(seed, None, n, odds=1.5),
        lambda: ExpertPlayer(seed, None, n, tree=None, partner_odds=4.0),
        lambda: ExpertPlayer(seed, None, n, tree_depth=2),
        lambda: ExpertPlayer(seed, None, 40 * n, tree_settle=True),
        lambda: ExpertPlayer(seed, None, n, tree_others_policy=True),
    ]
    for make in makers:
        assert_blind_to_the_reshuffle(make, state, other, seat, evaluate=True)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(1, 25), shuffle_seed=st.integers(0, 2**32))
def test_every_level_sees_the_same_through_a_reshuffle(
    seed: int, moves: int, shuffle_seed: int
) -> None:
    pair = reshuffled_midgame(Rules(players=2), seed, moves, shuffle_seed)
    if pair is None:
        return
    state, other, seat = pair
    for level in LEVELS:
        assert_blind_to_the_reshuffle(
            partial(make_player, level, seed, budget=None, playouts=30), state, other, seat
        )


def test_a_view_holds_no_hidden_tile() -> None:
    state = midgame(Rules(players=2), 3, 8)
    seat = state.current
    assert seat is not None
    view = state.view(seat)
    know = Knowledge(view)
    hidden = {t.id for s, h in enumerate(state.hands) if s != seat for t in h}
    hidden |= {t.id for t in state.boneyard}
    assert set(know.unseen) == hidden
    dumped = view.model_dump_json()
    assert "boneyard\"" not in dumped.replace("boneyard_size", "")
    # Another seat's tiles appear nowhere in the view except as placed tiles.
    on_table = {str(t) for t in view.layout.tiles()}
    mine = {str(t) for t in view.hand}
    for t in hidden:
        assert str(ALL_TILES[t]) not in on_table | mine
