"""The game report: both sides' scores hand by hand toward the target, the player's accuracy,
points lost to mistakes, hints and take-backs used, and every costly decision.

The report renders what it is given: the record (for the scores, through
:func:`~allfives_tui.coach.ratings.score_series`) and the coach's
:class:`~allfives_tui.coach.ratings.Review` of the person's decisions, which may
still be growing while the analyst finishes (:meth:`ReportScreen.show_review`).
The chart is a :class:`~allfives_tui.ui.widgets.chart.SeriesChart` (Plotext).
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from allfives_tui.coach.ratings import Review, score_series
from allfives_tui.locale import N_, _, ngettext
from allfives_tui.locale.formats import number
from allfives_tui.table.words import Names, labels_line
from allfives_tui.ui.screens.dialog import Dialog
from allfives_tui.ui.styled import merged, styled
from allfives_tui.ui.widgets.analysis import decisions_text, scores_chart, tenths
from allfives_tui.ui.widgets.chart import SeriesChart
from allfives_tui.ui.widgets.footer import AppFooter
from allfives_tui.ui.widgets.too_small import TooSmall
from engine.record import GameRecord


def figures_text(review: Review | None, hints: int, take_backs: int) -> Text:
    """Accuracy, points lost, the labels counted, hints and take-backs."""
    text = Text()
    if review is None:
        text.append(_("Your moves were not rated in this game (the coach was off)."), style="dim")
    else:
        acc = review.accuracy
        n = len(review.ratings)
        accuracy = ngettext(
            "Accuracy {accuracy} over {count} decision",
            "Accuracy {accuracy} over {count} decisions",
            n,
        )
        # the figure's name in bold, its value plain, the rest dim
        text.append_text(
            styled(
                accuracy,
                "bold",
                after={"accuracy": "dim"},
                accuracy=("—" if acc is None else tenths(acc), ""),
                count=number(n),
            )
        )
        text.append("   ", style="bold")  # a gap, in the style of the figure's name
        lost = _("Points lost to mistakes {points}")
        text.append_text(styled(lost, "bold", points=(tenths(review.points_lost), "")))
        text.append(f"\n{labels_line(review.counts(), ' · ')}")
    # a figure each: the language's forms for one and for many are its own
    hints_used = ngettext("Hints used {count}", "Hints used {count}", hints)
    taken_back = ngettext("take-backs {count}", "take-backs {count}", take_backs)
    text.append(
        "\n"
        + hints_used.format(count=number(hints))
        + " · "
        + taken_back.format(count=number(take_backs))
    )
    if review is not None and not review.complete:
        rating = _("Rating your moves… {done} of {total}").format(
            done=number(len(review.ratings)), total=number(review.total)
        )
        text.append("\n" + rating, style="dim")
    return merged(text)


class ReportScreen(Dialog[None]):
    """The report of a finished game (Esc or q goes back)."""

    DEFAULT_CSS = """
    ReportScreen #report {
        width: 96%;
        height: 94%;
        max-height: 100%;
        max-width: 100%;
        padding: 0 1;
    }
    ReportScreen #report-chart { height: 1fr; min-height: 8; }
    ReportScreen #report-figures { height: auto; margin-top: 1; }
    ReportScreen #report-decisions { height: auto; max-height: 6; }
    """

    BINDINGS = [
        Binding("escape,q,g", "close", N_("Back"), key_display="Esc"),
    ]

    def __init__(
        self,
        record: GameRecord,
        names: Names,
        review: Review | None,
        *,
        hints: int = 0,
        seat: int | None = None,
    ) -> None:
        super().__init__()
        self.record = record
        self.names = names
        self.review = review
        self.hints = hints
        self.seat = seat if seat is not None else (review.seat if review is not None else None)

    @property
    def take_backs(self) -> int:
        """The take-backs of the reviewed seat (every person's, with none)."""
        seats = self.record.seats
        if self.seat is not None:
            return seats[self.seat].take_backs
        return sum(s.take_backs for s in seats)

    def compose(self) -> ComposeResult:
        """The chart, the figures and the costly decisions."""
        yield TooSmall()
        with Vertical(id="report", classes="dialog"):
            yield Static(_("Game report"), classes="dialog-title")
            chart = scores_chart(score_series(self.record), self.names)
            yield SeriesChart(chart, id="report-chart")
            figures = figures_text(self.review, self.hints, self.take_backs)
            yield Static(figures, id="report-figures")
            with VerticalScroll(id="report-decisions"):
                yield Static(decisions_text(self.review), id="report-costly")
        yield AppFooter()

    def show_review(self, review: Review | None) -> None:
        """The review grew (more decisions rated)."""
        self.review = review
        if self.is_mounted:
            figures = figures_text(review, self.hints, self.take_backs)
            self.query_one("#report-figures", Static).update(figures)
            self.query_one("#report-costly", Static).update(decisions_text(review))

    def action_close(self) -> None:
        """Back to where the report was opened."""
        self.dismiss(None)
