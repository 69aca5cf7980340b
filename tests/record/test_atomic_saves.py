"""Every save replaces its file in one step: a new file renamed over the old one.

A save that wrote onto the file in place (opened for writing, truncated,
written), even one that kept the file's mode, would let a reader that holds
the old file see it emptied and rewritten, and a kill half-way leave half a
record. Each way the app saves (the engine's ``save``, the autosave, a
``ctrl+s`` copy, the settings) is checked on a real file: the path names a
new file afterwards (another inode), the reader that opened the old one still
reads the old bytes whole, the mode is kept and no temporary is left.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from allfives_tui.store.folder import ENV_DATA_DIR, SETTINGS
from allfives_tui.store.saves import AutoSaver, save_copy
from allfives_tui.store.settings_file import load_settings, save_settings
from allfives_tui.table.settings import Settings
from engine.record import GameRecord, load, save
from tests.records import game_record


def _autosave(record: GameRecord, path: Path) -> None:
    saver = AutoSaver(path)
    try:
        saver.submit(record)
    finally:
        saver.close()
    assert saver.error is None


def _save_copy(record: GameRecord, path: Path) -> None:
    save_copy(record, str(path))


SAVES: dict[str, Callable[[GameRecord, Path], object]] = {
    "engine-save": save,
    "autosave": _autosave,
    "save-a-copy": _save_copy,
}


@pytest.mark.parametrize("how", list(SAVES))
def test_a_save_replaces_the_file_and_a_reader_keeps_the_old_one_whole(
    tmp_path: Path, how: str
) -> None:
    path = tmp_path / "game.json"
    first, second = game_record(seed=1), game_record(players=3, seed=2)
    SAVES[how](first, path)
    os.chmod(path, 0o640)  # not the mode a new file gets: kept by the save
    old = path.read_bytes()
    before = path.stat()
    with path.open("rb") as reader:  # opened before the save, read after it
        SAVES[how](second, path)
        assert reader.read() == old
    after = path.stat()
    assert (after.st_dev, after.st_ino) != (before.st_dev, before.st_ino)
    assert after.st_mode & 0o777 == 0o640
    assert load(path) == second
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]  # no temporary


def test_remembering_the_settings_replaces_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_DATA_DIR, str(tmp_path))
    save_settings(Settings(name="Ana"))
    path = tmp_path / SETTINGS
    old = path.read_bytes()
    before = path.stat()
    with path.open("rb") as reader:
        save_settings(Settings(name="Bo", players=3))
        assert reader.read() == old
    assert path.stat().st_ino != before.st_ino
    assert load_settings() == Settings(name="Bo", players=3)
