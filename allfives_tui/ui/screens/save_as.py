"""Ask where to save a copy of the game, and save it there atomically."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from allfives_tui.table.storage import save_copy
from allfives_tui.ui.widgets.too_small import TooSmall
from engine.record import GameRecord


class SaveAsScreen(ModalScreen[Path | None]):
    """A path prompt; dismisses with the saved path, or ``None`` when cancelled."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, record: GameRecord, default: str) -> None:
        super().__init__()
        self.record = record
        self.default = default

    def compose(self) -> ComposeResult:
        """Title, path input and the problem line."""
        yield TooSmall()
        with Vertical(id="save-as", classes="dialog"):
            yield Static("Save a copy of this game", classes="dialog-title")
            yield Input(self.default, id="save-path", compact=True)
            yield Static("⏎ saves, Esc cancels", id="save-error", classes="dialog-note")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Save, or say why not."""
        event.stop()
        try:
            path = save_copy(self.record, event.value)
        except ValueError as err:
            self.query_one("#save-error", Static).update(f"Not saved: {err}")
            self.query_one("#save-error").add_class("error")
            return
        self.dismiss(path)

    def action_cancel(self) -> None:
        """Close without saving."""
        self.dismiss(None)
