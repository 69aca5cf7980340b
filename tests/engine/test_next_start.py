"""Who starts the next hand: the compact core and the snapshot agree, live and rebuilt.

The seat that went out starts the next hand; after a blocked hand the starter
is drawn at random, also when the hand before it was won by going out. The
core's ``next_start`` (-1 for "drawn") and :attr:`GameState.next_start`
(``None``) must say the same, so that a game rebuilt from its snapshot or its
record deals as the live one does.
"""

from __future__ import annotations

import pytest

from engine import (
    Deal,
    GameState,
    IllegalActionError,
    Phase,
    Rules,
    apply,
    legal_actions,
    new_game,
    seeded_deal,
)
from engine.record import GameRecord, Seat
from engine.rng import Rng
from engine.rules import MAX_TARGET


def _random_hand(state: GameState, rng: Rng) -> GameState:
    """``state`` after a seeded deal and random legal moves to the end of the hand."""
    state = apply(state, seeded_deal(state, rng.below(1000))).state
    while state.phase is Phase.PLAY:
        legal = legal_actions(state)
        state = apply(state, legal[rng.below(len(legal))]).state
    return state


def _blocked_after_out(players: int) -> tuple[GameState, int]:
    """A game just after a blocked hand that followed a hand ``seat`` went out of."""
    for seed in range(200):
        rng = Rng(seed)
        state = new_game(Rules(players=players, target=MAX_TARGET))
        went_out: int | None = None
        while state.hand_number < 40 and not state.is_terminal:
            state = _random_hand(state, rng)
            if state.phase is not Phase.DEAL:
                break
            if state.next_start is None and went_out is not None:
                return state, went_out
            went_out = state.next_start
    raise AssertionError("no blocked hand after a hand someone went out of")


def _core_start(state: GameState) -> int | None:
    start = state.core().next_start
    return None if start < 0 else start


def _rebuilt(state: GameState) -> list[GameState]:
    """``state`` rebuilt from its fields, from its JSON and by replaying its record."""
    seats = [Seat(name=f"P{s}", kind="human") for s in range(state.rules.players)]
    record = GameRecord.from_state(state, seats, seed=1)
    *_, (_, _, replayed, _) = record.steps()
    return [
        GameState.model_validate(dict(state)),
        GameState.model_validate_json(state.model_dump_json()),
        replayed,
    ]


def _deal_from(state: GameState, start: int) -> Deal:
    deal = seeded_deal(state, 5)
    return Deal(hands=deal.hands, boneyard=deal.boneyard, start=start)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_after_a_blocked_hand_that_follows_an_out_the_starter_is_drawn(players: int) -> None:
    state, went_out = _blocked_after_out(players)
    for each in [state, *_rebuilt(state)]:
        assert each == state
        assert each.next_start is None
        assert _core_start(each) is None
        # Any seat may start: the one that went out the hand before has no claim.
        for start in range(players):
            assert apply(each, _deal_from(each, start)).state.current == start
    starters = {seeded_deal(state, seed).start for seed in range(60)}
    assert starters == set(range(players)), (went_out, starters)
    for each in _rebuilt(state):
        assert [seeded_deal(each, s) for s in range(5)] == [seeded_deal(state, s) for s in range(5)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_core_and_the_snapshot_agree_on_the_starter_after_every_hand(players: int) -> None:
    rng = Rng(players)
    for _ in range(3):
        state = new_game(Rules(players=players, target=MAX_TARGET))
        while state.hand_number < 15 and state.phase is Phase.DEAL:
            state = _random_hand(state, rng)
            assert _core_start(state) == state.next_start
            for each in _rebuilt(state):
                assert _core_start(each) == each.next_start == state.next_start
            if state.phase is Phase.DEAL and state.next_start is not None:
                other = (state.next_start + 1) % players
                with pytest.raises(IllegalActionError, match="start-player"):
                    apply(state, _deal_from(state, other))
                assert seeded_deal(state, rng.below(100)).start == state.next_start
