"""What a host keeps in its data folder: the game's record and the seats' rejoin tokens.

One folder per port, ``host-PORT`` in the data folder: ``record.json`` (the
game record, saved after every change, atomically, by an
:class:`~allfives_tui.table.AutoSaver`), ``seats.json`` (who sits
where, each person's rejoin token, the level of the computers) and
``host.lock``, an OS lock held while the host runs, so two hosts never write
one game. A host restarted on the same port reopens the unfinished game from
these files and its players rejoin with their tokens. Clients keep nothing
here.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from allfives_tui.locale import _
from allfives_tui.net.protocol import TOKEN_PATTERN
from allfives_tui.store.folder import clean_temporaries, data_dir
from allfives_tui.store.lock import GameLock
from allfives_tui.store.saves import AutoSaver
from allfives_tui.table.names import NAME_MAX
from allfives_tui.table.problems import problem_text, validation_text
from allfives_tui.table.words import one_line
from engine.errors import RecordError
from engine.files import atomic_write, read_small_file
from engine.record import GameRecord, LoadedGame, load_game

RECORD = "record.json"
SEATS = "seats.json"
LOCK = "host.lock"
SEATS_MAX_BYTES = 16 * 1024


class SavedSeat(BaseModel):
    """One seat as the host keeps it: a person's name (a computer's seat keeps none: it has
    its place's default name, read by older hosts' files as such)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str | None = Field(default=None, max_length=40)
    computer: bool = False
    host: bool = False
    token: str | None = Field(default=None, pattern=TOKEN_PATTERN)


class SavedSeats(BaseModel):
    """``seats.json``: the seats of the hosted game and its id."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    game_id: str = Field(max_length=64)
    level: str = Field(max_length=20)
    seats: tuple[SavedSeat, ...] = Field(min_length=2, max_length=4)


class HostFilesError(ValueError):
    """The host's files cannot be used (one line)."""


class HostBusyError(HostFilesError):
    """Another host keeps its game in the folder (its lock is taken)."""


def host_folder(port: int) -> Path:
    """The folder a host on ``port`` keeps its game in."""
    return data_dir() / f"host-{port}"


class HostFiles:
    """The record, the seats and the lock of one hosted game."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.lock = GameLock(folder / LOCK)
        self.saver: AutoSaver | None = None

    def acquire(self) -> None:
        """Take the folder's lock; raises :class:`HostBusyError` when another host has it."""
        if not self.lock.acquire():
            if self.lock.other:
                words = _("another allfives (process {pid}) is hosting from {folder}: "
                          "use another --port")
            else:
                words = _("another allfives is hosting from {folder}: use another --port")
            raise HostBusyError(words.format(pid=self.lock.other, folder=self.folder))
        clean_temporaries(self.folder)
        self.saver = AutoSaver(self.folder / RECORD)

    def save_record(self, record: GameRecord) -> None:
        """Queue an atomic save of the record."""
        if self.saver is not None:
            self.saver.submit(record)

    def flush(self) -> None:
        """Wait until every queued save is on disk."""
        if self.saver is not None:
            self.saver.flush()

    def save_seats(self, seats: SavedSeats) -> None:
        """Write ``seats.json`` atomically."""
        atomic_write(self.folder / SEATS, seats.model_dump_json(indent=1))

    def unfinished(self) -> tuple[LoadedGame, SavedSeats] | None:
        """The unfinished game kept here, if any; raises :class:`HostFilesError` when the
        files are damaged or do not belong together."""
        record_path, seats_path = self.folder / RECORD, self.folder / SEATS
        if not record_path.exists() or not seats_path.exists():
            return None
        try:
            game = load_game(record_path)
        except RecordError as err:
            words = _("the hosted game in {path} is damaged: {problem}")
            problem = problem_text(err)
            raise HostFilesError(words.format(path=record_path, problem=problem)) from None
        if game.state.is_terminal:
            return None
        try:
            raw = read_small_file(seats_path, SEATS_MAX_BYTES)
            seats = SavedSeats.model_validate_json(raw)
        except (OSError, ValidationError) as err:
            why = validation_text(err.errors()[0]) if isinstance(err, ValidationError) else str(err)
            words = _("the seats of the hosted game ({path}) are damaged: {problem}")
            problem = one_line(why)[:100]
            raise HostFilesError(words.format(path=seats_path, problem=problem)) from None
        if seats.game_id != game.record.game_id or len(seats.seats) != len(game.record.seats):
            words = _("{seats} and {record} are not of one game")
            raise HostFilesError(words.format(seats=seats_path, record=record_path))
        return game, seats

    def close(self) -> None:
        """Let queued saves finish, then free the lock."""
        if self.saver is not None:
            self.saver.close()
            self.saver = None
        self.lock.release()


def clean_name(name: str | None) -> str | None:
    """A stored name cut to the protocol's length."""
    return None if name is None else name[:NAME_MAX]
