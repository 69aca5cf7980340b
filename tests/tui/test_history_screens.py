"""The statistics and past-games screens in the real app (Pilot), their snapshots, and the
app recording finished and abandoned games into the history."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Select, Static

from allfives_tui.table.history import History, history_path
from allfives_tui.table.history_stats import Filters, compute
from allfives_tui.table.storage import Settings
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.confirm import ConfirmScreen
from allfives_tui.ui.screens.past_games import PastGamesScreen
from allfives_tui.ui.screens.stats import StatsScreen, summary_lines
from allfives_tui.ui.widgets.chart import SeriesChart
from tests.history.games import T0, random_game

GAMES = 40


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> None:
    """Local time is UTC, so the dates shown are the same everywhere."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


@pytest.fixture
def history(data_dir: Path) -> Path:
    """A history of 40 random games at fixed dates (seed 3)."""
    rng = random.Random(3)
    with History() as h:
        for i in range(GAMES):
            h.record(random_game(rng, i), now=T0)
    return history_path()


def _app() -> AllFivesApp:
    return AllFivesApp(Settings(speed=0.0), speed=0.0, autosave=False)


async def _until(pilot: Pilot[Any], done: Any, limit: int = 200) -> None:
    for _ in range(limit):
        await pilot.pause()
        if done():
            return
    raise AssertionError("it did not happen")


async def _open(pilot: Pilot[Any], screen: StatsScreen | PastGamesScreen) -> None:
    pilot.app.push_screen(screen)
    await _until(pilot, lambda: screen.loaded)
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def _summary(screen: StatsScreen) -> str:
    return str(screen.query_one("#stats-summary", Static).render())


async def test_statistics_show_the_figures_and_follow_the_filters(history: Path) -> None:
    with History() as h:
        games = h.player_games("You")
    app = _app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = StatsScreen("You")
        await _open(pilot, screen)
        assert _summary(screen) == summary_lines(compute(games, "You"))
        table = screen.query_one("#stats-groups", DataTable)
        everything = compute(games, "You")
        assert table.row_count == len(everything.groups)
        assert table.get_row_at(0)[0] == everything.groups[0].label
        results = screen.query_one("#stats-results", SeriesChart).data
        assert results is not None
        assert sum(sum(s.values) for s in results.series) == GAMES
        points = screen.query_one("#stats-points", SeriesChart).data
        assert points is not None and points.x_labels == ("random", "greedy", "person")
        # the opponent level, by keyboard: open the list, down to "vs random", Enter
        await pilot.click("#stats-level")
        await pilot.press("down", "enter")
        await pilot.pause()
        assert screen.query_one("#stats-level", Select).value == "random"
        want = compute(games, "You", Filters(level="random"))
        assert _summary(screen) == summary_lines(want)
        assert want.games < everything.games
        # a date range typed in
        await pilot.click("#stats-since")
        await pilot.press(*"2026-01-15")
        await pilot.pause()
        want = compute(games, "You", Filters(level="random", since=T0.date().replace(day=15)))
        assert _summary(screen) == summary_lines(want)
        await pilot.click("#stats-until")
        await pilot.press(*"2026-13-40", "enter")
        await pilot.pause()
        assert "is not a date" in _summary(screen)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, StatsScreen)


async def test_statistics_of_another_person_and_of_nobody_yet(history: Path) -> None:
    app = _app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = StatsScreen("Nobody")
        await _open(pilot, screen)
        assert _summary(screen) == "No games yet."
        chooser = screen.query_one("#stats-player", Select)
        names = [str(v) for _, v in chooser._options]
        assert names[:2] == ["Nobody", "You"] and "Guest0" in names
        await pilot.click("#stats-player")
        await pilot.press("down", "enter")
        await _until(pilot, lambda: screen.loaded and screen.player == "You")
        assert screen.stats is not None and screen.stats.games == GAMES
        assert "Statistics of You" in str(screen.query_one("#stats-title", Static).render())


async def test_statistics_with_no_history_at_all(data_dir: Path) -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = StatsScreen("You")
        await _open(pilot, screen)
        assert _summary(screen) == "No games yet."
        assert not history_path().exists()  # reading never makes one


def _rows(screen: PastGamesScreen) -> list[list[str]]:
    table = screen.query_one("#past-games", DataTable)
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


async def test_past_games_newest_first_search_and_replay(history: Path) -> None:
    with History() as h:
        stored = h.games()
    app = _app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = PastGamesScreen("You")
        await _open(pilot, screen)
        rows = _rows(screen)
        assert len(rows) == GAMES
        assert [r[0] for r in rows] == [g.local_start() for g in stored]
        assert rows == sorted(rows, key=lambda r: r[0], reverse=True)
        await pilot.press("slash", *"abandoned")
        await pilot.pause()
        rows = _rows(screen)
        assert rows and all(r[1].startswith("abandoned") for r in rows)
        assert len(rows) == sum(1 for g in stored if not g.finished)
        await pilot.press("enter")  # from the search to the list
        await pilot.press("down", "enter")  # the second abandoned game
        from allfives_tui.ui.screens.replay import ReplayScreen

        await _until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        want = [g for g in stored if not g.finished][1]
        assert replay.replay.record.game_id == want.game_id
        await pilot.press("escape")
        await _until(pilot, lambda: app.screen is screen)


async def test_past_games_delete_asks_then_deletes(history: Path) -> None:
    app = _app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = PastGamesScreen("You")
        await _open(pilot, screen)
        first = screen.shown[0].game_id
        await pilot.press("d")
        await _until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("escape")  # keep it
        await _until(pilot, lambda: app.screen is screen)
        with History() as h:
            assert h.count() == GAMES
        await pilot.press("d")
        await _until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.click("#yes")
        await _until(pilot, lambda: len(screen.games) == GAMES - 1)
        assert first not in [g.game_id for g in screen.games]
        with History() as h:
            assert h.count() == GAMES - 1
            assert first not in {g.game_id for g in h.games()}


async def test_past_games_export_writes_the_record(history: Path, tmp_path: Path) -> None:
    from allfives_tui.ui.screens.save_as import SaveAsScreen
    from engine.record import load

    app = _app()
    target = tmp_path / "exported.json"
    async with app.run_test(size=(100, 30)) as pilot:
        screen = PastGamesScreen("You")
        await _open(pilot, screen)
        await pilot.press("down", "down")
        game_id = screen.shown[2].game_id
        await pilot.press("e")
        await _until(pilot, lambda: isinstance(app.screen, SaveAsScreen))
        field = app.screen.query_one(Input)
        field.value = ""
        await pilot.press(*str(target), "enter")
        await _until(pilot, lambda: target.exists())
    with History() as h:
        assert load(target) == h.load(game_id).record


async def test_an_empty_list_says_so_and_offers_no_replay(data_dir: Path) -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = PastGamesScreen("You")
        await _open(pilot, screen)
        status = str(screen.query_one("#past-status", Static).render())
        assert status.startswith("No games yet")
        assert screen.check_action("delete", ()) is False
        assert screen.check_action("export", ()) is False
        await pilot.press("d", "e", "enter")
        await pilot.pause()
        assert app.screen is screen


# -- snapshots --------------------------------------------------------------------------


def _snap(screen_type: type[StatsScreen] | type[PastGamesScreen]) -> Any:
    async def run_before(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        await _open(pilot, screen_type("You"))
        await pilot.pause()

    return run_before


def test_statistics_snapshot(history: Path, snap_compare: Any) -> None:
    assert snap_compare(_app(), terminal_size=(80, 24), run_before=_snap(StatsScreen))


def test_statistics_snapshot_wide(history: Path, snap_compare: Any) -> None:
    assert snap_compare(_app(), terminal_size=(120, 36), run_before=_snap(StatsScreen))


def test_past_games_snapshot(history: Path, snap_compare: Any) -> None:
    assert snap_compare(_app(), terminal_size=(80, 24), run_before=_snap(PastGamesScreen))
