"""Recording games after play: on a background thread, never losing one.

When the database cannot be written (missing folder, locked, read-only, full
disk, newer schema) the record is kept as a file in ``unrecorded/`` in the data
folder, and :class:`RecordOutcome` says so in one line; the next successful
recording adds those files too. :class:`HistoryWriter` records on a background
thread, so play never waits.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from allfives_tui.locale import _
from allfives_tui.store.folder import data_dir
from allfives_tui.store.history import History, history_path, is_corrupt, reason
from allfives_tui.store.writer import BackgroundWriter
from engine.errors import RecordError
from engine.files import atomic_write
from engine.record import GameRecord, LoadedGame, parse_game

UNRECORDED = "unrecorded"
"""The folder (in the data folder) of games that could not be recorded yet."""


# -- recording after play ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RecordOutcome:
    """How a recording went: ``line`` is the one line to show when there is one."""

    recorded: bool
    line: str | None = None
    kept: Path | None = None
    """Where the game was kept as a file when the history could not take it."""


def unrecorded_folder(folder: Path | None = None) -> Path:
    """Where games wait that the history could not take."""
    return (folder or data_dir()) / UNRECORDED


def keep_unrecorded(record: GameRecord, folder: Path | None = None) -> Path:
    """Save ``record`` in the unrecorded folder (one file per game id); its path."""
    path = unrecorded_folder(folder) / f"{record.game_id}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    return atomic_write(path, record.to_json())


class Recorder:
    """Records games into one history, keeping the database open between games.

    Use it from one thread. Whatever happens to the database the game is kept
    (see :meth:`record`); after a failure, or when the file at the path is no
    longer the one open (removed or replaced), the database is opened afresh
    for the next game, and a damaged one is set aside and a new one started.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or history_path()
        self._history: History | None = None

    def record(self, game: GameRecord | LoadedGame, *, now: datetime | None = None
               ) -> RecordOutcome:
        """Record a game played here.

        On any failure the game is kept as a file (:func:`keep_unrecorded`) and
        the outcome's line says why and where; after a success, games kept that
        way earlier are added too (and their files removed).
        """
        record = game.record if isinstance(game, LoadedGame) else game
        lines: list[str] = []
        for attempt in (1, 2):
            try:
                if self._history is not None and not self._history.is_current():
                    self.close()
                    lines.append(self._gone())
                if self._history is None:
                    self._history = History(self.path)
                    if self._history.notice:
                        lines.append(self._history.notice)
                self._history.record(game, now=now)
                _add_unrecorded(self._history, self.path.parent, now)
                return RecordOutcome(True, " ".join(lines) or None)
            except Exception as err:  # whatever it is, the game is kept
                self.close()
                if attempt == 1 and isinstance(err, sqlite3.Error) and is_corrupt(err):
                    continue  # opened again, the damaged database is set aside
                return self._keep(record, err)
        raise AssertionError("unreachable")  # pragma: no cover

    def _gone(self) -> str:
        """The line for a database file that was removed or replaced since it was opened."""
        if os.path.lexists(self.path):
            return _(
                "The game history {path} was replaced while allfives ran: this game is "
                "recorded in the one there now."
            ).format(path=self.path)
        return _(
            "The game history {path} was removed while allfives ran: a new history starts "
            "with this game."
        ).format(path=self.path)

    def _keep(self, record: GameRecord, err: BaseException) -> RecordOutcome:
        why = reason(err)
        try:
            kept = keep_unrecorded(record, self.path.parent)
        except Exception as save:
            return _not_recorded(why, save)
        return _not_recorded(why, kept)

    def close(self) -> None:
        """Close the database (it is opened again for the next game)."""
        history, self._history = self._history, None
        if history is not None:
            with contextlib.suppress(sqlite3.Error):
                history.close()


def record_game(
    game: GameRecord | LoadedGame,
    *,
    path: Path | None = None,
    now: datetime | None = None,
) -> RecordOutcome:
    """Record one game (see :meth:`Recorder.record`), opening and closing the database."""
    recorder = Recorder(path)
    try:
        return recorder.record(game, now=now)
    finally:
        recorder.close()


def _add_unrecorded(history: History, folder: Path, now: datetime | None) -> None:
    waiting = unrecorded_folder(folder)
    if not waiting.is_dir():
        return
    try:
        files = sorted(waiting.glob("*.json"))
    except OSError:
        return
    for file in files:
        try:
            loaded = parse_game(file.read_bytes())
            history.record(loaded, now=now)
            file.unlink()
        except Exception:  # left waiting: history import says what is wrong with it
            continue


def _keep_bytes(data: bytes | None, err: Exception, folder: Path) -> RecordOutcome:
    """What is left when a game could not even be read to record it: its file's bytes
    (if there are any) kept in the unrecorded folder, and the line that says so."""
    why = reason(err)
    if data is None:
        return RecordOutcome(
            False, _("The game could not be added to the history ({why}).").format(why=why)
        )
    path = unrecorded_folder(folder) / f"saved-{hashlib.sha256(data).hexdigest()[:16]}.json"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_name(f".{path.name}.part")
        part.write_bytes(data)
        os.replace(part, path)
    except OSError as save:
        return _not_recorded(why, save)
    return _not_recorded(why, path)


def _not_recorded(why: str, kept: Path | BaseException) -> RecordOutcome:
    """The outcome of a game the history could not take: kept as a file, or not even that."""
    if isinstance(kept, BaseException):
        return RecordOutcome(
            False,
            _(
                "The game could not be added to the history ({why}) nor kept as a file "
                "({cause})."
            ).format(why=why, cause=reason(kept)),
        )
    return RecordOutcome(
        False,
        _(
            "The game could not be added to the history ({why}); it is kept in {path} "
            "({command} adds it)."
        ).format(why=why, path=kept, command="allfives history import"),
        kept,
    )


def game_in(data: bytes) -> LoadedGame | None:
    """The game in a saved record's bytes, or ``None`` when they hold none to record
    (damaged, or not a move made yet)."""
    try:
        game = parse_game(data)
    except RecordError:
        return None
    return game if game.record.action_count > 1 else None


class HistoryWriter:
    """Records games on one background thread, in order, so play never waits.

    ``report`` is called (on that thread) with the one line to show after a
    recording that has one; ``clock`` gives the time of recording (tests fix it).
    """

    def __init__(
        self,
        path: Path | None = None,
        *,
        report: Callable[[str], None] | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.path = path
        self.report = report
        self.clock = clock or (lambda: datetime.now(UTC))
        self._writer = BackgroundWriter("allfives-history")
        self._recorder = Recorder(path)
        """Used on the writer's one thread only."""

    def submit(self, game: GameRecord | LoadedGame) -> Future[RecordOutcome | None]:
        """Queue a game to record."""
        return self._writer.submit(lambda: self._run(lambda: game))

    def submit_bytes(self, data: bytes) -> Future[RecordOutcome | None]:
        """Queue the game in a record file's bytes (a ``current.json`` about to be
        replaced); nothing is recorded when they hold no game (see :func:`game_in`)."""
        return self._writer.submit(lambda: self._run(lambda: game_in(data), data))

    def _run(
        self, read: Callable[[], GameRecord | LoadedGame | None], data: bytes | None = None
    ) -> RecordOutcome | None:
        try:
            game = read()
            if game is None:
                return None
            outcome = self._recorder.record(game, now=self.clock())
        except Exception as err:  # never lost without a word
            outcome = _keep_bytes(data, err, self._recorder.path.parent)
        if outcome.line and self.report is not None:
            with contextlib.suppress(Exception):
                self.report(outcome.line)
        return outcome

    def flush(self, timeout: float = 10.0) -> None:
        """Wait for the queued recordings."""
        self._writer.flush(timeout)

    def close(self) -> None:
        """Finish the queued recordings, close the database and stop the thread."""
        self.flush()
        self._writer.close(self._recorder.close)
