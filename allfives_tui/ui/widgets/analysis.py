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
from allfives_tui.locale import _, ngettext
from allfives_tui.locale.formats import fixed, number
from allfives_tui.table.replay import Replay
from allfives_tui.table.words import Names, label_name, move_words, win_lost
from allfives_tui.ui.styled import styled
from allfives_tui.ui.widgets.chart import ChartData, Series, SeriesChart
from allfives_tui.ui.widgets.hint import option_line

SIDE_COLORS = ("cyan", "orange", "green", "magenta")
"""Plotext colours of the sides' lines, in side order."""


def scores_chart(series: Sequence[Sequence[int]], names: Names) -> ChartData:
    """Every side's score at the start and after each hand (``series``, one tuple of the
    sides' scores a point: :func:`~allfives_tui.coach.ratings.score_series`), and the target
    as a line."""
    rules = names.rules
    labels = tuple(number(h) for h in range(len(series)))
    lines = [
        Series(names.team(t), tuple(float(p[t]) for p in series), SIDE_COLORS[t % 4])
        for t in range(rules.teams)
    ]
    target = _("target {target}").format(target=number(rules.target))
    lines.append(Series(target, (float(rules.target),) * len(series), "gray"))
    return ChartData(
        title=_("Scores after each hand"),
        x_labels=labels,
        series=tuple(lines),
        kind="line",
        y_label=_("points"),
        empty=_("no hand played yet"),
    )


def tenths(value: float) -> str:
    """``value`` to one decimal, in the language's numbers (rounded as Python rounds)."""
    return fixed(round(value, 1), 1)


def decisions_text(review: Review | None) -> Text:
    """Every labelled decision, a line each."""
    text = Text()
    costly = review.costly() if review is not None else []
    if review is not None and not costly:
        text.append(_("No costly decisions.") if review.complete else "", style="dim")
    for r in costly:
        if text:
            text.append("\n")
        line = _(
            "Hand {hand} move {move}: {played}, better {best}: {loss} ({points} points) — {label}"
        )
        text.append_text(
            styled(
                line,
                after={"loss": "italic"},
                hand=number(r.hand),
                move=number(r.move),
                played=move_words(r.played),
                best=move_words(r.best),
                loss=(win_lost(r.loss), "bold"),
                points=tenths(r.points_loss),
                label=label_name(r.label or ""),
            )
        )
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
            move = _("Hand {hand} move {move}: {action}").format(
                hand=number(frame.hand), move=number(frame.move), action=move_words(frame.text)
            )
            text.append(move, style="bold")
            text.append("\n" + _("not rated (no choice, or still to come)"), style="dim")
        else:
            text.append(_("Step to one of the seat's moves to see it rated."), style="dim")
        return text
    hand, move = number(rating.hand), number(rating.move)
    played = (move_words(rating.played), "")
    if rating.played == rating.best:
        line = _("Hand {hand} move {move}: {played} — the best move")
        text.append_text(styled(line, "bold", played=played, hand=hand, move=move))
    else:
        loss = (win_lost(rating.loss), "bold")
        best = move_words(rating.best)
        if rating.label:
            line = _("Hand {hand} move {move}: {played}, better {best}: {loss} — {label}")
            label = (label_name(rating.label), "italic")
            text.append_text(
                styled(line, "bold", after={"played": ""}, played=played, best=best, loss=loss,
                       label=label, hand=hand, move=move)
            )
        else:
            line = _("Hand {hand} move {move}: {played}, better {best}: {loss}")
            text.append_text(
                styled(line, "bold", after={"played": ""}, played=played, best=best, loss=loss,
                       hand=hand, move=move)
            )
    for option in rating.options[:3]:
        mark = "▶" if option.action == rating.played else " "
        text.append(
            f"\n{mark} {option_line(option.action, option.win, option.points)}",
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

    def _whose_decisions(self) -> str:
        """``"Coach: your 16 decisions"``, ``"Coach: Ann's 16 decisions"``."""
        seat = self.seat if self.seat is not None else 0
        if seat == self.replay.owner:
            text = ngettext("Coach: your {count} decision", "Coach: your {count} decisions",
                            self.total)
        else:
            text = ngettext("Coach: {name}'s {count} decision", "Coach: {name}'s {count} decisions",
                            self.total)
        return text.format(name=self.replay.seat_name(seat), count=number(self.total))

    def _refresh_pane(self) -> None:
        if not self.is_mounted:
            return
        head = self.query_one("#analysis-head", Static)
        bar = self.query_one(ProgressBar)
        if self.seat is None:
            head.update(Text(_("No analysis: nobody's view may be shown in this game."), "dim"))
            bar.display = False
        elif self.error is not None:
            head.update(Text(_("No analysis: {reason}").format(reason=self.error), "dim"))
            bar.display = False
        else:
            review = self.review
            done = len(review.ratings) if review is not None else 0
            acc = review.accuracy if review is not None else None
            line = Text(self._whose_decisions())
            if review is not None and review.complete:
                if acc is not None:
                    line.append(" · " + _("accuracy {accuracy}").format(accuracy=tenths(acc)))
                lost = _("{points} points lost").format(points=tenths(review.points_lost))
                line.append(" · " + lost)
            elif self.started:
                rating = _("rating {done} of {total}…").format(
                    done=number(done), total=number(self.total)
                )
                line.append(" · " + rating, style="dim")
            head.update(line)
            bar.display = self.started and not self.complete
            bar.update(total=max(1, self.total), progress=done)
        costly = self.query_one("#analysis-costly", Static)
        costly.update(decisions_text(self.review) if self.started else "")
        self.show_step(self._index)
