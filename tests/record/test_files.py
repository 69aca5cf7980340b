"""The one atomic write (engine.files): modes, clean failure, no temporary files left."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.files import atomic_write


def test_writes_new_files_and_creates_folders(tmp_path: Path) -> None:
    path = atomic_write(tmp_path / "a" / "b" / "notes.txt", "héllo\n")
    assert path == tmp_path / "a" / "b" / "notes.txt"
    assert path.read_text(encoding="utf-8") == "héllo\n"
    assert os.listdir(path.parent) == ["notes.txt"]


def test_replaces_a_file_and_leaves_no_temporary_files(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("old")
    atomic_write(str(path), "new")
    assert path.read_text() == "new"
    assert os.listdir(tmp_path) == ["notes.txt"]


def test_a_new_file_gets_the_umask_mode_and_a_replaced_one_keeps_its_mode(
    tmp_path: Path,
) -> None:
    mask = os.umask(0)
    os.umask(mask)
    fresh = atomic_write(tmp_path / "fresh.txt", "x")
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~mask
    kept = tmp_path / "kept.txt"
    kept.write_text("old")
    kept.chmod(0o640)
    atomic_write(kept, "new")
    assert kept.stat().st_mode & 0o777 == 0o640


def test_text_the_encoding_cannot_hold_keeps_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("precious")
    with pytest.raises(UnicodeEncodeError):
        atomic_write(path, "snowman \u2603", encoding="ascii")
    assert path.read_text() == "precious"
    assert os.listdir(tmp_path) == ["notes.txt"]


def test_a_failed_rename_keeps_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("precious")

    def refuse(src: object, dst: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("engine.files.os.replace", refuse)
    with pytest.raises(PermissionError):
        atomic_write(path, "new")
    assert path.read_text() == "precious"
    assert os.listdir(tmp_path) == ["notes.txt"]


def test_a_failed_fsync_keeps_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("precious")

    def no_space(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("engine.files.os.fsync", no_space)
    with pytest.raises(OSError, match="No space"):
        atomic_write(path, "new")
    assert path.read_text() == "precious"
    assert os.listdir(tmp_path) == ["notes.txt"]
