"""The coach at the screen: a game's :class:`~allfives_tui.coach.table_coach.TableCoach`
started, its hints worked out, and its ratings passed to the screen on show.

Plain functions the App calls; the coach itself holds no Textual.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from textual.screen import Screen

from allfives_tui.coach.ratings import hint
from allfives_tui.coach.table_coach import TableCoach
from allfives_tui.table.settings import Settings
from allfives_tui.table.table import Table
from allfives_tui.table.words import Names
from allfives_tui.ui.screens.hand_summary import HandSummaryScreen
from allfives_tui.ui.screens.report import ReportScreen
from engine import SeatView
from engine.players.evaluate import ActionValue


def coach_for(table: Table, settings: Settings, old: TableCoach | None) -> TableCoach:
    """The coach of a new game at ``table``, started (``old``, the last game's, is closed)."""
    if old is not None:
        old.close()
    coach = TableCoach(table, settings)
    coach.start()
    return coach


@contextmanager
def paused(coach: TableCoach | None) -> Iterator[None]:
    """The coach's analysis waits meanwhile (a computer thinks, or a hint is worked out)."""
    if coach is not None:
        coach.pause()
    try:
        yield
    finally:
        if coach is not None:
            coach.resume()


def work_out_hint(coach: TableCoach | None, view: SeatView) -> tuple[ActionValue, ...]:
    """(A worker thread.) The hint for ``view``, the analysis paused meanwhile."""
    with paused(coach):
        return hint(view)


def pass_on_ratings(coach: TableCoach | None, screen: Screen[object], force: bool) -> None:
    """Collect the ratings the analyst sent; ``screen``, a summary or report, gets them
    (``force``: even when none came since)."""
    if coach is None or not (coach.poll() or force):
        return
    if isinstance(screen, HandSummaryScreen) and screen.rated:
        screen.show_costly(*coach.hand_status(screen.event.hand_number))
    elif isinstance(screen, ReportScreen) and coach.rates:
        screen.show_review(coach.review())


def report_screen(
    table: Table, words: Names, coach: TableCoach | None, seat: int | None
) -> ReportScreen:
    """The finished game's report: its review when the coach rated it, and hints used."""
    return ReportScreen(
        table.record(),
        words,
        coach.review() if coach is not None and coach.rates else None,
        hints=coach.hints_used if coach is not None else 0,
        seat=seat,
    )
