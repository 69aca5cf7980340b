"""Opening a replay from inside another app, and bad files shown without a traceback."""

from __future__ import annotations

import json
from pathlib import Path

from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widgets import Button, Input, Static

from allfives_tui.store.saves import ReplayLoadError, read_replay
from allfives_tui.ui.screens.open_replay import OpenReplayScreen
from allfives_tui.ui.screens.replay import ReplayScreen
from allfives_tui.ui.screens.replay_app import ReplayApp
from engine.record import parse_record
from tests.records import SMALL_RECORD

SIZE = (100, 32)


class Host(App[None]):
    """Stands in for the game app: a screen of its own that pushes ours."""

    def compose(self) -> ComposeResult:
        yield Static("the game", id="host")


def _bad_record(tmp_path: Path) -> Path:
    data = json.loads(SMALL_RECORD)
    data["hands"][0]["actions"][4] = "5-5 W"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    return path


async def _open(pilot: Pilot[None], path: str, *, click: bool = False) -> None:
    """Put ``path`` in the input, then click Open (or press Enter in the input)."""
    field = pilot.app.screen.query_one(Input)
    field.value = path
    if click:
        await pilot.click("#open-go")
    else:
        field.focus()
        await pilot.press("enter")
    await pilot.pause()


async def test_replay_screen_inside_another_app_and_back() -> None:
    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(ReplayScreen(parse_record(SMALL_RECORD)))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("right", "right", "end")
        assert screen.index == 18
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ReplayScreen)
        assert app.screen.query_one("#host", Static)
        assert len(app.screen_stack) == 1


async def test_open_a_good_file(tmp_path: Path) -> None:
    path = tmp_path / "good.json"
    path.write_text(SMALL_RECORD)
    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(OpenReplayScreen())
        await pilot.pause()
        assert not app.screen.query_one("#open-salvage", Button).display
        await _open(pilot, str(path), click=True)
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert len(screen.replay) == 19
        assert "good.json" in str(screen.query_one("#replay-status", Static).render())
        await pilot.press("q")
        await pilot.pause()
        assert len(app.screen_stack) == 1
    assert path.read_text() == SMALL_RECORD


async def test_bad_file_shows_the_problem_and_offers_the_good_part(tmp_path: Path) -> None:
    path = _bad_record(tmp_path)
    before = path.read_bytes()
    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(OpenReplayScreen())
        await pilot.pause()
        await _open(pilot, str(path), click=True)
        modal = app.screen
        assert isinstance(modal, OpenReplayScreen)
        problem = str(modal.query_one("#open-problem", Static).render())
        assert problem == (
            f"{path}: hand 1, move 5: illegal action '5-5 W': seat 0 does not hold 5-5"
        )
        salvage = modal.query_one("#open-salvage", Button)
        assert salvage.display
        assert str(salvage.label) == "Replay up to hand 1, move 4"
        await pilot.click("#open-salvage")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert len(screen.replay) == 5
        await pilot.press("end")
        assert screen.frame.text == "6-1 E"
        assert screen.frame.state.scores == (10, 0)
        await pilot.press("q")
        await pilot.pause()
        assert len(app.screen_stack) == 1
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json"]


async def test_unsalvageable_and_missing_files(tmp_path: Path) -> None:
    junk = tmp_path / "junk.json"
    junk.write_text("not json at all")
    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(OpenReplayScreen())
        await pilot.pause()
        modal = app.screen
        await _open(pilot, str(junk))
        assert str(modal.query_one("#open-problem", Static).render()).startswith(
            f"{junk}: not a game record: not valid JSON"
        )
        assert not modal.query_one("#open-salvage", Button).display
        await _open(pilot, str(tmp_path / "nowhere.json"))
        assert str(modal.query_one("#open-problem", Static).render()) == (
            f"{tmp_path / 'nowhere.json'}: no such file"
        )
        await _open(pilot, str(tmp_path))
        assert str(modal.query_one("#open-problem", Static).render()).endswith(
            "is a folder, not a game record"
        )
        await _open(pilot, "")
        assert "give the path of a saved game" in str(
            modal.query_one("#open-problem", Static).render()
        )
        await pilot.press("escape")
        await pilot.pause()
        assert len(app.screen_stack) == 1


async def test_replay_app_offers_the_good_part_of_a_bad_file(tmp_path: Path) -> None:
    path = _bad_record(tmp_path)
    try:
        read_replay(path)
    except ReplayLoadError as err:
        error = err
    app = ReplayApp(error=error, path=str(path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, OpenReplayScreen)
        assert "hand 1, move 5: illegal action '5-5 W'" in str(
            modal.query_one("#open-problem", Static).render()
        )
        await pilot.click("#open-salvage")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        assert len(app.screen.replay) == 5
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0
    assert not app.is_running
