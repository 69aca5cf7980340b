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

            def noted(shown: str = f"⟦{level}: ") -> bool:
                return _note(app).startswith(shown)

            await until(pilot, noted)
            assert unmarked(_note(app), {level}) == [], _note(app)


def test_default_names_are_worded_by_the_reader(pseudo_locale: str) -> None:
    from allfives_tui.net.protocol import State
    from allfives_tui.net.remote_table import RemoteTable
    from allfives_tui.table.places import person_label
    from allfives_tui.table.settings import PERSON
    from allfives_tui.table.table import Table
    from engine import Rules, apply, new_game, seeded_deal

    use_language(pseudo_locale)
    settings = Settings(players=4, levels=["greedy", PERSON, "greedy"], names=["", "", ""])
    table = Table.from_settings(settings)
    for name in table.names:
        assert name.startswith("⟦") and unmarked(name) == [], name
    assert [person_label(p) for p in ("south", "north")] == list(table.names[0::2])
    state = new_game(Rules(players=2))
    state = apply(state, seeded_deal(state, 3)).state
    message = State(step=1, view=state.view(0), names=("Ana", ""), kinds=("person", "computer"))
    remote = RemoteTable(0, message)
    assert remote.names[0] == "Ana" and unmarked(remote.names[1]) == []


async def test_a_computer_on_the_scoreboard_is_worded(pseudo_locale: str) -> None:
    from allfives_tui.ui.screens.game import GameScreen
    from tests.ui.helpers import screen_text

    use_language(pseudo_locale)
    app = AllFivesApp(Settings(players=2, speed=0.0, seed=3), start=True, speed=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.is_mounted)
        await pilot.pause()
        text = screen_text(app)
        assert "⟦Ñóŕŧĥ" in text and "⟦Ýóú" in text, text  # the computer's place, and you
        assert "North" not in text and "South" not in text
