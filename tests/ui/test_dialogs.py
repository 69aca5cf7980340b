"""Dialogs close once however fast the keys come; nothing is overwritten or given up unasked.

Issue 14, items 4 (double dismissal) and 8 (overwrite and discard confirmations).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input

from allfives_tui.table.settings import Settings
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.confirm import ConfirmScreen
from allfives_tui.ui.screens.game import GameScreen
from allfives_tui.ui.screens.game_over import GameOverScreen
from allfives_tui.ui.screens.hand_summary import HandSummaryScreen
from allfives_tui.ui.screens.help import HelpScreen
from allfives_tui.ui.screens.new_game import NewGameScreen
from allfives_tui.ui.screens.save_as import SaveAsScreen
from engine import GameState, Play
from engine.record import load
from tests.ui.helpers import (
    game_over_app,
    on_top,
    palette_offers,
    press_quickly,
    screen_text,
    settle,
    take_a_turn,
    until,
    without_a_refresh_until,
)


def quick_app(seed: int = 2, *, speed: float = 0.0) -> AllFivesApp:
    settings = Settings(players=2, seed=seed, speed=speed, levels=["greedy"] * 3)
    return AllFivesApp(settings, start=True, speed=speed)


def stack(app: App[Any]) -> list[str]:
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
        await palette_offers(pilot, command)
        press_quickly(app, *["enter"] * times)
        expected = ["Screen", "GameScreen", opens]
        await until(pilot, lambda: stack(app) == expected)
        await pilot.pause()  # the other keys are handled too
        assert stack(app) == expected
        assert app.is_running


@pytest.mark.parametrize("times", [2, 3])
async def test_enter_pressed_quickly_in_the_palette_asks_once_about_a_new_game(
    times: int,
) -> None:
    app = quick_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p", *"new game")
        await palette_offers(pilot, "new game")
        press_quickly(app, *["enter"] * times)
        expected = ["Screen", "GameScreen", "ConfirmScreen"]
        await until(pilot, lambda: stack(app) == expected)
        await pilot.pause()  # the other keys are handled too
        assert stack(app) == expected


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
        await until(pilot, lambda: stack(app) == ["Screen", "GameScreen"])
        await pilot.pause()  # the other keys are handled too
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
        await until(pilot, lambda: stack(app) == ["Screen", "GameScreen"])
        await pilot.pause()  # the other keys are handled too
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
        expected = ["Screen", "GameScreen", "ReplayScreen"]
        await until(pilot, lambda: stack(app) == expected)
        await pilot.pause()  # the other keys are handled too
        assert stack(app) == expected


async def test_an_enter_typed_ahead_leaves_the_game_over_screen_up() -> None:
    """An Enter that lands as the game ends (meant for the last move) is not taken as
    "New game" while the screen's grace lasts."""
    app = game_over_app()
    app.key_ahead_grace = 3600.0  # the grace outlasts the test
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        over = app.screen
        assert isinstance(over, GameOverScreen)
        press_quickly(app, "enter", "enter")
        await pilot.pause()  # the keys are handled
        assert on_top(app, over) and over.focused is None
        assert over.holds_key("enter") and not over.holds_key("n")


async def test_once_the_grace_is_over_enter_is_new_game() -> None:
    """After its grace the game-over screen focuses "New game", and Enter presses it."""
    app = game_over_app()
    app.key_ahead_grace = 0.0
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        over = app.screen
        assert isinstance(over, GameOverScreen)
        await until(pilot, lambda: over.focused is not None)
        assert over.focused is not None and over.focused.id == "new"
        assert not over.holds_key("enter")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, NewGameScreen))


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
        await until(pilot, lambda: stack(app) == ["Screen", "GameScreen"])
        await pilot.pause()  # the other keys are handled too
        assert stack(app) == ["Screen", "GameScreen"]
        assert app.table is not None and game_screen(app).table is app.table


async def test_enter_pressed_quickly_on_the_game_plays_once_and_warns_of_nothing() -> None:
    app = quick_app(speed=5.0)  # the computer waits out the test
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game_screen(app)
        press_quickly(app, "enter", "enter", "enter")
        await until(pilot, lambda: len(screen.view().history) >= 1)
        await pilot.pause()  # the other keys are handled too
        assert len(screen.view().history) == 1 and screen.view().current == 1
        assert not app._notifications, [n.message for n in app._notifications]


def game_screen(app: App[Any]) -> GameScreen:
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
        dialog.query_one("#save-path", Input).value = str(target)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "Replace finished.json?" in screen_text(app)
        await pilot.press("enter")  # Enter is the safe answer: keep the file
        await pilot.pause()
        assert on_top(app, dialog)
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
        assert app.table is not None
        assert load(target).seats == app.table.record().seats


async def test_saving_to_a_new_file_does_not_ask(tmp_path: Path) -> None:
    target = tmp_path / "new.json"
    app = quick_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+s")
        app.screen.query_one("#save-path", Input).value = str(target)
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
        await palette_offers(pilot, "new game")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "Leave this game for a new one?" in screen_text(app)
        await pilot.press("n")  # keep playing
        await pilot.pause()
        assert stack(app) == ["Screen", "GameScreen"] and app.table is table
        await pilot.press("ctrl+p", *"new game")
        await palette_offers(pilot, "new game")
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert "Back to the game" in screen_text(app)
        press_quickly(app, "escape", "escape", "escape")
        await until(pilot, lambda: stack(app) == ["Screen", "GameScreen"])
        await pilot.pause()  # the other keys are handled too
        assert stack(app) == ["Screen", "GameScreen"] and app.table is table
        screen = game_screen(app)
        await pilot.press("enter")  # the game goes on
        await pilot.pause()
        assert len(screen.view().history) >= 1 and app.table is table


def computers_done(app: AllFivesApp) -> bool:
    """True once no computer is thinking (its move delivered: played, held or dropped)."""
    return all(w.is_finished for w in app.workers if w.group == "computer")


def your_move(app: AllFivesApp) -> GameState:
    """Play your first legal action and return the snapshot after it (North to play)."""
    screen = game_screen(app)
    assert app.play(0, screen.legal()[0])
    assert app.table is not None and app.table.state.current == 1, "North is to play next"
    return app.table.state


async def test_a_computer_move_waits_while_a_new_game_is_set_up() -> None:
    app = AllFivesApp(Settings(speed=0.0, seed=6), start=True, speed=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game_screen(app)
        before = your_move(app)
        app.action_new_game()  # before North's move can land
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, NewGameScreen) and computers_done(app))
        assert app.table is not None and app.table.state is before, "nothing played meanwhile"
        await pilot.press("escape")
        await until(pilot, lambda: app.table is not None and app.table.state is not before)
        assert len(app.table.state.history) == len(before.history) + 1, "North's move, once"
        assert app.screen is screen


async def test_a_computer_move_waits_while_leaving_the_game_is_asked() -> None:
    app = AllFivesApp(Settings(speed=0.0, seed=6), start=True, speed=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game_screen(app)
        before = your_move(app)
        app.action_new_game()  # before North's move can land
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen) and computers_done(app))
        assert app.table is not None and app.table.state is before, "nothing played meanwhile"
        await pilot.press("n")  # keep playing
        await until(pilot, lambda: app.table is not None and app.table.state is not before)
        assert len(app.table.state.history) == len(before.history) + 1, "North's move, once"
        assert app.screen is screen


async def test_a_computer_move_chosen_before_a_new_game_is_dropped() -> None:
    """North's reply, chosen on the game given up for a new one (held while the new
    game was set up), never reaches the new game's table: it does not move, and no
    warning shows, even when the held move is let go later."""
    app = AllFivesApp(Settings(speed=0.0, seed=6), start=True, speed=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        old = app.table
        your_move(app)
        app.action_new_game()  # before North's move can land
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, NewGameScreen) and computers_done(app))
        await pilot.press("ctrl+n")  # the same settings: the same deal
        await until(pilot, lambda: app.table is not old and app.game_screen is not None)
        await settle(pilot)
        table = app.table
        assert table is not None and table is not old
        before = table.state
        # whatever waited when the game was left goes on now, if it still may
        app.action_new_game()
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")  # keep playing
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        await pilot.pause()
        assert app.table is table and table.state is before, "the new game did not move"
        assert not [n for n in app._notifications if n.severity != "information"]


async def test_a_computer_move_is_dropped_after_a_take_back() -> None:
    """Taken back while North thinks, your move's reply is dropped: the table stays as
    the take-back left it, your turn."""
    app = AllFivesApp(Settings(speed=5.0, seed=6), start=True, speed=5.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = app.table
        assert table is not None
        start = table.state
        your_move(app)  # North thinks, then waits out its pace
        await pilot.press("u")
        await until(pilot, lambda: computers_done(app))
        await pilot.pause()
        assert app.table is table and table.state.history == start.history
        assert table.state.current == 0 and game_screen(app).human_turn()
        assert not [n for n in app._notifications if n.severity != "information"]


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
        await _to_your_last_tile(pilot)
        await pilot.press("1")
        press_quickly(app, "enter", "enter")
        await until(pilot, lambda: isinstance(app.screen, HandSummaryScreen))
        await pilot.pause()  # the other key is handled too
        assert isinstance(app.screen, HandSummaryScreen)
        assert app.table is not None and app.table.state.hand_number == 1
        await pilot.press("enter")
        await until(pilot, lambda: app.table is not None and app.table.state.hand_number == 2)


async def _to_your_last_tile(pilot: Pilot[Any]) -> GameScreen:
    """Play on until your hand is one tile that you can play (and must)."""
    app = pilot.app
    while True:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen), "the hand ended before your last tile"
        legal = screen.legal()
        if len(screen.shown_hand()) == 1 and len(legal) == 1 and isinstance(legal[0], Play):
            return screen
        await take_a_turn(pilot, screen)


async def test_an_enter_that_lands_on_the_summary_before_it_is_painted_is_ignored() -> None:
    """The last tile played, an Enter that reaches the hand's summary before it is drawn
    (and within its grace) leaves it up; once the grace is over Enter deals."""
    app = quick_app(5)  # you go out with a single playable tile
    app.key_ahead_grace = 3600.0  # the grace outlasts the test
    async with app.run_test(size=(80, 24)) as pilot:
        await _to_your_last_tile(pilot)
        await pilot.press("1")
        press_quickly(app, "enter")  # plays the last tile
        # the move applied; no refresh in between
        await without_a_refresh_until(lambda: isinstance(app.screen, HandSummaryScreen))
        summary = app.screen
        assert isinstance(summary, HandSummaryScreen)
        press_quickly(app, "enter")
        await pilot.pause()  # the key is handled, the summary painted
        assert on_top(app, summary) and summary.holds_key("enter")
        assert app.table is not None and app.table.state.hand_number == 1
        summary.grace = 0.0  # the grace is over
        await until(pilot, lambda: not summary.holds_key("enter"))
        await pilot.press("enter")
        await until(pilot, lambda: app.table is not None and app.table.state.hand_number == 2)


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


async def test_a_question_shows_names_with_brackets_as_they_are() -> None:
    """A player or file name holding "[" is text, not Rich markup: shown as typed, and a
    stray closing tag breaks nothing."""

    app = quick_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(
            ConfirmScreen(
                "Replace [b]Ann.json?",
                "[b]Ann 40, West[/] 5: [red]saving replaces it.",
                yes="Replace it",
                no="Keep it",
            )
        )
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.pause()
        text = screen_text(app)
        assert "Replace [b]Ann.json?" in text
        assert "[b]Ann 40, West[/] 5: [red]saving replaces it." in text
