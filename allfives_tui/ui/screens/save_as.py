"""Ask where to save a copy of the game, and save it there atomically."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Static

from allfives_tui.table.storage import save_copy
from allfives_tui.ui.screens.confirm import ConfirmScreen
from allfives_tui.ui.screens.dialog import Dialog
from allfives_tui.ui.widgets.too_small import TooSmall
from engine.record import GameRecord


class SaveAsScreen(Dialog[Path | None]):
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
        """Save, after asking when a file is there already; or say why not."""
        event.stop()
        if not self.is_active:  # a second Enter, after the first closed the dialog
            return
        text = event.value
        target = Path(text.strip()).expanduser() if text.strip() else None
        if target is not None and (target.is_file() or target.is_symlink()):

            def answered(replace: bool | None) -> None:
                if replace:
                    self._save(text)
                else:
                    self._say("Not saved: choose another name, or ⏎ again to be asked again.")

            self.app.push_screen(
                ConfirmScreen(
                    f"Replace {target.name}?",
                    f"{target} is there already: saving replaces what it holds.",
                    yes="Replace it",
                    no="Keep it",
                ),
                answered,
            )
            return
        self._save(text)

    def _save(self, text: str) -> None:
        try:
            path = save_copy(self.record, text)
        except ValueError as err:
            self._say(f"Not saved: {err}")
            return
        self.dismiss(path)

    def _say(self, problem: str) -> None:
        note = self.query_one("#save-error", Static)
        note.update(problem)
        note.add_class("error")

    def action_cancel(self) -> None:
        """Close without saving."""
        self.dismiss(None)
