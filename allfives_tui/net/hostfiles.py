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
        """Take the folder's lock; raises :class:`HostFilesError` when another host has it."""
        if not self.lock.acquire():
            raise HostFilesError(
                f"{self.lock.holder()} is hosting from {self.folder}: use another --port"
            )
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
            raise HostFilesError(
                f"the hosted game in {record_path} is damaged: {problem_text(err)}"
            ) from None
        if game.state.is_terminal:
            return None
        try:
            raw = read_small_file(seats_path, SEATS_MAX_BYTES)
            seats = SavedSeats.model_validate_json(raw)
        except (OSError, ValidationError) as err:
            why = validation_text(err.errors()[0]) if isinstance(err, ValidationError) else str(err)
            raise HostFilesError(
                f"the seats of the hosted game ({seats_path}) are damaged: {one_line(why)[:100]}"
            ) from None
        if seats.game_id != game.record.game_id or len(seats.seats) != len(game.record.seats):
            raise HostFilesError(f"{seats_path} and {record_path} are not of one game")
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
