"""The game screen and the hand summary at 80x24 as SVG snapshots, in each language, and
``python -m allfives_tui.screenshots --lang`` drawing the game screen in one.

The snapshots run for every catalog present and for the pseudo-locale (a third longer
than English); a new catalog's snapshots are made by
``pytest tests/locale/test_language_snapshots.py --snapshot-update``, and made again
whenever these screens' words or layout change, as the English ones in ``tests/ui``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from allfives_tui import screenshots
from allfives_tui.locale import current, supported, use_language
from allfives_tui.screenshots import mid_game
from allfives_tui.table.settings import Settings
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.hand_summary import HandSummaryScreen
from engine import GameState
from tests.locale.languages import LANGUAGES
from tests.locale.screens import SIZE
from tests.records import record_of
from tests.ui.helpers import random_hands, until


def _app(state: GameState, *, coach: bool = True) -> AllFivesApp:
    settings = Settings(speed=0.0, coach=coach)
    return AllFivesApp(settings, resume=record_of(state), speed=0.0, autosave=False)


async def _settle(pilot: Pilot[Any]) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


@pytest.mark.parametrize("language", LANGUAGES, indirect=True)
def test_the_game_screen(language: str, snap_compare: Any) -> None:
    use_language(language)
    assert snap_compare(_app(mid_game()), terminal_size=SIZE, run_before=_settle)


async def _summary(pilot: Pilot[Any]) -> None:
    await until(pilot, lambda: isinstance(pilot.app.screen, HandSummaryScreen))
    await _settle(pilot)


@pytest.mark.parametrize("language", LANGUAGES, indirect=True)
def test_the_hand_summary(language: str, snap_compare: Any) -> None:
    use_language(language)
    state = random_hands(3)
    assert state.is_chance and state.hand_number == 1
    # the coach's line comes in the background (tests/ui/test_coach.py has it rated)
    assert snap_compare(_app(state, coach=False), terminal_size=SIZE, run_before=_summary)


def test_the_screenshots_draw_the_game_in_a_language(
    pseudo_locale: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "shots"
    assert screenshots.main(["--lang", pseudo_locale, "--out", str(out)]) == 0
    picture = out / f"game-{pseudo_locale}-80x24.svg"
    assert capsys.readouterr().out == f"{picture}\n"
    assert [p.name for p in out.iterdir()] == [picture.name]
    svg = picture.read_text(encoding="utf-8")
    assert svg.startswith("<svg") and "⟦" in svg
    assert current() == "en"


def test_the_screenshots_draw_the_game_in_every_language_by_default(pseudo_locale: str) -> None:
    plan = [(code, name) for code, (name, *_rest) in screenshots.planned()]
    english = [name for name, *_rest in screenshots.shots()]
    languages = [code for code in supported() if code != "en"]
    assert pseudo_locale in languages
    assert plan == [
        *(("en", name) for name in english),
        *((code, f"game-{code}-80x24.svg") for code in languages),
    ]
    assert [code for code, _shot in screenshots.planned(["EN_xa", "en_XA.UTF-8"])] == [
        pseudo_locale, pseudo_locale
    ]


def test_the_screenshots_name_the_languages_there_are(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "shots"
    with pytest.raises(SystemExit) as exit:
        screenshots.main(["--lang", "xx", "--out", str(out)])
    assert exit.value.code == 2
    offered = ", ".join(supported())
    assert f"no catalog for xx: choose from {offered}\n" in capsys.readouterr().err
    assert not out.exists()
