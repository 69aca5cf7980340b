"""The game in progress and record files: autosave, resume, set aside, copies, replays.

``current.json`` in the data folder is the game in progress, as an engine game
record, saved after every move by :class:`AutoSaver` (atomically, on a
background thread) by the one process that holds the
:class:`~allfives_tui.store.lock.GameLock`. A damaged ``current.json`` found
at start is set aside under a new name (:func:`set_aside_damaged_current`).
"""

from __future__ import annotations

import os
from pathlib import Path

from allfives_tui.locale import _
from allfives_tui.store.folder import current_path, set_aside
from allfives_tui.store.writer import BackgroundWriter
from allfives_tui.table.problems import NO_HANDS, problem_text
from allfives_tui.table.replay import Replay
from engine.errors import RecordError
from engine.record import GameRecord, LoadedGame, load_game, save


def _load_resumable(path: Path) -> LoadedGame:
    """The game at ``path``, loaded and replayed once, if a game can be resumed from it.

    Raises :class:`~engine.errors.RecordError` for a file that cannot be read
    (a symbolic link in a loop or to nothing included) and for a record that
    reads but holds no hands (nothing to resume or replay).
    """
    game = load_game(path)
    if not game.steps:
        raise RecordError(
            "the record holds no hands to resume", code=NO_HANDS, details={"to": "resume"}
        )
    return game


def load_current() -> LoadedGame | None:
    """The saved game in progress (loaded and replayed once), or ``None`` if there
    is none or it is finished.

    Raises :class:`~engine.errors.RecordError` when there is a ``current.json``
    (even a symbolic link that leads nowhere) that cannot be resumed.
    """
    path = current_path()
    if not os.path.lexists(path):
        return None
    game = _load_resumable(path)
    return None if game.state.is_terminal else game


def has_unfinished() -> bool:
    """True when there is a game in progress to continue."""
    try:
        return load_current() is not None
    except RecordError:
        return False


def set_aside_damaged_current() -> str | None:
    """Move a ``current.json`` that cannot be read out of the way; a notice saying so.

    ``None`` when there is no such file or it reads well. A damaged file (or a
    pipe, a device, a symbolic link in a loop, a record without hands: what
    cannot be resumed) is renamed ``current.damaged-YYYYmmdd-HHMMSS.json`` in the
    same folder, so nothing is lost and a new game can be saved; the notice
    names the problem and the new name. Only the process that holds the
    :class:`GameLock` should call this.
    """
    path = current_path()
    if not os.path.lexists(path):
        return None
    try:
        _load_resumable(path)
    except RecordError as err:
        problem = problem_text(err)
        try:
            aside = move_current_aside()
        except OSError as move:
            return _(
                "The saved game {path} cannot be read ({problem}) and could not be set "
                "aside: {why}."
            ).format(path=path, problem=problem, why=move.strerror or move)
        return _("The saved game could not be read ({problem}): it is set aside as {path}.").format(
            problem=problem, path=aside
        )
    return None


def move_current_aside() -> Path:
    """Rename ``current.json`` (whatever it is) ``current.damaged-YYYYmmdd-HHMMSS.json``
    in the same folder (``-2``, ``-3``… when taken); the new path.

    Raises :class:`OSError` when it cannot be renamed. Only the process that
    holds the :class:`GameLock` should call this.
    """
    return set_aside(current_path())


class ReplayLoadError(RecordError):
    """A record file that cannot be replayed as a whole (a :class:`RecordError`).

    ``message`` is one line naming the problem (without the file's name), in the
    player's language;
    ``salvage`` is the game cut to its sound actions when the file is well formed
    up to an illegal action (``good_actions`` of them), else ``None``.
    """

    def __init__(
        self, message: str, *, salvage: LoadedGame | None = None, good_actions: int = 0
    ) -> None:
        super().__init__(message, good_actions=good_actions)
        self.message = message
        self.salvage = salvage

    @property
    def good_part(self) -> str | None:
        """Where the sound beginning ends, as a player counts moves.

        ``"hand 1, move 4"``, or ``"the deal of hand 2"`` when the first move after
        a deal is the bad one; ``None`` when there is nothing to salvage.
        """
        if self.salvage is None or not self.salvage.steps:
            return None
        last = self.salvage.steps[-1]
        if last.move == 0:
            return _("the deal of hand {hand}").format(hand=last.hand)
        return _("hand {hand}, move {move}").format(hand=last.hand, move=last.move)


def read_replay(path: str | os.PathLike[str]) -> Replay:
    """Read, validate and replay a record file once, keeping every frame.

    Never writes to the file. Raises :class:`ReplayLoadError` (a one-line
    message, and the sound beginning of a record that stops replaying).
    """
    try:
        return Replay(load_game(path))
    except RecordError as err:
        partial = err.partial
        good = err.good_actions if partial is not None else 0
        raise ReplayLoadError(problem_text(err), salvage=partial, good_actions=good) from None


def save_copy(record: GameRecord, text: str) -> Path:
    """Save ``record`` at the path ``text`` names; ``ValueError`` with a clear message."""
    text = text.strip()
    if not text:
        raise ValueError(
            _("give a file name, e.g. {example}").format(example="~/allfives-game.json")
        )
    path = Path(text).expanduser()
    if path.is_dir():
        raise ValueError(
            _("{path} is a folder: add a file name, e.g. {example}").format(
                path=path, example=path / "game.json"
            )
        )
    if not path.parent.exists():
        raise ValueError(_("there is no folder {folder}").format(folder=path.parent))
    try:
        return save(record, path)
    except PermissionError:
        raise ValueError(_("cannot write {path}: permission denied").format(path=path)) from None
    except OSError as err:
        raise ValueError(
            _("cannot write {path}: {why}").format(path=path, why=err.strerror or err)
        ) from None


class AutoSaver:
    """Saves records in order on one background thread, so play never waits on the disk.

    ``submit(record)`` queues a save; :meth:`flush` waits for every queued save.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or current_path()
        self._writer = BackgroundWriter("allfives-autosave", on_error=self._failed)
        self.error: str | None = None

    def submit(self, record: GameRecord) -> None:
        """Queue an atomic save of ``record``."""
        self._writer.submit(lambda: save(record, self.path))

    def _failed(self, err: BaseException) -> None:
        if isinstance(err, OSError):
            self.error = _("could not autosave to {path}: {why}").format(
                path=self.path, why=err.strerror or err
            )

    @property
    def pending(self) -> bool:
        """True while a queued save has not reached the disk yet."""
        return self._writer.pending

    def flush(self, timeout: float = 5.0) -> None:
        """Wait for the queued saves to reach the disk."""
        self._writer.flush(timeout)

    def close(self) -> None:
        """Finish queued saves and stop the thread."""
        self.flush()
        self._writer.close()
