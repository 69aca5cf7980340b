"""Shared helpers for the TUI tests: states at fixed seeds, waiting for the human's turn."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from textual import events
from textual.app import App
from textual.command import CommandList
from textual.pilot import Pilot
from textual.screen import Screen

from allfives_tui.screenshots import random_play
from allfives_tui.table.settings import Settings
from allfives_tui.ui.app import AllFivesApp
from engine import GameState
from tests.records import record_of


def random_state(seed: int, moves: int, players: int = 2) -> GameState:
    """A game at ``seed`` after up to ``moves`` random legal moves (stops before a hand's end)."""
    return random_play(seed, moves, players=players)


def screen_text(app: App[Any]) -> str:
    """The app's screen as plain text, one line per row."""
    return "\n".join(s.text for s in app.screen._compositor.render_strips())


async def settle(pilot: Pilot[Any], limit: int = 400) -> None:
    """Wait until the human must act, or a summary / game-over screen is up."""
    from allfives_tui.ui.screens.game import GameScreen

    app = pilot.app
    for _ in range(limit):
        await pilot.pause()
        screen = app.screen
        if not isinstance(screen, GameScreen):
            if not app.workers._workers or all(w.is_finished for w in app.workers):
                return
            continue
        if screen.human_turn() and not screen.choices().legal_is_automatic:
            return
    raise AssertionError("the game did not come back to the human")


def on_top(app: App[Any], screen: Screen[Any]) -> bool:
    """Whether ``screen`` is the app's current screen.

    A call rather than ``app.screen is screen`` inline: mypy would narrow ``screen`` to
    the ``Screen[object]`` that ``App.screen`` declares, losing the dialog's own type.
    """
    return app.screen is screen


def press_quickly(app: App[Any], *keys: str) -> None:
    """Send ``keys`` at once, as fast typing does: none waits for the one before."""
    driver = app._driver
    assert driver is not None
    for key in keys:
        event = events.Key(key, "\r" if key == "enter" else key if len(key) == 1 else None)
        event.set_sender(app)
        driver.send_message(event)


async def until(
    pilot: Pilot[Any], condition: Callable[[], bool], timeout: float = 30.0
) -> None:
    """Let the app run until ``condition()`` holds (an AssertionError after ``timeout``
    seconds): a bounded poll, never a fixed wait."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {condition}")
        await pilot.pause(0.005)


async def without_a_refresh_until(condition: Callable[[], bool], limit: int = 100_000) -> None:
    """Yield to the event loop (no pause, so no refresh) until ``condition()`` holds,
    at most ``limit`` times: to catch a screen between its push and its first paint."""
    for _ in range(limit):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError(f"not within {limit} turns of the event loop: {condition}")


async def palette_offers(pilot: Pilot[Any], command: str) -> None:
    """Wait until the command palette's highlighted result is ``command``."""

    def offered() -> bool:
        found = pilot.app.screen.query(CommandList)
        if not found or found.first().highlighted is None:
            return False
        results = found.first()
        option = results.get_option_at_index(results.highlighted or 0)
        return str(option.prompt).lower().startswith(command)

    await until(pilot, offered)


def random_hands(seed: int, *, target: int | None = None, hands: int = 1) -> GameState:
    """Random play at ``seed`` until ``hands`` hands are over or the game is won."""
    return random_play(seed, target=target or 0, hands=hands)


async def take_a_turn(pilot: Pilot[Any], game: object) -> None:
    """The person at the game screen takes their first legal action, by keyboard:
    d to draw, p to pass, else the number of the first playable tile and Enter
    (and Enter again where it fits more than one end)."""
    from allfives_tui.ui.screens.game import GameScreen
    from engine import Draw, Pass, Play

    assert isinstance(game, GameScreen)
    legal = game.legal()
    if isinstance(legal[0], Draw):
        await pilot.press("d")
    elif isinstance(legal[0], Pass):
        await pilot.press("p")
    else:
        play = next(a for a in legal if isinstance(a, Play))
        await pilot.press(str(game.shown_hand().index(play.tile) + 1), "enter")
        if game.choosing:
            await pilot.press("enter")
    await pilot.pause()


def game_over_app() -> AllFivesApp:
    """The game app resuming a finished game: it opens on the game-over screen."""
    state = random_hands(5, target=60, hands=20)
    return AllFivesApp(Settings(speed=0.0), resume=record_of(state), speed=0.0)
