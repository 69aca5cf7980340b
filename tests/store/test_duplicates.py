"""Imports skip duplicates: the same game id, or the same deals with actions that are a
prefix of a stored game's (an earlier save of a game under another id)."""

from __future__ import annotations

import json
from pathlib import Path

from allfives_tui.store.history import History, ImportResult
from engine.record import GameRecord, LoadedGame, Seat, parse_game
from tests.store.games import play

SEATS = (Seat(name="You"), Seat(name="North", kind="computer", level="greedy"))


def _loaded(record: GameRecord) -> LoadedGame:
    return parse_game(record.to_json())


def test_the_same_game_id_is_skipped(data_dir: Path) -> None:
    record = play(SEATS, 5)
    with History() as history:
        assert history.import_game(_loaded(record)).outcome == "added"
        assert history.import_game(_loaded(record)) == ImportResult("skipped", record.game_id)
        # an earlier moment of the same game, same id
        again = history.import_game(_loaded(record.truncated(10)))
        assert again == ImportResult("skipped", record.game_id)
        assert history.count() == 1


def test_an_earlier_save_under_another_id_is_skipped(data_dir: Path) -> None:
    record = play(SEATS, 6)
    earlier = record.truncated(record.action_count - 7).model_copy(update={"game_id": "x1"})
    with History() as history:
        history.record(record)
        assert history.import_game(_loaded(earlier)) == ImportResult("skipped", record.game_id)
        assert history.count() == 1


def test_a_later_save_of_a_stored_game_under_another_id_replaces_it(data_dir: Path) -> None:
    record = play(SEATS, 6)
    earlier = record.truncated(record.action_count - 7).model_copy(update={"game_id": "x1"})
    with History() as history:
        assert history.import_game(_loaded(earlier)).outcome == "added"
        assert history.import_game(_loaded(record)) == ImportResult("extended", record.game_id)
        assert [g.game_id for g in history.games()] == [record.game_id]
        assert history.load(record.game_id).record == record


def test_other_games_are_added_even_on_the_same_first_deal(data_dir: Path) -> None:
    record = play(SEATS, 7)
    other = play(SEATS, 8)
    # the same seed deals the same first hand; a random North then plays it otherwise
    rival = (SEATS[0], Seat(name="North", kind="computer", level="random"))
    diverged = play(rival, 7)
    assert diverged.hands[0].deal == record.hands[0].deal
    assert diverged.hands[0].actions != record.hands[0].actions
    with History() as history:
        history.record(record)
        assert history.import_game(_loaded(other)).outcome == "added"
        assert history.import_game(_loaded(diverged)).outcome == "added"
        assert history.count() == 3
        sources = sorted(r[0] for r in history.conn.execute("SELECT source FROM games"))
    assert sources == ["import", "import", "play"]


def test_an_old_version_1_current_json_imports_once(data_dir: Path) -> None:
    record = play(SEATS, 9)
    data = record.model_dump(mode="json")
    data.pop("game_id")
    data["version"] = 1
    data["seats"] = [{"name": "You", "kind": "human"},
                     {"name": "North", "kind": "computer", "level": "greedy"}]
    text = json.dumps(data)
    with History() as history:
        assert history.import_game(parse_game(text)).outcome == "added"
        assert history.import_game(parse_game(text)).outcome == "skipped"
        assert history.count() == 1
