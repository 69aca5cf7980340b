"""Take-backs: one person against computers may undo their last move of the hand."""

from __future__ import annotations

import pytest

from allfives_tui.table.settings import PERSON, Settings
from allfives_tui.table.table import Table, TakeBackError
from engine import Phase
from engine.notation import to_text
from engine.record import Seat, parse_game
from tests.games import play_out, to_act


def _solo(seed: int = 4, players: int = 3) -> Table:
    return Table.from_settings(
        Settings(players=players, seed=seed, levels=["greedy"] * 3, name="Ana")
    )


def _until_person(table: Table) -> None:
    """Computers play until it is the person's turn (dealing as needed)."""
    play_out(table, until=lambda t: to_act(t) == "person")


def _replies(table: Table) -> None:
    """The computers reply until it is the person's turn again (or the hand ends)."""
    play_out(table, until=lambda t: to_act(t) != "computer")


def test_taking_back_restores_the_table_exactly_and_counts() -> None:
    table = _solo()
    _until_person(table)
    assert not table.can_take_back(0)  # nothing of Ana's in this hand yet
    before = (table.state, table.last_events, table.hand_events)
    turn = table.turn()
    assert turn is not None
    table.act(0, turn.legal[-1])
    _replies(table)  # until it is Ana's turn again (or the hand ends)
    if table.state.phase is not Phase.PLAY:
        pytest.skip("the hand ended on the computers' replies at this seed")
    assert table.can_take_back(0)
    restored = table.take_back(0)
    assert restored is before[0] is table.state
    assert (table.last_events, table.hand_events) == before[1:]
    assert table.seats[0].take_backs == 1
    assert table.record().seats[0].take_backs == 1
    assert table.turn() is not None and table.turn() == turn
    assert not table.can_take_back(0)  # the one move of the hand is gone


def test_the_record_keeps_the_line_played_on_after_a_take_back() -> None:
    table = _solo(seed=11)
    _until_person(table)
    turn = table.turn()
    assert turn is not None and len(turn.legal) >= 2
    first, other = turn.legal[0], turn.legal[-1]
    table.act(0, first)
    table.take_back(0)
    table.act(0, other)
    record = table.record()
    assert record.hands[-1].actions[-1] == to_text(other)
    assert to_text(first) not in record.hands[-1].actions[-1:]
    loaded = parse_game(record.model_dump_json())
    assert loaded.record == record
    assert loaded.state == table.state
    assert loaded.record.seats[0].take_backs == 1


def test_several_replies_are_taken_back_with_the_move() -> None:
    table = _solo(seed=2, players=4)
    _until_person(table)
    marks = []
    for _ in range(2):
        _until_person(table)
        if table.state.phase is not Phase.PLAY:
            break
        marks.append(table.state)
        turn = table.turn()
        assert turn is not None
        table.act(0, turn.legal[0])
        _replies(table)
        if table.state.phase is not Phase.PLAY:
            break
    for mark in reversed(marks):
        if not table.can_take_back(0):
            break
        assert table.take_back(0) is mark
    assert table.seats[0].take_backs >= 1


def test_a_resumed_game_takes_back_as_the_live_one_does() -> None:
    live = _solo(seed=7)
    _until_person(live)
    turn = live.turn()
    assert turn is not None
    before = live.state
    live.act(0, turn.legal[0])
    _replies(live)
    if live.state.phase is not Phase.PLAY:
        pytest.skip("the hand ended on the computers' replies at this seed")
    resumed = Table.from_record(parse_game(live.record().model_dump_json()))
    assert resumed.can_take_back(0)
    assert resumed.take_back(0) == before == live.take_back(0)
    assert resumed.hand_events == live.hand_events
    assert resumed.record() == live.record()


def test_no_take_backs_with_other_people_or_between_hands() -> None:
    hot_seat = Table.from_settings(
        Settings(players=2, seed=3, levels=[PERSON, "greedy", "greedy"], name="Ana")
    )
    assert hot_seat.people == (0, 1) and not hot_seat.takes_back
    turn = hot_seat.turn()
    assert turn is not None
    hot_seat.act(turn.seat, turn.legal[0])
    with pytest.raises(TakeBackError, match="moves stand in a game with other people"):
        hot_seat.take_back(turn.seat)
    remote = Table.new(
        _solo().rules,
        [
            Seat(name="Ana"),
            Seat(name="Bob", kind="remote"),
            Seat(name="C", kind="computer", level="greedy"),
        ],
        seed=1,
    )
    assert not remote.takes_back
    solo = _solo(seed=5)
    with pytest.raises(TakeBackError, match="Ana has not moved in this hand"):
        solo.take_back(0)
    play_out(solo, hands=1)
    with pytest.raises(TakeBackError, match="the hand is over"):
        solo.take_back(0)
    assert issubclass(TakeBackError, ValueError)
