"""Take-backs at the table: ``u`` undoes your last move and the computers' replies."""

from __future__ import annotations

from textual.pilot import Pilot

from allfives_tui.store.saves import load_current
from allfives_tui.table.settings import Settings
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.cover import CoverScreen
from allfives_tui.ui.screens.game import GameScreen
from allfives_tui.ui.widgets import EventLog
from engine import Phase
from tests.records import dealt_record
from tests.ui.helpers import screen_text, settle, take_a_turn, until
from tests.ui.test_hot_seat import hot_seat_app

SIZE = (100, 30)


def _game(app: AllFivesApp) -> GameScreen:
    screen = app.screen
    assert isinstance(screen, GameScreen), type(screen)
    return screen


def _log_text(screen: GameScreen) -> str:
    return " ".join(screen.query_one(EventLog)._texts)


async def _first_turn_of_a_hand(pilot: Pilot[None], app: AllFivesApp) -> GameScreen:
    await settle(pilot)
    screen = _game(app)
    assert app.table is not None
    return screen


async def test_u_takes_back_the_move_and_the_replies_and_the_save_counts_it() -> None:
    settings = Settings(players=2, seed=21, speed=0.0, levels=["greedy"] * 3)
    app = AllFivesApp(settings, start=True, speed=0.0)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _first_turn_of_a_hand(pilot, app)
        table = app.table
        assert table is not None
        # nothing of yours to take back yet: the key is shown, dimmed
        assert screen.check_action("take_back", ()) is None
        assert "u Undo" in screen_text(app)
        before = table.state
        await take_a_turn(pilot, screen)
        await settle(pilot)
        assert table.state is not before and table.state.phase is Phase.PLAY
        assert screen.check_action("take_back", ()) is True
        await pilot.press("u")
        await pilot.pause()
        assert table.state is before
        assert screen.step == table.step and screen.view() == before.view(0)
        assert "You take back your last move." in _log_text(screen)
        assert screen.check_action("take_back", ()) is None
        saved = load_current()
        assert saved is not None
        assert saved.state == before
        assert saved.record.seats[0].take_backs == 1
        # and the game goes on from there
        await take_a_turn(pilot, screen)
        await settle(pilot)
        assert table.state is not before


async def test_a_take_back_while_the_computer_thinks_drops_its_move() -> None:
    # You lead (start=0); North then takes 5 s a move
    record = dealt_record(
        ["5-5", "1-0", "2-1", "3-2", "4-3", "6-2", "6-1", "3-1", "4-1"],
        ["0-0", "2-0", "3-0", "4-0", "6-0", "2-2", "3-3", "4-4", "6-6"],
        ["1-1", "4-2", "5-3", "5-0", "5-1", "5-2", "5-4", "6-5", "6-3", "6-4"],
        start=0,
    )
    app = AllFivesApp(Settings(speed=5.0), resume=record, speed=5.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = _game(app)
        table = app.table
        assert table is not None and table.to_act == 0
        before = table.state
        await take_a_turn(pilot, screen)
        assert table.to_act == 1  # North is thinking
        await pilot.press("u")
        await pilot.pause()
        assert table.state is before and table.to_act == 0
        # North's worker wakes from its pace and ends: its move is dropped, not played on
        thinking = [w for w in app.workers if w.group == "computer"]
        await until(pilot, lambda: all(w.is_finished for w in thinking))
        await pilot.pause()
        assert table.state is before and table.to_act == 0


async def test_no_take_backs_in_hot_seat_games() -> None:
    app = hot_seat_app(seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for _ in range(50):
            await pilot.pause()
            if isinstance(app.screen, CoverScreen):
                await pilot.press("enter")
            elif isinstance(app.screen, GameScreen) and app.viewer is not None:
                break
        screen = _game(app)
        await take_a_turn(pilot, screen)
        assert screen.check_action("take_back", ()) is False
        text = screen_text(app)
        assert "? Help" in text and "Undo" not in text


async def test_a_take_back_removes_the_lines_of_the_moves_taken_back_from_the_log() -> None:
    settings = Settings(players=2, seed=21, speed=0.0, levels=["greedy"] * 3)
    app = AllFivesApp(settings, start=True, speed=0.0)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _first_turn_of_a_hand(pilot, app)
        log = screen.query_one(EventLog)
        first = list(log._texts)
        await take_a_turn(pilot, screen)
        await settle(pilot)
        second = list(log._texts)
        assert len(second) > len(first) + 1  # your move and North's reply
        await take_a_turn(pilot, screen)
        await settle(pilot)
        assert len(log._texts) > len(second)
        # back one move: the log is as it was before it, and says so
        await pilot.press("u")
        await pilot.pause()
        note = "You take back your last move."
        assert list(log._texts) == [*second, note]
        # back one more: that note goes with the moves after it
        await pilot.press("u")
        await pilot.pause()
        assert list(log._texts) == [*first, note]
        # what is drawn is what is kept (wrapped at the log's width)
        await pilot.pause()
        assert " ".join(strip.text.strip() for strip in log.lines) == " ".join([*first, note])
        assert screen_text(app).count("take back your last") == 1
        # and the game goes on, logged from there
        await take_a_turn(pilot, screen)
        await settle(pilot)
        assert list(log._texts)[: len(first) + 1] == [*first, note]
