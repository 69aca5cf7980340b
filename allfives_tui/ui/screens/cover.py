"""The cover between two people's turns at one terminal (hot-seat).

The board and the scores stay in view behind it; no hand shows until the
person named on it says they alone are looking.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Button, Static

from allfives_tui.locale import N_, _
from allfives_tui.ui.screens.dialog import KEY_AHEAD_GRACE, Dialog
from allfives_tui.ui.widgets.compact import compact
from allfives_tui.ui.widgets.footer import AppFooter
from allfives_tui.ui.widgets.too_small import TooSmall


class CoverScreen(Dialog[None]):
    """"Pass to Ana": Enter (or the button) shows Ana's tiles and lets her play."""

    BINDINGS = [
        Binding("enter,space", "reveal", N_("Show my tiles"), key_display="⏎"),
        Binding("question_mark", "app.show_help", N_("Help"), key_display="?"),
        Binding("q", "app.quit_keep", N_("Quit")),
    ]

    def __init__(self, name: str, *, grace: float | None = KEY_AHEAD_GRACE) -> None:
        """``grace``: seconds after the cover is first painted during which Enter and
        Space (typed for the move before it) are ignored."""
        super().__init__()
        self.person = name
        self.grace = grace

    def compose(self) -> ComposeResult:
        """Whose turn it is and what to do."""
        yield TooSmall()
        with Vertical(id="cover", classes="dialog"):
            yield Static(_("Pass to {name}").format(name=self.person), classes="dialog-title")
            yield Static(
                _("Press Enter when only {name} is looking: their tiles show next.").format(
                    name=self.person
                ),
                classes="dialog-note",
            )
            button = _("I am {name} (⏎)").format(name=self.person)
            yield compact(Button(button, id="reveal", variant="primary"))
        yield AppFooter()  # this screen's keys, not the game's beneath

    def action_reveal(self) -> None:
        """Close the cover (once)."""
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The button closes the cover."""
        event.stop()
        self.action_reveal()
