"""The schema: a version 1 and a version 2 database (the fixtures, each made by its
schema's code and never regenerated) are upgraded to the current version (4: a partnership
seat's figures are its side's), read and take new games; later steps apply forward in order; a
failing step leaves the old version whole; a database from a newer allfives is refused
without harm."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from allfives_tui.store.history import History, NewerHistoryError
from allfives_tui.store.recorder import record_game
from allfives_tui.store.schema import MIGRATIONS, SCHEMA_VERSION
from allfives_tui.store.stats import query
from engine.record import Seat
from tests.store.games import play
from tests.store.oracle import compute

FIXTURE = Path(__file__).parent / "data" / "history-v1.sqlite"
FIXTURE_V2 = Path(__file__).parent / "data" / "history-v2.sqlite"
SEATS = (Seat(name="You"), Seat(name="North", kind="computer", level="random"))


def _copy(fixture: Path, folder: Path) -> Path:
    """A fixture copied into ``folder`` as its history, for a test to upgrade."""
    path = folder / "history.sqlite"
    path.parent.mkdir()
    shutil.copy(fixture, path)
    return path


@pytest.fixture
def v1(tmp_path: Path) -> Path:
    return _copy(FIXTURE, tmp_path / "old")


def test_the_fixture_is_schema_1() -> None:
    conn = sqlite3.connect(f"{FIXTURE.as_uri()}?mode=ro", uri=True)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 8
    conn.close()


def test_a_v1_history_opens_at_the_current_version_with_every_game(v1: Path) -> None:
    old = sqlite3.connect(v1)
    blobs = dict(old.execute("SELECT game_id, record FROM games").fetchall())
    old.close()
    with History(v1) as history:
        assert history.version == SCHEMA_VERSION == 5
        columns = [r[1] for r in history.conn.execute("PRAGMA table_info(games)")]
        assert "record" not in columns  # version 2: the records have a table of their own
        moved = dict(history.conn.execute(
            "SELECT g.game_id, r.record FROM records r JOIN games g ON g.id = r.game"))
        assert moved == blobs
        games = history.games()
        assert len(games) == 8
        for game in games:  # every stored record still replays
            loaded = history.load(game.game_id)
            assert loaded.state.is_terminal == game.finished
            assert tuple(loaded.state.scores) == game.scores
        # version 5: the first person's old default name, "You", is the place's code
        assert history.player_games("You") == []
        stats = compute(history.player_games("south"), "south")
        assert stats.games == 8 and stats.abandoned == 3
        assert history.record(play(SEATS, 4))
        assert history.count() == 9


@pytest.fixture
def v2(tmp_path: Path) -> Path:
    return _copy(FIXTURE_V2, tmp_path / "old2")


def _indexes(conn: sqlite3.Connection) -> set[str]:
    rows = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'seats'"
    )
    return {r[0] for r in rows if not r[0].startswith("sqlite_")}


def test_the_v2_fixture_is_schema_2_with_the_old_index() -> None:
    conn = sqlite3.connect(f"{FIXTURE_V2.as_uri()}?mode=ro", uri=True)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 2
    assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 10
    assert _indexes(conn) == {"seats_person"}
    conn.close()


def test_a_v2_history_takes_the_statistics_index_and_its_figures_stay(v2: Path) -> None:
    with History(v2, migrations=MIGRATIONS[:2]) as old:
        before = query(old, "You")
        reference = compute(old.player_games("You"), "You")
    with History(v2, migrations=MIGRATIONS[:3]) as history:
        assert history.version == 3
        assert _indexes(history.conn) == {"seats_person_stats"}
        plan = " ".join(
            str(row[3]) for row in history.conn.execute(
                "EXPLAIN QUERY PLAN SELECT s.opponents, count(*) FROM seats s "
                "JOIN games g ON g.id = s.game WHERE s.name = ? AND s.kind = 'person' "
                "GROUP BY s.opponents, s.partner", ("You",))
        )
        assert "COVERING INDEX seats_person_stats" in plan and "TEMP B-TREE" not in plan
        after = query(history, "You")
        assert after == before == reference
        assert after.games == 10
        assert history.record(play(SEATS, 5))
        assert query(history, "You").games == 11


def _later(conn: sqlite3.Connection) -> None:
    conn.execute("ALTER TABLE games ADD COLUMN note TEXT NOT NULL DEFAULT ''")
    conn.execute("UPDATE games SET note = 'from v1'")


def test_a_later_step_upgrades_the_v1_fixture_in_place_keeping_every_game(v1: Path) -> None:
    before = sqlite3.connect(v1).execute("SELECT game_id, record FROM games").fetchall()
    with History(v1, migrations=(*MIGRATIONS, _later)) as history:
        assert history.version == SCHEMA_VERSION + 1
        rows = history.conn.execute(
            "SELECT g.game_id, r.record, g.note FROM games g JOIN records r ON r.game = g.id"
        ).fetchall()
    assert [(g, r) for g, r, _ in rows] == before
    assert {n for *_, n in rows} == {"from v1"}
    # opened again: nothing applied twice
    with History(v1, migrations=(*MIGRATIONS, _later)) as history:
        assert history.version == SCHEMA_VERSION + 1


def test_a_failing_step_leaves_the_old_version_whole(v1: Path) -> None:
    def broken(conn: sqlite3.Connection) -> None:
        conn.execute("ALTER TABLE games ADD COLUMN half TEXT")
        conn.execute("SELECT * FROM no_such_table")

    with pytest.raises(Exception, match="no_such_table"):
        History(v1, migrations=(*MIGRATIONS, broken))
    conn = sqlite3.connect(v1)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION  # up to now
    columns = [r[1] for r in conn.execute("PRAGMA table_info(games)")]
    assert "half" not in columns
    conn.close()


def test_a_newer_history_is_refused_and_the_game_kept_as_a_file(v1: Path) -> None:
    with History(v1, migrations=(*MIGRATIONS, _later)):
        pass
    with pytest.raises(NewerHistoryError, match="newer allfives"):
        History(v1)
    record = play(SEATS, 9)
    outcome = record_game(record, path=v1)
    assert not outcome.recorded and outcome.kept is not None
    assert outcome.kept.read_text() == record.to_json()
    assert outcome.line is not None and "newer allfives" in outcome.line
    assert "\n" not in outcome.line
    assert sqlite3.connect(v1).execute("SELECT count(*) FROM games").fetchone()[0] == 8


def test_version_5_keeps_a_default_name_as_its_places_code(tmp_path: Path) -> None:
    """The names older allfives gave by default become their place's code, in the seats
    the statistics read; a name given stays, and so does a place's name at another place."""
    path = tmp_path / "history.sqlite"
    three = (
        Seat(name="You"),
        Seat(name="North", kind="computer", level="random"),  # a name: north is not west
        Seat(name="East", kind="computer", level="random"),
    )
    with History(path, migrations=MIGRATIONS[:4]) as old:
        assert old.version == 4
        assert old.record(play(SEATS, 1))
        assert old.record(play((Seat(name="Ana"), *SEATS[1:]), 2))
        assert old.record(play(three, 3))
    with History(path) as history:
        assert history.version == 5
        rows = history.conn.execute(
            "SELECT g.players, s.seat, s.name FROM seats s JOIN games g ON g.id = s.game "
            "ORDER BY g.id, s.seat"
        ).fetchall()
        assert rows == [
            (2, 0, "south"), (2, 1, "north"),
            (2, 0, "Ana"), (2, 1, "north"),
            (3, 0, "south"), (3, 1, "North"), (3, 2, "east"),
        ]
        assert history.people() == ["south", "Ana"]
        assert len(history.player_games("south")) == 2
        # a game recorded now keeps a seat's default name as its place's code too
        assert history.record(play((Seat(), Seat(kind="computer", level="greedy")), 4))
        assert len(history.player_games("south")) == 3
