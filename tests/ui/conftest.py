"""Every TUI test saves into its own temporary data folder, never the user's."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point ``ALLFIVES_DATA_DIR`` at a fresh folder for the test."""
    folder = tmp_path / "data"
    monkeypatch.setenv("ALLFIVES_DATA_DIR", str(folder))
    return folder


@pytest.fixture(autouse=True)
def no_key_ahead_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    """Dialogs after a move take Enter once painted (tests of the grace set their own)."""
    from allfives_tui.ui.app import AllFivesApp

    monkeypatch.setattr(AllFivesApp, "key_ahead_grace", 0.0, raising=False)
