"""The replay's analysis pane: the scores chart and every decision of one seat rated.

:class:`AnalysisPane` shows the review of one seat of a replayed game as its
screen hands it over (:meth:`AnalysisPane.show_review`): the replay screen runs
the coach's :class:`~allfives_tui.coach.seat_review.SeatReview` (the cache, the
analyst process) and the pane only draws, with a progress bar while the
ratings come in. The screen tells the pane which step is on show
(:meth:`AnalysisPane.show_step`) and the pane shows that decision's rating.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import ProgressBar, Static

from allfives_tui.coach import ratings
from allfives_tui.coach.ratings import Rating, Review
from allfives_tui.table.replay import Replay
from allfives_tui.table.words import Names, better_move, win_lost
from allfives_tui.ui.widgets.chart import ChartData, Series, SeriesChart

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
        text.append(f"Hand {r.hand} move {r.move}: {better_move(r.played, r.best)}: ")
        text.append(win_lost(r.loss), style="bold")
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
    if rating.played == rating.best:
        text.append(rating.played)
        text.append(" — the best move", style="bold")
    else:
        text.append(f"{better_move(rating.played, rating.best)}: ")
        text.append(win_lost(rating.loss), style="bold")
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
    """A seat's decisions in a replayed game, rated, with the scores chart: the screen
    hands over the review as it grows (:meth:`show_review`)."""

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
        total: int = 0,
        error: str | None = None,
        id: str | None = None,
    ) -> None:
        """``seat``: whose decisions (``None``: nobody's may be seen, e.g. a game in
        progress between several people); ``total`` of them; ``error``: why they
        cannot be rated."""
        super().__init__(id=id)
        self.replay = replay
        self.seat = seat
        self.total = total
        self.error = error
        self.review: Review | None = None
        self.by_index: dict[int, Rating] = {}
        self.from_cache = False
        self._index = 0

    @property
    def started(self) -> bool:
        """True once the screen handed over a review (however far it is)."""
        return self.review is not None

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

    def show_review(
        self, review: Review | None, *, error: str | None = None, from_cache: bool = False
    ) -> None:
        """The review as far as it is (``from_cache``: read from the cache), or why the
        decisions could not be rated (``error``)."""
        self.review = review
        self.error = error
        self.from_cache = from_cache
        self.by_index = {r.index: r for r in review.ratings} if review is not None else {}
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
