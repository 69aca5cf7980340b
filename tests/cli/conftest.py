"""The command-line tests' stand-in app (each test's data folder: tests/conftest.py)."""

from __future__ import annotations

import pytest

from tests.cli.helpers import FakeApp


@pytest.fixture
def fake_app(monkeypatch: pytest.MonkeyPatch) -> type[FakeApp]:
    """The play command opens a :class:`FakeApp` instead of the Textual app."""
    from allfives_tui.ui import app

    monkeypatch.setattr(app, "AllFivesApp", FakeApp)
    FakeApp.opened = {}
    return FakeApp
