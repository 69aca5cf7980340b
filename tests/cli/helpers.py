"""What the command-line tests share: running ``allfives`` in-process or in a probe
process, and a stand-in app."""

from __future__ import annotations

from typing import Any

import pytest

from allfives_tui.cli import main
from allfives_tui.table.settings import Settings

PROBE = """
import json, sys
import allfives_tui.cli as cli
try:
    status = cli.main(sys.argv[1:])
except SystemExit as exc:
    status = exc.code
loaded = sorted(m for m in sys.modules if m.split(".")[0] == "textual" or m.startswith(
    ("allfives_tui.cli.", "allfives_tui.ui", "allfives_tui.coach", "allfives_tui.net.")))
print(json.dumps({"status": status, "loaded": loaded}), file=sys.stderr)
"""
"""A program (``python -c PROBE ARGV``) that runs ``allfives ARGV`` and prints, as
the last line of its stderr, a JSON object: the exit ``status`` and the Textual,
command, UI, coach and network modules it ``loaded``."""


PARSER_MODULES = [
    "allfives_tui.cli.argparse_words",
    "allfives_tui.cli.arguments",
    "allfives_tui.cli.parser",
]
"""The command modules every command line loads: the parser and its arguments."""


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of ``allfives ARGV`` (a parser exit counts too)."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def sim_refusal(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The error line of ``allfives sim ARGV``, which must exit 2, print nothing on
    stdout and say only that line and where the help is."""
    code, out, err = run(["sim", *argv], capsys)
    assert code == 2, (code, err)
    assert out == ""
    first, hint = err.splitlines()
    assert first.startswith("allfives sim: error: "), first
    assert hint == "Try 'allfives sim --help' for the options."
    return first


class FakeApp:
    """Stands in for the Textual app: records what the play command opens."""

    opened: dict[str, Any] = {}

    def __init__(self, settings: Settings, **kwargs: Any) -> None:
        FakeApp.opened = {"settings": settings, **kwargs}
        self.saved_on_exit = None
        self.notices = list(kwargs.get("notices", ()))
        self.crash_report = None
        self.return_code = 0

    def run(self) -> None:
        pass
