"""TUI tests: dialogs after a move take keys at once (the data folder: tests/conftest.py)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def no_key_ahead_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    """Dialogs after a move take Enter once painted (tests of the grace set their own)."""
    from allfives_tui.ui.app import AllFivesApp

    monkeypatch.setattr(AllFivesApp, "key_ahead_grace", 0.0, raising=False)
