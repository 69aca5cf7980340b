"""Open replay…: ask for a game record and replay it in a :class:`ReplayScreen`.

A file that cannot be replayed shows why (the same one line as ``allfives replay``
prints); when the actions before a bad one are sound, a button replays up to the last
good one. The game app opens it on request (Open replay…), and
:class:`~allfives_tui.ui.screens.replay_app.ReplayApp` with a bad file's problem.
"""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from allfives_tui.locale import N_, _
from allfives_tui.locale.formats import number
from allfives_tui.store.saves import ReplayLoadError, read_replay
from allfives_tui.table.replay import Replay
from allfives_tui.ui.screens import REPLAY_CSS
from allfives_tui.ui.screens.replay import ReplayScreen
from allfives_tui.ui.widgets.footer import AppFooter
from engine.record import RecordStep


class OpenReplayScreen(ModalScreen[None]):
    """Ask for a record file and open it in a :class:`ReplayScreen`.

    A file that cannot be replayed shows its one-line problem; when the
    actions before a bad one are sound, a button replays up to the last good one.
    """

    CSS_PATH = REPLAY_CSS

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"), key_display="Esc")]

    def __init__(
        self,
        path: str | None = None,
        *,
        error: ReplayLoadError | None = None,
        reveal_all: bool = False,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        """Start with ``path`` in the input; ``error`` shows a problem already found;
        ``reveal_all`` opens an unfinished game with every hand face up."""
        super().__init__(name=name, id=id, classes=classes)
        self.initial_path = path or ""
        self.error = error
        self.reveal_all = reveal_all

    def compose(self) -> ComposeResult:
        """Title, path input, problem line and buttons."""
        with Vertical(id="open-replay"):
            problem = _("This game record has a problem")
            title = _("Open replay") if self.error is None else problem
            yield Static(title, id="open-replay-title")
            yield Input(
                self.initial_path, placeholder=_("path to a saved game (.json)"), id="open-path"
            )
            yield Static(self._hint(), id="open-hint")
            yield Static(id="open-problem")
            with Horizontal(id="open-buttons"):
                yield Button(_("Open"), id="open-go", variant="primary")
                yield Button(_("Replay the good part"), id="open-salvage", variant="warning")
                yield Button(_("Cancel"), id="open-cancel")
        yield AppFooter()  # this screen's keys, not those beneath

    @staticmethod
    def _hint() -> str:
        """Where the game app keeps the game in progress, if it has one."""
        from allfives_tui.store.folder import current_path
        from allfives_tui.store.saves import has_unfinished

        current = current_path()
        # a finished game stays in current.json, but it is no longer in progress
        if not has_unfinished():
            return ""
        return _("The game in progress is saved in {path}").format(path=current)

    def on_mount(self) -> None:
        """Show a problem handed over, else focus the path."""
        self._show_error(self.error)
        if self.error is not None and self.error.salvage is not None:
            self.query_one("#open-salvage", Button).focus()
        else:
            self.query_one(Input).focus()

    def _show_error(self, error: ReplayLoadError | None) -> None:
        self.error = error
        problem = self.query_one("#open-problem", Static)
        salvage = self.query_one("#open-salvage", Button)
        if error is None:
            problem.update("")
            problem.display = False
            salvage.display = False
            return
        path = self.query_one(Input).value.strip()
        if path:
            problem.update(Text(_("{path}: {problem}").format(path=path, problem=error.message)))
        else:
            problem.update(Text(error.message))
        problem.display = True
        salvage.display = error.salvage is not None
        if error.salvage is not None and error.salvage.steps:
            salvage.label = _salvage_label(error.salvage.steps[-1])

    @on(Input.Submitted, "#open-path")
    @on(Button.Pressed, "#open-go")
    def _open(self) -> None:
        path = self.query_one(Input).value.strip()
        if not path:
            self._show_error(ReplayLoadError(_("give the path of a saved game")))
            return
        try:
            replay = read_replay(_expand(path))
        except ReplayLoadError as err:
            self._show_error(err)
            return
        self.app.switch_screen(ReplayScreen(replay, source=path, reveal_all=self.reveal_all))

    @on(Button.Pressed, "#open-salvage")
    def _salvage(self) -> None:
        if self.error is None or self.error.salvage is None:
            return
        path = self.query_one(Input).value.strip()
        screen = ReplayScreen(
            Replay(self.error.salvage), source=path or None, reveal_all=self.reveal_all
        )
        self.app.switch_screen(screen)

    @on(Button.Pressed, "#open-cancel")
    def action_cancel(self) -> None:
        """Close without opening anything."""
        self.dismiss(None)


def _salvage_label(last: RecordStep) -> str:
    """The salvage button's words: up to the last sound step of the record."""
    if last.move == 0:
        return _("Replay up to the deal of hand {hand}").format(hand=number(last.hand))
    return _("Replay up to hand {hand}, move {move}").format(
        hand=number(last.hand), move=number(last.move)
    )


def _expand(path: str) -> str:
    """``~`` and ``~user`` expanded when they can be (else the path as typed)."""
    try:
        return str(Path(path).expanduser())
    except (RuntimeError, ValueError):  # no home folder to expand to
        return path
