"""The new-game screen says what each computer level is and how strong it measured
(the engine's registry's one-line descriptions), as ``--help`` does."""

from __future__ import annotations

import pytest
from textual.widgets import Select, Static

from allfives_tui.table.settings import PERSON, Settings
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.new_game import NewGameScreen
from engine.players import LEVELS, REGISTRY
from tests.ui.helpers import screen_text, until


def new_game_app(levels: list[str]) -> AllFivesApp:
    return AllFivesApp(Settings(players=4, levels=levels, speed=0.0), autosave=False)


def note(app: AllFivesApp) -> str:
    return str(app.screen.query_one("#level-note", Static).render())


async def test_the_note_names_the_first_computer_seat_s_level_and_its_strength() -> None:
    app = new_game_app(["expert", "montecarlo", "master"])
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await pilot.pause()
        assert note(app) == f"expert: {REGISTRY['expert'].description}"
        assert "won 65 % vs montecarlo" in screen_text(app)


async def test_a_level_in_focus_or_chosen_is_the_one_described() -> None:
    app = new_game_app(["expert", "montecarlo", "master"])
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        screen = app.screen
        screen.query_one("#level-2", Select).focus()
        await until(pilot, lambda: note(app).startswith("master: "))
        assert "won 55 % vs expert" in note(app) and "55 % vs expert" in screen_text(app)
        for level in LEVELS:
            screen.query_one("#level-2", Select).value = level
            line = f"{level}: {REGISTRY[level].description}"

            def noted(line: str = line) -> bool:
                return note(app) == line

            await until(pilot, noted)
        # people at the first two seats: the only computer's level
        screen.query_one("#level-0", Select).value = PERSON
        screen.query_one("#level-1", Select).value = PERSON
        screen.query_one("#start").focus()
        await until(pilot, lambda: not note(app).startswith("expert"))
        assert note(app).startswith(f"{LEVELS[-1]}: ")


async def test_no_note_when_people_sit_at_every_seat() -> None:
    app = new_game_app([PERSON, PERSON, PERSON])
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await pilot.pause()
        assert note(app) == ""


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_s_line_fits_the_form(level: str) -> None:
    """The note is one line of the form at 80 columns (66 cells inside it)."""
    assert len(f"{level}: {REGISTRY[level].description}") <= 66
