"""The history's, the statistics' and the coach's words follow the language: signed points,
days written by a translated pattern, settings named by labels of their own."""

from __future__ import annotations

import datetime as dt
import random
import shutil
import time
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from allfives_tui.coach.process import Analyst
from allfives_tui.locale import DOMAIN, EXTRA_ENV, use_language
from allfives_tui.locale import formats as f
from allfives_tui.store import wording
from allfives_tui.store.history import History
from allfives_tui.store.settings_file import setting_label
from allfives_tui.store.stats import query
from allfives_tui.table.settings import Settings
from tests.locale.pseudo import CODE, build, compiled
from tests.store.games import T0, random_game
from tests.waiting import block_until

DAY = ("CLDR date pattern: a day, all in digits", "yyyy-MM-dd")
START = ("CLDR date pattern: a day and a time, all in digits", "yyyy-MM-dd HH:mm")


@pytest.fixture
def italian(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An Italian catalog of the two date patterns only (every other message English)."""
    catalog = Catalog(locale="it", domain=DOMAIN)
    catalog.add(DAY[1], "dd/MM/yyyy", context=DAY[0])
    catalog.add(START[1], "d MMM yyyy, HH:mm", context=START[0])
    monkeypatch.setenv(EXTRA_ENV, str(compiled(catalog, tmp_path / "locales", "it")))
    use_language("it")


@pytest.fixture
def french(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pseudo-locale's words under the code ``fr``: Babel formats as French."""
    folder = build(tmp_path / "locales")
    shutil.copytree(folder / CODE, folder / "fr")
    monkeypatch.setenv(EXTRA_ENV, str(folder))
    use_language("fr")


def test_signed_points_in_english() -> None:
    assert f.signed(17.25) == f"{17.25:+.1f}" == "+17.2"
    assert f.signed(-3.0) == "-3.0"
    assert f.signed(0.0) == "+0.0"
    assert f.signed(-0.04) == f"{-0.04:+.1f}" == "-0.0"
    assert f.signed(115, 0) == "+115"
    assert wording.points(None) == "-" and wording.rate(None) == "-"


@pytest.mark.usefixtures("french")
def test_signed_points_rates_and_counts_in_french() -> None:
    assert f.signed(16.666) == "+16,7"
    assert f.signed(-3.0) == "-3,0"
    assert wording.rate(0.61).replace("\u202f", " ").replace("\xa0", " ") == "61 %"
    assert f.number(1234).replace("\u202f", " ").replace("\xa0", " ") == "1 234"


def test_a_date_pattern_is_one_when_its_letters_name_fields() -> None:
    assert f.is_pattern("yyyy-MM-dd HH:mm")
    assert f.is_pattern("d 'de' MMMM 'del' y")  # quoted words are the pattern's own
    assert not f.is_pattern("⟦ýýýý-ṀṀ-đđŵŵŵ⟧")  # the pseudo-locale's
    assert not f.is_pattern("jjjj-mm-tt")  # no field is named t
    day = dt.date(2026, 3, 31)
    assert f.dated(day, "dd/MM/yyyy", "yyyy-MM-dd") == "31/03/2026"
    assert f.dated(day, "⟦đđ/ṀṀ⟧", "yyyy-MM-dd") == "2026-03-31"
    moment = dt.datetime(2026, 3, 31, 9, 5)
    assert f.dated(moment, "yyyy-MM-dd HH:mm", "") == "2026-03-31 09:05"


def test_english_days_are_iso(data_dir: Path) -> None:
    assert wording.day(dt.date(2026, 3, 31)) == "2026-03-31"


@pytest.mark.usefixtures("italian")
def test_a_translation_writes_days_its_own_way(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    try:
        assert wording.day(dt.date(2026, 3, 31)) == "31/03/2026"
        with History() as h:
            h.record(random_game(random.Random(1), 0), now=T0)
            (game,) = h.games()
        assert wording.started(game) == f"{game.started.day} gen 2026, {game.started:%H:%M}"
        assert wording.started(game) in wording.search_text(game, "You")
        assert game.started.strftime("%Y-%m-%d") in wording.search_text(game, "You")
    finally:
        monkeypatch.undo()
        time.tzset()


def test_the_opponents_in_english_words_are_the_machine_label(data_dir: Path) -> None:
    rng = random.Random(3)
    with History() as h:
        for i in range(30):
            h.record(random_game(rng, i), now=T0)
        stats = query(h, "You")
    assert any(g.partner for g in stats.groups)  # partnerships are there
    assert [wording.group_label(g) for g in stats.groups] == [g.label for g in stats.groups]


def test_every_setting_has_a_label(pseudo_locale: str) -> None:
    use_language(pseudo_locale)
    for field in Settings.model_fields:
        assert setting_label(field).startswith("⟦"), field


def test_an_analysis_that_stopped_is_worded_by_the_app(pseudo_locale: str) -> None:
    analyst = Analyst()
    try:
        analyst._results.put(("stopped", "MemoryError: "))  # as the process reports it
        use_language(pseudo_locale)
        found: list[object] = []

        def came() -> bool:
            found.extend(analyst.poll())
            return bool(found)

        block_until(came, what="the report")
        (line,) = found
        assert isinstance(line, str) and line.startswith("⟦") and "MemoryError" in line
    finally:
        analyst.close()
