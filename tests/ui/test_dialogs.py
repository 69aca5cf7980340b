"""Dialogs close once however fast the keys come; nothing is overwritten or given up unasked.

Issue 14, items 4 (double dismissal) and 8 (overwrite and discard confirmations).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import events
from textual.app import App

from allfives_tui.table.storage import Settings
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.confirm import ConfirmScreen
from allfives_tui.ui.screens.game import GameScreen
from allfives_tui.ui.screens.game_over import KEY_AHEAD_GRACE, GameOverScreen
from allfives_tui.ui.screens.hand_summary import HandSummaryScreen
from allfives_tui.ui.screens.help import HelpScreen
from allfives_tui.ui.screens.new_game import NewGameScreen
from allfives_tui.ui.screens.save_as import SaveAsScreen
from engine import Play
from engine.record import load
from tests.ui.helpers import game_over_app, screen_text, settle, take_a_turn


def quick_app(seed: int = 2, *, speed: float = 0.0) -> AllFivesApp:
    settings = Settings(players=2, seed=seed, speed=speed, levels=["greedy"] * 3)
    return AllFivesApp(settings, start=True, speed=speed)


def press_quickly(app: App[object], *keys: str) -> None:
    """Send ``keys`` at once, as fast typing does: none waits for the one before."""
    driver = app._driver
    assert driver is not None
    for key in keys:
        event = events.Key(key, "\r" if key == "enter" else key if len(key) == 1 else None)
        event.set_sender(app)
        driver.send_message(event)


def stack(app: App[object]) -> list[str]:
    return [type(s).__name__ for s in app.screen_stack]


# -- item 4: double dismissal --------------------------------------------------


@pytest.mark.parametrize("times", [2, 3])
@pytest.mark.parametrize(
    ("command", "opens"),
    [("save a copy", "SaveAsScreen"), ("help", "HelpScreen"), ("open replay", "OpenReplayScreen")],
)
async def test_enter_pressed_quickly_in_the_palette_runs_the_command_once(
    times: int, command: str, opens: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = quick_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p", *command)
        await pilot.pause(0.3)
        press_quickly(app, *["enter"] * times)
        await pilot.pause(0.3)
        assert stack(app) == ["Screen", "GameScreen", opens]
        assert app.is_running


@pytest.mark.parametrize("times", [2, 3])
async def test_enter_pressed_quickly_in_the_palette_asks_once_about_a_new_game(
    times: int,
) -> None:
    app = quick_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p", *"new game")
        await pilot.pause(0.3)
        press_quickly(app, *["enter"] * times)
        await pilot.pause(0.3)
        assert stack(app) == ["Screen", "GameScreen", "ConfirmScreen"]


@pytest.mark.parametrize("times", [2, 3])
async def test_enter_pressed_quickly_in_the_save_dialog_saves_once(
    times: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = quick_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, SaveAsScreen)
        press_quickly(app, *["enter"] * times)
        await pilot.pause(0.3)
        assert stack(app) == ["Screen", "GameScreen"]
        assert len(list(tmp_path.glob("allfives-*.json"))) == 1
        await pilot.press("right")  # the game screen still answers
        assert game_screen(app).selected == 1


async def test_escape_pressed_quickly_closes_help_once() -> None:
    app = quick_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        press_quickly(app, "escape", "escape", "escape")
        await pilot.pause(0.3)
        assert stack(app) == ["Screen", "GameScreen"]


async def test_help_is_made_once_and_shown_again_over_any_screen() -> None:
    app = quick_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        first = app.screen
        assert isinstance(first, HelpScreen) and "All Fives" in screen_text(app)
        await pilot.press("escape")
        assert stack(app) == ["Screen", "GameScreen"]
        await pilot.press("right")  # the game answers between the two
        assert game_screen(app).selected == 1
        await pilot.press("question_mark")
        assert app.screen is first and "Aim: score points" in screen_text(app)
        await pilot.press("question_mark")  # ? closes it too
        assert stack(app) == ["Screen", "GameScreen"]


async def test_a_choice_pressed_quickly_on_the_game_over_screen_counts_once() -> None:
    app = game_over_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        press_quickly(app, "r", "r", "r")
        await pilot.pause(0.3)
        assert stack(app) == ["Screen", "GameScreen", "ReplayScreen"]


async def test_an_enter_typed_ahead_leaves_the_game_over_screen_up() -> None:
    """An Enter that lands as the game ends (meant for the last move) is not taken as
    "New game"; once the screen has been up a moment, Enter is "New game"."""
    app = game_over_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        over = app.screen
        assert isinstance(over, GameOverScreen) and over.focused is None
        press_quickly(app, "enter", "enter")
        await pilot.pause(0.1)
        assert app.screen is over
        await pilot.pause(KEY_AHEAD_GRACE)
        assert over.focused is not None and over.focused.id == "new"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)


async def test_the_letter_keys_act_at_once_on_the_game_over_screen() -> None:
    app = game_over_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)


async def test_enter_pressed_quickly_on_the_new_game_screen_starts_one_game() -> None:
    app = AllFivesApp(Settings(speed=0.0, seed=4), speed=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        press_quickly(app, "enter", "enter", "enter")
        await pilot.pause(0.3)
        assert stack(app) == ["Screen", "GameScreen"]
        assert app.table is not None and game_screen(app).table is app.table


async def test_enter_pressed_quickly_on_the_game_plays_once_and_warns_of_nothing() -> None:
    app = quick_app(speed=1.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game_screen(app)
        press_quickly(app, "enter", "enter", "enter")
        await pilot.pause(0.3)
        assert len(screen.state.history) == 1 and screen.state.current == 1
        assert not app._notifications, [n.message for n in app._notifications]


def game_screen(app: App[object]) -> GameScreen:
    screen = app.screen
    assert isinstance(screen, GameScreen), type(screen)
    return screen


# -- item 8: nothing overwritten or given up unasked ---------------------------


async def test_saving_onto_a_file_that_exists_asks_first(tmp_path: Path) -> None:
    target = tmp_path / "finished.json"
    target.write_text("a finished seven-hand game")
    app = quick_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+s")
        dialog = app.screen
        assert isinstance(dialog, SaveAsScreen)
        dialog.query_one("#save-path").value = str(target)  # type: ignore[attr-defined]
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "Replace finished.json?" in screen_text(app)
        await pilot.press("enter")  # Enter is the safe answer: keep the file
        await pilot.pause()
        assert app.screen is dialog
        assert target.read_text() == "a finished seven-hand game"
        assert "Not saved" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert target.read_text() == "a finished seven-hand game"
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert stack(app) == ["Screen", "GameScreen"]
        assert load(target).seats == app.table.record().seats  # type: ignore[union-attr]


async def test_saving_to_a_new_file_does_not_ask(tmp_path: Path) -> None:
    target = tmp_path / "new.json"
    app = quick_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+s")
        app.screen.query_one("#save-path").value = str(target)  # type: ignore[attr-defined]
        await pilot.press("enter")
        await pilot.pause()
        assert stack(app) == ["Screen", "GameScreen"]
        assert target.is_file()


async def test_a_new_game_from_the_palette_asks_and_escape_goes_back_to_the_game() -> None:
    app = quick_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = app.table
        await pilot.press("ctrl+p", *"new game")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "Leave this game for a new one?" in screen_text(app)
        await pilot.press("n")  # keep playing
        await pilot.pause()
        assert stack(app) == ["Screen", "GameScreen"] and app.table is table
        await pilot.press("ctrl+p", *"new game")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert "Back to the game" in screen_text(app)
        press_quickly(app, "escape", "escape", "escape")
        await pilot.pause(0.3)
        assert stack(app) == ["Screen", "GameScreen"] and app.table is table
        screen = game_screen(app)
        await pilot.press("enter")  # the game goes on
        await pilot.pause()
        assert len(screen.state.history) >= 1 and app.table is table


async def test_a_computer_move_waits_while_a_new_game_is_set_up() -> None:
    app = AllFivesApp(Settings(speed=1.0, seed=6), start=True, speed=1.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game_screen(app)
        await pilot.press("enter")
        if screen.choosing:
            await pilot.press("enter")
        await pilot.pause()
        assert screen.state.current == 1, "North is to play next, a second later"
        before = screen.state
        app.action_new_game()
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause(1.5)
        assert isinstance(app.screen, NewGameScreen)
        assert app.table is not None and app.table.state is before, "nothing played meanwhile"
        await pilot.press("escape")
        await settle(pilot)
        assert app.table.state is not before, "North's move came once back at the game"
        assert app.screen is screen


async def test_a_computer_move_waits_while_leaving_the_game_is_asked() -> None:
    # North's pace of a second leaves room for a busy machine between the two checks
    app = AllFivesApp(Settings(speed=1.0, seed=6), start=True, speed=1.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game_screen(app)
        await pilot.press("enter")
        if screen.choosing:
            await pilot.press("enter")
        await pilot.pause()
        assert screen.state.current == 1, "North is to play next"
        before = screen.state
        app.action_new_game()
        await pilot.pause(1.5)  # well past North's pace, the question still open
        assert isinstance(app.screen, ConfirmScreen)
        assert app.table is not None and app.table.state is before, "nothing played meanwhile"
        await pilot.press("n")  # keep playing
        await settle(pilot)
        assert app.screen is screen
        assert app.table.state is not before, "North's move came once back at the game"


async def test_starting_from_the_palette_new_game_screen_replaces_the_game() -> None:
    app = quick_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        old = app.table
        app.action_new_game()
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        await pilot.press("ctrl+n")
        await settle(pilot)
        assert stack(app) == ["Screen", "GameScreen"]
        assert app.table is not old and game_screen(app).table is app.table


async def test_after_the_game_a_new_game_does_not_ask() -> None:
    app = game_over_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        app.action_new_game()
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)


async def test_an_enter_typed_ahead_of_the_hand_summary_leaves_it_up() -> None:
    """Enter pressed twice on the last tile plays it; the second, typed before the
    hand's summary showed, does not deal the next hand (keys typed ahead reach the
    game screen, which ignores them off turn). Enter pressed once the summary is up
    deals it."""
    app = quick_app(5)  # you go out with a single playable tile
    async with app.run_test(size=(80, 24)) as pilot:
        while True:
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, GameScreen), "the hand ended before your last tile"
            legal = screen.legal()
            if len(screen.shown_hand()) == 1 and len(legal) == 1 and isinstance(legal[0], Play):
                break
            await take_a_turn(pilot, screen)
        await pilot.press("1")
        press_quickly(app, "enter", "enter")
        await pilot.pause(0.3)
        assert isinstance(app.screen, HandSummaryScreen)
        assert app.table is not None and app.table.state.hand_number == 1
        await pilot.press("enter")
        await pilot.pause()
        assert app.table.state.hand_number == 2


@pytest.mark.parametrize(
    ("keys", "shown"), [(["question_mark"], "Esc Close"), (["ctrl+s"], "Esc Cancel")]
)
async def test_a_dialog_s_footer_shows_its_own_keys_not_the_game_s(
    keys: list[str], shown: str
) -> None:
    app = quick_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Play" in screen_text(app).splitlines()[-1]
        await pilot.press(*keys)
        await pilot.pause()
        footer = screen_text(app).splitlines()[-1]
        assert shown in footer and "Play" not in footer and "Tile" not in footer
