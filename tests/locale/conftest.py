"""The locale tests leave the program speaking English, and build the pseudo-locale."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from allfives_tui.locale import EXTRA_ENV, use_language
from tests.locale.pseudo import CODE, build


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    use_language("en")


@pytest.fixture
def pseudo_locale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The pseudo-locale built from the template and findable; its code."""
    monkeypatch.setenv(EXTRA_ENV, str(build(tmp_path / "locales")))
    return "en_XA"


@pytest.fixture
def language(request: pytest.FixtureRequest) -> str:
    """The language a test is parametrized with (``indirect``, from
    ``tests/locale/languages.py``), made findable: a catalog's code as it is, the
    pseudo-locale's built first. Not spoken yet: the test chooses when."""
    code: str = request.param
    if code == CODE:
        return str(request.getfixturevalue("pseudo_locale"))
    return code
