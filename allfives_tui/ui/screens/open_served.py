"""Open replay… in a browser session of ``allfives serve``: no path, ever.

The server's files are none of a browser player's business, so instead of a
path prompt :class:`ServedOpenReplayScreen` offers

- the session's own games: its autosave, the copies it downloaded
  (``saved/``) and the files it opened before (``uploaded/``), all in the
  session's own data folder;
- a saved game's text, pasted (ctrl+v) or sent by the page's "Open a game
  file…" button, which reads a file in the browser and pastes it. The text is
  kept in ``uploaded/`` and read like any record file, with the same one-line
  problems and the same offer to replay the sound part of a damaged one.

Text over the size cap never reaches the app: the page (and the server, for
any other client) sends :data:`OVERSIZED_PASTE` and the size in its place,
and the dialog says the game is over the cap.
"""

from __future__ import annotations

import contextlib
import os
from datetime import datetime
from pathlib import Path

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option

from allfives_tui.locale import N_, _
from allfives_tui.store.folder import CURRENT, data_dir
from allfives_tui.store.saves import ReplayLoadError, has_unfinished, read_replay
from allfives_tui.table.replay import Replay
from allfives_tui.ui.screens.dialog import Dialog
from allfives_tui.ui.screens.replay import ReplayScreen
from allfives_tui.ui.widgets.footer import AppFooter
from engine.files import atomic_write
from engine.record import MAX_BYTES

SAVED = "saved"
"""The session's folder of downloaded copies (written by Save a copy…)."""
UPLOADED = "uploaded"
"""The session's folder of games opened from the browser."""


def open_file_button() -> str:
    """The name of the page's button that opens a game file (the page shows the same words)."""
    return _("Open a game file…")


def session_games() -> list[tuple[str, Path]]:
    """The session's games, as (label, file): its own game first, then the newest first."""
    folder = data_dir()
    games: list[tuple[str, Path]] = []
    current = folder / CURRENT
    if current.is_file():
        label = _("This session's game, in progress") if has_unfinished() else (
            _("This session's last game")
        )
        games.append((label, current))
    others: list[tuple[float, str, Path]] = []
    kinds = ((SAVED, _("{file}  (downloaded copy)")), (UPLOADED, _("{file}  (opened from a file)")))
    for sub, kind in kinds:
        with contextlib.suppress(OSError):
            for path in (folder / sub).glob("*.json"):
                if path.is_file():
                    others.append((path.stat().st_mtime, kind.format(file=path.name), path))
    others.sort(key=lambda item: item[0], reverse=True)
    games.extend((label, path) for _when, label, path in others)
    return games


OVERSIZED_PASTE = "allfives: oversized paste of "
"""What the page pastes instead of text over :data:`~engine.record.MAX_BYTES`
(then its size in bytes): the text itself is never sent."""


def oversized_paste(size: int) -> str:
    """The stand-in for a paste of ``size`` bytes, over the cap."""
    return f"{OVERSIZED_PASTE}{size} bytes"


def is_oversized_paste(text: str) -> bool:
    """True for the stand-in the page sends instead of a paste over the cap."""
    return text.strip().startswith(OVERSIZED_PASTE)


def over_the_cap() -> ReplayLoadError:
    """The one-line problem of a game's text over the size cap."""
    words = _("the file is over the size cap of {size} KiB")
    return ReplayLoadError(words.format(size=MAX_BYTES // 1024))


def salvage_label(error: ReplayLoadError) -> str | None:
    """The salvage button's words: where the sound beginning of a damaged game ends
    (``None`` when there is nothing to replay)."""
    if error.salvage is None or not error.salvage.steps:
        return None
    last = error.salvage.steps[-1]
    if last.move == 0:
        return _("Replay up to the deal of hand {hand}").format(hand=last.hand)
    return _("Replay up to hand {hand}, move {move}").format(hand=last.hand, move=last.move)


KEEP = 20
"""Files kept in each of a session's folders (``saved/``, ``uploaded/``): the newest."""


def prune(folder: Path, keep: int = KEEP) -> None:
    """Remove all but the newest ``keep`` game files in ``folder``, so that a session
    cannot fill the server's disk one upload at a time."""
    with contextlib.suppress(OSError):
        games = sorted(
            (p for p in folder.glob("*.json") if p.is_file()),
            key=lambda p: p.stat().st_mtime,
            reverse=True,
        )
        for old in games[keep:]:
            old.unlink(missing_ok=True)


def keep_upload(text: str) -> Path:
    """Keep pasted text as a new file in the session's ``uploaded/`` folder; its path."""
    folder = data_dir() / UPLOADED
    folder.mkdir(parents=True, exist_ok=True)
    base = f"game-{datetime.now().strftime('%Y%m%d-%H%M%S')}"
    path = folder / f"{base}.json"
    n = 1
    while os.path.lexists(path):
        n += 1
        path = folder / f"{base}-{n}.json"
    kept = atomic_write(path, text.replace("\r\n", "\n").replace("\r", "\n"))
    prune(folder)
    return kept


class ServedOpenReplayScreen(Dialog[None]):
    """Choose one of the session's games, or paste (upload) one, and replay it."""

    CSS_PATH = Path(__file__).with_name("open_served.tcss")

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"), key_display="Esc")]

    def __init__(self, pasted: str | None = None) -> None:
        """``pasted``: a game's text that came before the dialog did (it is opened at once)."""
        super().__init__()
        self.pasted = pasted
        self.games = session_games()
        self.error: ReplayLoadError | None = None
        self.source = ""

    def compose(self) -> ComposeResult:
        """Title, the session's games, how to bring one, problem line and buttons."""
        with Vertical(id="open-served"):
            yield Static(_("Open replay"), id="open-served-title")
            if self.games:
                yield Static(_("Your games in this session:"))
                yield OptionList(
                    *(Option(label, id=str(i)) for i, (label, _file) in enumerate(self.games)),
                    id="served-games",
                )
            else:
                yield Static(_("No game of this session is saved yet."), id="served-none")
            note = _(
                "To replay a game saved earlier, paste its text here (ctrl+v), "
                "or choose its file with “{button}” at the top of the page."
            )
            yield Static(note.format(button=open_file_button()), id="served-note", markup=False)
            yield Static(id="open-problem")
            with Horizontal(id="open-buttons"):
                yield Button(
                    _("Open"), id="open-go", variant="primary", disabled=not self.games
                )
                yield Button(_("Replay the good part"), id="open-salvage", variant="warning")
                yield Button(_("Cancel"), id="open-cancel")
        yield AppFooter()  # this screen's keys, not those beneath

    def on_mount(self) -> None:
        """Focus the list of games (or open the text that came with the dialog)."""
        self._show_error(None)
        if self.games:
            games = self.query_one(OptionList)
            games.highlighted = 0
            games.focus()
        else:
            self.query_one("#open-cancel", Button).focus()
        if self.pasted is not None:
            self.open_text(self.pasted)

    def _show_error(self, error: ReplayLoadError | None) -> None:
        self.error = error
        problem = self.query_one("#open-problem", Static)
        salvage = self.query_one("#open-salvage", Button)
        problem.display = error is not None
        salvage.display = error is not None and error.salvage is not None
        if error is None:
            problem.update("")
            return
        words = _("{source}: {problem}").format(source=self.source, problem=error.message)
        problem.update(Text(words if self.source else error.message))
        label = salvage_label(error)
        if label is not None:
            salvage.label = label
            salvage.focus()

    def _replay(self, replay: Replay, source: str) -> None:
        self.app.switch_screen(ReplayScreen(replay, source=source))

    @on(OptionList.OptionSelected, "#served-games")
    @on(Button.Pressed, "#open-go")
    def _open(self) -> None:
        """Replay the game chosen in the list."""
        if not self.games or not self.is_active:
            return
        index = self.query_one(OptionList).highlighted or 0
        path = self.games[index][1]
        self.source = path.name if path.parent != data_dir() else _("this session's game")
        try:
            replay = read_replay(path)
        except ReplayLoadError as err:
            self._show_error(err)
            return
        self._replay(replay, self.source)

    def on_paste(self, event: events.Paste) -> None:
        """A game's text, pasted or sent by the page's "Open a game file…"."""
        event.stop()
        self.open_text(event.text)

    def open_text(self, text: str) -> None:
        """Replay a game from its text (kept in the session's ``uploaded/``), or say why not."""
        self.source = _("the game you opened")
        if not text.strip():
            self._show_error(ReplayLoadError(_("the pasted text is empty")))
            return
        if is_oversized_paste(text) or len(text.encode("utf-8", "replace")) > MAX_BYTES:
            self._show_error(over_the_cap())
            return
        try:
            path = keep_upload(text)
        except OSError as err:
            words = _("could not keep it: {reason}").format(reason=err.strerror or err)
            self._show_error(ReplayLoadError(words))
            return
        try:
            replay = read_replay(path)
        except ReplayLoadError as err:
            path.unlink(missing_ok=True)  # only good games are listed later
            self._show_error(err)
            return
        self._replay(replay, self.source)

    @on(Button.Pressed, "#open-salvage")
    def _salvage(self) -> None:
        if self.error is None or self.error.salvage is None:
            return
        self._replay(Replay(self.error.salvage), self.source or _("the game"))

    @on(Button.Pressed, "#open-cancel")
    def action_cancel(self) -> None:
        """Close without opening anything."""
        self.dismiss(None)
