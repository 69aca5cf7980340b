"""The one background writer: jobs in order on one thread, flush, close, failures told."""

from __future__ import annotations

import threading
from functools import partial
from pathlib import Path

import pytest

from allfives_tui.store.saves import AutoSaver
from allfives_tui.store.writer import BackgroundWriter
from engine.files import atomic_write
from engine.record import Seat, load_game
from tests.store.games import play

SEATS = (Seat(name="You"), Seat(name="North", kind="computer", level="greedy"))


def test_jobs_run_in_the_order_queued_on_one_named_thread(tmp_path: Path) -> None:
    writer = BackgroundWriter("allfives-test")
    gate = threading.Event()
    done: list[tuple[int, str]] = []
    writer.submit(gate.wait)

    def job(i: int) -> int:
        done.append((i, threading.current_thread().name))
        return i

    futures = [writer.submit(partial(job, i)) for i in range(20)]
    assert writer.pending and done == []
    gate.set()
    writer.flush()
    assert not writer.pending
    assert [f.result() for f in futures] == list(range(20))
    assert [i for i, _ in done] == list(range(20))
    assert {name.split("_")[0] for _, name in done} == {"allfives-test"}
    writer.close()


def test_a_failing_job_is_reported_and_the_next_jobs_still_run(tmp_path: Path) -> None:
    told: list[BaseException] = []
    writer = BackgroundWriter("allfives-test", on_error=told.append)

    def fail() -> None:
        raise OSError(28, "No space left on device")

    bad = writer.submit(fail)
    good = writer.submit(lambda: atomic_write(tmp_path / "after.txt", "kept"))
    writer.flush()  # a failure is not raised here
    assert isinstance(bad.exception(), OSError)
    assert [type(e) for e in told] == [OSError]
    assert good.result() == tmp_path / "after.txt"
    assert (tmp_path / "after.txt").read_text() == "kept"
    writer.close()


def test_close_finishes_every_queued_write_then_the_last_job(tmp_path: Path) -> None:
    writer = BackgroundWriter("allfives-test")
    gate = threading.Event()
    order: list[str] = []
    writer.submit(gate.wait)
    for i in range(10):
        writer.submit(partial(atomic_write, tmp_path / f"{i}.txt", str(i)))
    writer.submit(lambda: order.append("writes"))
    gate.set()
    writer.close(lambda: order.append("last"))
    assert order == ["writes", "last"]
    assert sorted(p.name for p in tmp_path.glob("*.txt")) == sorted(f"{i}.txt" for i in range(10))
    with pytest.raises(RuntimeError):
        writer.submit(lambda: None)  # the thread is stopped


def test_the_autosaver_writes_through_it_and_keeps_the_last_record(tmp_path: Path) -> None:
    path = tmp_path / "current.json"
    saver = AutoSaver(path)
    records = [play(SEATS, seed=1, stop_after=m) for m in (3, 6, 9)]
    for record in records:
        saver.submit(record)
    saver.close()
    assert saver.error is None
    assert load_game(path).record == records[-1]
    assert list(tmp_path.glob(".*.tmp")) == []


def test_the_autosaver_says_when_a_save_fails(tmp_path: Path) -> None:
    (tmp_path / "a file").write_text("not a folder")
    saver = AutoSaver(tmp_path / "a file" / "current.json")
    saver.submit(play(SEATS, seed=2, stop_after=3))
    saver.close()
    assert saver.error is not None and "could not autosave" in saver.error
