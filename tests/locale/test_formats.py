"""Numbers, percentages, dates and lists follow the language spoken."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from allfives_tui.locale import EXTRA_ENV, use_language
from allfives_tui.locale import formats as f
from tests.locale.pseudo import CODE, build


@pytest.fixture
def french(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A catalog under the code ``fr`` (the pseudo-locale's words), spoken now."""
    folder = build(tmp_path / "locales")
    shutil.copytree(folder / CODE, folder / "fr")
    monkeypatch.setenv(EXTRA_ENV, str(folder))
    use_language("fr")


def test_english_formats() -> None:
    assert f.percent(0.456) == "46%"
    assert f.percent(0.4567, 1) == "45.7%"
    assert f.number(1234.5, 1) == "1,234.5"
    assert f.number(12.0, 1) == "12"
    assert f.fixed(16.666) == "16.7"
    assert f.date(dt.date(2026, 12, 5)) == "Dec 5, 2026"
    assert f.listing(["North", "East", "South"]) == "North, East, and South"
    assert f.listing(["a", "b"], "or") == "a or b"


@pytest.mark.usefixtures("french")
def test_french_formats() -> None:
    assert f.percent(0.456).replace("\u202f", " ").replace("\xa0", " ") == "46 %"
    assert f.fixed(16.666) == "16,7"
    assert f.number(1234.5, 1).replace("\u202f", " ").replace("\xa0", " ") == "1 234,5"
    assert f.date(dt.date(2026, 12, 5)) == "5 déc. 2026"
    assert f.listing(["a", "b", "c"]) == "a, b et c"


def test_a_code_babel_does_not_know_formats_as_english(pseudo_locale: str) -> None:
    use_language(pseudo_locale)
    assert f.percent(0.5) == "50%"
    assert f.number(1234.5, 1) == "1,234.5"


def test_signed_numbers_keep_their_sign_and_round_as_python_does() -> None:
    for value in (3.25, -3.25, 0.0, -0.04, 0.35, 2.675, 16.666):
        assert f.signed(value) == f"{value:+.1f}"
        assert f.signed(value, 2) == f"{value:+.2f}"


@pytest.mark.usefixtures("french")
def test_french_signed_numbers() -> None:
    assert f.signed(-3.25) == "-3,2" and f.signed(16.666) == "+16,7"
