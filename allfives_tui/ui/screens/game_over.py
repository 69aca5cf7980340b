"""Game over: the winner, the final scores, and what next."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from allfives_tui.locale import N_, _
from allfives_tui.table.table import TableReading
from allfives_tui.table.words import Names, game_over_title
from allfives_tui.ui.screens.dialog import KEY_AHEAD_GRACE, Dialog
from allfives_tui.ui.screens.hand_summary import scores_text
from allfives_tui.ui.widgets.compact import compact
from allfives_tui.ui.widgets.footer import AppFooter
from allfives_tui.ui.widgets.too_small import TooSmall

__all__ = ["KEY_AHEAD_GRACE", "GameOverScreen"]


class GameOverScreen(Dialog[str]):
    """Announce the winner; dismisses with ``"new"``, ``"replay"``, ``"report"`` (the game
    report) or ``"quit"``."""

    AUTO_FOCUS = ""  # nothing focused during the grace (Dialog.grace)

    # the choices one under another when their words are too long for one row
    DEFAULT_CSS = "GameOverScreen .dialog-buttons.-stacked { layout: vertical; }"

    BINDINGS = [
        Binding("n", "choose('new')", N_("New game")),
        Binding("r", "choose('replay')", N_("Replay")),
        Binding("g", "choose('report')", N_("Report")),
        Binding("ctrl+s", "app.save_copy", N_("Save"), key_display="^s"),
        Binding("question_mark", "app.show_help", N_("Help"), key_display="?"),
        Binding("q", "choose('quit')", N_("Quit")),
    ]

    def __init__(
        self,
        table: TableReading,
        names: Names,
        *,
        report: bool = False,
        grace: float | None = KEY_AHEAD_GRACE,
    ) -> None:
        """``table``: the finished game's table (its rules, final scores and winner are
        read here, once); ``report``: offer the game report (``g``); ``grace``: seconds
        after the screen is first painted before Enter presses "New game" (an Enter meant
        for the game would otherwise start a new one at once)."""
        super().__init__()
        view = table.view(table.onlooker_seat())
        self.rules = table.rules
        self.scores = view.scores
        """Every side's final score."""
        self.winner = view.winner if view.winner is not None else 0
        """The winning side."""
        self.names = names
        self.report = report
        self.grace = grace

    def compose(self) -> ComposeResult:
        """The winner, the scores and the choices."""
        yield TooSmall()
        title = game_over_title(self.names, self.winner)
        with Vertical(id="game-over", classes="dialog"):
            yield Static(title, classes="dialog-title")
            yield Static(scores_text(self.rules, self.scores, self.names), id="final-scores")
            with Horizontal(classes="dialog-buttons"):
                yield compact(Button(_("New game (n)"), id="new", variant="primary"))
                yield compact(Button(_("Replay this game (r)"), id="replay"))
                if self.report:
                    yield compact(Button(_("Report (g)"), id="report"))
                yield compact(Button(_("Quit (q)"), id="quit"))
        yield AppFooter()  # this screen's keys, over the game's

    def on_mount(self) -> None:
        """Without a grace, "New game" has Enter at once; the choices take the rows they
        need."""
        if self.grace is None:
            self._focus_first()
        self.call_after_refresh(self._fit_choices)

    def on_resize(self) -> None:
        """The choices in one row where it holds them."""
        self.call_after_refresh(self._fit_choices)

    def _fit_choices(self) -> None:
        """One row of choices where it holds them all, else one choice a row."""
        row = self.query_one(".dialog-buttons", Horizontal)
        needed = sum(b.outer_size.width + b.styles.margin.right for b in row.query(Button))
        room = row.content_region.width
        if room > 0:
            row.set_class(needed > room, "-stacked")

    def grace_started(self) -> None:
        """Give Enter to "New game" once the grace is over."""
        if self.grace:
            self.set_timer(self.grace, self._focus_first)
        else:
            self._focus_first()

    def _focus_first(self) -> None:
        if self.focused is None:  # unless the person has moved the focus already
            self.query_one("#new", Button).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The report's key only where a report is offered."""
        if action == "choose" and parameters == ("report",):
            return self.report
        return True

    def action_choose(self, choice: str) -> None:
        """Close with ``choice``."""
        self.dismiss(choice)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Each button closes with its choice."""
        event.stop()
        self.dismiss(event.button.id or "quit")
