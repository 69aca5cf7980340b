"""In each language the game fits 80x24: the board, hand and scoreboard where English has
them, and no message cut off on the main screens.

The regions are compared with English's at the same position of the same game. A
message cut off is found by :func:`~tests.locale.cut_off.cut_off` (each text widget's
whole content on screen, in any language) and, under the pseudo-locale, by its markers
(:func:`~tests.locale.cut_off.markers_cut`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from rich.table import Table
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import Static

from allfives_tui.coach.ratings import Option, Rating
from allfives_tui.locale import SOURCE, use_language
from allfives_tui.screenshots import mid_game
from allfives_tui.table.settings import Settings
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.game import GameScreen
from allfives_tui.ui.screens.game_over import GameOverScreen
from allfives_tui.ui.screens.hand_summary import HandSummaryScreen
from allfives_tui.ui.screens.new_game import NewGameScreen
from engine.record import GameRecord
from tests.locale.cut_off import cut_off, markers_cut
from tests.locale.languages import LANGUAGES, PSEUDO
from tests.locale.screens import SIZE
from tests.records import dealt_record, record_of, two_ends_record
from tests.ui.helpers import random_hands, screen_text, settle, until

REGIONS = ("#board", "#hand", "#scoreboard", "#boneyard")
"""The game screen's parts that stay put in every language: the board, the hand, the
scoreboard and the boneyard counter."""


def _text(app: App[Any]) -> str:
    return screen_text(app)


def _app(record: GameRecord | None, *, coach: bool = True) -> AllFivesApp:
    settings = Settings(speed=0.0, coach=coach)
    return AllFivesApp(settings, resume=record, speed=0.0, autosave=False)


async def _settled(pilot: Pilot[Any]) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def _playing(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    await _settled(pilot)
    assert isinstance(pilot.app.screen, GameScreen)


async def _tile_chosen(pilot: Pilot[Any]) -> None:
    await _playing(pilot)
    await pilot.press("right")  # the second tile
    await _settled(pilot)


async def _choosing_an_end(pilot: Pilot[Any]) -> None:
    await _playing(pilot)
    await pilot.press("enter")  # the only playable tile: it fits two ends
    await _settled(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, GameScreen) and len(screen.choosing) == 2


def _on(screen: type) -> Callable[[Pilot[Any]], Awaitable[None]]:
    async def reach(pilot: Pilot[Any]) -> None:
        await until(pilot, lambda: isinstance(pilot.app.screen, screen))
        await _settled(pilot)

    return reach


Reach = Callable[[Pilot[Any]], Awaitable[None]]
def _your_lead() -> GameRecord:
    """A new hand that you lead: nothing on the table yet."""
    return dealt_record(
        ["5-3", "0-0", "2-0", "3-0", "4-0", "6-0", "2-2", "3-3", "4-4"],
        ["5-5", "1-0", "2-1", "3-2", "4-3", "6-2", "6-1", "3-1", "4-1"],
        ["6-6", "1-1", "4-2", "5-0", "5-1", "5-2", "5-4", "6-5", "6-3", "6-4"],
        start=0,
    )


POSITIONS: dict[str, tuple[Callable[[], GameRecord], Reach]] = {
    "your lead": (_your_lead, _playing),
    "mid-game": (lambda: record_of(mid_game()), _playing),
    "a tile chosen": (lambda: record_of(mid_game()), _tile_chosen),
    "choosing an end": (two_ends_record, _choosing_an_end),
}
"""Positions of the game screen: the record resumed, and the steps to the position."""


NAME_WRAPS = (
    "the scoreboard's column headers grow ('⟦þŧšŵ⟧ ⟦ŧíĺéšŵ⟧' for 'pts tiles') and its "
    "name column, narrowed, wraps '⟦Ñóŕŧĥŵ⟧' (North), its closing marker on a row of "
    "its own"
)


def _last_play_wraps(last: str) -> str:
    return f"{NAME_WRAPS}; the last play, {last!r} in English, takes two lines"


WRAPS = {
    "your lead": f"{NAME_WRAPS}: the scoreboard grows from 5 rows to 6 and the boneyard "
    "counter moves down a row",
    **{
        position: f"{_last_play_wraps(last)}: the scoreboard grows from 5 rows to 7 and "
        "the boneyard counter moves down two rows"
        for position, last in (
            ("mid-game", "Last: North 5-4, no score"),
            ("a tile chosen", "Last: North 5-4, no score"),
            ("choosing an end", "Last: North 5-5, +10"),
        )
    },
}
"""Positions where the pseudo-locale moves a part, and how (the screens are not changed
here: when they are, these tests pass and the entries go)."""


async def _regions(code: str, position: str) -> dict[str, Region]:
    use_language(code)
    record, reach = POSITIONS[position]
    app = _app(record())
    async with app.run_test(size=SIZE) as pilot:
        await reach(pilot)
        return {name: app.screen.query_one(name).region for name in REGIONS}


@pytest.mark.parametrize("position", list(POSITIONS))
@pytest.mark.parametrize("language", LANGUAGES, indirect=True)
async def test_the_board_hand_and_scoreboard_are_where_english_has_them(
    language: str, position: str, request: pytest.FixtureRequest
) -> None:
    if language == PSEUDO and position in WRAPS:
        request.applymarker(pytest.mark.xfail(strict=True, reason=WRAPS[position]))
    english = await _regions(SOURCE, position)
    screen = Region(0, 0, *SIZE)
    assert all(r.area and screen.contains_region(r) for r in english.values()), english
    assert await _regions(language, position) == english


SCREENS: dict[str, tuple[Callable[[], GameRecord | None], Reach]] = {
    "new game": (lambda: None, _on(NewGameScreen)),
    **{f"game, {name}": steps for name, steps in POSITIONS.items()},
    "hand summary": (lambda: record_of(random_hands(3)), _on(HandSummaryScreen)),
    "game over": (lambda: record_of(random_hands(5, target=60, hands=20)), _on(GameOverScreen)),
}
"""The main screens: the record resumed (none: a new game), and the steps to the screen."""


@pytest.mark.parametrize("screen", list(SCREENS))
@pytest.mark.parametrize("language", [SOURCE, *LANGUAGES], indirect=True)
async def test_no_message_is_cut_off(language: str, screen: str) -> None:
    use_language(language)
    record, reach = SCREENS[screen]
    app = _app(record(), coach=screen != "hand summary")
    async with app.run_test(size=SIZE) as pilot:
        await reach(pilot)
        shown = _text(app)
        assert cut_off(app) == [], shown
        if language == PSEUDO:
            assert markers_cut(app) == [], shown


def _rated(move: int, label: str, loss: float) -> Rating:
    return Rating(
        index=move, hand=1, move=move, seat=0, played="6-4 E", best="4-4 E", loss=loss,
        loss_se=0.01, points_loss=1.0, label=label,
        options=(Option("4-4 E", 0.6, 0.01, 2.5, 0.1), Option("6-4 E", 0.45, 0.01, 0.0, 0.1)),
    )


COSTLY = {
    "two": [_rated(21, "inaccuracy", 0.152), _rated(23, "blunder", 0.253)],
    "twelve": [
        _rated(10 + m, "inaccuracy" if m % 2 else "blunder", 0.1 + m / 100) for m in range(12)
    ],
}
"""The coach's costly decisions of a hand, the longest words each language has for them:
all of them shown (two), or the costliest shown of more (twelve)."""


@pytest.mark.parametrize("costly", list(COSTLY))
@pytest.mark.parametrize("language", [SOURCE, *LANGUAGES], indirect=True)
async def test_the_hand_summary_keeps_its_button_below_the_costly_decisions(
    language: str, costly: str, request: pytest.FixtureRequest
) -> None:
    if language == PSEUDO:
        reason = (
            "a third longer than English, the coach's heading and its one decision take "
            "two lines each: to keep its button the dialog counts the decisions instead"
        )
        request.applymarker(pytest.mark.xfail(strict=True, reason=reason))
    use_language(language)
    app = _app(record_of(random_hands(3)), coach=False)
    async with app.run_test(size=SIZE) as pilot:
        await _on(HandSummaryScreen)(pilot)
        unrated = app.screen
        assert isinstance(unrated, HandSummaryScreen) and app.table is not None
        # the same summary as the coach's (no analyst: only these ratings come)
        summary = HandSummaryScreen(app.table, unrated.event, unrated.names, rated=True)
        await app.push_screen(summary)
        await _settled(pilot)
        rated = COSTLY[costly]
        summary.show_costly(rated, len(rated), len(rated))

        def in_sight() -> bool:
            button = summary.query_one("#next-hand").region
            return summary.query_one("#summary").content_region.contains_region(button)

        with contextlib.suppress(AssertionError):  # the summary fits over a refresh or two
            await until(pilot, in_sight, timeout=5)
        await _settled(pilot)
        shown = _text(app)
        assert in_sight(), shown
        assert cut_off(app) == [], shown
        assert "6-4 E" in shown and "4-4 E" in shown


class _Boxes(App[None]):
    """A message in a box too short for it, and a table column too narrow for a word."""

    CSS = "#short { width: 12; height: 2; } #table { width: 12; height: 3; }"

    def compose(self) -> ComposeResult:
        yield Static("it fits", id="fits")
        yield Static("a message longer than its box", id="short")
        table = Table(show_header=False, box=None)
        table.add_column(no_wrap=True, overflow="ellipsis")
        table.add_row("a word too wide")
        yield Static(table, id="table")


async def test_a_message_cut_off_is_found() -> None:
    app = _Boxes()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        found = cut_off(app)
        assert len(found) == 2, found
        assert "its box" in found[0] and "id='short'" in found[0]
        assert "…" in found[1] and "id='table'" in found[1]


async def test_a_marker_left_open_is_found() -> None:
    app = _Boxes()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.query_one("#fits", Static).update("⟦whole⟧")
        app.query_one("#short", Static).update("⟦a message longer than its box⟧")
        await pilot.pause()
        found = markers_cut(app)
        assert len(found) == 1 and "id='short'" in found[0], found
