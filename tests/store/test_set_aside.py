"""One set-aside of a damaged file: the history database and the saved game alike."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from allfives_tui.store.folder import current_path, set_aside
from allfives_tui.store.history import History, history_path
from allfives_tui.store.saves import set_aside_damaged_current

NOW = datetime(2026, 3, 1, 12, 30, 5)


def test_a_file_is_renamed_beside_itself_under_a_free_name(tmp_path: Path) -> None:
    first = tmp_path / "current.json"
    first.write_text("damaged")
    assert set_aside(first, NOW) == tmp_path / "current.damaged-20260301-123005.json"
    first.write_text("damaged again")
    assert set_aside(first, NOW) == tmp_path / "current.damaged-20260301-123005-2.json"
    assert not first.exists()
    assert sorted(p.read_text() for p in tmp_path.iterdir()) == ["damaged", "damaged again"]


def test_the_files_beside_a_database_go_with_it(tmp_path: Path) -> None:
    db = tmp_path / "history.sqlite"
    for name, text in (("", "db"), ("-wal", "wal"), ("-shm", "shm")):
        Path(f"{db}{name}").write_text(text)
    aside = set_aside(db, NOW)
    assert aside == tmp_path / "history.damaged-20260301-123005.sqlite"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        aside.name, f"{aside.name}-shm", f"{aside.name}-wal",
    ]
    assert Path(f"{aside}-wal").read_text() == "wal"


def test_a_file_that_cannot_be_renamed_raises(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        set_aside(tmp_path / "nothing.json", NOW)


def test_the_saved_game_and_the_history_are_set_aside_the_same_way(data_dir: Path) -> None:
    data_dir.mkdir()
    current_path().write_text("{ not json")
    history_path().write_bytes(b"not a database at all" * 100)
    notice = set_aside_damaged_current()
    assert notice is not None and "set aside as" in notice
    with History() as history:
        assert history.notice is not None and "set aside as" in history.notice
    names = sorted(p.name for p in data_dir.iterdir() if ".damaged-" in p.name)
    assert [n.split(".damaged-")[0] for n in names] == ["current", "history"]
    assert [n.rsplit(".", 1)[1] for n in names] == ["json", "sqlite"]
