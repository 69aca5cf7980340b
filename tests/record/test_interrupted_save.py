"""A save interrupted in the middle of writing leaves the old file whole (no mocks).

A child process saves a long game over an existing short one under
``RLIMIT_FSIZE`` (the largest file it may write), smaller than the new
record: the write fails part-way, as on a full disk or a quota. A save that
wrote straight onto the file (no temporary file and rename) would leave a
truncated, unloadable record behind; :func:`engine.record.save` must leave
the old record loadable, byte for byte, and no temporary file.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from engine.record import load, save
from tests.records import SMALL_RECORD, game_record

resource = pytest.importorskip("resource")

ROOT = Path(__file__).resolve().parents[2]

_SAVE_IN_CHILD = textwrap.dedent(
    """
    import resource, signal, sys
    from engine.record import save
    from tests.records import game_record

    record = game_record(players=3, seed=5)  # built before the limit: tens of kilobytes
    limit = int(sys.argv[2])
    assert len(record.to_json()) > limit + 4096
    if sys.argv[3] == "signal":  # the kernel kills the process at the limit
        signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    try:
        save(record, sys.argv[1])
    except OSError as err:  # EFBIG: "File too large"
        print(err.errno)
        sys.exit(3)
    sys.exit(0)
    """
)


def _save_in_child(path: Path, limit: int, how: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [sys.executable, "-c", _SAVE_IN_CHILD, str(path), str(limit), how],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture
def old_save(tmp_path: Path) -> Path:
    path = tmp_path / "current.json"
    path.write_text(SMALL_RECORD)
    return path


def test_a_save_that_fails_part_way_keeps_the_old_file_and_no_temporary(old_save: Path) -> None:
    before = old_save.read_bytes()
    limit = len(before) + 512  # room for the old file, not for the new record
    done = _save_in_child(old_save, limit, "error")
    assert done.returncode == 3, done.stderr
    assert done.stdout.strip() == "27"  # EFBIG
    assert old_save.read_bytes() == before
    assert load(old_save).hands == load(old_save).hands  # still loads
    assert os.listdir(old_save.parent) == ["current.json"]


def test_a_save_killed_part_way_keeps_the_old_file(old_save: Path) -> None:
    """Killed by SIGXFSZ mid-write: the old file is whole; only a temporary may remain."""
    before = old_save.read_bytes()
    done = _save_in_child(old_save, len(before) + 512, "signal")
    assert done.returncode < 0, (done.returncode, done.stderr)  # killed by the signal
    assert old_save.read_bytes() == before
    load(old_save)
    left = sorted(os.listdir(old_save.parent))
    assert "current.json" in left
    assert all(n == "current.json" or n.startswith(".current.json.") for n in left), left


def test_the_same_save_without_the_limit_succeeds(old_save: Path) -> None:
    record = game_record(players=3, seed=5)
    save(record, old_save)
    assert load(old_save) == record
    assert os.listdir(old_save.parent) == ["current.json"]
