"""Snapshots and views made by the engine skip validation: they act just like validated ones.

(The file keeps its old name: snapshots used to compute their fields on first
read. They are built whole now; what is checked is unchanged.)
"""

from __future__ import annotations

import copy
import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    GameState,
    Play,
    Rng,
    Rules,
    SeatView,
    Step,
    apply,
    legal_actions,
    new_game,
    seeded_deal,
)
from engine.events import Placed
from tests.engine.test_properties import rules_strategy


def random_states(rules: Rules, seed: int, count: int) -> list[GameState]:
    """The snapshots of a seeded random game."""
    rng = Rng(seed)
    state = new_game(rules)
    states = [state]
    while len(states) < count and not state.is_terminal:
        if state.is_chance:
            state = apply(state, seeded_deal(state, seed)).state
        else:
            legal = legal_actions(state)
            state = apply(state, legal[rng.below(len(legal))]).state
        states.append(state)
    return states


def validated(state: GameState) -> GameState:
    """The same snapshot rebuilt from its fields alone, through every validation check."""
    return GameState.model_validate(state.model_dump())


@settings(max_examples=20, deadline=None)
@given(
    rules=rules_strategy(),
    seed=st.integers(min_value=0, max_value=2**32),
    count=st.integers(min_value=1, max_value=250),
)
def test_engine_made_snapshots_and_views_equal_validated_ones(
    rules: Rules, seed: int, count: int
) -> None:
    for state in random_states(rules, seed, count):
        again = validated(state)
        assert again == state and hash(again) == hash(state)
        assert again.model_dump() == state.model_dump()
        assert list(state.__dict__) == list(GameState.model_fields), "fields in order"
        assert again.legal_codes() == state.legal_codes()
        for seat in range(rules.players):
            view = state.view(seat)
            assert list(view.__dict__) == list(SeatView.model_fields), "fields in order"
            rebuilt = SeatView.model_validate(view.model_dump())
            assert rebuilt == view and hash(rebuilt) == hash(view)
            assert rebuilt.model_dump() == view.model_dump() == again.view(seat).model_dump()
            # the view's legal actions come with it; a validated one works them out
            assert rebuilt.legal_actions() == view.legal_actions()
            expected = legal_actions(state) if seat == state.current else ()
            assert view.legal_actions() == expected


def test_an_engine_made_snapshot_acts_like_a_validated_one() -> None:
    rules = Rules(players=3)
    last = random_states(rules, 11, 120)[-1]
    twin = validated(last)
    assert last == twin and hash(last) == hash(twin)
    assert repr(last) == repr(twin)
    assert dict(last) == dict(twin)
    assert pickle.loads(pickle.dumps(last)) == twin
    assert copy.deepcopy(last) == twin
    assert copy.copy(last) == twin
    assert GameState.model_validate_json(last.model_dump_json()) == twin
    assert last.current_player == last.current
    assert last.is_terminal == (last.winner is not None)
    assert last.model_fields_set == set(GameState.model_fields)
    assert last.model_extra == twin.model_extra
    assert last.model_copy() == twin
    view = last.view(1)
    assert repr(view) == repr(twin.view(1))
    assert pickle.loads(pickle.dumps(view)) == view == copy.deepcopy(view)
    assert view.model_fields_set == set(SeatView.model_fields)


def test_a_copy_with_new_fields_plays_by_its_own_fields() -> None:
    state = new_game(Rules(players=2))
    state = apply(state, seeded_deal(state, 3)).state
    richer = state.model_copy(update={"scores": (245, 0)})
    move = next(a for a in legal_actions(richer) if a.kind == "play")
    after = apply(richer, move).state
    assert after.scores[0] >= 245
    assert apply(state, move).state.scores[0] < 245
    # a view given another hand works out its own legal actions
    assert state.current is not None
    view = state.view(state.current)
    other = view.model_copy(update={"hand": state.hands[1 - view.seat]})
    assert other.legal_actions() != view.legal_actions()
    assert other.legal_actions() == SeatView.model_validate(other.model_dump()).legal_actions()


def test_step_is_a_named_pair() -> None:
    state = new_game(Rules(players=2))
    state = apply(state, seeded_deal(state, 5)).state
    move = legal_actions(state)[0]
    assert isinstance(move, Play)
    step = apply(state, move)
    again = apply(state, move)
    new_state, events = step
    assert isinstance(step, tuple) and step._fields == ("state", "events")
    assert new_state is step.state is step[0]
    assert events is step.events is step[1]
    assert len(step) == 2
    assert step == again and hash(step) == hash(again)
    assert isinstance(events[0], Placed) and events[0].tile == move.tile
    assert "Step(state=" in repr(step)
    made = Step(state, ())
    assert made.events == () and made != step
