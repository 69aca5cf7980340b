"""Game records: round trip, atomic writes, and one clear RecordError per problem."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TypedDict

import pytest

from engine import RecordError, Rules, apply, legal_actions, new_game, seeded_deal
from engine.record import MAX_BYTES, GameRecord, Seat, load, parse_record, save
from engine.rng import Rng
from engine.state import GameState

SEATS = [Seat(name="Ada"), Seat(name="Bot", kind="computer", level="greedy")]


def played(actions: int, seed: int = 3, rules: Rules | None = None) -> GameState:
    rng = Rng(seed)
    state = new_game(rules or Rules(players=2))
    for _ in range(actions):
        if state.is_terminal:
            break
        if state.is_chance:
            state = apply(state, seeded_deal(state, seed)).state
        else:
            legal = legal_actions(state)
            state = apply(state, legal[rng.below(len(legal))]).state
    return state


class RawDeal(TypedDict):
    """A record's deal as its JSON holds it."""

    hands: list[list[str]]
    boneyard: list[str]


class RawHand(TypedDict):
    """A record's hand as its JSON holds it."""

    deal: RawDeal
    actions: list[str]


class RawRecord(TypedDict):
    """The parts of a record's JSON the tests below change; ``version`` may be
    set to anything, as a hostile file would."""

    version: object
    seats: list[dict[str, object]]
    hands: list[RawHand]


def record_dict(actions: int = 60) -> RawRecord:
    data: RawRecord = json.loads(
        GameRecord.from_state(played(actions), SEATS, seed=3).to_json()
    )
    return data


def test_round_trip_of_an_unfinished_game(tmp_path: Path) -> None:
    state = played(60)
    assert not state.is_terminal
    path = save(GameRecord.from_state(state, SEATS, seed=3), tmp_path / "game.json")
    loaded = load(path)
    assert loaded.final_state() == state
    data = json.loads(path.read_text())
    assert data["format"] == "allfives-record" and data["version"] == 3
    assert data["hands"][0]["actions"][0].count("-") == 1  # moves in notation


def test_save_is_atomic_and_leaves_no_temporary_files(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("the user's old file")
    record = GameRecord.from_state(played(30), SEATS)
    save(record, path)
    assert load(path) == record
    assert sorted(os.listdir(tmp_path)) == ["game.json"]


def test_save_gives_ordinary_file_modes(tmp_path: Path) -> None:
    record = GameRecord.from_state(played(10), SEATS)
    fresh = save(record, tmp_path / "new.json")
    mask = os.umask(0)
    os.umask(mask)
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~mask
    kept = tmp_path / "kept.json"
    kept.write_text("old")
    kept.chmod(0o640)
    save(record, kept)
    assert kept.stat().st_mode & 0o777 == 0o640


def test_failed_save_keeps_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("precious")
    record = GameRecord.from_state(played(30), SEATS)
    bad = record.model_copy(update={"seed": object()})  # cannot be serialised
    with pytest.raises(Exception):  # noqa: B017 - any failure must keep the file
        save(bad, path)
    assert path.read_text() == "precious"
    assert sorted(os.listdir(tmp_path)) == ["game.json"]


def error_for(text: str | bytes) -> RecordError:
    with pytest.raises(RecordError) as err:
        parse_record(text)
    assert isinstance(err.value, ValueError)
    return err.value


def test_not_json_and_not_a_record() -> None:
    assert "not valid JSON" in str(error_for("{nope"))
    assert "not an object" in str(error_for("[1, 2]"))
    assert "format" in str(error_for('{"format": "pgn", "version": 1}'))


def test_future_and_bad_versions() -> None:
    data = record_dict()
    data["version"] = 4
    message = str(error_for(json.dumps(data)))
    assert message == (
        "the record is version 4, newer than this allfives reads (3): upgrade allfives"
    )
    data["version"] = "one"
    assert "not a number" in str(error_for(json.dumps(data)))


def test_unknown_tile_and_tile_dealt_twice() -> None:
    data = record_dict()
    hand0 = data["hands"][0]
    hand0["deal"]["hands"][0][0] = "7-1"
    assert "hands.0.deal.hands.0.0" in str(error_for(json.dumps(data)))
    data = record_dict()
    hand0 = data["hands"][0]
    hand0["deal"]["boneyard"][0] = hand0["deal"]["hands"][0][0]
    err = error_for(json.dumps(data))
    assert err.hand == 1 and "dealt twice" in str(err)


def test_wrong_hand_size() -> None:
    data = record_dict()
    hand0 = data["hands"][0]
    hand0["deal"]["boneyard"].append(hand0["deal"]["hands"][0].pop())
    err = error_for(json.dumps(data))
    assert "not 9" in str(err) and err.hand == 1


def test_illegal_action_names_hand_and_move() -> None:
    data = record_dict()
    hand0 = data["hands"][0]
    hand0["actions"][2] = "pass"
    err = error_for(json.dumps(data))
    assert (err.hand, err.move) == (1, 3)
    assert str(err).startswith("hand 1, move 3: illegal action 'pass'")
    assert err.good_actions == 3  # the deal and two moves replay soundly


def test_actions_after_the_end() -> None:
    state = played(10_000)
    assert state.is_terminal
    data = json.loads(GameRecord.from_state(state, SEATS).to_json())
    data["hands"][-1]["actions"].append("draw")
    err = error_for(json.dumps(data))
    assert "after the game is over" in str(err)


def test_size_cap_and_missing_files(tmp_path: Path) -> None:
    assert "size cap" in str(error_for(b" " * (MAX_BYTES + 1)))
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (MAX_BYTES + 1))
    with pytest.raises(RecordError, match="size cap"):
        load(big)
    with pytest.raises(RecordError, match="no such file"):
        load(tmp_path / "missing.json")
    with pytest.raises(RecordError, match="is a folder"):
        load(tmp_path)


def test_seat_count_must_match_rules() -> None:
    data = record_dict()
    data["seats"] = [{"name": "Solo"}]
    assert "1 seat for 2 players" in str(error_for(json.dumps(data)))


def test_seat_names_may_not_hold_control_characters() -> None:
    data = record_dict()
    data["seats"][0]["name"] = "Ada\x1b[2J"
    err = error_for(json.dumps(data))
    assert "seats.0.name" in str(err)


def test_truncated_record_replays_up_to_the_cut() -> None:
    record = GameRecord.from_state(played(80), SEATS)
    states = [s for _, _, s, _ in record.steps()]
    for n in (1, 5, 40):
        assert record.truncated(n).final_state() == states[n - 1]
