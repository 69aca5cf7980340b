"""Every command-line test keeps its settings and saves in its own temporary folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.helpers import FakeApp


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point ``ALLFIVES_DATA_DIR`` at a fresh folder for the test."""
    folder = tmp_path / "data"
    monkeypatch.setenv("ALLFIVES_DATA_DIR", str(folder))
    return folder


@pytest.fixture
def fake_app(monkeypatch: pytest.MonkeyPatch) -> type[FakeApp]:
    """The play command opens a :class:`FakeApp` instead of the Textual app."""
    from allfives_tui.ui import app

    monkeypatch.setattr(app, "AllFivesApp", FakeApp)
    FakeApp.opened = {}
    return FakeApp
