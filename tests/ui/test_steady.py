"""A steadier screen in the real app: the board's centre tile keeps its screen cell over a
whole hand unless nothing fits around it, the boneyard keeps its height, at a large size
the hand's tiles are as large as the board's, and a play that scored nothing says so."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.app import App, ComposeResult

from allfives_tui.table import board_plan
from allfives_tui.table.settings import Settings
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.game import GameScreen
from allfives_tui.ui.screens.hand_summary import HandSummaryScreen
from allfives_tui.ui.widgets import Board, BoneyardCounter, HandView, Scoreboard
from engine import Draw, Play
from tests.games import hand_states
from tests.records import record_of
from tests.table.test_board_plan import BOARDS
from tests.ui.helpers import settle, take_a_turn


def _size(terminal: str) -> tuple[int, int]:
    width, height = terminal.split("x")
    return int(width), int(height)


class _Watch:
    """What the board shows after every change, seen from the App's refreshes."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.seen: list[tuple[Any, ...]] = []

    def look(self) -> None:
        board = self.board
        plan = board.plan
        if not plan.glyphs:
            return
        centre = plan.glyphs[0]
        x = board.region.x + plan.centre[0] - int(board.scroll_offset.x)
        y = board.region.y + plan.centre[1] - int(board.scroll_offset.y)
        entry = (board.tableau, plan, centre.tile, (x, y))
        if not self.seen or self.seen[-1][0] != board.tableau:
            self.seen.append(entry)


@pytest.mark.parametrize("terminal", list(BOARDS))
@pytest.mark.parametrize("players,seed", [(4, 5), (2, 7)])
async def test_over_a_hand_the_centre_tile_keeps_its_screen_cell_unless_it_must_move(
    terminal: str, players: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = Settings(
        players=players, partnerships=players == 4, seed=seed, speed=0.0, coach=False
    )
    app = AllFivesApp(settings, speed=0.0, autosave=False)
    async with app.run_test(size=_size(terminal)) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # the new-game screen's Start
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        board = screen.query_one(Board)
        size = board.scrollable_content_region.size
        assert (size.width, size.height) == BOARDS[terminal]
        watch = _Watch(board)
        update_layout = board.update_layout

        def update_and_look(*args: Any, **kwargs: Any) -> None:
            update_layout(*args, **kwargs)  # the board's own, then a look at what it drew
            watch.look()

        monkeypatch.setattr(board, "update_layout", update_and_look)
        boneyard = {screen.query_one(BoneyardCounter).region.height}
        while isinstance(app.screen, GameScreen):
            watch.look()
            boneyard.add(screen.query_one(BoneyardCounter).region.height)
            await take_a_turn(pilot, screen)
            await settle(pilot)
        assert isinstance(app.screen, HandSummaryScreen)
    assert boneyard == {2}
    moved = 0
    for (_, before, tile, cell), (layout, now, new_tile, new_cell) in zip(
        watch.seen, watch.seen[1:], strict=False
    ):
        if new_tile != tile or new_cell == cell:
            continue  # the spinner's arrival: test_board_plan has it
        moved += 1
        assert now.request == before.request
        width, height = now.request
        assert board_plan.fits_around(
            layout, width, height, before.centre, large=before.large
        ) is None
    assert len(watch.seen) > 10
    assert moved <= len(watch.seen) // 2  # each move forced, and the forced ones few


async def test_at_a_large_size_the_hand_is_drawn_in_the_boards_large_tiles() -> None:
    app = AllFivesApp(Settings(seed=3, speed=0.0, coach=False), speed=0.0, autosave=False)
    async with app.run_test(size=(200, 60)) as pilot:
        await pilot.press("enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        hand = screen.query_one(HandView)
        await take_a_turn(pilot, screen)
        await settle(pilot)
        assert screen.query_one(Board).plan.large and hand.large
        glyph = hand.render_line(2).text  # a tile's middle row
        assert glyph.startswith("│ ") or glyph.startswith("┃ ")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not screen.query_one(Board).plan.large and not hand.large
        assert hand.render_line(2).text[:5].count("│") + hand.render_line(2).text[:5].count(
            "┃"
        ) + hand.render_line(2).text[:5].count("┆") == 3


class _Scores(App[None]):
    def compose(self) -> ComposeResult:
        yield Scoreboard()


async def test_the_last_play_that_scored_nothing_says_no_score() -> None:
    states = hand_states(3, 2)
    nothing = next(
        s for s in states
        if s.history and isinstance(s.history[-1].action, Play) and not s.history[-1].points
    )
    scored = next(
        s for s in states
        if s.history and isinstance(s.history[-1].action, Play) and s.history[-1].points
    )
    app = _Scores()
    async with app.run_test(size=(40, 20)) as pilot:
        board = app.query_one(Scoreboard)
        for state, want in ((nothing, "no score"), (scored, f"+{scored.history[-1].points}")):
            board.show(state, ["You", "North"], human=0)
            await pilot.pause()
            rows = [board.render_line(y).text.strip() for y in range(board.size.height)]
            line = next(text for text in rows if text.startswith("Last: "))
            action = state.history[-1].action
            assert isinstance(action, Play)
            tile = action.tile
            name = ("You", "North")[state.history[-1].seat]
            assert line == f"Last: {name} {tile}, {want}"


async def test_the_last_draw_is_yours_or_a_place_s() -> None:
    draws = [s for s in hand_states(1, 2) if s.history and isinstance(s.history[-1].action, Draw)]
    app = _Scores()
    async with app.run_test(size=(40, 20)) as pilot:
        board = app.query_one(Scoreboard)
        for seat, want in ((0, "Last: You draw"), (1, "Last: North draw")):
            state = next(s for s in draws if s.history[-1].seat == seat)
            board.show(state, [None, None], human=0)
            await pilot.pause()
            rows = [board.render_line(y).text.strip() for y in range(board.size.height)]
            assert want in rows, rows


def _first_state(players: int, want: Any) -> Any:
    """The first state of a seeded hand where seat 0 is to act and ``want(state)`` holds."""
    for seed in range(60):
        for state in hand_states(seed, players):
            if state.current == 0 and want(state):
                return state
    raise AssertionError("no such state")


def _said(app: AllFivesApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def _at(state: Any, keys: list[str]) -> list[str]:
    app = AllFivesApp(
        Settings(speed=0.0, coach=False), resume=record_of(state), speed=0.0, autosave=False
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, GameScreen) and app.screen.human_turn()
        said = []
        for key in keys:
            before = len(app._notifications)
            await pilot.press(key)
            await pilot.pause()
            said.append(_said(app)[before:][-1] if len(app._notifications) > before else "")
        assert app.screen.human_turn()  # nothing was done
        return said


async def test_draw_and_pass_say_why_not_while_a_tile_fits() -> None:
    state = _first_state(2, lambda s: any(isinstance(a, Play) for a in s.legal_actions()))
    said = await _at(state, ["d", "p"])
    assert said == [
        "A tile fits an open end: you draw only when nothing fits.",
        "A tile fits an open end: you pass only when nothing fits and the boneyard is empty.",
    ]


async def test_enter_and_pass_say_why_not_when_nothing_fits() -> None:
    state = _first_state(2, lambda s: isinstance(s.legal_actions()[0], Draw))
    said = await _at(state, ["enter", "p"])
    assert said == [
        "Nothing fits an open end: press d to draw.",
        "Nothing fits, but the boneyard has tiles: press d to draw.",
    ]


async def test_ctrl_c_says_how_to_quit() -> None:
    app = AllFivesApp(Settings(speed=0.0, coach=False), speed=0.0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert _said(app) == [
            "ctrl+c does not quit: press ctrl+q to quit (a game in progress is kept)."
        ]
        assert app.is_running


async def test_a_chosen_theme_survives_q_and_continue(data_dir: Path) -> None:
    from allfives_tui.store.saves import load_current
    from allfives_tui.store.settings_file import load_settings

    app = AllFivesApp(speed=0.0)  # the remembered settings, as `allfives` reads them
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # Start
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        assert app.theme != "solarized-light"
        app.theme = "solarized-light"  # as the palette's "Change theme" sets it
        await pilot.pause()
        await pilot.press("q")  # quit, the game kept
    assert load_settings().theme == "solarized-light"
    resume = load_current()
    assert resume is not None
    again = AllFivesApp(resume=resume, speed=0.0)  # `allfives --continue`
    async with again.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(again.screen, GameScreen)
        assert again.theme == "solarized-light"
    fresh = AllFivesApp(speed=0.0)  # and a new game from the new-game screen keeps it too
    async with fresh.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert fresh.theme == "solarized-light"
        await pilot.press("enter")
        await settle(pilot)
    assert load_settings().theme == "solarized-light"


async def test_two_to_four_players_and_back_keeps_each_places_level() -> None:
    from textual.widgets import Select

    from allfives_tui.ui.screens.new_game import NewGameScreen

    app = AllFivesApp(Settings(players=2, levels=["expert", "random", "random"]), speed=0.0)
    async with app.run_test(size=(80, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)

        def levels() -> list[object]:
            return [screen.query_one(f"#level-{i}", Select).value for i in range(3)]

        players = screen.query_one("#players", Select)
        players.value = 4  # West, North, East
        await pilot.pause()
        assert levels()[1] == "expert"  # North is the second row now
        screen.query_one("#level-0", Select).value = "greedy"  # West
        screen.query_one("#level-2", Select).value = "master"  # East
        await pilot.pause()
        players.value = 2  # North alone
        await pilot.pause()
        assert levels()[0] == "expert"
        screen.query_one("#level-0", Select).value = "heuristic"
        await pilot.pause()
        players.value = 4
        await pilot.pause()
        assert levels() == ["greedy", "heuristic", "master"]
        players.value = 3  # West and East
        await pilot.pause()
        assert levels()[:2] == ["greedy", "master"]
        settings = screen.read_settings()
        assert settings.players == 3 and settings.levels[:2] == ["greedy", "master"]
