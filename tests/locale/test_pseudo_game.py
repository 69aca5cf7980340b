"""Under the pseudo-locale, at 80x24, the game's screens show only words from the catalog.

Each screen is the real app's, reached as a player reaches it: the game with a tile
chosen, choosing an end, the hand summary, game over, the hot-seat cover, a replay and the
report. Every run of letters must lie inside the pseudo-locale's markers (player names,
file names, tile notation and key names excepted) and no message may be cut off.

The check covers the whole screen, the footer's keys too (of a dialog, the dialog).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from typing import Any

from textual.app import App
from textual.geometry import Region
from textual.pilot import Pilot
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Input, Static

from allfives_tui.coach.ratings import Option, Rating, Review
from allfives_tui.locale import use_language
from allfives_tui.screenshots import mid_game
from allfives_tui.table.replay import Replay
from allfives_tui.table.settings import Settings
from allfives_tui.table.words import Names
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.cover import CoverScreen
from allfives_tui.ui.screens.game import GameScreen
from allfives_tui.ui.screens.game_over import GameOverScreen
from allfives_tui.ui.screens.hand_summary import HandSummaryScreen, costly_text
from allfives_tui.ui.screens.open_replay import OpenReplayScreen
from allfives_tui.ui.screens.replay import ReplayScreen
from allfives_tui.ui.screens.replay_app import ReplayApp
from allfives_tui.ui.screens.report import ReportScreen, figures_text
from allfives_tui.ui.screens.save_as import SaveAsScreen
from allfives_tui.ui.widgets import EventLog
from allfives_tui.ui.widgets.analysis import AnalysisPane, decisions_text, move_text
from allfives_tui.ui.widgets.hint import hint_text
from allfives_tui.ui.widgets.scoreboard import boneyard_text
from engine import Rules
from engine.record import GameRecord, parse_record
from tests.coach.helpers import short_game
from tests.locale.pseudo import CLOSE, OPEN, unmarked
from tests.locale.screens import KEY_NAMES, SIZE
from tests.records import DATA, SMALL_RECORD, dealt_record, record_of, two_ends_record
from tests.ui.helpers import random_hands, screen_text, settle, until
from tests.ui.test_hot_seat import hot_seat_app

NAMES = frozenset({"You", "North", "West", "East", "South", "Ann", "Bob", "Ben", "Ana"})
"""The players' names of the games here (names are not words of a catalog)."""


SCROLLED = ("EventLog", "#report-decisions")
"""Boxes whose lines scroll: a message at their edge may be half out of sight (scrolled
away, not cut off): their rows are checked for words, their whole text for messages."""


def _view(app: App[Any]) -> Region:
    """What the check covers: the whole screen, its footer too; of a dialog over the
    game, the dialog itself (the game's screen beneath shows through round it, its
    messages covered, not cut)."""
    screen = app.screen
    if isinstance(screen, ModalScreen) and (dialogs := screen.query(".dialog")):
        return dialogs.first().region
    return Region(0, 0, app.size.width, app.size.height)


def _scrolled(app: App[Any], view: Region) -> list[Region]:
    """The rows on show of the scrolling boxes in ``view``."""
    found = []
    for selector in SCROLLED:
        for box in app.screen.query(selector):
            clip = box.region.intersection(view)
            if isinstance(box.parent, Widget):
                clip = clip.intersection(box.parent.content_region)
            if clip.area:
                found.append(clip)
    return found


def shown_text(app: App[Any]) -> str:
    """The text :func:`_view` covers, row by row."""
    view = _view(app)
    rows = screen_text(app).split("\n")
    return "\n".join(row[view.x : view.right] for row in rows[view.y : view.bottom])


def words_not_from_the_catalog(app: App[Any], allowed: Collection[str] = ()) -> list[str]:
    """The words on show that no catalog gave, and any message cut off (in a
    scrolling box, only the words)."""
    view = _view(app)
    rows = [row.ljust(view.right) for row in screen_text(app).split("\n")]
    boxes = _scrolled(app, view)
    around, inside = [], []
    for y in range(view.y, view.bottom):
        row = list(rows[y])
        for box in boxes:
            if box.y <= y < box.bottom:
                inside.append("".join(row[box.x : box.right]))
                row[box.x : box.right] = " " * box.width
        around.append("".join(row[view.x : view.right]))
    words = {*KEY_NAMES, *NAMES, *allowed}
    scrolled = "\n".join(inside).replace(OPEN, " ").replace(CLOSE, " ")
    return unmarked("\n".join(around), words) + unmarked(scrolled, words)


def the_logs_lines_are_marked(app: App[Any]) -> None:
    """Every line of the game's log, scrolled away or not, is the catalog's."""
    log = app.screen.query_one(EventLog)
    lines = list(log._texts)
    assert lines and all(unmarked(line, {*KEY_NAMES, *NAMES}) == [] for line in lines), lines


def _game(record: GameRecord, *, coach: bool = True) -> AllFivesApp:
    settings = Settings(speed=0.0, coach=coach)
    return AllFivesApp(settings, resume=record, speed=0.0, autosave=False)


async def _settled(pilot: Pilot[Any]) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def test_the_game_with_a_tile_chosen(pseudo_locale: str) -> None:
    use_language(pseudo_locale)
    app = _game(record_of(mid_game()))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.human_turn()
        await pilot.press("right")  # the second tile: it fits one end
        await _settled(pilot)
        assert screen.selected == 1
        shown = shown_text(app)
        assert OPEN in shown and "5-2" in shown
        assert words_not_from_the_catalog(app) == [], shown_text(app)
        the_logs_lines_are_marked(app)
        await pilot.press("left")  # the first: it fits two ends
        await _settled(pilot)
        assert words_not_from_the_catalog(app) == [], shown_text(app)


async def test_the_lead_on_an_empty_table(pseudo_locale: str) -> None:
    use_language(pseudo_locale)
    record = dealt_record(
        ["5-3", "0-0", "2-0", "3-0", "4-0", "6-0", "2-2", "3-3", "4-4"],
        ["5-5", "1-0", "2-1", "3-2", "4-3", "6-2", "6-1", "3-1", "4-1"],
        ["6-6", "1-1", "4-2", "5-0", "5-1", "5-2", "5-4", "6-5", "6-3", "6-4"],
        start=0,
    )
    app = _game(record)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.view().layout.is_empty
        await _settled(pilot)
        assert words_not_from_the_catalog(app) == [], shown_text(app)
        the_logs_lines_are_marked(app)


async def test_choosing_an_end(pseudo_locale: str) -> None:
    use_language(pseudo_locale)
    app = _game(two_ends_record())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await _settled(pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen) and len(screen.choosing) == 2
        assert words_not_from_the_catalog(app) == [], shown_text(app)
        the_logs_lines_are_marked(app)
        await pilot.press("e")  # the other end under the cursor
        await _settled(pilot)
        assert words_not_from_the_catalog(app) == [], shown_text(app)


async def test_the_hand_summary(pseudo_locale: str) -> None:
    use_language(pseudo_locale)
    app = _game(record_of(random_hands(3)), coach=False)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, HandSummaryScreen))
        await _settled(pilot)
        assert words_not_from_the_catalog(app) == [], shown_text(app)


async def test_game_over(pseudo_locale: str) -> None:
    use_language(pseudo_locale)
    app = _game(record_of(random_hands(5, target=60, hands=20)))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await _settled(pilot)
        assert "Report" not in shown_text(app)
        assert words_not_from_the_catalog(app) == [], shown_text(app)


async def test_the_hot_seat_cover(pseudo_locale: str) -> None:
    use_language(pseudo_locale)
    app = hot_seat_app(seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, CoverScreen))
        await _settled(pilot)
        assert words_not_from_the_catalog(app) == [], shown_text(app)


async def test_a_replay_every_hand_face_up_and_one_seats_view(pseudo_locale: str) -> None:
    use_language(pseudo_locale)
    app = ReplayApp(Replay(parse_record(SMALL_RECORD)), title="small.json")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press(*["right"] * 9)  # Ann has drawn
        await _settled(pilot)
        assert words_not_from_the_catalog(app, {"small", "json"}) == [], shown_text(app)
        keys = screen_text(app).split("\n")[-1]
        assert "⟦Šþáçé" in keys and "Space" not in keys  # a key's label, the app's words
        await pilot.press("v", "space")  # Ann's view, playing on
        await _settled(pilot)
        assert words_not_from_the_catalog(app, {"small", "json"}) == [], shown_text(app)


async def test_a_four_player_replay_in_one_seats_view(pseudo_locale: str) -> None:
    use_language(pseudo_locale)
    replay = Replay(parse_record((DATA / "four.json").read_text()))
    names = {w for s in replay.record.seats if s.name is not None for w in s.name.split()}
    app = ReplayApp(replay, title="four.json")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("pagedown", "right", "right", "right", "v", "v")
        await _settled(pilot)
        assert words_not_from_the_catalog(app, {"four", "json", *names}) == [], shown_text(app)


async def test_the_report(pseudo_locale: str) -> None:
    """The report; its costly decisions scroll in a box of their own (at 80x24 a line or
    two of it shows): its whole text is checked too."""
    use_language(pseudo_locale)
    app = _game(short_game())
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await _settled(pilot)
        await pilot.press("g")
        report = app.screen
        assert isinstance(report, ReportScreen)
        await until(pilot, lambda: report.review is not None and report.review.complete, 60)
        await _settled(pilot)
        allowed = {"C"}  # C1, the computer's name
        assert words_not_from_the_catalog(app, allowed) == [], shown_text(app)
        assert report.query_one("#report-decisions").region.height > 0
        whole = str(report.query_one("#report-costly", Static).render())
        assert OPEN in whole and unmarked(whole, {*KEY_NAMES, *NAMES, *allowed}) == [], whole


async def test_the_coachs_pane_in_a_replay(pseudo_locale: str) -> None:
    use_language(pseudo_locale)
    app = ReplayApp(Replay(parse_record(SMALL_RECORD)), title="small.json")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("right", "right", "right", "a")
        pane = app.screen.query_one(AnalysisPane)
        await until(pilot, lambda: pane.complete, 60)
        await _settled(pilot)
        rows = screen_text(app).split("\n")
        box = pane.region
        shown = "\n".join(row[box.x : box.right] for row in rows[box.y : box.bottom])
        assert OPEN in shown
        assert unmarked(shown, {*KEY_NAMES, *NAMES}) == [], shown


async def test_saving_a_copy_and_opening_a_replay(pseudo_locale: str) -> None:
    use_language(pseudo_locale)
    app = _game(record_of(mid_game()))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+s")
        dialog = app.screen
        assert isinstance(dialog, SaveAsScreen)
        dialog.query_one("#save-path", Input).value = "no-such-folder/copy.json"
        await _settled(pilot)
        assert words_not_from_the_catalog(app, {"no", "such", "folder", "copy", "json"}) == [], (
            shown_text(app)
        )
        await pilot.press("escape")
    opener = ReplayApp(path="")
    async with opener.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(opener.screen, OpenReplayScreen))
        await pilot.press("enter")  # no path: it says to give one
        await _settled(pilot)
        shown = "\n".join(screen_text(opener).split("\n")[:-1])  # the footer is the app's
        assert "⟦" in shown and unmarked(shown, KEY_NAMES) == [], shown


# -- the coach's words, whatever a game happens to rate -----------------------------------

RATED = Rating(
    index=3, hand=1, move=2, seat=0, played="6-5 W", best="draw", loss=0.023, loss_se=0.01,
    points_loss=1.0, label="mistake",
    options=(Option("draw", 0.6, 0.01, 2.5, 0.1), Option("6-5 W", 0.57, 0.01, -1.0, 0.1)),
)


def test_every_line_of_the_coach_is_marked(pseudo_locale: str) -> None:
    use_language(pseudo_locale)
    best = replace(RATED, index=5, played="draw", loss=0.0, label=None)
    unlabelled = replace(RATED, index=7, label=None)
    review = Review(0, 100, (RATED, unlabelled), 3)
    texts = [
        costly_text([RATED], 1, 2),
        costly_text([], 0, 0),
        costly_text([], 2, 2),
        costly_text([], 1, 1),
        costly_text([RATED, unlabelled, RATED], 3, 3, most=1),
        decisions_text(review),
        decisions_text(Review(0, 100, (), 0)),
        figures_text(review, 2, 1),
        figures_text(None, 0, 0),
        hint_text(list(RATED.options)),
        hint_text(list(RATED.options[:1])),
        hint_text([], thinking=True),
        boneyard_text(0),
        boneyard_text(1),
    ]
    for text in texts:
        assert unmarked(text.plain, KEY_NAMES) == [], text.plain
    replay = Replay(parse_record(SMALL_RECORD))
    ratings = {r.index: r for r in (RATED, best, unlabelled)}
    for index in range(len(replay)):
        line = move_text(replay, 0, index, ratings).plain
        assert unmarked(line, {*KEY_NAMES, "Ann", "Bob"}) == [], line
    assert CLOSE in move_text(replay, 0, 3, ratings).plain
    assert Names(("Ann", "Bob"), Rules(players=2), you=0).label(0).endswith(CLOSE)
