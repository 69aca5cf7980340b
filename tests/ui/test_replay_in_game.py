"""The replay screens inside the game app: "Open replay…" and "Replay this game"."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.open_replay import OpenReplayScreen
from allfives_tui.ui.screens.replay import ReplayScreen
from engine.record import parse_record
from tests.records import SMALL_RECORD

SIZE = (100, 32)


async def test_open_replay_from_the_game_app(tmp_path: Path) -> None:
    path = tmp_path / "small.json"
    path.write_text(SMALL_RECORD)
    app = AllFivesApp(autosave=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        home = app.screen
        app.action_open_replay()  # what the palette's "Open replay…" runs
        await pilot.pause()
        assert isinstance(app.screen, OpenReplayScreen)
        field = app.screen.query_one(Input)
        field.value = str(path)
        field.focus()
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("pagedown", "right")
        assert screen.frame.text == "5-5"
        assert screen.frame.state.scores == (25, -15)
        await pilot.press("q")
        await pilot.pause()
        assert app.screen is home


async def test_replay_this_game_from_the_game_app() -> None:
    app = AllFivesApp(autosave=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        home = app.screen
        app.open_replay(parse_record(SMALL_RECORD))  # what "Replay this game" runs
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("end")
        assert screen.index == len(screen.replay) - 1
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is home
