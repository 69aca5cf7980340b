"""A history that cannot be written never loses a game: damaged, locked, read-only,
a folder in its place, a newer schema (tests/store/test_migrations.py)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from allfives_tui.store.history import History, history_path
from allfives_tui.store.recorder import HistoryWriter, record_game
from engine.record import Seat, load
from tests.store.games import play

SEATS = (Seat(name="You"), Seat(name="North", kind="computer", level="greedy"))
ROOT = Path(__file__).resolve().parents[2]


def test_a_damaged_history_is_set_aside_with_its_wal_and_shm_and_a_new_one_starts(
    data_dir: Path,
) -> None:
    data_dir.mkdir()
    db = history_path()
    db.write_bytes(b"this is no database" * 100)
    Path(f"{db}-wal").write_bytes(b"wal junk")
    Path(f"{db}-shm").write_bytes(b"shm junk")
    record = play(SEATS, 3)
    outcome = record_game(record)
    assert outcome.recorded
    assert outcome.line is not None and "set aside as" in outcome.line
    aside = sorted(p.name for p in data_dir.iterdir() if ".damaged-" in p.name)
    assert len(aside) == 3
    base = aside[0]
    assert base.startswith("history.damaged-") and base.endswith(".sqlite")
    assert aside == [base, f"{base}-shm", f"{base}-wal"]
    assert (data_dir / base).read_bytes().startswith(b"this is no database")
    with History() as history:
        assert [g.game_id for g in history.games()] == [record.game_id]


def test_a_locked_history_keeps_the_game_as_a_file_then_adds_it_later(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("allfives_tui.store.history.BUSY_MS", 200)
    first = play(SEATS, 1)
    record_game(first)
    holder = sqlite3.connect(history_path(), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    second = play(SEATS, 2)
    start = time.monotonic()
    outcome = record_game(second)
    assert time.monotonic() - start < 5
    assert not outcome.recorded and outcome.kept is not None
    assert outcome.line == (
        f"The game could not be added to the history (database is locked); it is kept in "
        f"{outcome.kept} (allfives history import adds it)."
    )
    assert load(outcome.kept) == second
    holder.execute("ROLLBACK")
    holder.close()
    third = play(SEATS, 3)
    assert record_game(third).recorded
    assert not outcome.kept.exists()  # added with the next game
    with History() as history:
        assert {g.game_id for g in history.games()} == {
            first.game_id, second.game_id, third.game_id}


def test_a_folder_in_the_database_s_place_keeps_the_game_as_a_file(data_dir: Path) -> None:
    history_path().mkdir(parents=True)
    record = play(SEATS, 4)
    outcome = record_game(record)
    assert not outcome.recorded and outcome.kept is not None
    assert load(outcome.kept) == record


def test_nowhere_to_keep_it_says_so_in_one_line(data_dir: Path) -> None:
    data_dir.write_text("a file where the data folder should be")
    outcome = record_game(play(SEATS, 4))
    assert not outcome.recorded and outcome.kept is None
    assert outcome.line is not None and "nor kept as a file" in outcome.line
    assert "\n" not in outcome.line


def _read_only(path: Path) -> None:
    """Make ``path`` read-only even for root (who writes any mode): immutable, via chattr."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        return
    done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"running as root and chattr +i fails: {done.stderr.decode().strip()}")


def test_a_read_only_history_keeps_the_game_as_a_file(data_dir: Path) -> None:
    record_game(play(SEATS, 1))
    with History() as history:
        history.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db = history_path()
    _read_only(db)
    try:
        second = play(SEATS, 2)
        outcome = record_game(second)
        assert not outcome.recorded and outcome.kept is not None and outcome.line is not None
        assert "readonly database" in outcome.line, outcome.line
        assert load(outcome.kept) == second
        with sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True) as conn:
            assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 1
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(db)], check=False)
        db.chmod(0o644)


def test_the_writer_records_off_the_calling_thread_in_order_and_reports_lines(
    data_dir: Path,
) -> None:
    lines: list[str] = []
    writer = HistoryWriter(report=lines.append)
    records = [play(SEATS, s) for s in range(4)]
    for r in records:
        writer.submit(r)
    writer.submit_bytes(b"not json")  # nothing to record, nothing said
    writer.close()
    assert lines == []
    with History() as history:
        assert history.count() == 4
    data_dir.joinpath("history.sqlite").unlink()
    data_dir.joinpath("history.sqlite").mkdir()
    writer = HistoryWriter(report=lines.append)
    writer.submit(play(SEATS, 9))
    writer.close()
    assert len(lines) == 1 and "kept in" in lines[0]


def test_a_history_removed_while_allfives_runs_is_started_again_with_the_next_game(
    data_dir: Path,
) -> None:
    lines: list[str] = []
    writer = HistoryWriter(report=lines.append)
    first, second, third = (play(SEATS, s) for s in (21, 22, 23))
    writer.submit(first)
    writer.flush()
    files = sorted(data_dir.glob("history.sqlite*"))
    assert files and lines == []
    for file in files:  # rm history.sqlite*, with the database open
        file.unlink()
    writer.submit(second)
    writer.flush()
    writer.submit(third)
    writer.close()
    assert lines == [
        f"The game history {history_path()} was removed while allfives ran: "
        "a new history starts with this game."
    ]
    with History() as history:
        assert {g.game_id for g in history.games()} == {second.game_id, third.game_id}


def test_a_recorder_keeps_the_game_on_any_failure_and_says_so_in_one_line(
    data_dir: Path,
) -> None:
    record = play(SEATS, 31)
    broken = record.model_copy(update={"seats": record.seats[:1]})  # no seat row for seat 1
    lines: list[str] = []
    writer = HistoryWriter(report=lines.append)
    writer.submit(broken)
    writer.close()
    kept = data_dir / "unrecorded" / f"{record.game_id}.json"
    assert lines == [
        "The game could not be added to the history (unexpected IndexError: tuple index out "
        f"of range); it is kept in {kept} (allfives history import adds it)."
    ]
    assert kept.read_text() == broken.to_json()
    with History() as history:
        assert history.count() == 0  # nothing half-written


@pytest.mark.parametrize("seed", [2**63, 1180591620717411303424, -1])
def test_a_seed_the_history_cannot_hold_keeps_the_game_as_a_file(
    data_dir: Path, seed: int
) -> None:
    record = play(SEATS, 32).model_copy(update={"seed": seed})
    lines: list[str] = []
    writer = HistoryWriter(report=lines.append)
    writer.submit(record)
    writer.submit(play(SEATS, 33))  # the next game is recorded; the kept one waits
    writer.close()
    kept = data_dir / "unrecorded" / f"{record.game_id}.json"
    assert len(lines) == 1 and "\n" not in lines[0]
    assert lines[0].startswith(f"The game could not be added to the history (the seed {seed} ")
    assert lines[0].endswith(f"it is kept in {kept} (allfives history import adds it).")
    assert kept.exists()
    with History() as history:
        assert history.count() == 1
