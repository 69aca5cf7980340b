"""What the command-line tests share: running ``allfives`` in-process, and a stand-in app."""

from __future__ import annotations

from typing import Any

import pytest

from allfives_tui.cli import main
from allfives_tui.table.settings import Settings


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of ``allfives ARGV`` (a parser exit counts too)."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


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
