"""Every history test works in its own data folder, at UTC (dates shown are local)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point ``ALLFIVES_DATA_DIR`` at a fresh folder; local time is UTC (restored after)."""
    folder = tmp_path / "data"
    monkeypatch.setenv("ALLFIVES_DATA_DIR", str(folder))
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield folder
    monkeypatch.undo()
    time.tzset()
