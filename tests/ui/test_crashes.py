"""A crash of any command: status 1, one line, the traceback in a crash log, a quick end.

Each fault is planted in a real handler of the real app, run as a real
process in a pseudo-terminal (:class:`~tests.terminal.Terminal`), or in a
command run in this process.
"""

from __future__ import annotations

import re
import sys
import textwrap
import time
from pathlib import Path

import pytest

from allfives_tui.cli import main
from allfives_tui.table.settings import Settings
from allfives_tui.table.table import Table
from tests.records import game_record
from tests.terminal import Terminal

# A thread worker that never ends (a computer that thinks for ever), then a crash
# on the UI thread: the crashed process must not wait for the thread.
STUCK_THREAD = textwrap.dedent(
    """
    import sys, threading
    from allfives_tui.ui.app import AllFivesApp
    from allfives_tui.cli import main

    never = threading.Event()
    polled = AllFivesApp._coach_poll
    calls = []

    def poll(self, force=False):
        calls.append(force)
        if len(calls) == 1:
            self.run_worker(never.wait, thread=True)
        elif len(calls) == 3:
            raise RuntimeError("planted crash")
        return polled(self, force)

    AllFivesApp._coach_poll = poll
    raise SystemExit(main(sys.argv[1:]))
    """
)

# The coach fails as a game is set up: a resumed game crashes before any move.
CRASH_AT_SET_UP = textwrap.dedent(
    """
    import sys
    from allfives_tui.coach.table_coach import TableCoach
    from allfives_tui.cli import main

    def start(self):
        raise RuntimeError("planted crash at set-up")

    TableCoach.start = start
    raise SystemExit(main(sys.argv[1:]))
    """
)

# The replay screen fails on a step.
CRASH_IN_REPLAY = textwrap.dedent(
    """
    import sys
    from allfives_tui.ui.screens.replay import ReplayScreen
    from allfives_tui.cli import main

    def forward(self):
        raise RuntimeError("planted crash in the replay")

    ReplayScreen.action_forward = forward
    raise SystemExit(main(sys.argv[1:]))
    """
)

RIGHT = b"\x1b[C"


def _crash_logs(folder: Path) -> list[Path]:
    return sorted(folder.glob("crash-*.log"))


def _printed(term: Terminal) -> list[str]:
    """The lines left on the terminal, without the bell Textual rings at a crash."""
    return [line.replace("\x07", "") for line in term.printed]


def test_a_crash_ends_the_process_though_a_thread_is_still_at_work(data_dir: Path) -> None:
    argv = [sys.executable, "-c", STUCK_THREAD, "--start", "--seed", "3", "--speed", "0"]
    with Terminal(argv, data_dir) as term:
        end = time.monotonic() + 30
        while not _crash_logs(data_dir) and time.monotonic() < end:
            term._read(0.05)
        assert _crash_logs(data_dir), term.text[-2000:]
        status = term.wait(timeout=5)  # the thread never ends: without the fix, never
    assert status == 1
    (log,) = _crash_logs(data_dir)
    (line,) = _printed(term)
    assert line.startswith(
        f"allfives crashed (RuntimeError: planted crash): the game is kept in "
        f"{data_dir / 'current.json'}"
    )
    assert line.endswith(f"; the crash log with the traceback is {log}")
    assert "RuntimeError: planted crash" in log.read_text()


def test_a_crash_as_a_resumed_game_is_set_up_does_not_advise_continue(data_dir: Path) -> None:
    data_dir.mkdir()
    current = data_dir / "current.json"
    current.write_text(Table.from_settings(Settings(seed=5)).record().to_json())
    argv = [sys.executable, "-c", CRASH_AT_SET_UP, "--continue"]
    with Terminal(argv, data_dir) as term:
        assert term.wait(timeout=30) == 1
    (log,) = _crash_logs(data_dir)
    assert _printed(term) == [
        "allfives crashed (RuntimeError: planted crash at set-up): the game is kept in "
        f"{current}; the crash log with the traceback is {log}"
    ]
    assert "--continue" not in term.text  # what just crashed is not advised again


def test_a_crash_of_the_replay_exits_1_with_one_line_and_a_log(
    data_dir: Path, tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    path.write_text(game_record(seed=2).to_json())
    argv = [sys.executable, "-c", CRASH_IN_REPLAY, "replay", str(path)]
    with Terminal(argv, data_dir) as term:
        term.expect("Step")
        term.send(RIGHT)
        status = term.wait(timeout=30)
    assert status == 1
    (log,) = _crash_logs(data_dir)
    assert _printed(term) == [
        "allfives replay crashed (RuntimeError: planted crash in the replay): "
        f"the crash log with the traceback is {log}"
    ]
    assert "Traceback" not in term.text
    assert "in forward" in log.read_text()


def test_a_crash_of_any_command_exits_1_with_one_line_and_a_log(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import allfives_tui.cli.history as history_cli

    def broken(args: object) -> int:
        raise KeyError("planted")

    monkeypatch.setattr(history_cli, "run", broken)
    assert main(["history"]) == 1
    err = capsys.readouterr().err
    (log,) = _crash_logs(data_dir)
    assert err == (
        f"allfives history crashed (KeyError: 'planted'): "
        f"the crash log with the traceback is {log}\n"
    )
    assert re.search(r"KeyError: 'planted'\s*$", log.read_text())
