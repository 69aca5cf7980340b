"""The locale tests keep their settings apart and leave the program speaking English."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from allfives_tui.locale import EXTRA_ENV, use_language
from tests.locale.pseudo import build


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test's settings in its own folder (``ALLFIVES_DATA_DIR``)."""
    folder = tmp_path / "data"
    monkeypatch.setenv("ALLFIVES_DATA_DIR", str(folder))
    return folder


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    use_language("en")


@pytest.fixture
def pseudo_locale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The pseudo-locale built from the template and findable; its code."""
    monkeypatch.setenv(EXTRA_ENV, str(build(tmp_path / "locales")))
    return "en_XA"
