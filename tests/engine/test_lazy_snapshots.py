"""Snapshots from ``apply`` compute their fields on first read: the result must not show it."""

from __future__ import annotations

import copy
import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import GameState, Rng, Rules, Step, apply, legal_actions, new_game, seeded_deal
from engine.events import Placed
from tests.engine.test_properties import rules_strategy


def random_states(rules: Rules, seed: int, count: int, *, read: bool) -> list[GameState]:
    """The snapshots of a seeded random game; with ``read`` each is read as soon as made."""
    rng = Rng(seed)
    state = new_game(rules)
    states = [state]
    while len(states) < count and not state.is_terminal:
        if state.is_chance:
            state = apply(state, seeded_deal(state, seed)).state
        else:
            legal = legal_actions(state)
            state = apply(state, legal[rng.below(len(legal))]).state
        if read:
            assert state.rules == rules
        states.append(state)
    return states


@settings(max_examples=20, deadline=None)
@given(
    rules=rules_strategy(),
    seed=st.integers(min_value=0, max_value=2**32),
    count=st.integers(min_value=1, max_value=250),
    order_seed=st.integers(min_value=0, max_value=2**32),
)
def test_fields_do_not_depend_on_the_order_they_are_read(
    rules: Rules, seed: int, count: int, order_seed: int
) -> None:
    eager = random_states(rules, seed, count, read=True)
    lazy = random_states(rules, seed, count, read=False)
    for i in Rng(order_seed).shuffled(range(len(lazy))):
        assert lazy[i].model_dump() == eager[i].model_dump()
    for lazy_state, eager_state in zip(lazy, eager, strict=True):
        assert lazy_state == eager_state
        # Rebuilt through validation (every consistency check) from the fields alone.
        assert GameState.model_validate(lazy_state.model_dump()) == lazy_state


def test_an_unread_snapshot_acts_like_a_read_one() -> None:
    rules = Rules(players=3)
    last = random_states(rules, 11, 120, read=False)[-1]
    twin = random_states(rules, 11, 120, read=False)[-1]
    assert last.__dict__ == {}, "nothing computed yet"
    assert last == twin and hash(last) == hash(twin)
    assert repr(last) == repr(twin)
    assert dict(random_states(rules, 11, 120, read=False)[-1]) == dict(last)
    assert pickle.loads(pickle.dumps(random_states(rules, 11, 120, read=False)[-1])) == last
    assert copy.deepcopy(random_states(rules, 11, 120, read=False)[-1]) == last
    json = random_states(rules, 11, 120, read=False)[-1].model_dump_json()
    assert GameState.model_validate_json(json) == last
    assert last.current_player == last.current
    assert last.is_terminal == (last.winner is not None)
    # pydantic's own bookkeeping is there before any field is read, too
    for name in ("model_fields_set", "model_extra", "__pydantic_fields_set__"):
        unread = random_states(rules, 11, 120, read=False)[-1]
        assert getattr(unread, name) == getattr(last, name)
    assert last.model_fields_set == set(GameState.model_fields)
    assert random_states(rules, 11, 120, read=False)[-1].model_copy() == last


def test_a_copy_with_new_fields_plays_by_its_own_fields() -> None:
    state = new_game(Rules(players=2))
    state = apply(state, seeded_deal(state, 3)).state
    richer = state.model_copy(update={"scores": (245, 0)})
    move = next(a for a in legal_actions(richer) if a.kind == "play")
    after = apply(richer, move).state
    assert after.scores[0] >= 245
    assert apply(state, move).state.scores[0] < 245


def test_step_unpacks_like_a_pair_and_reads_its_events_late() -> None:
    state = new_game(Rules(players=2))
    state = apply(state, seeded_deal(state, 5)).state
    move = legal_actions(state)[0]
    step = apply(state, move)
    again = apply(state, move)
    new_state, events = step
    assert new_state is step.state is step[0]
    assert events is step.events is step[1]
    assert len(step) == 2
    assert step == again and hash(step) == hash(again)
    assert isinstance(events[0], Placed) and events[0].tile == move.tile
    assert "Step(state=" in repr(step)
    made = Step(state, ())
    assert made.events == () and made != step
