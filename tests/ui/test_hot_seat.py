"""Friends at one terminal: people and computers in any mix, nothing shown between turns."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from allfives_tui.store.saves import load_current
from allfives_tui.table.settings import PERSON, Settings
from allfives_tui.table.table import Table
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.cover import CoverScreen
from allfives_tui.ui.screens.game import GameScreen
from allfives_tui.ui.screens.game_over import GameOverScreen
from allfives_tui.ui.screens.hand_summary import HandSummaryScreen
from allfives_tui.ui.widgets import HandView
from engine import GameState, Play, Tile
from tests.games import play_out
from tests.ui.helpers import (
    on_top,
    press_quickly,
    screen_text,
    take_a_turn,
    until,
    without_a_refresh_until,
)

# Ben (south) and Ana (north) against West and East, two greedy computers.
HOT_SEAT = Settings(
    players=4,
    partnerships=True,
    name="Ben",
    levels=["greedy", PERSON, "greedy"],
    names=["", "Ana", ""],
    speed=0.0,
)


def hot_seat_app(seed: int, target: int = 0) -> AllFivesApp:
    settings = HOT_SEAT.model_copy(update={"seed": seed, "target": target})
    return AllFivesApp(settings, start=True, speed=0.0)


def tile_texts(tile: Tile) -> tuple[str, ...]:
    """Every way a tile can show as text: in words, or drawn face up in a hand or on a line."""
    a, b = tile.high, tile.low
    forms = [f"{a}-{b}", f"{b}-{a}"]
    for bar in "│┃┆":
        forms += [f"{bar}{a}{bar}{b}{bar}", f"{bar}{b}{bar}{a}{bar}"]
    return tuple(forms)


def secrets(state: GameState, seen_by: int | None) -> list[Tile]:
    """The tiles the person ``seen_by`` may not see now (every hand but theirs)."""
    return [t for s, hand in enumerate(state.hands) if s != seen_by for t in hand]


def assert_nothing_hidden_shows(app: AllFivesApp, seen_by: int | None) -> None:
    assert app.table is not None
    text = screen_text(app)
    leaks = [t for t in secrets(app.table.state, seen_by) if any(f in text for f in tile_texts(t))]
    assert leaks == [], f"{leaks} show to seat {seen_by}:\n{text}"
    game = app.game_screen
    assert game is not None
    shown = game.query_one(HandView).tiles
    assert set(shown) <= (set(app.table.state.hands[seen_by]) if seen_by is not None else set())


async def settle(pilot: Pilot[Any]) -> None:
    """Until a person must act, a cover waits, or a hand or the game is over."""
    app = pilot.app
    assert isinstance(app, AllFivesApp)
    for _ in range(400):
        await pilot.pause()
        if app.game_screen is None or not app.game_screen.is_mounted:
            continue  # still starting
        if not isinstance(app.screen, GameScreen):
            await app.workers.wait_for_complete()
            await pilot.pause()
            return
        if app.screen.human_turn():
            return
    raise AssertionError("the game did not come back to a person")


async def test_two_people_and_two_computers_play_a_hand_and_nothing_leaks() -> None:
    app = hot_seat_app(seed=5)
    async with app.run_test(size=(100, 32)) as pilot:
        assert app.table is not None
        assert app.table.people == (0, 2)
        uncovered: int | None = None
        covers = turns = 0
        while True:
            await settle(pilot)
            screen = app.screen
            if isinstance(screen, HandSummaryScreen):
                break
            if isinstance(screen, CoverScreen):
                covers += 1
                # while a cover shows, no hand at all
                assert_nothing_hidden_shows(app, None)
                seat = app.table.state.current
                assert screen.person == app.table.names[seat or 0]
                await pilot.press("enter")
                uncovered = seat
                continue
            game = screen
            assert isinstance(game, GameScreen) and game.viewer == uncovered
            assert_nothing_hidden_shows(app, uncovered)
            await take_a_turn(pilot, game)
            turns += 1
            # after every action (until the hand's end shows all): only the person who
            # just played may see their tiles
            if not isinstance(app.screen, HandSummaryScreen):
                assert_nothing_hidden_shows(app, uncovered)
        assert covers >= 2 and turns >= 2
        # the hand summary names every person, nobody is "you"
        summary = app.screen
        assert isinstance(summary, HandSummaryScreen) and summary.names.you is None
        text = screen_text(app)
        assert "Ben " in text and "Ana " in text


async def test_continue_restores_the_seats_and_names() -> None:
    app = hot_seat_app(seed=8)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, CoverScreen)
        await pilot.click("#reveal")  # the mouse lifts the cover too
        await settle(pilot)
        assert app.table is not None and isinstance(app.screen, GameScreen)
        assert app.screen.viewer == app.table.state.current
        # and plays: a click on a playable tile selects it, a second click plays it
        game = app.screen
        play = next(a for a in game.legal() if isinstance(a, Play))
        index = game.shown_hand().index(play.tile)
        hand = game.query_one(HandView)
        before = len(app.table.state.history)
        for _ in range(2):
            await pilot.click(HandView, offset=hand.tile_offset(index))
            if len(app.table.state.history) > before:
                break
        if game.choosing:
            await pilot.press("enter")
        await pilot.pause()
        assert len(app.table.state.history) > before
        await settle(pilot)
        state = app.table.state
        await pilot.press("q")
    saved = load_current()
    assert saved is not None and saved.state == state
    kinds = [(s.name, s.kind, s.level) for s in saved.record.seats]
    assert kinds == [  # a computer keeps no name: it has its place's
        ("Ben", "person", None),
        (None, "computer", "greedy"),
        ("Ana", "person", None),
        (None, "computer", "greedy"),
    ]
    again = AllFivesApp(resume=saved, speed=0.0)
    async with again.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        assert again.table is not None and again.table.people == (0, 2)
        assert again.table.names == ("Ben", "West", "Ana", "East")
        # a continued hot-seat game opens behind a cover too
        assert isinstance(again.screen, CoverScreen)
        assert again.screen.person == again.table.names[again.table.state.current or 0]


async def test_game_over_names_the_winning_people() -> None:
    """A hot-seat game played to its end (tests/table/test_driver.py plays one through the
    turn driver) opens on the game-over screen, which names the winning people."""
    table = play_out(Table.from_settings(HOT_SEAT.model_copy(update={"seed": 2, "target": 40})))
    assert table.game_over is not None
    app = AllFivesApp(resume=table.record(), speed=0.0)
    async with app.run_test(size=(100, 32)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        over = app.screen
        assert isinstance(over, GameOverScreen) and over.names.you is None
        winners = "Ben & Ana" if table.game_over.winner == 0 else "West & East"
        assert f"{winners} win the game." in screen_text(app)


def test_cover_screen_snapshot(snap_compare: Any) -> None:
    async def cover_up(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        assert isinstance(pilot.app.screen, CoverScreen)

    assert snap_compare(hot_seat_app(seed=5), terminal_size=(80, 24), run_before=cover_up)


async def test_an_enter_typed_ahead_leaves_the_cover_up() -> None:
    """An Enter that reaches the cover as it opens (typed for the move before) shows no
    tiles; once the cover's grace is over Enter lifts it."""
    app = hot_seat_app(seed=8)
    app.key_ahead_grace = 3600.0  # the grace outlasts the test
    async with app.run_test(size=(100, 32)) as pilot:
        # no refresh between the cover's push and the key
        await without_a_refresh_until(lambda: isinstance(app.screen, CoverScreen))
        cover = app.screen
        assert isinstance(cover, CoverScreen)
        press_quickly(app, "enter", "enter")
        await pilot.pause()  # the keys are handled, the cover painted
        assert on_top(app, cover) and app.viewer is None
        assert cover.holds_key("enter") and not cover.holds_key("q")
        cover.grace = 0.0  # the grace is over
        await until(pilot, lambda: not cover.holds_key("enter"))
        await pilot.press("enter")
        await until(pilot, lambda: app.viewer is not None)
        assert not isinstance(app.screen, CoverScreen)
