"""Every history test works in its own data folder, at UTC (dates shown are local)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point ``ALLFIVES_DATA_DIR`` at a fresh folder; local time is UTC."""
    folder = tmp_path / "data"
    monkeypatch.setenv("ALLFIVES_DATA_DIR", str(folder))
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    return folder
