"""Every test keeps its settings, saves, history and cache in its own temporary
data folder, never the user's."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point ``ALLFIVES_DATA_DIR`` at a fresh folder for the test."""
    folder = tmp_path / "data"
    monkeypatch.setenv("ALLFIVES_DATA_DIR", str(folder))
    return folder


@pytest.fixture
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Local time is UTC, so the dates shown are the same everywhere (restored after)."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()
