"""The history database: what a recorded game keeps, updates of one game, deletes, lists."""

from __future__ import annotations

import json
import random
import sqlite3
from datetime import timedelta
from pathlib import Path

from allfives_tui.store.facts import as_seen_by, game_facts, is_prefix
from allfives_tui.store.history import History, history_path
from allfives_tui.store.recorder import record_game
from allfives_tui.store.schema import SCHEMA_VERSION, compress, decompress
from engine import HandOver, Placed
from engine.record import LoadedGame, Seat
from tests.store.games import T0, play, random_game

SEATS = (Seat(name="Ana"), Seat(name="North", kind="computer", level="greedy"))


def test_a_finished_game_keeps_its_rules_seats_hands_scores_winner_and_record(
    data_dir: Path,
) -> None:
    record = play(SEATS, 7, target=100)
    assert record_game(record, now=T0 + timedelta(hours=1)).recorded
    with History() as history:
        assert history.version == SCHEMA_VERSION == 5
        (game,) = history.games()
        final = record.final_state()
        assert (game.game_id, game.players, game.target) == (record.game_id, 2, 100)
        assert game.finished and game.winner == final.winner
        assert game.scores == tuple(final.scores)
        assert game.started == T0
        assert [(s.name, s.kind, s.level) for s in game.seats] == [
            ("Ana", "person", None), ("North", "computer", "greedy")]
        assert history.load(record.game_id).record == record
        rows = history.conn.execute(
            "SELECT hand, seat, points, penalty FROM hands ORDER BY hand, seat").fetchall()
        mode = history.conn.execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
    # each hand's points and penalties, from the events of a fresh replay
    expected: dict[tuple[int, int], list[int]] = {}
    for step in record.steps():
        for e in step.events:
            if isinstance(e, Placed):
                expected.setdefault((step.hand, e.seat), [0, 0])[0] += e.points
            if isinstance(e, HandOver):
                for s, pen in enumerate(e.penalties):
                    expected.setdefault((step.hand, s), [0, 0])[1] = pen
    assert {(h, s): [p, pen] for h, s, p, pen in rows} == {
        k: v for k, v in expected.items() if k[0] <= len(record.hands)}
    assert len(rows) == 2 * len(record.hands)


def test_an_abandoned_game_has_no_winner_and_only_its_ended_hands(data_dir: Path) -> None:
    record = play(SEATS, 3, stop_after=40)
    loaded = LoadedGame(record, tuple(record.steps()))
    assert not loaded.state.is_terminal
    facts = game_facts(loaded)
    ended = sum(1 for st in loaded.steps for e in st.events if isinstance(e, HandOver))
    assert not facts.finished and facts.winner is None
    assert len(facts.hand_scores) == 2 * ended
    record_game(record)
    with History() as history:
        (game,) = history.games()
        assert not game.finished and game.winner is None
        won = history.conn.execute("SELECT won FROM seats").fetchall()
    assert won == [(None,), (None,)]


def test_one_game_recorded_twice_is_one_row_brought_up_to_date(data_dir: Path) -> None:
    whole = play(SEATS, 11)
    part = whole.truncated(whole.action_count // 2)
    with History() as history:
        assert history.record(part)
        assert history.record(whole)
        assert not history.record(part)  # never replaced by an earlier moment
        assert not history.record(whole)
        assert history.count() == 1
        assert history.load(whole.game_id).record == whole
        (game,) = history.games()
        assert game.finished
        # the seats and hands of the earlier moment went with it
        assert history.conn.execute("SELECT count(*) FROM seats").fetchone()[0] == 2


def test_games_newest_first_delete_and_find(data_dir: Path) -> None:
    rng = random.Random(5)
    records = [random_game(rng, i) for i in range(6)]
    with History() as history:
        for r in records:
            history.record(r)
        listed = [g.game_id for g in history.games()]
        assert listed == [r.game_id for r in reversed(records)]
        assert history.last_game_id() == records[-1].game_id
        assert history.find(records[2].game_id[:10]) == [records[2].game_id]
        assert history.delete(records[2].game_id)
        assert not history.delete(records[2].game_id)
        assert history.count() == 5
        assert history.conn.execute(
            "SELECT count(*) FROM seats s LEFT JOIN games g ON g.id = s.game "
            "WHERE g.id IS NULL").fetchone()[0] == 0
        assert [g.game_id for g in history.games(limit=2)] == listed[:2]


def test_the_stored_record_is_compact_and_replays(data_dir: Path) -> None:
    record = play(SEATS, 2)
    blob = compress(record)
    assert len(blob) < len(record.to_json()) / 3
    assert decompress(blob).record == record
    assert is_prefix(record.truncated(9), record)
    assert not is_prefix(record, record.truncated(9))
    other = play(SEATS, 3)
    assert not is_prefix(other.truncated(5), record)


def test_the_database_is_sqlite_in_the_data_folder(data_dir: Path) -> None:
    record_game(play(SEATS, 1))
    path = history_path()
    assert path.parent == data_dir and path.name == "history.sqlite"
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 5
        scores = conn.execute("SELECT scores FROM games").fetchone()[0]
    assert isinstance(json.loads(scores), list)


def test_a_networked_game_is_kept_as_its_guest_saw_it(data_dir: Path) -> None:
    hosts = play(
        (Seat(name="Hana"), Seat(name="Bob", kind="remote"),
         Seat(name="West", kind="computer", level="random")),
        seed=5,
    )
    bobs = as_seen_by(hosts, 1)
    assert [(s.name, s.kind, s.level) for s in bobs.seats] == [
        ("Hana", "remote", None), ("Bob", "person", None), ("West", "computer", "random")
    ]
    assert bobs.hands == hosts.hands and bobs.game_id == hosts.game_id
    with History() as history:
        assert history.record(bobs)
        (game,) = history.player_games("Bob")
        assert game.opponents == ("remote", "random")
        assert history.player_games("Hana") == []
