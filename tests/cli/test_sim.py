"""``allfives sim``: the progress display on stderr, and clean results on stdout."""

from __future__ import annotations

import io
import json

import pytest

from allfives_tui.cli import main
from allfives_tui.cli.sim import MatchProgress


def test_not_a_terminal_gets_a_line_every_tenth(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "greedy", "random", "-n", "20", "-w", "1"]) == 0
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert len(lines) == 11  # 0 %, 10 %, ..., 100 %
    assert all(line.startswith("greedy vs random ") for line in lines)
    assert "0/20 games" in lines[0] and "20/20 games" in lines[-1]
    assert "\x1b" not in err and "\r" not in err  # no terminal control in a log
    assert "win rate" in out


def test_json_stays_clean_with_progress_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "greedy", "random", "-n", "4", "-w", "1", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["config"]["games"] == 4
    assert "4/4 games" in err


def test_quiet_writes_nothing_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "greedy", "random", "-n", "2", "-w", "1", "--quiet"]) == 0
    assert capsys.readouterr().err == ""


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_a_live_rich_bar() -> None:
    stream = Terminal()
    progress = MatchProgress(stream, "greedy vs random")
    assert progress.live
    with progress.shown():
        for done in range(5):
            progress(done, 4)
    text = stream.getvalue()
    assert "\r" in text or "\x1b[" in text  # redrawn in place
    assert "4/4" in text and "greedy vs random" in text
