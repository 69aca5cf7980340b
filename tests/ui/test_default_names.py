"""People at one terminal who left their names blank: each is called by their place, so
every sentence reads right ("South's turn", never "You's turn")."""

from __future__ import annotations

from allfives_tui.table.settings import PERSON, Settings
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.cover import CoverScreen
from allfives_tui.ui.screens.game import GameScreen
from tests.ui.helpers import screen_text, take_a_turn, until

# two people, neither named: the first sits south, the other north
UNNAMED = Settings(players=2, levels=[PERSON, "greedy", "greedy"], names=["", "", ""], speed=0.0)


async def test_unnamed_people_are_called_by_their_places() -> None:
    app = AllFivesApp(UNNAMED.model_copy(update={"seed": 4}), start=True, speed=0.0)
    async with app.run_test(size=(100, 32)) as pilot:
        covers: set[str] = set()
        for _ in range(6):
            await until(pilot, lambda: isinstance(app.screen, (CoverScreen, GameScreen))
                        and app.screen.is_mounted
                        and (isinstance(app.screen, CoverScreen) or app.screen.human_turn()))
            screen = app.screen
            if isinstance(screen, CoverScreen):
                covers.add(screen.person)
                game = app.game_screen
                assert game is not None and game.viewer is None
                assert game.prompt_text() in ("South's turn.", "North's turn.")
                assert "You" not in screen_text(app)
                await pilot.press("enter")
                continue
            assert isinstance(screen, GameScreen)
            await take_a_turn(pilot, screen)
        assert covers == {"South", "North"}
        assert app.table is not None
        assert [s.name for s in app.table.record().seats] == [None, None]
