"""The end-of-hand summary: tiles left, pips, the rounding, the amounts lost, new scores."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Button, Static

from allfives_tui.coach.ratings import Rating
from allfives_tui.locale import N_, _, ngettext
from allfives_tui.locale.formats import number
from allfives_tui.table.table import TableReading
from allfives_tui.table.words import Names, hand_over_title, label_name, lost_share, move_words
from allfives_tui.ui.screens.dialog import KEY_AHEAD_GRACE, Dialog
from allfives_tui.ui.styled import styled
from allfives_tui.ui.widgets.compact import compact
from allfives_tui.ui.widgets.footer import AppFooter
from allfives_tui.ui.widgets.too_small import TooSmall
from engine import HandOver, Rules, Tile


def summary_table(
    rules: Rules, hands: Sequence[Sequence[Tile]] | None, event: HandOver, names: Names
) -> Table:
    """Per seat: the tiles left (``hands``: every hand as the hand ended; ``None``: not
    known), pip total, rounded to, subtracted."""
    table = Table(box=None, padding=(0, 1), header_style="bold", expand=False)
    table.add_column(_("Seat"), no_wrap=True)
    table.add_column(_("Tiles left"), no_wrap=False)
    table.add_column(_("Pips"), justify="right")
    table.add_column(_("Lost"), justify="right")
    for seat in range(rules.players):
        if hands is None or seat >= len(hands):
            tiles = "?"
        else:
            tiles = " ".join(str(t) for t in hands[seat]) or _("— out —")
        pips = event.pips[seat]
        lost = event.penalties[seat]
        # the pips, and what they round to where that differs
        rounding = f"{number(pips)}→{number(lost)}" if pips != lost else number(pips)
        table.add_row(names.seat(seat), tiles, rounding, f"-{number(lost)}" if lost else "0")
    return table


def scores_text(rules: Rules, scores: Sequence[int], names: Names) -> Text:
    """Every side's score against the target."""
    text = Text()
    for team in range(rules.teams):
        if team:
            text.append("   ")
        score = number(scores[team] if team < len(scores) else 0)
        # the side's name in bold, its score plain
        text.append_text(
            styled(_("{side} {score}"), "bold", after={"score": ""}, side=names.team(team),
                   score=(score, ""))
        )
    text.append("   " + _("(target {target})").format(target=number(rules.target)), style="dim")
    return text


COSTLY_SHOWN = 3
"""The most costly decisions the summary lists (the costliest; the rest are counted)."""


def costly_text(
    costly: list[Rating], done: int, total: int, most: int = COSTLY_SHOWN
) -> Text:
    """The coach's word on the hand: rating in progress, or the ``most`` costliest
    decisions (what was played, what was better, the win chance it cost, the label),
    the rest counted; with ``most`` 0, only how many there were."""
    text = Text()
    if done < total:
        rating = _("Rating your moves… {done} of {total}")
        text.append(rating.format(done=number(done), total=number(total)), style="dim")
        return text
    if not total:
        text.append(_("The coach: no choices to rate this hand."), style="dim")
        return text
    if most <= 0 and costly:
        counted = ngettext(
            "The coach: one costly decision this hand; it is in the report.",
            "The coach: {count} costly decisions this hand; all in the report.",
            len(costly),
        )
        text.append(counted.format(count=number(len(costly))), style="bold")
        return text
    if not costly:
        none = ngettext(
            "The coach: your one choice this hand was not costly.",
            "The coach: none of your {total} choices this hand was costly.",
            total,
        )
        text.append(none.format(total=number(total)))
        return text
    shown = sorted(costly, key=lambda r: -r.loss)[:most]
    if len(costly) > len(shown):
        heading = ngettext(
            "Costly decisions this hand (the costliest {shown} of {count}; all in the report):",
            "Costly decisions this hand (the costliest {shown} of {count}; all in the report):",
            len(costly),
        )
        shown_of = heading.format(shown=number(len(shown)), count=number(len(costly)))
        text.append(shown_of, style="bold")
    else:
        text.append(_("Costly decisions this hand:"), style="bold")
    for r in sorted(shown, key=lambda r: r.index):
        text.append("\n  ")
        line = _("{played} (move {move}), better {best}: {loss} — {label}")
        text.append_text(
            styled(
                line,
                after={"loss": "italic"},
                played=move_words(r.played),
                move=number(r.move),
                best=move_words(r.best),
                loss=(_("{loss} win chance").format(loss=lost_share(r.loss)), "bold"),
                label=label_name(r.label or ""),
            )
        )
    return text


class HandSummaryScreen(Dialog[None]):
    """Shown when a hand ends; Enter, Space or a click deals the next hand."""

    DEFAULT_CSS = "#summary-coach { margin-bottom: 1; }"

    BINDINGS = [
        Binding("enter,space", "next_hand", N_("Next hand"), key_display="⏎"),
        Binding("q", "app.quit_keep", N_("Quit")),
    ]

    def __init__(
        self,
        table: TableReading,
        event: HandOver,
        names: Names,
        *,
        rated: bool = False,
        grace: float | None = KEY_AHEAD_GRACE,
    ) -> None:
        """``table``: the table as the hand ended (its rules, scores and revealed hands
        are read here, once); ``rated``: the coach rates the person's moves, and
        :meth:`show_costly` says how this hand's went; ``grace``: seconds after the
        summary is first painted during which Enter and Space (typed for the hand's last
        move) are ignored."""
        super().__init__()
        self.rules = table.rules
        self.scores = table.view(table.onlooker_seat()).scores
        """Every side's score after the hand."""
        self.hands = table.revealed
        """Every hand as the hand ended (``None`` if the table did not reveal them)."""
        self.event = event
        self.names = names
        self.rated = rated
        self.grace = grace
        self._costly: tuple[list[Rating], int, int] = ([], 0, 1)

    def compose(self) -> ComposeResult:
        """Title, the table, the scores and the button."""
        yield TooSmall()
        ev = self.event
        head = hand_over_title(self.names, ev)
        with Vertical(id="summary", classes="dialog"):
            yield Static(head, classes="dialog-title")
            yield Static(
                _("Pips left in hand, rounded to the nearest 5, come off that side's score."),
                classes="dialog-note",
            )
            yield Static(
                summary_table(self.rules, self.hands, ev, self.names), id="summary-table"
            )
            yield Static(scores_text(self.rules, self.scores, self.names), id="summary-scores")
            if self.rated:
                yield Static(id="summary-coach")
            yield compact(Button(_("Next hand (⏎)"), id="next-hand", variant="primary"))
        yield AppFooter()  # this screen's keys, not the game's beneath

    def on_mount(self) -> None:
        """Show what the coach has said so far (ratings may come before the screen is made)."""
        self._show_costly()

    def show_costly(self, costly: list[Rating], done: int, total: int) -> None:
        """The hand's costly decisions, once ``done`` of its ``total`` are rated."""
        self._costly = (costly, done, total)
        self._show_costly()

    def _show_costly(self, most: int | None = None) -> None:
        """The coach's lines with the ``most`` costly decisions the dialog holds (by
        default as many as the terminal's height allows, fewer where the dialog then does
        not fit: the lines are longer in some languages)."""
        found = self.query("#summary-coach") if self.rated else None
        if not found:
            return  # not rated, or not composed yet: on_mount shows it
        if most is None:
            # at 24 rows the dialog holds two lines of them (one with four players)
            roomy = self.app.size.height >= 30
            most = COSTLY_SHOWN if roomy else (2 if self.rules.players <= 3 else 1)
        found.first(Static).update(costly_text(*self._costly, most))
        if most > 0:
            self.call_after_refresh(self._fit_costly, most)

    def _fit_costly(self, most: int) -> None:
        """Fewer costly decisions than ``most`` where the dialog does not hold them all
        (its button, last, is out of sight)."""
        if not self.is_attached:
            return
        dialog = self.query_one("#summary").content_region
        button = self.query_one("#next-hand").region
        if not button or button.bottom > dialog.bottom:
            self._show_costly(most - 1)

    def on_resize(self) -> None:
        """Another size: as many costly decisions as it holds."""
        self._show_costly()

    def action_next_hand(self) -> None:
        """Close the summary; the game deals the next hand."""
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The button deals the next hand."""
        event.stop()
        self.action_next_hand()

    def on_click(self) -> None:
        """A click anywhere deals the next hand."""
        self.action_next_hand()
