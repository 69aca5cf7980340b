"""SVG snapshots of the real app at fixed seeds and terminal sizes.

Update after a deliberate change with ``pytest tests/ui --snapshot-update``.
"""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from allfives_tui.screenshots import mid_game
from allfives_tui.table.board_plan import plan_board
from allfives_tui.table.settings import Settings
from allfives_tui.ui.app import AllFivesApp
from tests.records import record_of, two_ends_record
from tests.ui.helpers import random_hands, until


def _app(state: Any = None, *, coach: bool = True) -> AllFivesApp:
    settings = Settings(speed=0.0, coach=coach)
    if state is None:
        return AllFivesApp(settings, speed=0.0)
    return AllFivesApp(settings, resume=record_of(state), speed=0.0, autosave=False)


async def _settle(pilot: Pilot[Any]) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def test_new_game_screen(snap_compare: Any) -> None:
    assert snap_compare(_app(), terminal_size=(80, 24), run_before=_settle)


def test_mid_game_full_cross_with_bent_lines(snap_compare: Any) -> None:
    state = mid_game()
    layout = state.layout
    assert layout.north and layout.south and len(layout.open_ends()) == 4
    assert state.current == 0
    assert plan_board(layout, 52, 18).bent
    assert snap_compare(_app(state), terminal_size=(80, 24), run_before=_settle)


def test_mid_game_large_terminal(snap_compare: Any) -> None:
    state = mid_game()
    assert snap_compare(_app(state), terminal_size=(140, 44), run_before=_settle)


def test_choosing_an_end(snap_compare: Any) -> None:
    app = AllFivesApp(Settings(speed=0.0), resume=two_ends_record(), speed=0.0, autosave=False)
    assert snap_compare(app, terminal_size=(80, 24), press=["enter"], run_before=_settle)


def test_end_of_hand_summary(snap_compare: Any) -> None:
    state = random_hands(3)
    assert state.is_chance and state.hand_number == 1
    # the coach's line comes in the background (tests/ui/test_coach.py has it rated)
    assert snap_compare(_app(state, coach=False), terminal_size=(80, 24), run_before=_settle)


async def _settle_game_over(pilot: Pilot[Any]) -> None:
    await _settle(pilot)
    # "New game" focused, as a person sees it
    await until(pilot, lambda: pilot.app.screen.focused is not None)
    await pilot.pause()


def test_game_over(snap_compare: Any) -> None:
    state = random_hands(5, target=60, hands=20)
    assert state.is_terminal
    assert snap_compare(_app(state), terminal_size=(80, 24), run_before=_settle_game_over)


def test_too_small_message(snap_compare: Any) -> None:
    assert snap_compare(_app(mid_game()), terminal_size=(60, 18), run_before=_settle)


def test_help(snap_compare: Any) -> None:
    assert snap_compare(
        _app(mid_game()), terminal_size=(80, 24), press=["question_mark"],
        run_before=_settle,
    )
