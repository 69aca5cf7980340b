"""The dispatcher imports a command's module only to run it: `--help`, `--version` and the
headless commands load no Textual and no other command (nor the coach, which only the
analyse command's options need)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import allfives_tui
from tests.cli.helpers import PARSER_MODULES, PROBE

ROOT = Path(__file__).resolve().parents[2]
FOUR = ROOT / "tests" / "data" / "four.json"


def _probe(*argv: str, tmp_path: Path) -> tuple[int, list[str], str]:
    env = {**os.environ, "ALLFIVES_DATA_DIR": str(tmp_path / "data")}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=120, check=False,
    )
    report = json.loads(done.stderr.splitlines()[-1])
    return report["status"], report["loaded"], done.stdout


@pytest.mark.parametrize(
    ("argv", "runs"),
    [
        (["--help"], None),
        (["--version"], None),
        (["sim", "--help"], None),
        (["sim", "greedy", "random", "-n", "2", "-w", "1", "--quiet"], "sim"),
        (["replay", str(FOUR), "--text"], "replay"),
        (["stats"], "stats"),
        (["--players", "9"], None),
    ],
)
def test_no_textual_and_no_other_command(argv: list[str], runs: str | None, tmp_path: Path) -> None:
    status, loaded, out = _probe(*argv, tmp_path=tmp_path)
    assert status == (2 if "--players" in argv else 0)
    assert loaded == sorted(PARSER_MODULES + ([f"allfives_tui.cli.{runs}"] if runs else []))
    if runs == "replay":
        assert status == 0 and out.startswith("All Fives: 4 players")  # the text replay


def test_python_dash_m_runs_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "allfives_tui", "--version"],
        capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"allfives {allfives_tui.__version__}\n"
    bad = subprocess.run(
        [sys.executable, "-m", "allfives_tui", "--players", "5"],
        capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
    )
    assert bad.returncode == 2
    assert "argument --players" in bad.stderr and "Traceback" not in bad.stderr
