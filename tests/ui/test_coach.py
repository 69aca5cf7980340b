"""The coach in the app (issue 17): the hint key, costly decisions after a hand, the game
report, and the replay's analysis pane (Pilot, real processes, real files)."""

from __future__ import annotations

import contextlib
import json
import os
import stat
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import ProgressBar

from allfives_tui.coach import ratings
from allfives_tui.coach.cache import CACHE_FOLDER, AnalysisCache
from allfives_tui.coach.table_coach import hints_path
from allfives_tui.table.settings import PERSON, Settings
from allfives_tui.ui.app import AllFivesApp
from allfives_tui.ui.screens.game import GameScreen
from allfives_tui.ui.screens.game_over import GameOverScreen
from allfives_tui.ui.screens.hand_summary import HandSummaryScreen
from allfives_tui.ui.screens.replay import ReplayScreen
from allfives_tui.ui.screens.replay_app import ReplayApp
from allfives_tui.ui.screens.report import ReportScreen
from allfives_tui.ui.widgets.analysis import AnalysisPane
from allfives_tui.ui.widgets.chart import SeriesChart
from allfives_tui.ui.widgets.hint import HintPanel
from engine import Draw, Pass, Phase, Play, to_text
from engine.players.evaluate import evaluate
from tests.coach.helpers import short_game
from tests.records import dealt_record
from tests.ui.helpers import screen_text, settle, until

SIZE = (100, 30)


async def _until(pilot: Pilot[None], done: Callable[[], object], timeout: float = 600) -> None:
    """Wait (at most ``timeout`` s) until ``done()``; fail at once if the app has ended."""
    await until(pilot, lambda: bool(done()) or not pilot.app.is_running, timeout)
    assert done(), "the app ended"


async def test_the_replay_pane_rates_in_the_background_and_caches(data_dir: Path) -> None:
    record = short_game()
    expected = ratings.review(record, 0)
    app = ReplayApp(replay=record)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        pane = screen.query_one(AnalysisPane)
        assert not pane.display and not pane.started
        await pilot.press("a")
        assert pane.display and not screen.query_one("#replay-side").display
        assert pane.started and not pane.complete
        assert pane.query_one(ProgressBar).display  # rating: the bar shows
        await _until(pilot, lambda: pane.complete)
        assert pane.review is not None and pane.review.ratings == expected.ratings
        assert not pane.query_one(ProgressBar).display
        # the step on show: its rating
        first = expected.ratings[0]
        screen.go(first.index)
        await pilot.pause()
        text = screen_text(app)
        assert f"Hand {first.hand} move {first.move}: {first.played}" in text
        await pilot.press("a")
        assert not pane.display and screen.query_one("#replay-side").display
    files = list((data_dir / CACHE_FOLDER).glob("*.json"))
    key = ratings.record_key(record, 0, ratings.RATING_PLAYOUTS)
    assert len(files) == 1 and files[0].stem == key
    # opened again: from the cache (read in a thread), no process
    again = ReplayApp(replay=record)
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("a")
        pane = again.screen.query_one(AnalysisPane)
        await _until(pilot, lambda: pane.complete, timeout=30)
        assert pane.from_cache and pane.complete
        assert isinstance(again.screen, ReplayScreen) and again.screen.seat_review.analyst is None
        assert pane.review is not None and pane.review.ratings == expected.ratings


async def test_a_game_in_progress_is_rated_for_its_player_only() -> None:
    record = short_game().truncated(20)
    app = ReplayApp(replay=record)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        pane = app.screen.query_one(AnalysisPane)
        assert pane.seat == 0
        await pilot.press("a")
        await _until(pilot, lambda: pane.complete)
        assert pane.review is not None
        assert pane.review.ratings == ratings.review(record, 0).ratings
        assert all(r.seat == 0 and r.index < 20 for r in pane.review.ratings)


# -- at the table ---------------------------------------------------------------------


def _alone(seed: int, target: int = 0, **more: Any) -> AllFivesApp:
    settings = Settings(players=2, seed=seed, target=target, speed=0.0, levels=["heuristic"] * 3)
    return AllFivesApp(settings.model_copy(update=more), start=True, speed=0.0)


async def _to_a_choice(pilot: Pilot[None], app: AllFivesApp) -> GameScreen:
    """Play the first legal action until the person has a real choice."""
    for _ in range(60):
        await settle(pilot)
        screen = app.screen
        if isinstance(screen, HandSummaryScreen):
            await pilot.press("enter")
            continue
        assert isinstance(screen, GameScreen)
        legal = screen.legal()
        if len(legal) > 1:
            return screen
        assert app.viewer is not None
        app.play(app.viewer, legal[0])
    raise AssertionError("no choice came")


async def test_the_hint_key_marks_the_best_tile_and_end_and_counts(data_dir: Path) -> None:
    app = _alone(seed=8)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _to_a_choice(pilot, app)
        text = screen_text(app)
        assert "t Hint" in text and "q Quit" in text  # the footer at 80 columns
        step = screen.step
        await pilot.press("t")
        panel = screen.query_one(HintPanel)
        assert panel.has_class("-shown")
        await _until(pilot, lambda: "Hint  win" in str(panel.render()), timeout=30)
        assert app.coach is not None and app.coach.hints_used == 1
        assert app.table is not None
        assert f'"{app.table.game_id}": 1' in hints_path().read_text()
        shown = str(panel.render()).splitlines()
        best_text = shown[1].removeprefix("▶ ")[:7].strip()
        legal = {to_text(a): a for a in screen.legal()}
        best = legal[best_text]
        assert isinstance(best, Play)
        assert screen.selected_tile() == best.tile
        if screen.choosing:
            assert screen.choosing[screen.cursor] == best.end
        # the panel lists the top three (or all) with win chances
        assert len(shown) == 1 + min(3, len(legal))
        # Enter plays the hinted move; the panel goes with the snapshot
        await pilot.press("enter")
        await pilot.pause()
        assert app.table is not None
        played = app.table.record().hands[-1].actions
        assert best_text in played
        assert step != app.table.step and not panel.has_class("-shown")


async def test_no_hints_with_other_people_unless_all_agreed() -> None:
    people = Settings(players=2, seed=3, speed=0.0, levels=[PERSON] * 3, names=["Bo", "", ""])
    app = AllFivesApp(people, start=True, speed=0.0)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.coach is not None and not app.coach.hints and not app.coach.rates
        screen = app.game_screen
        assert screen is not None and screen.check_action("hint", ()) is False
    agreed = people.model_copy(update={"hints_for_all": True})
    app = AllFivesApp(agreed, start=True, speed=0.0)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.coach is not None and app.coach.hints and not app.coach.rates
    off = Settings(players=2, seed=3, speed=0.0, coach=False)
    app = AllFivesApp(off, start=True, speed=0.0)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.coach is not None and not app.coach.hints and app.coach.analyst is None


def _worst(app: AllFivesApp, screen: GameScreen) -> Any:
    view = screen.view()
    return evaluate(view, playouts=40 * len(view.legal_actions()), seed=1)[-1].action


async def _play_hand_badly(pilot: Pilot[None], app: AllFivesApp) -> None:
    """The person plays the worst action (by a quick evaluation) until the hand ends."""
    for _ in range(80):
        await settle(pilot)
        screen = app.screen
        if not isinstance(screen, GameScreen):
            return
        legal = screen.legal()
        assert app.viewer is not None
        app.play(app.viewer, legal[0] if len(legal) == 1 else _worst(app, screen))
    raise AssertionError("the hand did not end")


async def test_the_hand_summary_lists_the_costly_decisions() -> None:
    app = _alone(seed=5)
    async with app.run_test(size=(100, 30)) as pilot:
        await _play_hand_badly(pilot, app)
        summary = app.screen
        assert isinstance(summary, HandSummaryScreen) and summary.rated
        coach_ = app.coach
        assert coach_ is not None
        await _until(pilot, lambda: (s := coach_.hand_status(1))[1] == s[2] and s[2] > 0)
        costly, done, total = coach_.hand_status(1)
        assert done == total
        assert app.table is not None
        expected = [r for r in ratings.review(app.table.record(), 0).ratings if r.hand == 1]
        assert [r.label for r in expected if r.label] == [r.label for r in costly]
        assert costly, "the worst moves cost something"
        lines = ["Costly decisions this hand"]
        for r in sorted(costly, key=lambda r: -r.loss)[:3]:
            lines.append(f"{r.played} (move {r.move}), better {r.best}")
            lines.append(f"-{100 * r.loss:.1f}% win chance — {r.label}")
        # the summary shows them once it next polls the coach
        await _until(pilot, lambda: all(line in screen_text(app) for line in lines), 30)


async def _to_game_over(pilot: Pilot[None], app: AllFivesApp) -> None:
    for _ in range(40):
        await _play_hand_badly(pilot, app)
        if isinstance(app.screen, GameOverScreen):
            return
        await pilot.press("enter")
    raise AssertionError("the game did not end")


def _near_the_end() -> AllFivesApp:
    """The coach's short game to 50 resumed two actions before its end."""
    record = short_game()
    settings = Settings(players=2, speed=0.0, levels=["heuristic"] * 3)
    return AllFivesApp(settings, resume=record.truncated(record.action_count - 2), speed=0.0)


async def test_the_report_at_game_over_has_the_chart_and_the_figures() -> None:
    app = _near_the_end()
    async with app.run_test(size=(100, 30)) as pilot:
        await _to_game_over(pilot, app)
        assert app.table is not None and app.table.state.phase is Phase.OVER
        await pilot.press("g")
        report = app.screen
        assert isinstance(report, ReportScreen)
        record = app.table.record()
        await _until(pilot, lambda: report.review is not None and report.review.complete)
        expected = ratings.review(record, 0)
        assert report.review is not None and report.review.ratings == expected.ratings
        chart = report.query_one("#report-chart", SeriesChart).data
        assert chart is not None
        series = ratings.score_series(record)
        assert [s.values for s in chart.series[:2]] == [
            tuple(float(p[t]) for p in series) for t in range(2)
        ]
        assert chart.series[2].values == (50.0,) * len(series)
        text = screen_text(app)
        assert f"Accuracy {expected.accuracy:.1f}" in text
        assert f"Points lost to mistakes {expected.points_lost:.1f}" in text
        assert "Hints used 0 · take-backs 0" in text
        await pilot.press("escape")
        assert isinstance(app.screen, GameOverScreen)


async def test_a_game_rated_for_the_report_is_not_rated_again_in_its_replay(
    data_dir: Path,
) -> None:
    app = _near_the_end()
    async with app.run_test(size=(100, 30)) as pilot:
        await _to_game_over(pilot, app)
        assert app.table is not None and app.coach is not None
        record = app.table.record()
        cached = (
            data_dir
            / CACHE_FOLDER
            / f"{ratings.record_key(record, 0, ratings.RATING_PLAYOUTS)}.json"
        )
        coach_ = app.coach
        await _until(pilot, lambda: (r := coach_.review()) is not None and r.complete)
        await _until(pilot, cached.is_file, timeout=30)
        rated = coach_.review()
        await pilot.press("r")  # the game over screen's replay
        await _until(pilot, lambda: isinstance(app.screen, ReplayScreen), timeout=10)
        await pilot.press("a")
        pane = app.screen.query_one(AnalysisPane)
        await _until(pilot, lambda: pane.complete, timeout=30)
        assert pane.from_cache
        assert isinstance(app.screen, ReplayScreen) and app.screen.seat_review.analyst is None
        assert pane.review is not None and rated is not None
        assert pane.review.ratings == rated.ratings


async def _report_ready(pilot: Pilot[Any]) -> None:
    await pilot.pause()
    await pilot.press("g")
    report = pilot.app.screen
    assert isinstance(report, ReportScreen)
    await _until(pilot, lambda: report.review and report.review.complete)
    await pilot.pause()


def test_report_snapshot(snap_compare: Any) -> None:
    app = AllFivesApp(Settings(speed=0.0), resume=short_game(), speed=0.0, autosave=False)
    assert snap_compare(app, terminal_size=(100, 30), run_before=_report_ready)


# -- a damaged cache -----------------------------------------------------------------


def _wrong_type(path: Path, record: Any) -> None:
    """A well-formed review but for one rating's ``loss``, a string."""
    found = ratings.decisions(record, 0)
    rated = ratings.rate(found[0], 4)
    data = ratings.Review(0, ratings.RATING_PLAYOUTS, (rated,), len(found)).to_dict()
    data["ratings"][0]["loss"] = "x"
    path.write_text(json.dumps(data))


DAMAGES: dict[str, Callable[[Path, Any], object]] = {
    "nested 100,000 deep": lambda path, _: path.write_text("[" * 100_000 + "]" * 100_000),
    "a loss that is text": _wrong_type,
    "a link to /dev/zero": lambda path, _: path.symlink_to("/dev/zero"),
    "a named pipe": lambda path, _: os.mkfifo(path),
}


@pytest.mark.parametrize("damage", list(DAMAGES))
async def test_a_damaged_cache_entry_is_rated_again_and_the_app_quits(
    data_dir: Path, damage: str
) -> None:
    record = short_game().truncated(8)
    expected = ratings.review(record, 0)
    assert expected.total >= 2
    folder = data_dir / CACHE_FOLDER
    folder.mkdir(parents=True)
    path = folder / f"{ratings.record_key(record, 0, ratings.RATING_PLAYOUTS)}.json"
    DAMAGES[damage](path, record)
    finished, rescued = threading.Event(), threading.Event()

    def rescue() -> None:
        """A UI thread stuck opening the pipe (it is still there) is let go, and it shows."""
        if not finished.wait(30) and stat.S_ISFIFO(path.lstat().st_mode):
            rescued.set()
            with contextlib.suppress(OSError):
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))

    threading.Thread(target=rescue, daemon=True).start()
    app = ReplayApp(replay=record)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        pane = app.screen.query_one(AnalysisPane)
        await pilot.press("a")
        await _until(pilot, lambda: pane.complete and path.is_file(), timeout=300)
        assert not pane.from_cache and pane.error is None
        assert pane.review is not None and pane.review.ratings == expected.ratings
        assert f"accuracy {expected.accuracy:.1f}" in screen_text(app)
        await pilot.press("q")
        await _until(pilot, lambda: app.return_code is not None or not app.is_running, 10)
        assert app.return_code == 0
    finished.set()
    assert not rescued.is_set(), "the app waited on the pipe"
    # the entry made again is a good one
    assert AnalysisCache(folder).get(path.stem) == expected


async def test_t_where_nothing_fits_says_to_draw_or_pass() -> None:
    you = ["0-0", "2-0", "3-0", "4-0", "6-0", "2-2", "3-3", "4-4", "6-6"]
    north = ["5-5", "1-0", "2-1", "3-2", "4-3", "6-2", "6-1", "3-1", "4-1"]
    boneyard = ["1-1", "4-2", "5-3", "5-0", "5-1", "5-2", "5-4", "6-5", "6-3", "6-4"]
    record = dealt_record(you, north, boneyard)
    led = record.model_copy(
        update={"hands": (record.hands[0].model_copy(update={"actions": ("5-5",)}),)}
    )
    app = AllFivesApp(Settings(speed=0.0), resume=led, speed=0.0, autosave=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.legal() == (Draw(),)
        assert app.coach is not None and app.coach.hints
        assert screen.check_action("hint", ()) is True
        await pilot.press("t")
        await pilot.pause()
        panel = screen.query_one(HintPanel)
        assert panel.has_class("-shown") and "Nothing fits: draw" in str(panel.render())
        assert "Nothing fits: draw" in screen_text(app)
        assert app.coach.hints_used == 0  # nothing was worked out
    # North holds every five and leads 5-5; you draw the whole boneyard: pass
    you = ["2-0", "3-0", "4-0", "6-0", "2-2", "3-3", "4-4", "6-6", "1-0"]
    north = ["5-5", "5-0", "5-1", "5-2", "5-3", "5-4", "6-5", "0-0", "1-1"]
    boneyard = ["2-1", "3-1", "4-1", "6-1", "3-2", "4-2", "6-2", "4-3", "6-3", "6-4"]
    record = dealt_record(you, north, boneyard)
    actions = ("5-5", *["draw"] * len(boneyard))
    drawn = record.model_copy(
        update={"hands": (record.hands[0].model_copy(update={"actions": actions}),)}
    )
    app = AllFivesApp(Settings(speed=0.0), resume=drawn, speed=0.0, autosave=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.legal() == (Pass(),)
        await pilot.press("t")
        await pilot.pause()
        assert "Nothing fits: pass" in str(screen.query_one(HintPanel).render())
