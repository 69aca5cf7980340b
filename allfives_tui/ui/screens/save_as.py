"""Ask where to save a copy of the game, and save it there atomically.

Served (a browser session of ``allfives serve``), the prompt takes a file
name only: the copy is kept in the session's own folder (``saved/``, where
Open replay… finds it) and sent to the browser as a download
(:meth:`textual.app.App.deliver_text`); no server path can be typed.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Static

from allfives_tui.locale import N_, _, ngettext
from allfives_tui.locale.formats import number
from allfives_tui.store.folder import data_dir
from allfives_tui.store.saves import save_copy
from allfives_tui.ui.screens.confirm import ConfirmScreen
from allfives_tui.ui.screens.dialog import Dialog
from allfives_tui.ui.screens.open_served import prune
from allfives_tui.ui.widgets.compact import compact
from allfives_tui.ui.widgets.footer import AppFooter
from allfives_tui.ui.widgets.too_small import TooSmall
from engine.record import GameRecord

MAX_NAME = 80
"""The longest name a download may have."""
_NAME = re.compile(r"[A-Za-z0-9._-]+")
"""What a download's name may hold (it goes into an HTTP header as it is)."""


class SaveAsScreen(Dialog[Path | None]):
    """A path prompt; dismisses with the saved path, or ``None`` when cancelled."""

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"), key_display="Esc")]

    def __init__(self, record: GameRecord, default: str, *, served: bool = False) -> None:
        """``default`` fills the prompt; ``served`` asks for a file name to download
        (as it does in any served app, whoever opens the dialog)."""
        super().__init__()
        self.record = record
        self.default = default
        self.served = served

    def compose(self) -> ComposeResult:
        """Title, path input and the problem line."""
        if not self.served and getattr(self.app, "served", False):
            # opened over a served app by a screen that did not say (an export…):
            # still a file name only, never a path on the server
            self.served = True
            self.default = Path(self.default).name
        yield TooSmall()
        with Vertical(id="save-as", classes="dialog"):
            if self.served:
                title = _("Download a copy of this game")
            else:
                title = _("Save a copy of this game")
            yield Static(title, classes="dialog-title")
            yield compact(Input(self.default, id="save-path"))
            note = _("⏎ downloads, Esc cancels") if self.served else _("⏎ saves, Esc cancels")
            yield Static(note, id="save-error", classes="dialog-note")
        yield AppFooter()  # this screen's keys, not the game's beneath

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Save, after asking when a file is there already; or say why not."""
        event.stop()
        if not self.is_active:  # a second Enter, after the first closed the dialog
            return
        text = event.value
        if self.served:
            self._download(text)
            return
        target = Path(text.strip()).expanduser() if text.strip() else None
        if target is not None and (target.is_file() or target.is_symlink()):

            def answered(replace: bool | None) -> None:
                if replace:
                    self._save(text)
                else:
                    self._say(_("Not saved: choose another name, or ⏎ again to be asked again."))

            self.app.push_screen(
                ConfirmScreen(
                    _("Replace {file}?").format(file=target.name),
                    _("{path} is there already: saving replaces what it holds.").format(
                        path=target
                    ),
                    yes=_("Replace it"),
                    no=_("Keep it"),
                ),
                answered,
            )
            return
        self._save(text)

    def _save(self, text: str) -> None:
        try:
            path = save_copy(self.record, text)
        except ValueError as err:
            self._say(_("Not saved: {reason}").format(reason=err))
            return
        self.dismiss(path)

    def _download(self, text: str) -> None:
        """Keep the copy in the session's ``saved/`` folder and send it to the browser."""
        folder = data_dir()
        downloads = folder / "downloads"  # where a delivery goes outside a browser
        try:
            name = download_name(text)
            (folder / "saved").mkdir(parents=True, exist_ok=True)
            path = save_copy(self.record, str(folder / "saved" / name))
            prune(folder / "saved")
            saved = path.read_text(encoding="utf-8")
            if not self.app.is_web:
                downloads.mkdir(exist_ok=True)
        except (ValueError, OSError) as err:
            why = str(err) if isinstance(err, ValueError) else err.strerror or str(err)
            why = why.replace(str(folder), _("the session folder"))
            self._say(_("Not saved: {reason}").format(reason=why))
            return
        self.app.deliver_text(
            io.StringIO(saved),
            save_directory=downloads,
            save_filename=name,
            mime_type="application/json",
            encoding="utf-8",
        )
        self.dismiss(path)

    def _say(self, problem: str) -> None:
        note = self.query_one("#save-error", Static)
        note.update(problem)
        note.add_class("error")

    def action_cancel(self) -> None:
        """Close without saving."""
        self.dismiss(None)


def download_name(text: str) -> str:
    """The file name a served copy downloads as (``.json`` added when missing).

    ``ValueError`` for anything but a plain file name: no folder, no path.
    """
    name = text.strip()
    if not name:
        raise ValueError(_("give a file name, e.g. {example}").format(example="allfives-game.json"))
    if any(c in name for c in "/\\") or name in {".", ".."}:
        raise ValueError(_("give a file name only, without a folder"))
    if name.startswith("."):
        raise ValueError(_("the name cannot start with a dot"))
    if not _NAME.fullmatch(name):
        raise ValueError(_("use only letters a-z, digits, '-', '_' and '.' in the name"))
    if not name.lower().endswith(".json"):
        name += ".json"
    if len(name) > MAX_NAME:
        too_long = ngettext(
            "the name is too long (at most {count} character)",
            "the name is too long (at most {count} characters)",
            MAX_NAME,
        )
        raise ValueError(too_long.format(count=number(MAX_NAME)))
    return name
