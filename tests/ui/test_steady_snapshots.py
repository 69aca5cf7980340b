"""SVG snapshots of what a new player tripped on, at 80x24 and at 200x60: the charts with
one week of games, the board as a hand goes on, and words that fit.

Update after a deliberate change with ``pytest tests/ui/test_steady_snapshots.py
--snapshot-update``.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from allfives_tui.store.history import History
from allfives_tui.table.replay import Replay
from allfives_tui.table.settings import Settings
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.replay_app import ReplayApp
from allfives_tui.ui.screens.stats import StatsScreen
from engine.record import Seat, parse_record
from tests.games import computer_seats, hand_states
from tests.records import DATA, record_of
from tests.store.games import T0, random_game
from tests.ui.helpers import settle, until

SIZES = [(80, 24), (200, 60)]
FOUR = DATA / "four.json"
"""A four-player partnership game to 200 (tests/ui/test_replay_snapshot.py's)."""




@pytest.fixture
def one_week(data_dir: Path, utc: None) -> Path:
    """A history of six games in one week (seed 3)."""
    rng = random.Random(3)
    with History() as h:
        for i in range(6):
            h.record(random_game(rng, i), now=T0)
    return data_dir


def _app() -> AllFivesApp:
    return AllFivesApp(Settings(speed=0.0), speed=0.0, autosave=False)


async def _statistics(pilot: Pilot[Any]) -> None:
    await pilot.pause()
    screen = StatsScreen("You")
    pilot.app.push_screen(screen)
    await until(pilot, lambda: screen.loaded)
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_statistics_of_one_week(one_week: Path, size: tuple[int, int], snap_compare: Any) -> None:
    assert snap_compare(_app(), terminal_size=size, run_before=_statistics)


def _four_players_mid_hand() -> AllFivesApp:
    """A four-player hand resumed after nine moves; the computers play three more to the
    person's turn, so the board is planned move by move as in a game."""
    state = hand_states(5, 4)[6]
    assert state.current == 1
    record = record_of(state, (Seat(), *computer_seats(4)[1:]))  # the first person unnamed
    return AllFivesApp(Settings(speed=0.0, coach=False), resume=record, speed=0.0,
                       autosave=False)


async def _to_the_persons_turn(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_four_player_board_mid_hand(size: tuple[int, int], snap_compare: Any) -> None:
    assert snap_compare(_four_players_mid_hand(), terminal_size=size,
                        run_before=_to_the_persons_turn)


LONG_NAME = "saved/2026-12-05-14-03-22-north-and-south-against-east-and-west.json"
"""A file name as long as a saved copy's can be."""


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_replay_header_keeps_the_view_in_sight(
    size: tuple[int, int], snap_compare: Any
) -> None:
    """A four-player game in hand 2 seen by Ann, from a file with a long name: at 80
    columns the header goes without the least needed parts, and the view stays."""
    app = ReplayApp(Replay(parse_record(FOUR.read_text())), title=LONG_NAME)
    assert snap_compare(
        app, press=["pagedown", "right", "right", "right", "v"], terminal_size=size
    )
