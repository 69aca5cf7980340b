"""Under the pseudo-locale, what names a level or a seat comes from the catalog: the level
note of the new-game screen, and the default names of seats (their places)."""

from __future__ import annotations

from textual.widgets import Select, Static

from allfives_tui.locale import use_language
from allfives_tui.table.settings import Settings
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.new_game import NewGameScreen
from engine.players import LEVELS
from tests.locale.pseudo import unmarked
from tests.locale.screens import SIZE
from tests.ui.helpers import until


def _note(app: AllFivesApp) -> str:
    return str(app.screen.query_one("#level-note", Static).render())


async def test_the_level_note_is_worded_from_the_catalog(pseudo_locale: str) -> None:
    use_language(pseudo_locale)
    app = AllFivesApp(Settings(players=2, levels=["expert"] * 3, speed=0.0), autosave=False)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        select = app.screen.query_one("#level-0", Select)
        for level in LEVELS:
            select.value = level
            await until(pilot, lambda level=level: _note(app).startswith(f"⟦{level}: "))
            assert unmarked(_note(app), {level}) == [], _note(app)
