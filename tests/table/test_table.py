"""The table: whose turn, what they see, acting, dealing, autosave and resuming."""

from __future__ import annotations

import pytest

from allfives_tui.table.settings import Settings
from allfives_tui.table.table import NotYourTurnError, Table, Turn
from engine import Draw, GameOver, HandOver, IllegalActionError, Phase, Play, Rules, SeatView
from engine.record import GameRecord, Seat
from tests.games import computer_choice, play_out


def test_a_new_table_is_dealt_and_says_who_acts_with_which_view() -> None:
    table = Table.from_settings(Settings(players=3, seed=5, levels=["greedy"] * 3, name="Ana"))
    assert table.names == ("Ana", "West", "East")
    assert table.people == (0,)
    assert [table.kind(s) for s in range(3)] == ["person", "computer", "computer"]
    turn = table.turn()
    assert isinstance(turn, Turn)
    assert turn.seat == table.to_act == table.state.current
    assert isinstance(turn.view, SeatView) and turn.view.seat == turn.seat
    assert turn.legal == table.state.legal_actions()
    # a view holds its own hand only
    assert turn.view.hand == table.state.hands[turn.seat]


def test_act_applies_for_the_seat_to_act_and_refuses_anyone_else() -> None:
    table = Table.from_settings(Settings(seed=9, levels=["greedy"] * 3))
    turn = table.turn()
    assert turn is not None
    other = 1 - turn.seat
    with pytest.raises(NotYourTurnError, match="cannot act now"):
        table.act(other, turn.legal[0])
    with pytest.raises(IllegalActionError):
        table.act(turn.seat, Draw())  # a lead never draws
    before = table.state
    events = table.act(turn.seat, turn.legal[0])
    assert table.state is not before and events == table.last_events
    assert table.hand_events[-len(events):] == events
    assert issubclass(NotYourTurnError, ValueError)


def test_hands_end_the_table_deals_and_the_game_ends() -> None:
    table = Table.from_settings(Settings(seed=3, levels=["greedy"] * 3))
    with pytest.raises(IllegalActionError, match="no hand to deal"):
        table.deal()
    play_out(table, hands=1)
    assert table.state.phase is Phase.DEAL and table.turn() is None and table.to_act is None
    assert isinstance(table.hand_over, HandOver)
    table.deal()
    assert table.state.hand_number == 2 and table.hand_over is None
    assert len(table.hand_events) == len(table.last_events)  # a new hand's log starts afresh
    play_out(table)
    assert table.is_over and isinstance(table.game_over, GameOver)
    assert table.game_over.winner == table.state.winner


def test_every_change_reaches_the_autosave_hook_as_a_record() -> None:
    saved: list[GameRecord] = []
    table = Table.new(Rules(players=2, target=50), Settings().seats(), seed=4)
    table.autosave = saved.append
    turn = table.turn()
    assert turn is not None
    table.act(turn.seat, turn.legal[0])
    assert len(saved) == 1 and saved[0].final_state() == table.state
    play_out(table)
    assert saved[-1].final_state() == table.state
    assert len({r.game_id for r in saved}) == 1  # one game, one id


def test_a_table_resumes_exactly_from_its_record() -> None:
    table = Table.from_settings(Settings(players=4, partnerships=True, seed=21, name="Ana"))
    play_out(table, actions=len(table.state.actions) + 7)
    record = table.record()
    again = Table.from_record(GameRecord.model_validate_json(record.to_json()))
    assert again.state == table.state
    assert again.seats == table.seats and again.seed == table.seed
    assert again.game_id == table.game_id == record.game_id
    assert again.hand_events == table.hand_events
    # and both go on identically
    turn, turn2 = table.turn(), again.turn()
    assert turn is not None and turn2 is not None
    assert computer_choice(table, turn) == computer_choice(again, turn2)


def test_people_and_remote_seats_take_the_same_road() -> None:
    seats = (
        Seat(name="Ana", kind="person"),
        Seat(name="Ben", kind="remote"),
        Seat(name="Cy", kind="person"),
    )
    table = Table.new(Rules(players=3), seats, seed=8)
    assert table.people == (0, 2)
    assert [table.kind(s) for s in range(3)] == ["person", "remote", "person"]
    for _ in range(12):
        turn = table.turn()
        if turn is None:
            break
        # whoever sits there, a legal action from the seat's own view is accepted
        play = next((a for a in turn.legal if isinstance(a, Play)), turn.legal[0])
        table.act(turn.seat, play)
    assert len(table.state.history) >= 2


def test_seats_must_match_the_rules() -> None:
    with pytest.raises(ValueError, match="3 players need 3 seats"):
        Table.new(Rules(players=3), Settings().seats(), seed=1)
