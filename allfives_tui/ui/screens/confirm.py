"""A yes-or-no question before something that cannot be undone."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from allfives_tui.locale import N_, _
from allfives_tui.ui.screens.dialog import Dialog
from allfives_tui.ui.widgets.compact import compact
from allfives_tui.ui.widgets.footer import AppFooter
from allfives_tui.ui.widgets.too_small import TooSmall


class ConfirmScreen(Dialog[bool]):
    """Ask ``title``; dismisses with True for ``yes``, False for ``no`` (the caller's
    words, in the current language). ``title`` and ``note`` are shown as plain text.

    ``y`` answers yes, ``n`` and Esc no; Enter presses the focused button,
    which is ``no`` at first, so a stray Enter changes nothing.
    """

    BINDINGS = [
        Binding("y", "answer(True)", N_("Yes")),
        Binding("n,escape", "answer(False)", N_("No")),
    ]

    def __init__(self, title: str, note: str, *, yes: str, no: str) -> None:
        super().__init__()
        self.title_text = title
        self.note = note
        self.yes = yes
        self.no = no

    def compose(self) -> ComposeResult:
        """The question, what it means, and the two answers."""
        yield TooSmall()
        with Vertical(classes="dialog confirm"):
            # plain text: a name or a file name in them may hold "[", never read as markup
            yield Static(self.title_text, classes="dialog-title", markup=False)
            yield Static(self.note, classes="dialog-note", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yes = _("{answer} ({key})").format(answer=self.yes, key="y")
                no = _("{answer} ({key})").format(answer=self.no, key="n")
                yield compact(Button(yes, id="yes", variant="warning"))
                yield compact(Button(no, id="no", variant="primary"))
        yield AppFooter()  # this screen's keys, not the game's beneath

    def on_mount(self) -> None:
        """The safe answer has the focus."""
        self.query_one("#no", Button).focus()

    def action_answer(self, yes: bool) -> None:
        """Close with the answer."""
        self.dismiss(yes)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Each button closes with its answer."""
        event.stop()
        self.dismiss(event.button.id == "yes")
