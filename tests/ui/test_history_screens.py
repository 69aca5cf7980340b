"""The statistics and past-games screens in the real app (Pilot), their snapshots, and the
app recording finished and abandoned games into the history."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from textual.pilot import Pilot
from textual.widgets import Button, DataTable, Input, Static

from allfives_tui.store import wording
from allfives_tui.store.history import History, history_path
from allfives_tui.store.stats import Filters
from allfives_tui.table.settings import Settings
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.confirm import ConfirmScreen
from allfives_tui.ui.screens.past_games import PastGamesScreen
from allfives_tui.ui.screens.stats import LEVEL_CHOICES, StatsScreen, summary_lines
from allfives_tui.ui.widgets.chart import SeriesChart
from tests.store.games import T0, random_game
from tests.store.oracle import compute

GAMES = 40


pytestmark = pytest.mark.usefixtures("utc")
"""Local time is UTC here (the fixture in tests/conftest.py)."""


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
        table = str(screen.query_one("#stats-table", Static).render()).splitlines()
        everything = compute(games, "You")
        assert len(table) == 1 + len(everything.groups)  # the header, a row a group
        assert table[0].split() == ["Opponents", "Games", "Won", "Win%", "95%", "CI",
                                    "Net/hand", "Best"]
        assert table[1].startswith(everything.groups[0].label + " ")
        assert table[1].split()[-6] == str(everything.groups[0].games)
        results = screen.query_one("#stats-results", SeriesChart).data
        assert results is not None
        assert sum(sum(s.values) for s in results.series) == GAMES
        points = screen.query_one("#stats-points", SeriesChart).data
        assert points is not None and points.x_labels == ("random", "greedy", "person")
        # the opponent level: a click moves it on to "vs random"; l moves it on by key
        await pilot.click("#stats-level")
        await _until(pilot, lambda: screen.loaded)
        assert screen.level == "random"
        assert str(screen.query_one("#stats-level", Button).label) == "vs random"
        await pilot.press("l")
        await _until(pilot, lambda: screen.loaded)
        assert screen.level == "greedy"
        assert _summary(screen) == summary_lines(compute(games, "You", Filters(level="greedy")))
        # every other level, a person, any, and round to random
        await pilot.press(*"l" * (len(LEVEL_CHOICES) - 1))
        await _until(pilot, lambda: screen.loaded)
        assert screen.level == "random"
        want = compute(games, "You", Filters(level="random"))
        assert _summary(screen) == summary_lines(want)
        assert want.games < everything.games
        # a date range typed in
        await pilot.click("#stats-since")
        await pilot.press(*"2026-01-15")
        await _until(pilot, lambda: screen.loaded)
        want = compute(games, "You", Filters(level="random", since=T0.date().replace(day=15)))
        assert _summary(screen) == summary_lines(want)
        await pilot.click("#stats-until")
        await pilot.press(*"2026-13-40", "enter")
        await pilot.pause()
        assert "is not a date" in _summary(screen)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, StatsScreen)


async def test_figures_slower_than_the_first_frame_show_when_they_come_and_stale_ones_never(
    history: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from allfives_tui.ui.screens import stats as stats_screen

    with History() as h:
        games = h.player_games("You")
    monkeypatch.setattr(stats_screen, "FIRST_WAIT", 0.0)  # never wait: the slow history's way
    app = _app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = StatsScreen("You")
        app.push_screen(screen)
        await pilot.press("l")  # asked for "vs random" before the first figures came
        await _until(pilot, lambda: screen.loaded)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.stats is not None and screen.stats.filters == Filters(level="random")
        assert _summary(screen) == summary_lines(compute(games, "You", Filters(level="random")))


async def test_statistics_of_another_person_and_of_nobody_yet(history: Path) -> None:
    app = _app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = StatsScreen("Nobody")
        await _open(pilot, screen)
        assert _summary(screen) == "No games yet."
        assert screen.people[:2] == ["Nobody", "You"] and "Guest0" in screen.people
        await pilot.press("p")
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
        assert [r[0] for r in rows] == [wording.started(g) for g in stored]
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


async def test_past_games_columns_fit_their_cells_as_soon_as_the_list_is_filled(
    history: Path,
) -> None:
    """No frame shows the list cut to its labels' widths (lines drawn then stayed cached)."""
    app = _app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = PastGamesScreen("You")
        await _open(pilot, screen)
        table = screen.query_one("#past-games", DataTable)
        for search in ("abandoned", ""):
            screen.query_one("#past-search", Input).value = search
            screen.fill()  # and look before the table has a chance to idle
            rows = _rows(screen)
            assert rows
            for i, column in enumerate(table.ordered_columns):
                room = column.get_render_width(table) - 2 * table.cell_padding
                assert room == max(cell_len(str(column.label)), *(cell_len(r[i]) for r in rows))


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


# -- the app records games ------------------------------------------------------------------


async def _play_to_the_end(pilot: Pilot[Any]) -> None:
    """The person plays by keyboard (first legal action) until the game-over screen."""
    from allfives_tui.ui.screens.game import GameScreen
    from allfives_tui.ui.screens.game_over import GameOverScreen
    from allfives_tui.ui.screens.hand_summary import HandSummaryScreen
    from tests.ui.helpers import settle, take_a_turn

    app = pilot.app
    for _ in range(300):
        await settle(pilot)
        if isinstance(app.screen, GameOverScreen):
            return
        if isinstance(app.screen, HandSummaryScreen):
            await pilot.press("enter")
            continue
        assert isinstance(app.screen, GameScreen)
        await take_a_turn(pilot, app.screen)
    raise AssertionError("the game did not end")


async def _palette(pilot: Pilot[Any], command: str) -> None:
    from tests.ui.helpers import palette_offers

    await pilot.press("ctrl+p", *command)
    await palette_offers(pilot, command)
    await pilot.press("enter")
    await pilot.pause()


def _short(seed: int = 2) -> Settings:
    return Settings(target=30, speed=0.0, seed=seed, levels=["random"] * 3)


def _unfinished(data_dir: Path, moves: int | None = 6) -> Any:
    """An unfinished game (target 30) saved as current.json, as a quit leaves it:
    ``moves`` moves into its first hand, or (``None``) a few actions before its end."""
    from allfives_tui.table.table import Table
    from engine.record import save
    from tests.games import play_out

    if moves is None:
        actions = len(play_out(Table.from_settings(_short())).state.actions) - 4
        table = play_out(Table.from_settings(_short()), actions=actions)
    else:
        table = play_out(Table.from_settings(_short()), actions=1 + moves, hands=1)
    record = table.record()
    data_dir.mkdir(parents=True, exist_ok=True)
    save(record, data_dir / "current.json")
    return record


async def test_a_game_quit_and_continued_is_recorded_once_when_it_ends(data_dir: Path) -> None:
    from allfives_tui.store.saves import load_current

    saved = _unfinished(data_dir, moves=None)
    app = AllFivesApp(_short(), resume=load_current(), speed=0.0)
    async with app.run_test(size=(100, 30)) as pilot:
        await _play_to_the_end(pilot)
        assert app.history is not None
        app.history.flush()
        await pilot.press("n")  # a new game from the game-over screen
        await pilot.pause()
        await pilot.press("ctrl+n")
        await pilot.pause()
        app.history.flush()
        with History() as h:
            (game,) = h.games()
            final = h.load(game.game_id)
        assert game.game_id == saved.game_id and game.finished
        assert final.state.is_terminal
        assert app.history_lines == []


async def test_a_game_discarded_for_a_new_one_is_recorded_abandoned(data_dir: Path) -> None:
    from allfives_tui.ui.screens.game import GameScreen
    from tests.ui.helpers import settle, take_a_turn

    app = AllFivesApp(_short(), start=True, speed=0.0)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        await take_a_turn(pilot, app.screen)
        await settle(pilot)
        first = app.table
        assert first is not None and not first.is_over
        await _palette(pilot, "new game")
        await _until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")  # leave this game: the new-game screen opens over it
        await pilot.pause()
        with History() as h:
            assert h.count() == 0  # not yet: Esc would go back to it
        await pilot.press("ctrl+n")
        await _until(pilot, lambda: app.table is not first)
        assert app.history is not None
        app.history.flush()
        with History() as h:
            (game,) = h.games()
        assert game.game_id == first.game_id and not game.finished and game.winner is None


async def test_an_unfinished_game_found_at_start_is_recorded_when_a_new_one_starts(
    data_dir: Path,
) -> None:
    saved = _unfinished(data_dir)
    app = AllFivesApp(_short(seed=9), speed=0.0)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+n")
        await _until(pilot, lambda: app.table is not None)
        assert app.history is not None
        app.history.flush()
        with History() as h:
            (game,) = h.games()
            assert h.load(game.game_id).record == saved
        assert not game.finished


async def test_a_history_that_cannot_be_written_loses_nothing(data_dir: Path) -> None:
    from allfives_tui.store.saves import load_current
    from allfives_tui.ui.screens.game_over import GameOverScreen
    from engine.record import load

    history_path().mkdir(parents=True)  # a folder where the database should be
    _unfinished(data_dir, moves=None)
    app = AllFivesApp(_short(), resume=load_current(), speed=0.0)
    async with app.run_test(size=(100, 30)) as pilot:
        await _play_to_the_end(pilot)
        assert app.history is not None and app.table is not None
        app.history.flush()
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)  # play went on
        (line,) = app.history_lines
        assert line.startswith("The game could not be added to the history (")
        kept = data_dir / "unrecorded" / f"{app.table.game_id}.json"
        assert f"it is kept in {kept}" in line
        assert load(kept) == app.table.record()
        assert load(data_dir / "current.json") == app.table.record()
        assert any(line in str(n.message) for n in app._notifications)


async def test_statistics_and_past_games_from_the_palette(history: Path) -> None:
    app = _app()
    async with app.run_test(size=(100, 30)) as pilot:
        await _palette(pilot, "statistics")
        await _until(pilot, lambda: isinstance(app.screen, StatsScreen) and app.screen.loaded)
        await pilot.press("ctrl+g")  # on to the past games
        await _until(pilot, lambda: isinstance(app.screen, PastGamesScreen))
        await pilot.press("escape")
        await pilot.pause()
        await _palette(pilot, "past games")
        await _until(pilot, lambda: isinstance(app.screen, PastGamesScreen))
        await pilot.press("ctrl+t")
        await _until(pilot, lambda: isinstance(app.screen, StatsScreen))


async def test_the_new_game_screen_opens_both_by_key_and_by_button(history: Path) -> None:
    from allfives_tui.ui.screens.new_game import NewGameScreen

    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("ctrl+t")
        await _until(pilot, lambda: isinstance(app.screen, StatsScreen))
        await pilot.press("escape")
        await _until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await pilot.press("ctrl+g")
        await _until(pilot, lambda: isinstance(app.screen, PastGamesScreen))
        await pilot.press("escape")
        await _until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await pilot.click("#statistics")
        await _until(pilot, lambda: isinstance(app.screen, StatsScreen))
        assert isinstance(app.screen, StatsScreen)
        assert app.screen.player == "south"  # the settings' name: the default, its place
        await pilot.press("escape")
        await _until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await pilot.click("#past-games")
        await _until(pilot, lambda: isinstance(app.screen, PastGamesScreen))


def test_results_over_more_than_a_year_are_labelled_by_year_and_month() -> None:
    from datetime import date

    from allfives_tui.ui.screens.stats import period_labels

    assert period_labels([date(2026, 1, 5), date(2026, 3, 30)]) == ("01-05", "03-30")
    assert period_labels([date(2024, 1, 1), date(2024, 7, 1), date(2025, 3, 3)]) == (
        "2024-01", "2024-07", "2025-03"
    )
    assert period_labels([]) == ()
