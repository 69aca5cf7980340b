"""Each worked example of docs/rules.md is a test of its own."""

from __future__ import annotations

import pytest

from engine import (
    DRAW,
    HandOver,
    IllegalActionError,
    Phase,
    Placed,
    Play,
    Rules,
    apply,
    legal_actions,
    parse_action,
    parse_tile,
)
from engine.core import round_pips
from tests.engine.helpers import dealt, play

TWO = Rules(players=2)


def placed(step_events: tuple[object, ...]) -> Placed:
    return next(e for e in step_events if isinstance(e, Placed))


def test_example_1_lead_4_5_scores_nothing_and_next_must_match() -> None:
    state = dealt(TWO, [["5-4"], ["4-1", "6-6", "5-2"]], start=0)
    step = play(state, "5-4")
    event = placed(step.events)
    assert (event.total, event.points) == (9, 0)
    legal = legal_actions(step.state)
    assert legal
    for action in legal:
        assert isinstance(action, Play)
        assert action.tile.has(4) or action.tile.has(5)
    assert {a.tile for a in legal if isinstance(a, Play)} >= {parse_tile("4-1"), parse_tile("5-2")}


def test_example_2_lead_6_4_scores_10() -> None:
    step = play(dealt(TWO, [["6-4"]]), "6-4")
    event = placed(step.events)
    assert (event.total, event.points) == (10, 10)
    assert step.state.scores == (10, 0)


def test_example_3_spinner_lead_sides_then_arms() -> None:
    state = dealt(TWO, [["5-5", "6-5", "5-3"], ["5-0", "5-4"]], start=0)
    totals = []
    for move in ["5-5", "5-0 E", "6-5 W", "5-4 N", "5-3 S"]:
        step = play(state, move)
        state = step.state
        event = placed(step.events)
        totals.append((event.total, event.points))
        if move == "6-5 W":
            assert [e.end.value for e in state.layout.open_ends()] == ["W", "E", "N", "S"]
            assert state.layout.ends[2:] == (5, 5)
    assert totals == [(10, 10), (10, 10), (6, 0), (10, 10), (13, 0)]
    assert state.scores == (10, 20)


def test_example_3_north_closed_until_both_sides_covered() -> None:
    state = dealt(TWO, [["5-5", "6-5"], ["5-0", "5-4"]], start=0)
    state = play(state, "5-5", "5-0 E").state
    with pytest.raises(IllegalActionError) as err:
        apply(state, parse_action("6-5 N"))
    assert err.value.rule == "spinner-sides-first"


def test_example_4_spinner_joined_to_line() -> None:
    state = dealt(TWO, [["5-4", "5-1"], ["5-5"]], start=0)
    step = play(state, "5-4", "5-5 E")
    event = placed(step.events)
    assert (event.total, event.points) == (14, 0)
    assert step.state.layout.spinner == parse_tile("5-5")
    assert step.state.layout.spinner_at == 1
    assert step.state.layout.ends[2:] == (-1, -1)  # north and south not open yet
    with pytest.raises(IllegalActionError):
        apply(step.state, parse_action("5-1 N"))
    step = play(step.state, "5-1 E")
    event = placed(step.events)
    assert (event.total, event.points) == (5, 5)
    assert step.state.layout.ends == (4, 1, 5, 5)  # north and south now open


def test_example_5_later_double_counts_both_halves() -> None:
    state = dealt(TWO, [["5-5", "6-5"], ["5-0", "6-6"]], start=0)
    state = play(state, "5-5", "5-0 E", "6-5 W").state
    step = play(state, "6-6 W")
    event = placed(step.events)
    assert step.state.layout.spinner == parse_tile("5-5")
    # west end is the 6-6 (12), east 0; north and south empty add nothing.
    assert event.total == 12


@pytest.mark.parametrize(
    ("pips", "lost"), [(7, 5), (8, 10), (12, 10), (13, 15), (0, 0), (2, 0), (3, 5)]
)
def test_example_6_rounding(pips: int, lost: int) -> None:
    assert round_pips(pips) == lost


def test_example_7_partnership_scores_and_penalties() -> None:
    rules = Rules(players=4, partnerships=True)
    state = dealt(
        rules,
        [
            ["5-0", "1-1"],
            ["6-6", "6-5", "6-4", "6-3", "6-2"],
            ["2-1"],
            ["6-1", "6-0", "5-5", "5-4", "5-3"],
        ],
        start=0,
    )
    step = play(state, "5-0")
    assert placed(step.events).points == 5
    assert step.state.scores == (5, 0)
    assert rules.team_of(0) == rules.team_of(2) == 0


def test_example_8_reaching_target_wins_at_once() -> None:
    state = dealt(TWO, [["6-4", "3-3"], ["1-0"]], start=0)
    state = state.model_copy(update={"scores": (245, 0)})
    state = type(state).model_validate(state.model_dump())
    step = play(state, "6-4")
    assert step.state.phase is Phase.OVER
    assert step.state.winner == 0
    assert step.state.scores == (255, 0)
    assert not any(isinstance(e, HandOver) for e in step.events)


def test_example_9_drawn_playable_tile_must_be_played() -> None:
    no_fives = ["6-6", "6-4", "6-3", "6-2", "6-1", "6-0", "4-4", "4-3", "4-2"]
    state = dealt(TWO, [["5-5"], no_fives], start=0, boneyard_first=["2-1", "5-3"])
    state = play(state, "5-5").state
    assert legal_actions(state) == (DRAW,)
    step = apply(state, DRAW)
    assert step.state.hands[1][-1] == parse_tile("2-1")
    assert step.state.must_play is None
    assert legal_actions(step.state) == (DRAW,)
    step = apply(step.state, DRAW)
    assert step.state.must_play == parse_tile("5-3")
    assert set(legal_actions(step.state)) == {parse_action("5-3 W"), parse_action("5-3 E")}
    with pytest.raises(IllegalActionError) as err:
        apply(step.state, parse_action("2-1 W"))
    assert err.value.rule == "play-drawn-tile"
    step = apply(step.state, parse_action("5-3 E"))
    assert parse_tile("2-1") in step.state.hands[1]
    assert parse_tile("5-3") not in step.state.hands[1]
