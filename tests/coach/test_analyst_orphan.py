"""The analyst process never outlives the app, nor holds the app's output open."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.waiting import block_until

# A stand-in for the app: starts an analyst on ``jobs`` copies of a whole game, waits
# until results it never reads wait in the queue's pipe ("some": the first; "full":
# the pipe full), says the analyst's pid, then dies at once, the way ``kill -9`` ends
# an app (no close, no atexit).
APP = textwrap.dedent(
    """
    import fcntl, os, sys, termios
    from allfives_tui.coach.process import Analyst
    from engine import Rules
    from tests.coach.helpers import play_out
    from tests.waiting import block_until

    playouts, jobs, wanted = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    game = play_out(Rules(players=2, target=250), seed=5, me="greedy", them="greedy")
    analyst = Analyst(playouts=playouts)
    for n in range(jobs):  # the same game again: its ratings come back from memory
        analyst.submit(f"g{n}", game, 0)
    pipe = analyst._results._reader.fileno()

    def unread():
        return int.from_bytes(fcntl.ioctl(pipe, termios.FIONREAD, bytes(4)), sys.byteorder)

    # full: no room left for another message
    least = fcntl.fcntl(pipe, fcntl.F_GETPIPE_SZ) - 4096 if wanted == "full" else 1
    block_until(lambda: unread() >= least, 30, wanted)
    print(analyst._process.pid, flush=True)
    os.kill(os.getpid(), 9)
    """
)


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    # a zombie waiting for init counts as gone
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split(") ")[-1].startswith("Z")


@pytest.mark.parametrize(
    ("playouts", "jobs", "wanted"),
    [(400, 1, "some"), (1, 4, "full")],
    ids=["mid-decision", "results-queue-full"],
)
def test_a_killed_app_leaves_no_analyst_and_its_output_pipe_ends(
    playouts: int, jobs: int, wanted: str
) -> None:
    """Killed while rating, or once the ratings nobody read have filled the queue's pipe
    (the analyst must not wait on that pipe to exit)."""
    root = Path(__file__).resolve().parents[2]
    started = time.monotonic()
    # run() reads the pipes to their end: an analyst holding them would hang it
    done = subprocess.run(
        [sys.executable, "-c", APP, str(playouts), str(jobs), wanted],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == -signal.SIGKILL, done.stderr
    pid = int(done.stdout.split()[0])
    block_until(lambda: _gone(pid), 10, f"the analyst {pid} to end with the app")
    assert time.monotonic() - started < 40
