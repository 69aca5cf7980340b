"""A whole game under the pseudo-locale, at 80x24: every screen a player passes through,
from the first deal to game over, shows only words from the catalog.

A person plays each turn by keyboard against a computer at pace zero, asking the coach
for a hint once; after every key the screen (its footer too) is read for words no
catalog gave, and before each move the log's every line.
"""

from __future__ import annotations

from textual.pilot import Pilot
from textual.screen import Screen

from allfives_tui.locale import use_language
from allfives_tui.table.settings import Settings
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.game import GameScreen
from allfives_tui.ui.screens.game_over import GameOverScreen
from allfives_tui.ui.screens.hand_summary import HandSummaryScreen
from tests.locale.screens import SIZE
from tests.locale.test_pseudo_game import (
    NAMES,
    shown_text,
    the_logs_lines_are_marked,
    words_not_from_the_catalog,
)
from tests.ui.helpers import settle, take_a_turn, until

TURNS = 400
"""More turns than a game to 30 takes."""


async def _checked(pilot: Pilot[None], app: AllFivesApp, seen: set[str]) -> None:
    """Wait for the app to settle, then check what it shows."""
    await settle(pilot)
    await app.workers.wait_for_complete()
    await pilot.pause()
    assert words_not_from_the_catalog(app, NAMES) == [], shown_text(app)
    seen.add(type(app.screen).__name__)


def _holds_its_button(screen: HandSummaryScreen) -> bool:
    """Whether the hand's summary shows its button inside the dialog."""
    button = screen.query_one("#next-hand").region
    return bool(button) and button.bottom <= screen.query_one("#summary").content_region.bottom


async def test_a_whole_game_shows_only_the_catalogs_words(pseudo_locale: str) -> None:
    use_language(pseudo_locale)
    settings = Settings(players=2, seed=7, target=30, speed=0.0, levels=["greedy"] * 3)
    app = AllFivesApp(settings, start=True, speed=0.0, autosave=False)
    seen: set[str] = set()
    async with app.run_test(size=SIZE) as pilot:
        await _checked(pilot, app, seen)
        for _ in range(TURNS):
            screen = app.screen
            if isinstance(screen, GameOverScreen):
                break
            if isinstance(screen, HandSummaryScreen):
                # the coach's lines give way, a refresh at a time, until the dialog
                # holds its button

                def holds(shown: HandSummaryScreen = screen) -> bool:
                    return _holds_its_button(shown)

                await until(pilot, holds)
                await pilot.press("enter")
            elif isinstance(screen, GameScreen) and screen.human_turn():
                if "hint" not in seen:
                    await pilot.press("t")  # the coach's hint, once, then the move
                    await _checked(pilot, app, seen)
                    seen.add("hint")
                the_logs_lines_are_marked(app)
                await take_a_turn(pilot, screen)
            else:

                def moved_on(was: Screen[object] = screen) -> bool:
                    return app.screen is not was or (
                        isinstance(app.screen, GameScreen) and app.screen.human_turn()
                    )

                await until(pilot, moved_on)
            await _checked(pilot, app, seen)
        else:
            raise AssertionError(f"no game over after {TURNS} turns:\n{shown_text(app)}")
    assert {"GameScreen", "HandSummaryScreen", "GameOverScreen"} <= seen, seen
