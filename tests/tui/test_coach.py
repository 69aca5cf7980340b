"""The coach in the app (issue 17): the hint key, costly decisions after a hand, the game
report, and the replay's analysis pane (Pilot, real processes, real files)."""

from __future__ import annotations

import time
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import ProgressBar

from allfives_tui.table import coach
from allfives_tui.ui.screens.replay import ReplayApp, ReplayScreen
from allfives_tui.ui.widgets.analysis import AnalysisPane
from tests.coach.helpers import short_game
from tests.tui.helpers import screen_text

SIZE = (100, 30)


async def _until(pilot: Pilot[None], done: object, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not done() and time.monotonic() < deadline:  # type: ignore[operator]
        await pilot.pause(0.1)
    assert done(), "timed out"  # type: ignore[operator]


async def test_the_replay_pane_rates_in_the_background_and_caches(data_dir: Path) -> None:
    record = short_game()
    expected = coach.review(record, 0)
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
    files = list((data_dir / coach.CACHE_FOLDER).glob("*.json"))
    assert len(files) == 1 and files[0].stem == coach.record_key(record, 0, coach.RATING_PLAYOUTS)
    # opened again: from the cache at once, no process
    again = ReplayApp(replay=record)
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("a")
        pane = again.screen.query_one(AnalysisPane)
        assert pane.from_cache and pane.complete and pane._analyst is None
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
        assert pane.review.ratings == coach.review(record, 0).ratings
        assert all(r.seat == 0 and r.index < 20 for r in pane.review.ratings)
