"""The replay's analysis pane: the scores chart and every decision of one seat rated.

:class:`AnalysisPane` rates the decisions of one seat of a replayed game in the
background (the coach's :class:`~allfives_tui.coach.ratings.Analyst` process),
with a progress bar, from each mover's view at the time (never the hands the
replay shows face up). A finished review is kept in the data folder's cache
(:class:`~allfives_tui.coach.ratings.AnalysisCache`) and read from there, in a
thread, the next time; the record is never written. The replay screen tells the pane
which step is on show (:meth:`AnalysisPane.show_step`) and the pane shows that
decision's rating.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.timer import Timer
from textual.widgets import ProgressBar, Static
from textual.worker import get_current_worker

from allfives_tui.coach import ratings
from allfives_tui.coach.cache import AnalysisCache, default_cache
from allfives_tui.coach.process import Analyst, Progress
from allfives_tui.coach.ratings import CoachError, Rating, Review
from allfives_tui.table.replay import Replay
from allfives_tui.table.words import Names
from allfives_tui.ui.widgets.chart import ChartData, Series, SeriesChart

POLL_SECONDS = 0.2
"""How often the pane collects the analyst's ratings."""


SIDE_COLORS = ("cyan", "orange", "green", "magenta")
"""Plotext colours of the sides' lines, in side order."""


def scores_chart(series: Sequence[Sequence[int]], names: Names) -> ChartData:
    """Every side's score at the start and after each hand (``series``, one tuple of the
    sides' scores a point: :func:`~allfives_tui.coach.ratings.score_series`), and the target
    as a line."""
    rules = names.rules
    labels = ("0", *(str(h) for h in range(1, len(series))))
    lines = [
        Series(names.team(t), tuple(float(p[t]) for p in series), SIDE_COLORS[t % 4])
        for t in range(rules.teams)
    ]
    lines.append(Series(f"target {rules.target}", (float(rules.target),) * len(series), "gray"))
    return ChartData(
        title="Scores after each hand",
        x_labels=labels,
        series=tuple(lines),
        kind="line",
        y_label="points",
        empty="no hand played yet",
    )


def decisions_text(review: Review | None) -> Text:
    """Every labelled decision, a line each."""
    text = Text()
    costly = review.costly() if review is not None else []
    if review is not None and not costly:
        text.append("No costly decisions." if review.complete else "", style="dim")
    for r in costly:
        if text:
            text.append("\n")
        text.append(f"Hand {r.hand} move {r.move}: {r.played}, better {r.best}: ")
        text.append(f"-{100 * r.loss:.1f}% win", style="bold")
        text.append(f" ({r.points_loss:.1f} points) — {r.label}", style="italic")
    return text


def analysis_seat(replay: Replay, private_view: int | None) -> int | None:
    """Whose decisions a replay's pane rates: in a game shown from one view only, that
    view's seat (nobody's for a view of no seat); else the game's one person, or seat 0."""
    if private_view is not None:
        return private_view if private_view >= 0 else None
    return ratings.default_seat(replay)


def move_text(replay: Replay, seat: int, index: int, ratings: dict[int, Rating]) -> Text:
    """The rating of the decision at step ``index`` (or what the step is, if not one)."""
    frame = replay.frames[index]
    text = Text()
    rating = ratings.get(index)
    if rating is None:
        if frame.seat == seat and frame.move and index not in ratings:
            text.append(f"Hand {frame.hand} move {frame.move}: {frame.text}", style="bold")
            text.append("\nnot rated (no choice, or still to come)", style="dim")
        else:
            text.append("Step to one of the seat's moves to see it rated.", style="dim")
        return text
    text.append(f"Hand {rating.hand} move {rating.move}: ", style="bold")
    text.append(rating.played)
    if rating.played == rating.best:
        text.append(" — the best move", style="bold")
    else:
        text.append(f", better {rating.best}: ")
        text.append(f"-{100 * rating.loss:.1f}% win", style="bold")
        if rating.label:
            text.append(f" — {rating.label}", style="italic")
    for option in rating.options[:3]:
        mark = "▶" if option.action == rating.played else " "
        text.append(
            f"\n{mark} {option.action:<7} {100 * option.win:3.0f}% · {option.points:+.1f}",
            style="dim" if option.action != rating.played else "",
        )
    return text


class AnalysisPane(Vertical):
    """A seat's decisions in a replayed game, rated in the background, with the scores
    chart. Call :meth:`start` to begin (the first time the pane is shown)."""

    DEFAULT_CSS = """
    AnalysisPane {
        display: none;
        width: 46;
        height: 100%;
        border-left: solid $panel-lighten-2;
        padding: 0 1;
    }
    AnalysisPane #analysis-head { height: auto; text-style: bold; }
    AnalysisPane #analysis-progress { height: 1; }
    AnalysisPane #analysis-chart { height: 1fr; min-height: 8; }
    AnalysisPane #analysis-move { height: auto; margin-top: 1; }
    AnalysisPane #analysis-list { height: auto; max-height: 8; margin-top: 1; }
    """

    def __init__(
        self,
        replay: Replay,
        seat: int | None,
        *,
        playouts: int = ratings.RATING_PLAYOUTS,
        cache: AnalysisCache | None = None,
        id: str | None = None,
    ) -> None:
        """``seat``: whose decisions (``None``: nobody's may be seen, e.g. a game in
        progress between several people)."""
        super().__init__(id=id)
        self.replay = replay
        self.seat = seat
        self.playouts = playouts
        self.cache = cache
        self.review: Review | None = None
        self.by_index: dict[int, Rating] = {}
        self.total = 0
        self.error: str | None = None
        self.from_cache = False
        self._analyst: Analyst | None = None
        self._timer: Timer | None = None
        self._index = 0
        self._key = ""
        if seat is not None:
            try:
                ratings.check_seat_visible(replay, seat)
                self.total = len(ratings.decisions(replay, seat))
            except CoachError as err:
                self.error = str(err)

    @property
    def started(self) -> bool:
        """True once the analysis began (or was found in the cache)."""
        return bool(self._key)

    @property
    def complete(self) -> bool:
        """True when every decision is rated."""
        return self.review is not None and self.review.complete

    def compose(self) -> ComposeResult:
        """Head, progress, chart, the step's rating and the costly decisions."""
        yield Static(id="analysis-head")
        yield ProgressBar(total=max(1, self.total), show_eta=False, id="analysis-progress")
        yield SeriesChart(
            scores_chart(ratings.score_series(self.replay), self.replay.names()),
            id="analysis-chart",
        )
        yield Static(id="analysis-move")
        with VerticalScroll(id="analysis-list"):
            yield Static(id="analysis-costly")

    def on_mount(self) -> None:
        """Say what the pane will show."""
        self._refresh_pane()

    def start(self) -> None:
        """Rate the seat's decisions: from the cache if they are there (looked up in a
        thread: the file may be slow or damaged), else in the background process."""
        if self.started or self.seat is None or self.error is not None:
            self._refresh_pane()
            return
        self._key = ratings.record_key(self.replay.record, self.seat, self.playouts)
        self.cache = self.cache if self.cache is not None else default_cache()
        self._set_review(Review(self.seat, self.playouts, (), self.total))
        self._look_up(self.cache, self._key)

    @work(thread=True, exclusive=True, group="analysis-cache", exit_on_error=False)
    def _look_up(self, cache: AnalysisCache, key: str) -> None:
        """Read the cache off the UI thread; the pane goes on in :meth:`_looked_up`."""
        try:
            found = cache.get(key)
        except Exception:  # a miss, whatever went wrong: the review is made again
            found = None
        if not get_current_worker().is_cancelled:
            with contextlib.suppress(RuntimeError):  # the app has gone meanwhile
                self.app.call_from_thread(self._looked_up, found)

    def _looked_up(self, found: Review | None) -> None:
        """The cache's answer: its review, or rate the decisions in the background."""
        if not self.is_mounted or self.seat is None or self._analyst is not None:
            return
        if found is not None and found.seat == self.seat and found.total == self.total:
            self.from_cache = True
            self._set_review(found)
            return
        if not self.total:
            return
        self._analyst = Analyst(self.playouts)
        self._analyst.submit(self._key, self.replay.record, self.seat)
        self._timer = self.set_interval(POLL_SECONDS, self._poll)

    @work(thread=True, group="analysis-cache-put", exit_on_error=False)
    def _keep(self, cache: AnalysisCache, key: str, review: Review) -> None:
        """Keep a finished review in the cache, off the UI thread."""
        with contextlib.suppress(Exception):
            cache.put(key, review)

    def _poll(self) -> None:
        analyst = self._analyst
        if analyst is None or self.seat is None:
            return
        ratings = dict(self.by_index)
        for item in analyst.poll():
            if isinstance(item, Rating):
                ratings[item.index] = item
            elif isinstance(item, str):
                self.error = item
            elif isinstance(item, Progress):
                pass
        if len(ratings) != len(self.by_index) or self.error:
            ordered = tuple(ratings[i] for i in sorted(ratings))
            self._set_review(Review(self.seat, self.playouts, ordered, self.total))
        if self.complete or self.error:
            self._finish()

    def _finish(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self.review is not None and self.review.complete and self.cache is not None:
            self._keep(self.cache, self._key, self.review)
        if self._analyst is not None:
            self._analyst.close()
            self._analyst = None

    def _set_review(self, review: Review) -> None:
        self.review = review
        self.by_index = {r.index: r for r in review.ratings}
        self._refresh_pane()

    def show_step(self, index: int) -> None:
        """The replay shows step ``index``: show its rating."""
        self._index = index
        if self.is_mounted:
            self.query_one("#analysis-move", Static).update(
                move_text(self.replay, self.seat or 0, index, self.by_index)
                if self.seat is not None and self.error is None
                else ""
            )

    def _refresh_pane(self) -> None:
        if not self.is_mounted:
            return
        head = self.query_one("#analysis-head", Static)
        bar = self.query_one(ProgressBar)
        if self.seat is None:
            head.update(Text("No analysis: nobody's view may be shown in this game.", "dim"))
            bar.display = False
        elif self.error is not None:
            head.update(Text(f"No analysis: {self.error}", "dim"))
            bar.display = False
        else:
            review = self.review
            done = len(review.ratings) if review is not None else 0
            whose = self.replay.names().possessive(self.seat)
            acc = review.accuracy if review is not None else None
            line = Text(f"Coach: {whose} {self.total} decisions")
            if review is not None and review.complete:
                line.append(f" · accuracy {acc:.1f}" if acc is not None else "")
                line.append(f" · {review.points_lost:.1f} points lost", style="")
            elif self.started:
                line.append(f" · rating {done} of {self.total}…", style="dim")
            head.update(line)
            bar.display = self.started and not self.complete
            bar.update(total=max(1, self.total), progress=done)
        costly = self.query_one("#analysis-costly", Static)
        costly.update(decisions_text(self.review) if self.started else "")
        self.show_step(self._index)

    def on_unmount(self) -> None:
        """Stop the background process."""
        if self._timer is not None:
            self._timer.stop()
        if self._analyst is not None:
            self._analyst.close()
            self._analyst = None
