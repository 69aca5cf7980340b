"""What the screens show, asserted on the rendered cells and their styles (issue 14,
items 12 to 18): the end being chosen, the "enlarge" message, the new-game form,
the log, the game-over screen, themes and the footer."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rich.style import Style
from textual.app import App
from textual.widgets import Input

from allfives_tui.screenshots import mid_game, random_play
from allfives_tui.table.board_geometry import Rect
from allfives_tui.table.settings import Settings
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.game import GameScreen
from allfives_tui.ui.screens.help import help_text
from allfives_tui.ui.widgets import Board, EventLog, HandView
from allfives_tui.ui.widgets.hand import display_order
from engine import End, Tile, parse_tile
from engine.record import GameRecord
from tests.records import DATA, record_of, two_ends_record
from tests.ui.helpers import screen_text, settle

Cell = tuple[str, Style]


def cells(app: App[Any]) -> list[list[Cell]]:
    """The screen as rows of (character, style) cells."""
    rows = []
    for strip in app.screen._compositor.render_strips():
        row: list[Cell] = []
        for segment in strip:
            style = segment.style or Style()
            row.extend((ch, style) for ch in segment.text)
        rows.append(row)
    return rows


def find(app: App[Any], text: str) -> Iterator[list[Cell]]:
    """The cells of each place ``text`` shows on screen."""
    for row in cells(app):
        line = "".join(ch for ch, _ in row)
        start = line.find(text)
        while start >= 0:
            yield row[start : start + len(text)]
            start = line.find(text, start + 1)


def style_of(app: App[Any], text: str) -> Style:
    """The one style every cell of ``text`` (shown once) is drawn in."""
    places = list(find(app, text))
    assert len(places) == 1, f"{text!r} shows {len(places)} times"
    styles = {style for _, style in places[0]}
    assert len(styles) == 1, styles
    return styles.pop()


def game(app: App[Any]) -> GameScreen:
    screen = app.screen
    assert isinstance(screen, GameScreen), type(screen)
    return screen


def resume(record: GameRecord) -> AllFivesApp:
    return AllFivesApp(Settings(speed=0.0), resume=record, speed=0.0, autosave=False)


# -- item 12: choosing among several ends --------------------------------------


async def test_the_chosen_end_stands_out_and_the_prompt_names_it() -> None:
    app = resume(two_ends_record())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game(app)
        # before choosing: both ends the tile fits are marked alike
        assert style_of(app, "▸W:5◂") == style_of(app, "▸E:5◂")
        await pilot.press("enter")
        assert screen.choosing == (End.W, End.E)
        await pilot.pause()
        chosen = style_of(app, "▶W:5◀")
        other = style_of(app, "▹E:5◃")
        # the chosen end's style is used by no other cell on the screen
        everywhere = [style for row in cells(app) for _, style in row]
        assert everywhere.count(chosen) == len("▶W:5◀")
        # and it is the most prominent: a bright background, bold; the other end has neither
        assert chosen.bold and chosen.bgcolor is not None
        assert not other.bold and other.bgcolor != chosen.bgcolor
        text = screen_text(app)
        assert "⏎ plays 5-3 on the west end (no score)" in text
        assert "east (no score)" in text and "Esc back" in text
        await pilot.press("right")
        await pilot.pause()
        assert style_of(app, "▶E:5◀") == chosen and style_of(app, "▹W:5◃") == other
        assert "⏎ plays 5-3 on the east end" in screen_text(app)
        await pilot.press("w")
        await pilot.pause()
        assert "⏎ plays 5-3 on the west end" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        move = screen.view().history[1]
        assert (str(move.action), move.seat) == ("5-3 W", 0)


async def test_help_explains_the_end_markers() -> None:
    text = help_text()
    for marker in ("▸W:5◂", "▶W:5◀", "▹W:5◃"):
        assert marker in text
    assert "⏎` plays the tile **here**" in text


def test_help_in_a_browser_says_what_saving_and_quitting_do_there() -> None:
    terminal, browser = help_text(), help_text(served=True)
    assert "allfives --continue" in terminal and "save a copy of the game where" in terminal
    assert "allfives --continue" not in browser and "where you say" not in browser
    assert "download a copy of the game" in browser and "cannot be continued" in browser
    assert terminal.count("\n") == browser.count("\n"), "the same keys, said otherwise"


async def test_the_prompt_fits_when_a_tile_fits_four_ends() -> None:
    state = random_play(73, 14)  # 4-0 fits west, north, east and south
    tile = parse_tile("4-0")
    for width in (80, 100, 140):
        app = resume(record_of(state))
        async with app.run_test(size=(width, 30)) as pilot:
            await settle(pilot)
            screen = game(app)
            assert len(screen.choices().ends_for(tile)) == 4
            await pilot.press(str(screen.shown_hand().index(tile) + 1), "enter")
            await pilot.pause()
            prompt = screen.prompt_text(width - 2)
            assert len(prompt) <= width - 2
            assert prompt.startswith("⏎ plays 4-0 on the west end")
            assert prompt.endswith("Esc back")
            assert prompt in screen_text(app)  # shown whole, on one row
            if width >= 100:
                assert "north" in prompt and "east" in prompt and "south" in prompt
            await pilot.press("down")
            await pilot.pause()
            assert "⏎ plays 4-0 on the north end" in screen_text(app)
            assert screen.query_one(Board).cursor is End.N


async def test_a_narrow_prompt_says_what_enter_does_in_fewer_words() -> None:
    app = resume(record_of(mid_game()))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game(app)
        await pilot.press("right")  # 5-2: it fits one end
        await pilot.pause()
        assert screen.prompt_text() == (
            "Your turn: ←→ or 1-9 choose, ⏎ plays 5-2 on the east end (no score)"
        )
        assert screen.prompt_text(50) == "⏎ plays 5-2 on the east end (no score)"
        await pilot.press("left")  # 6-4: two ends
        await pilot.pause()
        assert screen.prompt_text(50) == "⏎ plays 6-4 (it fits 2 ends)"


# -- item 13: nothing acts behind the "enlarge" message --------------------------


async def test_keys_and_clicks_do_not_act_behind_the_enlarge_message() -> None:
    app = resume(two_ends_record())
    async with app.run_test(size=(60, 18)) as pilot:
        await settle(pilot)
        screen = game(app)
        assert "Please enlarge the terminal" in screen_text(app)
        before = screen.step
        assert screen.human_turn() and screen.selected_tile() == parse_tile("5-3")
        await pilot.press("enter", "enter", "e", "enter", "right", "3", "d", "ctrl+p")
        for x, y in ((5, 16), (30, 8), (10, 14)):
            await pilot.click(offset=(x, y))
            await pilot.click(offset=(x, y))
        await pilot.pause()
        assert screen.step == before, "nothing was played"
        assert screen.selected_tile() == parse_tile("5-3") and screen.choosing == ()
        assert app.screen is screen, "no palette, no other screen"
        # help opens (and closes) behind the message; the game then goes on at full size
        await pilot.press("question_mark")
        assert type(app.screen).__name__ == "HelpScreen"
        await pilot.press("escape")
        assert app.screen is screen
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert "enlarge" not in screen_text(app)
        await pilot.press("enter", "enter")
        await pilot.pause()
        assert len(screen.view().history) >= 2, "the keys act again"
        # and quitting works behind the message
        await pilot.resize_terminal(60, 18)
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
    assert not app.is_running


async def test_a_summary_is_not_dismissed_behind_the_enlarge_message() -> None:
    from tests.ui.helpers import random_hands

    app = resume(record_of(random_hands(3)))
    async with app.run_test(size=(60, 18)) as pilot:
        await pilot.pause()
        summary = app.screen
        assert type(summary).__name__ == "HandSummaryScreen"
        await pilot.press("enter", "space")
        await pilot.click(offset=(30, 9))
        await pilot.pause()
        assert app.screen is summary and app.table is not None
        assert app.table.state.hand_number == 1


# -- item 14: the new-game screen ------------------------------------------------


def row_of(app: App[Any], label: str) -> list[Cell]:
    """The cells of the form's row that starts with ``label``."""
    for row in cells(app):
        line = "".join(ch for ch, _ in row)
        if f"  {label}  " in line:
            return row
    raise AssertionError(f"no row {label!r}")


def value_style(app: App[Any], label: str, value: str) -> Style:
    row = row_of(app, label)
    line = "".join(ch for ch, _ in row)
    start = line.index(value)
    return row[start][1]


async def test_four_players_show_the_four_player_hand_size() -> None:
    app = AllFivesApp(Settings(speed=0.0, players=2), speed=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "standard: 9 each" in screen_text(app)
        await pilot.click("#players")
        await pilot.pause()
        await pilot.press("down", "down", "enter")  # 4 players
        await pilot.pause()
        text = screen_text(app)
        assert "4 players" in text
        assert "standard: 5 each" in text and "9 each" not in text
        await pilot.click("#players")
        await pilot.press("up", "enter")  # 3 players
        await pilot.pause()
        assert "standard: 7 each" in screen_text(app)


async def test_the_focused_field_stands_out_and_an_open_dropdown_is_boxed() -> None:
    app = AllFivesApp(Settings(speed=0.0, players=2), speed=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.screen.query_one("#hand-size").focus()
        await pilot.pause()
        focused = value_style(app, "Tiles per hand", "standard: 9 each")
        players = value_style(app, "Players", "2 players")
        pace = value_style(app, "Computer pace", "instant")
        label = value_style(app, "Tiles per hand", "Tiles per hand")
        assert players.bgcolor == pace.bgcolor, "every unfocused field alike"
        assert players.bgcolor != label.bgcolor, "a field is a box on the panel"
        assert focused.bgcolor not in (players.bgcolor, label.bgcolor) and focused.bold
        await pilot.press("enter")  # open the dropdown
        await pilot.pause()
        lines = screen_text(app).splitlines()
        top = next(i for i, line in enumerate(lines) if "Tiles per hand" in line)
        assert "╭" in lines[top + 1] and "╮" in lines[top + 1]
        for option in ("standard: 9 each", "five each: 5 each", "seven-five: 7 each"):
            line = next(line for line in lines if option in line and "Tiles" not in line)
            assert line.count("│") >= 2, line  # inside the box, not a row of the form
        assert "╰" in lines[top + 5]


# -- item 15: the log's first line names partners as partners -------------------


def game_log(app: App[Any]) -> EventLog:
    """The log of the game screen (under any dialog)."""
    screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
    return screen.query_one(EventLog)


def log_text(app: App[Any]) -> str:
    """Every line of the game's log, as one text (wrapped lines joined)."""
    log = game_log(app)
    return " ".join(" ".join(strip.text.split()) for strip in log.lines)


async def test_the_log_opens_with_the_partner_and_the_opponents() -> None:
    for partnerships, opening in (
        (True, "New game with North against West & East, to 200 points."),
        (False, "New game against West, North, East, to 200 points."),
    ):
        settings = Settings(players=4, partnerships=partnerships, seed=7, speed=5.0)
        app = AllFivesApp(settings, start=True, speed=5.0, autosave=False)
        async with app.run_test(size=(140, 40)) as pilot:
            await pilot.pause()
            assert opening in log_text(app)


# -- item 16: the log shows its newest line whole, and wraps again on a resize ----


def log_rows(app: App[Any]) -> list[str]:
    """The rows of the log as shown on screen, down to the last one written."""
    log = game_log(app)
    region = log.scrollable_content_region  # without the scrollbar
    rows = screen_text(app).splitlines()[region.y : region.y + region.height]
    shown = [row[region.x : region.x + region.width].rstrip() for row in rows]
    while shown and not shown[-1]:
        shown.pop()
    return shown


def assert_newest_line_shown_whole(app: App[Any]) -> None:
    log = game_log(app)
    width = log.scrollable_content_region.width
    assert not log.show_horizontal_scrollbar
    assert all(strip.cell_length <= width for strip in log.lines)
    assert log.scroll_y == log.max_scroll_y
    last = [strip.text.rstrip() for strip in log.lines[-3:]]
    assert log_rows(app)[-3:] == last, (log_rows(app)[-3:], last)


async def test_the_log_wraps_again_after_a_resize_and_shows_the_newest_line() -> None:
    settings = Settings(players=2, seed=5, speed=0.0, auto_draw=True)
    app = AllFivesApp(settings, start=True, speed=0.0, autosave=False)
    async with app.run_test(size=(140, 40)) as pilot:
        for _ in range(8):
            await settle(pilot)
            await pilot.press("enter")
            if game(app).choosing:
                await pilot.press("enter")
        await settle(pilot)
        words = log_text(app)
        assert_newest_line_shown_whole(app)
        for size in ((100, 30), (80, 24), (200, 60), (120, 30), (81, 22)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            await pilot.pause()
            assert_newest_line_shown_whole(app)
            assert log_text(app) == words, "every word still there, wrapped anew"


async def test_the_game_over_line_shows_whole_at_200x60() -> None:
    from tests.ui.helpers import random_hands

    app = resume(record_of(random_hands(5, target=60, hands=20)))
    async with app.run_test(size=(200, 60)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert type(app.screen).__name__ == "GameOverScreen"
        assert "North wins the game" in log_text(app)
        assert_newest_line_shown_whole(app)
        shown = " ".join(" ".join(row.split()) for row in log_rows(app))
        assert shown.endswith("North wins the game: North 60, You 15.")


# -- item 17: the game-over screen's keys; the drawn tile stays selected ----------


async def test_ctrl_s_saves_a_copy_from_the_game_over_screen(tmp_path: Path) -> None:
    from allfives_tui.ui.screens.game_over import GameOverScreen
    from allfives_tui.ui.screens.save_as import SaveAsScreen
    from tests.ui.helpers import random_hands

    app = resume(record_of(random_hands(5, target=60, hands=20)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        over = app.screen
        assert isinstance(over, GameOverScreen)
        footer = screen_text(app).splitlines()[-1]
        assert "^s Save" in footer and "n New game" in footer
        assert "Draw" not in footer and "Tile" not in footer, "the game's keys are not shown"
        await pilot.press("ctrl+s")
        dialog = app.screen
        assert isinstance(dialog, SaveAsScreen)
        target = tmp_path / "finished.json"
        dialog.query_one(Input).value = str(target)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is over and target.is_file()
        await pilot.press("question_mark")
        assert type(app.screen).__name__ == "HelpScreen"


async def test_open_replay_says_a_game_is_in_progress_only_while_it_is() -> None:
    from tests.ui.helpers import random_hands

    finished = random_hands(5, target=60, hands=20)
    for state, in_progress in ((random_play(3, 4), True), (finished, False)):
        app = AllFivesApp(Settings(speed=5.0), resume=record_of(state), speed=5.0)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert app.saver is not None
            app.saver.flush()
            app.action_open_replay()
            await pilot.pause()
            assert type(app.screen).__name__ == "OpenReplayScreen"
            assert ("The game in progress is saved in" in screen_text(app)) is in_progress


async def test_the_drawn_tile_stays_selected_so_enter_plays_it() -> None:
    from tests.records import dealt_record
    from tests.ui.test_play import BONEYARD, NO_FIVES, NORTH

    for auto_draw in (False, True):
        app = AllFivesApp(
            Settings(speed=0.0, auto_draw=auto_draw),
            resume=dealt_record(NO_FIVES, NORTH, BONEYARD),
            speed=0.0,
            autosave=False,
        )
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            screen = game(app)
            if not auto_draw:
                await pilot.press("right", "right", "d", "d", "d")
            drawn = parse_tile("5-3")
            assert screen.view().must_play == drawn and screen.selected_tile() == drawn
            hand = screen.query_one(HandView)
            await pilot.press("right", "left", "3", "1")
            await pilot.click(HandView, offset=hand.tile_offset(0))
            await pilot.pause()
            assert screen.selected_tile() == drawn, "the drawn tile stays selected"
            assert "You drew 5-3: it fits, so it must be played now (⏎)" in screen_text(app)
            assert screen.check_action("next", ()) is None  # shown dimmed
            await pilot.press("enter")  # it fits west and east: which end?
            assert screen.choosing == (End.W, End.E)
            await pilot.press("right", "enter")
            await pilot.pause()
            assert str(screen.view().history[4].action) == "5-3 E"


# -- item 18: themes, the spinner and the last tile, a steady board, the footer, replays


def board_blanks(app: App[Any]) -> set[str | None]:
    """The background colours of the board's cells that no tile or end marker covers."""
    board = game(app).query_one(Board)
    region = board.scrollable_content_region
    covered = [g.rect for g in board.plan.glyphs] + [m.rect for m in board.plan.markers]
    sx, sy = int(board.scroll_x), int(board.scroll_y)
    rows = cells(app)
    return {
        hex_of(rows[region.y + y][region.x + x][1])
        for y in range(region.height)
        for x in range(region.width)
        if not any(r.contains(x + sx, y + sy) for r in covered)
    }


def hex_of(style: Style) -> str | None:
    color = style.bgcolor
    return None if color is None or color.triplet is None else color.triplet.hex.lower()


async def test_the_board_follows_a_light_theme() -> None:
    from allfives_tui.screenshots import mid_game

    app = resume(record_of(mid_game()))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for theme in ("textual-light", "solarized-light", "textual-dark"):
            app.theme = theme
            await pilot.pause()
            surface = app.theme_variables["surface"].lower()
            assert board_blanks(app) == {surface}, theme
        app.theme = "textual-light"
        await pilot.pause()
        await pilot.press("enter")  # a move redraws rows: in the light theme too
        if game(app).choosing:
            await pilot.press("enter")
        await settle(pilot)
        assert board_blanks(app) == {app.theme_variables["surface"].lower()}


async def test_the_spinner_and_the_last_tile_look_different_in_every_theme() -> None:
    from allfives_tui.screenshots import mid_game

    state = mid_game()
    app = resume(record_of(state))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = game(app)
        board = screen.query_one(Board)
        spinner = next(g for g in board.plan.glyphs if g.spinner)
        last = next(g for g in board.plan.glyphs if g.tile == screen.last_tile)
        assert spinner.tile != last.tile
        region = board.scrollable_content_region

        def look(rows: list[list[Cell]], rect: Rect) -> tuple[object, object]:
            """The colours of a tile's top-left border corner."""
            x, y = rect.x0 - int(board.scroll_x), rect.y0 - int(board.scroll_y)
            _, style = rows[region.y + y][region.x + x]
            return (style.color, style.bgcolor)

        for theme in sorted(app.available_themes):
            app.theme = theme
            await pilot.pause()
            rows = cells(app)
            assert look(rows, spinner.rect) != look(rows, last.rect), theme


async def test_the_board_keeps_its_tiles_in_place_from_move_to_move() -> None:
    for size in ((80, 24), (100, 30), (200, 60)):
        settings = Settings(players=2, seed=2, speed=0.0, auto_draw=True)
        app = AllFivesApp(settings, start=True, speed=0.0, autosave=False)
        async with app.run_test(size=size) as pilot:
            moves = moved = 0
            before: dict[Tile, Rect] | None = None
            while True:
                await settle(pilot)
                if not isinstance(app.screen, GameScreen):
                    break
                now = app.screen.query_one(Board).plan.cells()
                if before is not None:
                    moves += 1
                    moved += any(now.get(t, r) != r for t, r in before.items())
                before = dict(now)
                await pilot.press("enter")
                if isinstance(app.screen, GameScreen) and app.screen.choosing:
                    await pilot.press("enter")
            assert moves >= 6 and moved == 0, (size, moves, moved)


async def test_the_footer_dims_end_with_its_keys() -> None:
    app = resume(two_ends_record())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        keys, label = find(app, "nesw"), find(app, "End ")
        dim_keys, dim_label = next(keys)[0][1], next(label)[0][1]
        await pilot.press("enter")  # choosing: the end keys act
        await pilot.pause()
        lit_keys, lit_label = next(find(app, "nesw"))[0][1], next(find(app, "End "))[0][1]
        assert dim_keys != lit_keys and dim_label != lit_label
        await pilot.press("escape")
        await pilot.pause()
        assert next(find(app, "End "))[0][1] == dim_label


async def test_a_four_player_replay_shows_every_hand_sorted() -> None:
    from allfives_tui.table.replay import Replay
    from allfives_tui.ui.screens.replay import ReplayScreen
    from allfives_tui.ui.screens.replay_app import ReplayApp
    from engine.record import parse_record

    four = DATA / "four.json"
    for size in ((80, 24), (100, 30), (140, 44)):
        app = ReplayApp(Replay(parse_record(four.read_text())), title="four.json")
        async with app.run_test(size=size) as pilot:
            await pilot.press("right", "right", "right")
            await pilot.pause()
            text = screen_text(app)
            replay = app.screen
            assert isinstance(replay, ReplayScreen), type(replay)
            state = replay.frame.state
            for seat, name in enumerate(("Ann", "Bob", "Cat", "Dan")):
                hand = app.screen.query_one(f"#hand-{seat}", HandView)
                assert hand.tiles == tuple(display_order(state.hands[seat]))
                assert hand.region.bottom <= app.screen.query_one("#replay-hands").region.bottom
                assert name in text
                if size != (140, 44):  # one row a hand: the tiles read in order
                    lines = text.splitlines()
                    row = next(line for line in lines if line[2:].startswith(f"{name} "))
                    assert " ".join(f"[{t.high}|{t.low}]" for t in hand.tiles) in row
            hands_box = app.screen.query_one("#replay-hands")
            assert hands_box.max_scroll_y == 0, "every hand in view, no scrolling"
