"""``allfives sim``: its worker processes end when it is killed (``kill -9``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.waiting import block_until

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="reads the process table from /proc"
)


def _ppid_and_state(pid: int) -> tuple[int, str] | None:
    """The parent pid and state letter of process ``pid``, or None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = text[text.rindex(")") + 2 :].split()  # after "pid (command) "
    return int(fields[1]), fields[0]


def _children(pid: int) -> set[int]:
    """The live processes whose parent is ``pid``."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            info = _ppid_and_state(int(entry.name))
            if info is not None and info[0] == pid and info[1] != "Z":
                found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    """Whether ``pid`` is a process that has not ended (a zombie has ended)."""
    info = _ppid_and_state(pid)
    return info is not None and info[1] != "Z"


def test_kill_9_of_sim_leaves_no_worker(tmp_path: Path) -> None:
    # two workers, each on a deal whose every move may think for 50 s: far longer than the test
    argv = [
        sys.executable, "-m", "allfives_tui", "sim", "expert", "expert",
        "-n", "4", "-w", "2", "--budget", "50", "--quiet",
    ]
    env = {**os.environ, "ALLFIVES_DATA_DIR": str(tmp_path / "data")}
    sim = subprocess.Popen(
        argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    workers: set[int] = set()
    try:
        block_until(lambda: len(_children(sim.pid)) >= 2, 60, "two workers started")
        workers = _children(sim.pid)
        sim.send_signal(signal.SIGKILL)
        sim.wait(timeout=10)
        block_until(
            lambda: not any(_alive(w) for w in workers), 5, f"workers {sorted(workers)} to end"
        )
    finally:
        if sim.poll() is None:
            sim.kill()
            sim.wait()
        for pid in workers:  # what the test failed on: clean it up
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        if sim.stderr is not None:
            sim.stderr.close()


WATCHED = """
import multiprocessing, sys, threading
from engine.match import _exit_when_gone

def work() -> None:
    # only the sentinel watch, no parent-death signal: the fallback on its own
    parent = multiprocessing.parent_process()
    threading.Thread(target=_exit_when_gone, args=(parent,), daemon=True).start()
    while True:
        sum(range(1000))

if __name__ == "__main__":
    worker = multiprocessing.get_context("fork").Process(target=work)
    worker.start()
    print(worker.pid, flush=True)
    worker.join()
"""


def test_the_parent_watch_alone_ends_a_computing_worker(tmp_path: Path) -> None:
    script = tmp_path / "watched.py"
    script.write_text(WATCHED)
    root = Path(__file__).resolve().parents[2]
    parent = subprocess.Popen(
        [sys.executable, str(script)], cwd=root, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    worker = 0
    try:
        assert parent.stdout is not None
        worker = int(parent.stdout.readline())
        assert _alive(worker)
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=10)
        block_until(lambda: not _alive(worker), 5, "the worker to end with its parent")
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        if worker and _alive(worker):
            os.kill(worker, signal.SIGKILL)
        if parent.stdout is not None:
            parent.stdout.close()
