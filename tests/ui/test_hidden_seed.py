"""The seed of a game in progress deals every hand again: no screen or listing shows it.

Only a finished game (or ``--all``) may show it (``replay --text``'s own test
is in tests/table/test_text_replay.py); the history's rows and ``--json``,
the past games screen and the replay screen of an unfinished game never do.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import DataTable

from allfives_tui.cli import main
from allfives_tui.store.history import History
from allfives_tui.table.settings import Settings
from allfives_tui.table.table import Table
from allfives_tui.ui.screens.past_games import PastGamesScreen
from allfives_tui.ui.screens.replay_app import ReplayApp
from engine.record import GameRecord
from tests.games import play_out
from tests.ui.helpers import settle

SEED = 987_654_321


def _unfinished() -> GameRecord:
    table = play_out(Table.from_settings(Settings(seed=SEED, speed=0.0)), actions=4)
    assert not table.is_over
    return table.record()


def test_the_history_lists_an_unfinished_game_without_its_seed(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = _unfinished()
    with History() as history:
        assert history.record(record)
    assert main(["history", "--json"]) == 0
    listed = capsys.readouterr().out
    rows = json.loads(listed)
    assert len(rows) == 1 and rows[0]["id"] == record.game_id
    assert "seed" not in rows[0] and str(SEED) not in listed
    assert main(["history"]) == 0
    assert str(SEED) not in capsys.readouterr().out


async def test_the_screens_of_an_unfinished_game_do_not_show_its_seed(data_dir: Path) -> None:
    record = _unfinished()
    with History() as history:
        assert history.record(record)
    app = ReplayApp(record)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert str(SEED) not in app.export_screenshot()  # the header and all below it
        app.push_screen(PastGamesScreen("You"))
        await settle(pilot)
        listing = app.screen.query_one("#past-games", DataTable)
        for _ in range(200):  # bounded: the rows come from the history off the UI thread
            if listing.row_count:
                break
            await pilot.pause()
        assert listing.row_count == 1
        assert str(SEED) not in app.export_screenshot()
