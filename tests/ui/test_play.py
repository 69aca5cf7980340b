"""Playing through the real app: keyboard only, mouse only, ends, drawing, summaries."""

from __future__ import annotations

import time

from textual.widgets._footer import FooterKey

from allfives_tui.store.saves import load_current
from allfives_tui.table.settings import Settings
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.game import GameScreen
from allfives_tui.ui.screens.hand_summary import HandSummaryScreen
from allfives_tui.ui.widgets import Board, HandView
from engine import Action, Draw, End, Pass, Phase, Play, parse_tile
from engine.record import GameRecord
from tests.records import dealt_record, two_ends_record
from tests.ui.helpers import palette_offers, screen_text, settle, take_a_turn

# A deal where North (greedy) leads the 5-5 spinner and you hold no 5: you
# draw 1-1 and 4-2, which fit nowhere, then 5-3, which fits both sides of
# the spinner and must be played at once.
NORTH = ["5-5", "1-0", "2-1", "3-2", "4-3", "6-2", "6-1", "3-1", "4-1"]
NO_FIVES = ["0-0", "2-0", "3-0", "4-0", "6-0", "2-2", "3-3", "4-4", "6-6"]
BONEYARD = ["1-1", "4-2", "5-3", "5-0", "5-1", "5-2", "5-4", "6-5", "6-3", "6-4"]


def quick_app(seed: int, **kw: object) -> AllFivesApp:
    """A two-player game against greedy North that starts at once, computer moves instant."""
    settings = Settings(players=2, seed=seed, speed=0.0, levels=["greedy"] * 3, **kw)
    return AllFivesApp(settings, start=True, speed=0.0)


def north_thinks_slowly() -> AllFivesApp:
    """The NORTH/NO_FIVES deal resumed with North to lead, taking 5 s a move."""
    return AllFivesApp(
        Settings(speed=5.0), resume=dealt_record(NO_FIVES, NORTH, BONEYARD), speed=5.0
    )


def game(app: AllFivesApp) -> GameScreen:
    screen = app.screen
    assert isinstance(screen, GameScreen), type(screen)
    return screen


async def test_a_whole_hand_by_keyboard_only() -> None:
    app = quick_app(seed=11)
    async with app.run_test(size=(80, 24)) as pilot:
        turns = 0
        while True:
            await settle(pilot)
            if isinstance(app.screen, HandSummaryScreen):
                break
            screen = game(app)
            before = len(screen.view().history)
            legal = screen.legal()
            expected: Action
            if isinstance(legal[0], Draw):
                await pilot.press("d")
                expected = legal[0]
            elif isinstance(legal[0], Pass):
                await pilot.press("p")
                expected = legal[0]
            else:
                expected = next(a for a in legal if isinstance(a, Play))
                idx = screen.shown_hand().index(expected.tile)
                if turns % 2 and idx < 9:
                    await pilot.press(str(idx + 1))  # number keys pick directly
                else:
                    steps = (idx - screen.selected) % len(screen.shown_hand())
                    await pilot.press(*["right"] * steps)
                assert screen.selected_tile() == expected.tile
                await pilot.press("enter")
                if screen.choosing:
                    assert expected.end in screen.choosing
                    await pilot.press(expected.end.value.lower(), "enter")
            await pilot.pause()
            move = screen.view().history[before]
            assert (move.seat, move.action) == (0, expected)
            turns += 1
        assert app.table is not None
        state = app.table.state
        assert turns >= 3
        assert state.phase is Phase.DEAL and state.hand_number == 1
        # the record on disk is the game: it replays to the same snapshot
        assert app.saver is not None
        app.saver.flush()
        saved = load_current()
        assert saved is not None and saved.state == state


async def test_a_whole_hand_by_mouse_only() -> None:
    app = quick_app(seed=4)
    async with app.run_test(size=(80, 24)) as pilot:
        turns = 0
        while True:
            await settle(pilot)
            if isinstance(app.screen, HandSummaryScreen):
                await pilot.click("#next-hand")
                await pilot.pause()
                assert app.table is not None
                assert app.table.state.hand_number == 2
                break
            screen = game(app)
            before = len(screen.view().history)
            legal = screen.legal()
            if not any(isinstance(a, Play) for a in legal):
                expected = legal[0]
                action = "draw" if isinstance(expected, Draw) else "pass_turn"
                key = next(k for k in screen.query(FooterKey) if k.action == action)
                await pilot.click(key)
            else:
                plays = [a for a in legal if isinstance(a, Play)]
                # prefer a tile with a choice of ends, to click an end on the board
                expected = max(plays, key=lambda a: screen.choices().ends_for(a.tile).__len__())
                hand = screen.query_one(HandView)
                idx = screen.shown_hand().index(expected.tile)
                if screen.selected != idx:
                    await pilot.click(HandView, offset=hand.tile_offset(idx))
                    assert screen.selected == idx
                await pilot.click(HandView, offset=hand.tile_offset(idx))
                if screen.choosing:
                    assert expected.end is not None
                    board = screen.query_one(Board)
                    offset = board.end_offset(expected.end)
                    assert offset is not None
                    await pilot.click(Board, offset=offset)
            await pilot.pause()
            move = screen.view().history[before]
            assert (move.seat, move.action) == (0, expected)
            turns += 1
        assert turns >= 3


async def test_choosing_the_end_when_a_tile_fits_two() -> None:
    app = AllFivesApp(Settings(speed=0.0), resume=two_ends_record(), speed=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game(app)
        assert screen.view().layout.lead == parse_tile("5-5")
        assert screen.selected_tile() == parse_tile("5-3")  # the only playable tile
        await pilot.press("enter")
        # read into locals: an assert on ``screen.choosing`` itself would narrow it for
        # mypy past the keys below, and flag the later checks as comparing apart
        choosing, board = screen.choosing, screen.query_one(Board)
        cursor = board.cursor
        assert choosing == (End.W, End.E)
        assert "⏎ plays 5-3 on the west end (no score)" in screen_text(app)
        assert board.highlight == (End.W, End.E) and cursor is End.W
        await pilot.press("right")
        assert board.cursor is End.E
        await pilot.press("escape")
        assert screen.choosing == ()
        await pilot.press("enter", "e", "enter")
        await pilot.pause()
        move = screen.view().history[1]
        assert move.action == Play(tile=parse_tile("5-3"), end=End.E)
        assert move.points == 0  # 10 (spinner, west open) + 3 = 13


async def test_drawing_until_a_tile_fits_then_playing_it() -> None:
    app = AllFivesApp(
        Settings(speed=0.0), resume=dealt_record(NO_FIVES, NORTH, BONEYARD), speed=0.0
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game(app)
        assert "press d to draw" in screen_text(app)
        assert screen.check_action("play", ()) is None  # shown dimmed
        await pilot.press("enter")  # nothing to play: nothing happens
        assert len(screen.view().history) == 1
        await pilot.press("d")
        await pilot.press("d")
        view = screen.view()
        assert view.must_play is None and view.boneyard_size == 8
        await pilot.press("d")
        assert screen.view().must_play == parse_tile("5-3")
        assert screen.selected_tile() == parse_tile("5-3")
        assert "it fits, so it must be played now" in screen_text(app)
        assert screen.check_action("draw", ()) is None
        await pilot.press("enter", "w", "enter")
        await pilot.pause()
        moves = [str(m.action) for m in screen.view().history[:5]]
        assert moves == ["5-5", "draw", "draw", "draw", "5-3 W"]
        assert parse_tile("1-1") in screen.view().hand


async def test_auto_draw_option_draws_by_itself() -> None:
    app = AllFivesApp(
        Settings(speed=0.0, auto_draw=True),
        resume=dealt_record(NO_FIVES, NORTH, BONEYARD),
        speed=0.0,
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game(app)
        assert screen.view().must_play == parse_tile("5-3")
        moves = [str(m.action) for m in screen.view().history]
        assert moves == ["5-5", "draw", "draw", "draw"]


async def test_end_of_hand_summary_shows_tiles_pips_rounding_and_scores() -> None:
    record = GameRecord.model_validate(
        {
            "rules": {"players": 2, "hand_size": "five-each"},
            "seats": [{"name": "You"}, {"name": "North", "kind": "computer", "level": "greedy"}],
            "hands": [],
            "seed": 1,
        }
    )
    # five tiles each: North leads the 5-5 and you can only answer with the 5-0
    you = ["5-0", "0-0", "1-1", "2-2", "3-3"]
    north = ["5-5", "6-6", "6-1", "4-2", "3-1"]
    rest = [t for t in _all() if t not in {*you, *north}]
    record = record.model_copy(update={"hands": dealt_record(you, north, rest).hands})
    app = AllFivesApp(Settings(speed=0.0), resume=record, speed=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game(app)
        for tile in ("0-0", "1-1", "2-2", "3-3"):
            assert parse_tile(tile) not in screen.choices().playable
        await pilot.press("enter")  # 5-0 fits west and east of the lone spinner
        await pilot.press("enter")
        assert len(screen.view().history) >= 2
        await settle(pilot)
        # the hand goes on until someone goes out or it blocks; then the summary
        while not isinstance(app.screen, HandSummaryScreen):
            await take_a_turn(pilot, game(app))
            await settle(pilot)
        summary = app.screen
        assert isinstance(summary, HandSummaryScreen)
        await pilot.pause()
        text = screen_text(app)
        event = summary.event
        assert app.table is not None
        state = app.table.state
        for seat, name in enumerate(("You", "North")):
            assert name in text
            pips, lost = event.pips[seat], event.penalties[seat]
            assert pips == sum(t.pips for t in state.hands[seat])
            assert lost == 5 * round(pips / 5 + 1e-9) or abs(lost - pips) <= 2
            if pips != lost:
                assert f"{pips}→{lost}" in text
        assert f"target {state.rules.target}" in text
        await pilot.press("enter")
        await pilot.pause()
        assert app.table is not None
        assert app.table.state.hand_number == 2


def _all() -> list[str]:
    return [f"{h}-{lo}" for h in range(7) for lo in range(h + 1)]


async def test_help_save_and_quit_answer_while_a_computer_thinks() -> None:
    # North leads and takes 5 s a move: the keys must not wait for it.
    app = north_thinks_slowly()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = game(app)
        assert screen.view().current == 1 and "North is thinking" in screen_text(app)
        assert screen.check_action("play", ()) is None
        await pilot.press("question_mark")
        assert type(app.screen).__name__ == "HelpScreen"
        await pilot.press("escape")
        await pilot.press("ctrl+s")
        assert type(app.screen).__name__ == "SaveAsScreen"
        await pilot.press("escape")
        assert app.screen is screen and screen.view().current == 1
        started = time.monotonic()
        await pilot.press("q")
    assert time.monotonic() - started < 2.0
    assert app.saved_on_exit is not None


async def test_the_hand_can_be_looked_over_while_a_computer_thinks() -> None:
    app = north_thinks_slowly()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = game(app)
        hand = screen.query_one(HandView)
        assert screen.view().current == 1, "North is to lead and thinks for 5 s"
        before = screen.step
        assert hand.selected == screen.selected == 0, "the selection shows on North's turn"
        assert screen.check_action("next", ()) is True
        assert screen.check_action("pick", ()) is True
        assert screen.check_action("play", ()) is None, "but nothing can be played"
        await pilot.press("right", "right")
        assert hand.selected == 2
        await pilot.press("5")
        assert hand.selected == 4
        await pilot.click(HandView, offset=hand.tile_offset(7))
        assert hand.selected == screen.selected == 7
        await pilot.click(HandView, offset=hand.tile_offset(7))  # a second click plays nothing
        await pilot.press("enter")
        assert screen.step == before and screen.view().current == 1
        assert "look over your tiles" in screen_text(app)


async def test_too_small_terminal_says_so_and_recovers() -> None:
    app = quick_app(seed=2)
    async with app.run_test(size=(60, 18)) as pilot:
        await settle(pilot)
        assert "Please enlarge the terminal to at least 80x22" in screen_text(app)
        assert "It is 60x18 now" in screen_text(app)
        await pilot.resize_terminal(90, 30)
        await pilot.pause()
        text = screen_text(app)
        assert "enlarge" not in text and "Your" in text


async def test_the_coachs_poll_waits_for_a_screen() -> None:
    """The coach's timer may fire while the app starts or closes, with no screen on the
    stack: it passes nothing on then, and the app goes on."""
    app = quick_app(seed=2)
    app._coach_poll(force=True)  # not running: no screen yet
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app._coach_poll(force=True)
    app._coach_poll(force=True)  # closed: no screen any more
    assert app.return_code in (None, 0)


async def test_palette_offers_new_game_save_help_and_themes() -> None:
    app = quick_app(seed=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        for wanted in ("New game", "Save a copy…", "Open replay…", "Help"):
            assert wanted in titles
        assert any("theme" in t.lower() for t in titles)
        await pilot.press("ctrl+p")
        await pilot.press(*"new game")
        await palette_offers(pilot, "new game")
        await pilot.press("enter")
        await pilot.pause()
        assert type(app.screen).__name__ == "ConfirmScreen"  # the game is unfinished
        await pilot.press("y")
        await pilot.pause()
        assert type(app.screen).__name__ == "NewGameScreen"


async def test_up_and_down_choose_the_end_and_nothing_steals_the_keys() -> None:
    app = AllFivesApp(Settings(speed=0.0), resume=two_ends_record(), speed=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.focused is None
        screen = game(app)
        await pilot.press("enter", "down")
        assert screen.query_one(Board).cursor is End.E
        await pilot.press("up")
        assert screen.query_one(Board).cursor is End.W


async def test_game_over_offers_a_replay_and_comes_back_to_the_choices() -> None:
    from allfives_tui.ui.screens.game_over import GameOverScreen
    from tests.ui.helpers import game_over_app

    app = game_over_app()
    async with app.run_test(size=(100, 36)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        assert "North wins the game" in screen_text(app)
        await pilot.press("r")
        await pilot.pause()
        assert type(app.screen).__name__ == "ReplayScreen"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("n")
        await pilot.pause()
        assert type(app.screen).__name__ == "NewGameScreen"
