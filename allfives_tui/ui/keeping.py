"""Keeping the games: the autosave of the game in progress, its lock, the history.

:class:`Keeping` holds what the app writes to the data folder off the UI thread:
the :class:`~allfives_tui.store.saves.AutoSaver` of ``current.json`` (while this
process holds the autosave's :class:`~allfives_tui.store.lock.GameLock`) and the
:class:`~allfives_tui.store.recorder.HistoryWriter` of games finished or given
up. :func:`save_a_copy` asks where a copy of a game goes.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from textual.app import App

from allfives_tui.locale import _
from allfives_tui.store.folder import clean_temporaries, current_path
from allfives_tui.store.lock import GameLock
from allfives_tui.store.recorder import HistoryWriter
from allfives_tui.store.saves import AutoSaver, set_aside_damaged_current
from allfives_tui.table.table import Table
from allfives_tui.ui.screens.save_as import SaveAsScreen
from engine.files import read_small_file
from engine.record import GameRecord


class Keeping:
    """The autosave and the history of one app.

    ``lock`` is the autosave's lock when the caller took it (one that another
    process holds makes this a separate game, not autosaved); ``report`` is
    called on the history's thread with what recording had to say.
    """

    def __init__(
        self, *, autosave: bool, lock: GameLock | None, report: Callable[[str], None]
    ) -> None:
        self.lock = lock
        self.separate = lock is not None and not lock.held
        """True when another process autosaves the game in progress: this game is not saved."""
        self.saver = AutoSaver() if autosave and not self.separate else None
        self.history = HistoryWriter(report=report) if autosave else None
        """Records finished and abandoned games in the history, off the UI thread."""
        self._recorded: str | None = None
        """The id of the finished game last sent to the history (sent once)."""
        self._error_shown = False

    def take_the_autosave(self, resuming: bool) -> list[str]:
        """Hold the autosave's lock and tidy the data folder, or become a separate game;
        what the person is to be told of it.

        The holder removes the temporaries a killed save left and, unless
        ``resuming`` a game, sets aside a damaged ``current.json`` (a notice
        names its new name); when another process holds the lock this game is
        separate and is not autosaved.
        """
        if self.saver is not None and self.lock is None:
            self.lock = GameLock()
            if not self.lock.acquire():
                self.separate = True
                self.saver.close()
                self.saver = None
        if self.separate and self.lock is not None:
            pid = self.lock.other
            text = (
                _(
                    "The game in progress is open in another allfives (process {pid}), which "
                    "saves it: this is a separate game and is not autosaved ({key} saves a "
                    "copy)."
                )
                if pid
                else _(
                    "The game in progress is open in another allfives, which saves it: this "
                    "is a separate game and is not autosaved ({key} saves a copy)."
                )
            )
            return [text.format(pid=pid, key="ctrl+s")]
        if self.saver is None:
            return []
        clean_temporaries()
        if not resuming:
            aside = set_aside_damaged_current()
            if aside is not None:
                return [aside]
        return []

    def autosave(self, record: GameRecord) -> str | None:
        """Queue an atomic save of the game after a change; the first time saving has
        failed, the error to show."""
        if self.saver is None:
            return None
        error = None
        if self.saver.error and not self._error_shown:
            self._error_shown = True
            error = _("The game is not being saved: {reason}").format(reason=self.saver.error)
        self.saver.submit(record)
        return error

    def flush(self) -> None:
        """Wait until the autosave is on disk (any thread)."""
        if self.saver is not None:
            self.saver.flush()

    def kept_on_exit(self, table: Table | None) -> Path | None:
        """The last save on disk: where ``table``'s game stays to continue later
        (``None`` when finished, not autosaved or not saved)."""
        if self.saver is None:
            return None
        self.saver.flush()
        if table is not None and not table.is_over and not self.saver.error:
            return self.saver.path
        return None

    def record_finished(self, record: GameRecord) -> None:
        """The finished game into the history (once, however often it is shown)."""
        if self.history is not None and self._recorded != record.game_id:
            self._recorded = record.game_id
            self.history.submit(record)

    def record_abandoned(self, table: Table | None) -> None:
        """A new game is starting: the unfinished game it replaces goes into the history.

        That is the game at ``table``, or, before any game in this run, the one
        in ``current.json`` (its bytes are read here, before the new game's
        autosave replaces them, and recorded on the history's thread).
        """
        if self.history is None:
            return
        if table is not None:
            record = table.record()
            if not table.is_over and record.action_count > 1:  # a move was made
                self.history.submit(record)
            return
        if self.saver is None:  # a separate game: current.json is another allfives'
            return
        try:
            data = read_small_file(current_path(), 4 * 1024 * 1024)
        except OSError:
            return
        self.history.submit_bytes(data)

    def where_kept(self, table: Table | None, set_up: tuple[Table, int] | None) -> str:
        """After a crash: where ``table``'s game is kept, and whether ``allfives
        --continue`` is worth advising (not when no move was made since ``set_up``,
        the table last set up and its action count then)."""
        moved = not (
            set_up is not None
            and set_up[0] is table
            and set_up[1] == len(set_up[0].state.actions)
        )
        if table is None:
            return _("no game was in progress")
        if self.saver is None:
            return _("the game was not being autosaved")
        if self.saver.error:
            return _("the game could not be saved ({reason})").format(reason=self.saver.error)
        path = self.saver.path
        if table.is_over:
            return _("the finished game is kept in {path}").format(path=path)
        if not moved:  # it crashed as the game was set up: --continue would again
            return _("the game is kept in {path}").format(path=path)
        return _("the game is kept in {path} ({command} resumes it)").format(
            path=path, command="allfives --continue"
        )

    def close(self) -> None:
        """Let the last save reach the disk and the history end, then let the lock go."""
        if self.saver is not None:
            self.saver.close()
        if self.history is not None:
            self.history.close()
        if self.lock is not None:
            self.lock.release()


def save_a_copy(app: App[None], record: GameRecord | None, *, served: bool) -> None:
    """Ask where to save a copy of ``record`` (served: the name of a browser download)."""
    if record is None:
        app.notify(_("There is no game to save yet."), severity="warning")
        return
    stamp = datetime.now().strftime("%Y%m%d-%H%M")
    if served:  # a file name for the browser's download, not a path

        def sent(path: Path | None) -> None:
            if path is not None:
                app.notify(
                    _("Downloading {name} (Open replay… lists it too)").format(name=path.name)
                )

        app.push_screen(SaveAsScreen(record, f"allfives-{stamp}.json", served=True), sent)
        return
    default = str(Path.cwd() / f"allfives-{stamp}.json")

    def done(path: Path | None) -> None:
        if path is not None:
            app.notify(_("Saved a copy to {path}").format(path=path))

    app.push_screen(SaveAsScreen(record, default), done)
