"""The replay screen under a real app: stepping, jumping, the move list, the seat view."""

from __future__ import annotations

import re

from textual.pilot import Pilot
from textual.widgets import Static

from allfives_tui.table.replay import Replay, status_line
from allfives_tui.ui.screens.replay import SPEEDS, ReplayScreen
from allfives_tui.ui.screens.replay_app import ReplayApp
from allfives_tui.ui.widgets import Board, HandView, Scoreboard
from allfives_tui.ui.widgets.hand import display_order
from allfives_tui.ui.widgets.move_list import MoveList
from engine import Tile, parse_tile
from engine.record import parse_record
from tests.records import SMALL_RECORD, game_record
from tests.ui.helpers import until
from tests.ui.test_replay_snapshot import FOUR

SIZE = (100, 32)


def small_app() -> ReplayApp:
    return ReplayApp(Replay(parse_record(SMALL_RECORD)), title="small.json")


def screen_text(pilot: Pilot[None]) -> str:
    """What the terminal shows, one line per row."""
    return "\n".join(s.text for s in pilot.app.screen._compositor.render_strips())


def event_line(pilot: Pilot[None]) -> str:
    """The words under the board (one paragraph, however it wraps)."""
    return str(pilot.app.screen.query_one("#replay-event", Static).render())


def shown_scores(pilot: Pilot[None]) -> dict[str, int]:
    """The scores the scoreboard shows, by seat name (two-player games: the first number)."""
    region = pilot.app.screen.query_one(Scoreboard).region
    rows = screen_text(pilot).splitlines()[region.y : region.bottom]
    found = {}
    for row in rows:
        match = re.match(r"\W*(Ann|Bob)\b\D*?(-?\d+)", row[region.x : region.right])
        if match:
            found[match[1]] = int(match[2])
    return found


def board_tiles(screen: ReplayScreen) -> list[str]:
    """The tiles on the board widget, lead first."""
    return [str(t) for t in screen.query_one(Board).tableau.tiles()]


def tiles(*texts: str) -> tuple[Tile, ...]:
    return tuple(parse_tile(t) for t in texts)


async def test_step_forward_and_back() -> None:
    async with small_app().run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, ReplayScreen)
        assert screen.index == 0
        assert board_tiles(screen) == []
        assert screen.query_one("#hand-0", HandView).tiles == tiles(  # as the game sorts them
            "6-4", "4-2", "3-1", "2-2", "0-0"
        )
        text = screen_text(pilot)
        assert "hand 1 of 2 · deal · step 1/19" in text
        assert "Hand 1 dealt; You lead." in event_line(pilot)

        await pilot.press("right")
        assert screen.index == 1
        assert board_tiles(screen) == ["6-4"]
        assert shown_scores(pilot) == {"Ann": 10, "Bob": 0}
        text = screen_text(pilot)
        assert "You lead 6-4 — ends total 10: +10." in event_line(pilot)
        assert screen.query_one("#hand-0", HandView).tiles == tiles("4-2", "3-1", "2-2", "0-0")

        await pilot.press("right", "right", "right", "right")
        assert screen.index == 5
        assert board_tiles(screen) == ["6-4", "4-2", "2-2", "6-6", "6-1"]
        assert screen.query_one(Board).tableau.spinner == parse_tile("6-6")
        assert "You play 2-2 on the west end — ends total 5: +5." in event_line(pilot)
        assert shown_scores(pilot) == {"Ann": 15, "Bob": 0}

        await pilot.press("left", "left")
        assert screen.index == 3
        assert board_tiles(screen) == ["6-4", "4-2", "6-6"]
        assert shown_scores(pilot) == {"Ann": 10, "Bob": 0}
        assert "You play 4-2 on the west end — ends total 14." in event_line(pilot)

        await pilot.press("left", "left", "left", "left")  # stops at the first deal
        assert screen.index == 0
        assert board_tiles(screen) == []


async def test_draws_the_end_of_a_hand_and_the_game() -> None:
    async with small_app().run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, ReplayScreen)
        screen.go(9)
        await pilot.pause()
        assert "You draw 1-0 from the boneyard: it fits and must be played." in event_line(pilot)
        assert screen.query_one("#hand-0", HandView).tiles == tiles("1-0", "0-0")
        await pilot.press("right", "right", "right", "right", "right")
        assert screen.index == 14
        assert "You go out: hand 1 is over." in event_line(pilot)
        assert "Left in hand: Bob 18 pips, -20." in event_line(pilot)
        assert shown_scores(pilot) == {"Ann": 15, "Bob": -15}
        await pilot.press("end")
        assert screen.index == 18
        assert board_tiles(screen) == ["5-5", "5-0", "0-0"]
        assert "You win the game: You 35, Bob -5." in event_line(pilot)
        assert shown_scores(pilot) == {"Ann": 35, "Bob": -5}
        await pilot.press("right")  # nothing after the end
        assert screen.index == 18
        await pilot.press("home")
        assert screen.index == 0
        assert board_tiles(screen) == []


async def test_page_keys_jump_between_hands() -> None:
    async with small_app().run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("pagedown")
        assert screen.index == 15
        assert screen.frame.hand == 2 and screen.frame.move == 0
        assert board_tiles(screen) == []
        assert shown_scores(pilot) == {"Ann": 15, "Bob": -15}
        assert screen.query_one("#hand-1", HandView).tiles == tiles(
            "5-0", "3-1", "3-0", "2-2", "2-1"
        )
        await pilot.press("pagedown")  # in the last hand: to the end
        assert screen.index == 18
        await pilot.press("pageup")  # back to this hand's deal
        assert screen.index == 15
        await pilot.press("pageup")  # then the previous hand's
        assert screen.index == 0
        await pilot.press("right", "right", "pageup")
        assert screen.index == 0


async def test_move_list_jumps_by_click_and_by_enter() -> None:
    async with small_app().run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, ReplayScreen)
        moves = screen.query_one(MoveList)
        assert moves.has_focus
        # line 0 is "Hand 1", line 1 the deal, line k+1 move k: click move 8 ("4-3 W")
        option = moves.option_index(8)
        assert option == 9
        await pilot.click(MoveList, offset=(5, option - int(moves.scroll_offset.y)))
        await pilot.pause()
        assert screen.index == 8
        assert screen.query_one(Board).last == parse_tile("4-3")
        assert shown_scores(pilot) == {"Ann": 15, "Bob": 5}
        assert moves.highlighted == 9
        # keyboard: down moves the highlight only; Enter jumps
        await pilot.press("down", "down")
        assert screen.index == 8
        await pilot.press("enter")
        assert screen.index == 10
        assert screen.frame.text == "1-0 E"
        # stepping moves the highlight along, skipping the hand heading
        await pilot.press("pagedown")
        assert screen.index == 15
        assert moves.highlighted == moves.option_index(15) == 17
        assert moves.frame_at(16) == 15  # the "Hand 2" heading picks its deal
        await pilot.press("home")
        assert moves.highlighted == 1
        await pilot.click(MoveList, offset=(3, 16 - int(moves.scroll_offset.y)))
        await pilot.pause()
        assert screen.index == 15
        assert screen.frame.hand == 2 and screen.frame.move == 0


async def test_seat_view_hides_the_other_hands() -> None:
    async with small_app().run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, ReplayScreen)
        screen.go(11)  # Bob draws 5-3
        await pilot.pause()
        assert "Bob draws 5-3 from the boneyard." in event_line(pilot)
        await pilot.press("v")
        assert screen.viewer == 0
        assert screen.query_one("#hand-0", HandView).tiles == tiles("0-0")
        assert screen.query_one("#hand-1", HandView).tiles == ()
        text = screen_text(pilot)
        assert "(face down)" in text
        assert "2 tiles" in text
        assert "Bob draws a tile from the boneyard." in event_line(pilot)
        assert "Bob draws 5-3" not in event_line(pilot)
        assert "your view" in text
        await pilot.press("v")
        assert screen.viewer == 1
        assert screen.query_one("#hand-0", HandView).tiles == ()
        assert screen.query_one("#hand-1", HandView).tiles == tiles("5-5", "5-3")
        await pilot.press("v")
        assert screen.viewer is None
        assert len(screen.query_one("#hand-0", HandView).tiles) == 1


async def test_autoplay_and_speed() -> None:
    async with small_app().run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, ReplayScreen)
        for _ in range(3):
            await pilot.press("plus")
        assert screen.speed == len(SPEEDS) - 1
        await pilot.press("minus")
        await pilot.press("plus")
        await pilot.press("space")
        assert screen.playing
        assert "▶ playing" in screen_text(pilot)
        await until(pilot, lambda: screen.index >= 2)
        await pilot.press("space")
        assert not screen.playing
        assert screen._timer is None  # no step is due: the replay stays where it stopped
        assert "▶ playing" not in screen_text(pilot)


async def test_close_ends_the_replay_app() -> None:
    app = small_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0


async def test_long_game_last_frame_matches_the_record() -> None:
    record = game_record(players=4, seed=3, partnerships=True)
    async with ReplayApp(record).run_test(size=(120, 40)) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("end")
        final = record.final_state()
        assert screen.query_one(Board).tableau == final.layout
        assert screen.frame.state.scores == final.scores
        for seat in range(4):
            shown = screen.query_one(f"#hand-{seat}", HandView).tiles
            assert shown == tuple(display_order(final.hands[seat]))
        await pilot.press("pageup", "pageup")
        assert screen.frame.hand == len(record.hands) - 1
        assert screen.frame.move == 0


def scoreboard_text(pilot: Pilot[None]) -> list[str]:
    """The scoreboard's rows as shown."""
    region = pilot.app.screen.query_one(Scoreboard).region
    rows = screen_text(pilot).splitlines()[region.y : region.bottom]
    return [row[region.x : region.right] for row in rows]


async def test_scores_drawn_ahead_match_scores_drawn_on_the_spot() -> None:
    """Stepping shows scoreboards drawn in idle time: the same as drawing them on arrival."""
    record = parse_record(FOUR.read_text())
    stepped: dict[int, list[str]] = {}
    async with ReplayApp(record).run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("pagedown")
        for _ in range(4):
            await pilot.press("right")
            await pilot.pause()
            stepped[screen.index] = scoreboard_text(pilot)
        await pilot.press("left")
        await pilot.pause()
        stepped[screen.index] = scoreboard_text(pilot)
    for index, rows in stepped.items():
        async with ReplayApp(record, start=index).run_test(size=SIZE) as pilot:
            await pilot.pause()
            fresh = pilot.app.screen
            assert isinstance(fresh, ReplayScreen)
            assert fresh.index == index
            assert scoreboard_text(pilot) == rows, index


async def test_the_header_is_fitted_to_the_width_its_line_has_once_laid_out() -> None:
    """The status line is worded for the width its widget has, from the first layout on
    and whenever that width changes, even while the screen keeps its size (as when the
    screen's styles come after its first layout): never for a width it had before."""
    replay = Replay(parse_record(SMALL_RECORD))
    async with ReplayApp(replay, start=4, title="small.json").run_test(size=(110, 36)) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, ReplayScreen)
        status = screen.query_one("#replay-status", Static)

        def fitted(width: int) -> str:
            return status_line(replay, screen.index, source="small.json", width=width)

        assert not fitted(58).startswith("Replay"), "a narrow line goes without the word"
        await until(pilot, lambda: status.size.width == 108)
        await pilot.pause()
        assert str(status.render()) == fitted(108)
        assert str(status.render()).startswith("Replay · small.json")
        for outer, inner in ((60, 58), (None, 108), (60, 58)):
            status.styles.width = outer  # narrowed, then as wide as the screen again

            def fits(w: int = inner) -> bool:
                return status.size.width == w

            await until(pilot, fits)
            await pilot.pause()
            assert str(status.render()) == fitted(inner), (outer, inner)


async def test_the_header_is_fitted_to_the_width_it_has_after_a_resize() -> None:
    """Widened, the status line says all it now has room for ("Replay" first of all);
    narrowed, it goes without what no longer fits."""
    replay = Replay(parse_record(SMALL_RECORD))
    async with ReplayApp(replay, start=4, title="small.json").run_test(size=(60, 36)) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, ReplayScreen)
        status = screen.query_one("#replay-status", Static)

        def fitted(width: int) -> str:
            return status_line(replay, screen.index, source="small.json", width=width)

        for width, height in ((110, 36), (60, 24), (110, 36)):
            await pilot.resize_terminal(width, height)

            def fits(w: int = width) -> bool:
                return status.size.width == w - 2

            await until(pilot, fits)
            await pilot.pause()
            assert str(status.render()) == fitted(width - 2), (width, height)
