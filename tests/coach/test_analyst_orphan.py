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

# A stand-in for the app: starts an analyst on a whole game, says the analyst's
# pid, then dies at once, the way ``kill -9`` ends an app (no close, no atexit).
APP = textwrap.dedent(
    """
    import os, sys, time
    from allfives_tui.coach.process import Analyst
    from engine import Rules
    from tests.coach.helpers import play_out

    game = play_out(Rules(players=2, target=250), seed=5, me="greedy", them="greedy")
    analyst = Analyst(playouts=int(sys.argv[1]))
    analyst.submit("g", game, 0)
    while not analyst.alive:
        time.sleep(0.01)
    time.sleep(float(sys.argv[2]))  # the analyst at work; its results never read
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
    ("playouts", "work"),
    [(400, 1.0), (1, 4.0)],
    ids=["mid-decision", "results-queue-full"],
)
def test_a_killed_app_leaves_no_analyst_and_its_output_pipe_ends(
    playouts: int, work: float
) -> None:
    """Killed while rating, or once the ratings nobody read have filled the queue's pipe
    (the analyst must not wait on that pipe to exit)."""
    root = Path(__file__).resolve().parents[2]
    started = time.monotonic()
    # run() reads the pipes to their end: an analyst holding them would hang it
    done = subprocess.run(
        [sys.executable, "-c", APP, str(playouts), str(work)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == -signal.SIGKILL, done.stderr
    pid = int(done.stdout.split()[0])
    deadline = time.monotonic() + 10
    while not _gone(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _gone(pid), f"the analyst {pid} outlived the app"
    assert time.monotonic() - started < 40
